"""One hook invocation as git (or the pre-commit framework) made it (SPEC §7 "Hooks").

Room ``hooks``. Standard library only: the pass path builds one for every commit.
"""

from __future__ import annotations

import time

from gentle_hooks.values.bound import lowered_bound

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

#: The most bytes a hook reads from git's standard input: 10,000 ref lines of ~400 bytes
#: (git sends one short line per ref); more is refused in one line (exit 2).
STDIN_LIMIT = 4 * 1024 * 1024


#: How long a hook with unbounded work (post-rewrite's pairs, pre-receive's and pre-push's
#: refs and commits) works before it stops with one line (exit 2). Counted from the hook's
#: start: what follows the stop (notes of what was recorded, the line) takes a few seconds,
#: so the whole hook ends well within a minute, the line past which a hook reads as hung.
#: ``GENTLE_HOOKS_HOOK_SECONDS`` can only lower it (a test's knob: input that size takes
#: git itself far longer to produce).
HOOK_SECONDS = 40.0


def hook_seconds(env: Mapping[str, str]) -> float:
    """:data:`HOOK_SECONDS`, or ``GENTLE_HOOKS_HOOK_SECONDS`` when it is a smaller
    non-negative number (anything else is ignored: the bound never grows)."""
    return lowered_bound(env, "GENTLE_HOOKS_HOOK_SECONDS", HOOK_SECONDS)


def time_check(hook: str, updates: int, env: Mapping[str, str]) -> Callable[[], None]:
    """A check for a push hook judging ``updates`` ref updates: from this call on, once
    :func:`hook_seconds` have passed, it raises.

    Raises (the check):
        UsageError: ``<hook>: could not judge N ref update(s) within Ss; push refused``
            (the hook fails closed).
    """
    limit = hook_seconds(env)
    deadline = time.monotonic() + limit

    def in_time() -> None:
        if time.monotonic() > deadline:
            from gentle_hooks.errors import UsageError

            raise UsageError(
                f"{hook}: could not judge {updates} ref update(s) within {limit:g}s; "
                "push refused: push fewer refs at once"
            )

    return in_time


class HookCall:
    """One hook invocation.

    Attributes:
        name: the hook type (``pre-commit`` ...); args: git's arguments to the hook;
        stdin: git's standard input (bytes; empty for hooks that get none); warn: report
        blocks without failing; script: the installed script's path (for chaining), or None.
    """

    __slots__ = ("args", "name", "script", "stdin", "warn")

    def __init__(
        self, name: str, args: tuple[str, ...], stdin: bytes, warn: bool, script: str | None
    ) -> None:
        self.name, self.args, self.stdin, self.warn, self.script = name, args, stdin, warn, script


def read_message(path: str) -> str:
    """The commit message file git passes to commit-msg and prepare-commit-msg, as text
    (a byte that is not UTF-8 kept as ``surrogateescape`` does, so an echo of it shows the
    byte, ``\\xHH``): read only when it is a regular file, up to the size cap.

    Raises:
        InputFileError: missing, unreadable, a FIFO or a device (never read, so never a
            hang), or larger than the cap; the message names ``path``.
    """
    from gentle_hooks.bounded import read_regular

    return read_regular(path, "cannot read the commit message").decode("utf-8", "surrogateescape")
