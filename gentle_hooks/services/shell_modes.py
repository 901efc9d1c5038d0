"""The paths whose mode alone a shell call changed: ``chmod +x run.sh`` keeps the file's
blob, yet the flip makes it runnable, so it is the writer's change of that path (SPEC §3
"Attribution follows content": what a tree holds at a path is its blob and its mode; §4:
an exec-bit flip makes a change high risk; :mod:`.agent_shell` compares).

Room ``services``. Each is recorded as a write whose blob is the one it started from
(:func:`gentle_hooks.policy.attribution.carries_row` row A8: a change of that path that
keeps that blob, so changes only its mode, carries it).
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.services.shell_files import Kept, mode_of, modes


def flipped(
    repo: Repository, top: str, kept: Kept, head: str | None, same: Sequence[str]
) -> list[str]:
    """The paths of ``same`` (each holding the blob it held before the call) of the work
    tree ``top`` whose mode (:func:`.shell_files.modes`) differs from the one it had
    then: the snapshot's (``kept``: a hashed path's mode, a listed path's ``lstat``), else,
    for a path unchanged before the call, its mode in ``head`` (one ``ls-tree``, only
    when there is such a path). A path with no mode known from before is left out.

    Raises:
        GitError: git failed.
    """
    now = modes(top, same)
    before = {p: kept.modes[p] for p in now if p in kept.modes}
    before |= {p: mode_of(kept.stats[p][-1]) for p in now if kept.stats.get(p)}
    clean = [p for p in now if p not in before and p not in kept.blobs]
    if clean and head:
        before |= repo.modes_in(head, clean)
    return sorted(p for p, m in now.items() if p in before and before[p] != m)
