"""Files a shell call's snapshot did not see that held their content before any agent's shell
call: a person's long-ignored file an agent tracks (``git add -f local/settings.py``, or a
line deleted from ``.gitignore``) is not the writer's (SPEC §3 "Attribution follows
content"; docs/agents/claude-code.md, "What a Bash command writes").

Room ``services``. ``git status`` leaves ignored files out, so the snapshot holds none: such
a file, tracked or unignored by the call, shows as new, measured from nothing, and was the
writer's whole. Its inode tells whether it changed: a file's change time (``ctime``) is set
by the kernel on every write, rename, link or ``chmod`` and no program can set it back, so
a file whose ``ctime`` and ``mtime`` are both before any agent shell call could have
written it holds what it held then. The bound is the earlier of the call's own snapshot
file and :data:`FIRST_FILE`, a file made beside the snapshots when the first shell call of
any runtime was snapshot in the repository (its ``ctime``), less :data:`MARGIN_NS` (file
systems whose times are coarse). So a file an agent made under an ignored path in this call
or an earlier one, and then tracks, stays the writer's (fail closed), as does a person's
ignored file changed since agents' shell calls began here. No git process: ``lstat`` only.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

#: The file, beside the snapshots, whose ``ctime`` is when the repository's first agent
#: shell call was snapshot (made once, never rewritten).
FIRST_FILE = "first-call"
#: Nanoseconds taken off the bound, for file systems whose times are coarse (FAT: 2 s).
MARGIN_NS = 2_000_000_000


def mark_first(where: str) -> None:
    """Make :data:`FIRST_FILE` in the snapshot directory ``where`` when it is absent (a
    file that cannot be made is left out: :func:`bound` then exempts nothing)."""
    with contextlib.suppress(OSError):
        os.close(os.open(os.path.join(where, FIRST_FILE), os.O_CREAT | os.O_EXCL | os.O_WRONLY))


def bound(where: str, snapshot: str) -> int | None:
    """The time (ns) before which no agent shell call recorded in the repository wrote: the
    earlier ``ctime`` of :data:`FIRST_FILE` in ``where`` and of the call's ``snapshot`` file
    (read before it is spent), less :data:`MARGIN_NS`; None when either cannot be read."""
    try:
        first = os.lstat(os.path.join(where, FIRST_FILE)).st_ctime_ns
        taken = os.lstat(snapshot).st_ctime_ns
    except OSError:
        return None
    return min(first, taken) - MARGIN_NS


def untouched(root: str, paths: Iterable[str], before_ns: int | None) -> set[str]:
    """The root-relative ``paths`` of the work tree ``root`` whose ``lstat`` ``ctime`` and
    ``mtime`` are both before ``before_ns`` (:func:`bound`; None: none of them)."""
    if before_ns is None:
        return set()
    out = set()
    for p in paths:
        with contextlib.suppress(OSError):
            st = os.lstat(os.path.join(root, p))
            if st.st_ctime_ns < before_ns and st.st_mtime_ns < before_ns:
                out.add(p)
    return out
