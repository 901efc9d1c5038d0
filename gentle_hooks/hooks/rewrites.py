"""The ``(old, new)`` commit pairs of a rewrite, for post-rewrite (SPEC §3 "Attribution
follows content": a rewritten commit's record follows it): read from git's stdin lines, or,
under the pre-commit framework (which hides stdin), from git's own state; and the pairs a
stopped post-rewrite did not reach, kept for the command that records them.

Room ``hooks`` (standard library and ``git``/``ledger`` locations only).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.errors import UsageError
from gentle_hooks.hooks.call import HookCall

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.git.repository import Repository


#: Where git lists a rebase's ``<old> <new>`` pairs while it runs post-rewrite: the
#: sequencer's (merge backend) and ``am``'s (apply backend) state files.
REWRITTEN_LISTS = ("rebase-merge/rewritten-list", "rebase-apply/rewritten")


def _pairs(text: str) -> list[tuple[str, str]]:
    """The ``(old, new)`` pairs of ``text``'s lines, in order, each distinct pair once (git
    never repeats one; a wrapper that does gets each recorded once)."""
    pairs: dict[tuple[str, str], None] = {}
    for line in text.split("\n"):
        parts = line.split()
        if len(parts) >= 2:
            pairs[(parts[0], parts[1])] = None
    return list(pairs)


def keep_unrecorded(
    common_dir: str, command: str, rest: list[tuple[str, str]], limit: float
) -> UsageError:
    """Write the pairs post-rewrite did not reach to a new private file of the state
    directory and return the one-line error (exit 2) naming the limit and the command
    that records them; git ignores post-rewrite's exit, so the line is what tells."""
    import shlex

    from gentle_hooks.bounded import new_private_file
    from gentle_hooks.ledger.location import ledger_path

    directory = os.path.dirname(ledger_path(common_dir))
    fd, where = new_private_file(directory, "post-rewrite-rest-")
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.writelines(f"{old} {new}\n" for old, new in rest)
    return UsageError(
        f"hook post-rewrite: stopped after {limit:g}s with {len(rest)} rewritten commit(s) "
        f"not recorded (kept in {where}); run: gentle-hook hook post-rewrite "
        f"{shlex.quote(command or 'rebase')} < {shlex.quote(where)}"
    )


def rewrite_pairs(
    call: HookCall, repo: Repository, env: Mapping[str, str]
) -> list[tuple[str, str]]:
    """The ``(old, new)`` commit pairs of a rewrite: git's stdin lines, or, where the pre-commit
    framework hid them (it passes the command only, as ``PRE_COMMIT_REWRITE_COMMAND``), the
    same list from git's own state: the reflog for an amend, the rebase's rewritten list
    (still in the worktree's git dir while post-rewrite runs) for a rebase."""
    pairs = _pairs(call.stdin.decode("utf-8", "replace"))
    if pairs:
        return pairs
    command = call.args[0] if call.args else env.get("PRE_COMMIT_REWRITE_COMMAND", "")
    if command == "amend":
        old = repo.peel_commit("HEAD@{1}")
        new = repo.head()
        return [(old, new)] if old and new and old != new else []
    if command == "rebase":
        for name in REWRITTEN_LISTS:
            try:
                with open(repo.git_path(name), encoding="ascii", errors="replace") as fh:
                    return _pairs(fh.read())
            except FileNotFoundError:
                continue
    return []
