"""What a push sends: git's pre-push stdin lines and the pre-commit framework's variables.

Room ``hooks``; the standard library and :class:`~gentle_hooks.hooks.call.HookCall` only.
``<local ref> SP <local oid> SP <remote ref> SP <remote oid> LF`` per ref (githooks(5));
a deletion has an all-zero local id, a new remote ref an all-zero remote id; ids are 40
(SHA-1) or 64 (SHA-256) hex digits. Under the pre-commit framework git's stdin is hidden
and only the first ref arrives as
``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` (absent when the framework pushes a whole
history, e.g. a new branch reaching a root commit): absence never means "nothing to check".
"""

from __future__ import annotations

from gentle_hooks.errors import UsageError, quoted
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.values.frozen import frozen
from gentle_hooks.values.oid import is_object_id

TYPE_CHECKING = False  # the push hook parses its input before any heavy import
if TYPE_CHECKING:
    from collections.abc import Mapping


def is_zero(oid: str) -> bool:
    """True for git's all-zero id (either length)."""
    return bool(oid) and set(oid) == {"0"}


@frozen
class PushUpdate:
    """One ref update of a push.

    Attributes:
        local_ref: the local ref (``refs/heads/x``, ``refs/tags/v1``, ``HEAD``, a raw id or
            ``(delete)``); local_oid: what it points at (all zeros for a deletion).
        remote_ref: the destination ref; remote_oid: what the remote has now (all zeros when
            the remote ref does not exist yet), or None when the range is unknown and the
            commits must be found as those on no remote-tracking ref.
        from_ref: an explicit lower bound (pre-commit's ``PRE_COMMIT_FROM_REF``), else None.
    """

    local_ref: str
    local_oid: str
    remote_ref: str
    remote_oid: str | None
    from_ref: str | None = None

    @property
    def is_deletion(self) -> bool:
        """True when the push deletes ``remote_ref``."""
        return is_zero(self.local_oid)

    @property
    def is_new(self) -> bool:
        """True when the remote does not have ``remote_ref`` yet (or it is unknown)."""
        return self.remote_oid is None or is_zero(self.remote_oid)


#: The most ref lines one push may send (git sends one per ref); beyond it, exit 2.
MAX_REF_LINES = 10_000


def ref_lines(stdin: str, hook: str) -> list[tuple[int, str]]:
    """The non-blank lines of a push hook's standard input, numbered, each distinct line
    once (git never repeats one; a wrapper that does gets each judged once).

    Raises:
        UsageError: more than :data:`MAX_REF_LINES` distinct lines.
    """
    seen: dict[str, int] = {}
    # git ends each ref line with \n only; a ref name may hold U+2028 or U+0085
    for number, line in enumerate(stdin.split("\n"), 1):
        if line.strip() and line not in seen:
            seen[line] = number
            if len(seen) > MAX_REF_LINES:
                raise UsageError(
                    f"{hook} input has more than {MAX_REF_LINES} ref lines; push fewer refs at once"
                )
    return [(number, line) for line, number in seen.items()]


def parse_pre_push(stdin: str) -> list[PushUpdate]:
    """Parse git's pre-push stdin into updates, in order; a repeated line counts once.

    Raises:
        UsageError: a line without four fields or with ids that are not hex object ids
            (one line naming the bad input line), or more than :data:`MAX_REF_LINES` lines.
    """
    updates = []
    for number, line in ref_lines(stdin, "pre-push"):
        parts = line.rsplit(" ", 3)
        if len(parts) != 4:
            raise UsageError(
                f"pre-push input line {number} is not '<local ref> <local oid> "
                f"<remote ref> <remote oid>': {line[:120]!r}"
            )
        local_ref, local_oid, remote_ref, remote_oid = parts
        for oid in (local_oid, remote_oid):
            if not is_object_id(oid):
                raise UsageError(
                    f"pre-push input line {number}: {quoted(oid[:80])} is not an object id"
                )
        if len(local_oid) != len(remote_oid):
            raise UsageError(f"pre-push input line {number}: object ids of different lengths")
        updates.append(PushUpdate(local_ref, local_oid, remote_ref, remote_oid))
    return updates


def from_pre_commit_env(env: Mapping[str, str]) -> PushUpdate | None:
    """The update the pre-commit framework describes in its variables, or None when we
    are not running under the framework (``PRE_COMMIT`` unset).

    With ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` the range is exactly that. Without
    them (the framework pushes a history down to a root commit) the update is the local
    branch (``PRE_COMMIT_LOCAL_BRANCH``, else ``HEAD``) with an unknown remote id: its
    commits are those on no remote-tracking ref of the remote (``PRE_COMMIT_REMOTE_NAME``,
    else of any remote).
    """
    if env.get("PRE_COMMIT") != "1":
        return None
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    local = env.get("PRE_COMMIT_LOCAL_BRANCH") or "HEAD"
    remote_ref = env.get("PRE_COMMIT_REMOTE_BRANCH") or local
    if from_ref and to_ref:
        return PushUpdate(local, to_ref, remote_ref, None, from_ref=from_ref)
    return PushUpdate(local, local, remote_ref, None)


def push_updates(call: HookCall, env: Mapping[str, str]) -> list[PushUpdate]:
    """The ref updates of this push: git's stdin lines, or the pre-commit framework's
    variables (which hide stdin and describe one ref; absent means "compute it").

    Raises:
        UsageError: a malformed stdin line.
    """
    # git's own stdin wins: a PRE_COMMIT=1 in the environment of a native hook must not
    # replace the refs git is really pushing (the framework leaves stdin empty).
    lines = parse_pre_push(call.stdin.decode("utf-8", "surrogateescape"))
    if lines:
        return lines
    framework = from_pre_commit_env(env)
    return [framework] if framework is not None else []
