"""The brief files blocks name under the git dir, pruned so they do not accumulate (SPEC §9;
seed 001 "Workflow" 1, the brief a verifier receives).

Room ``services``. A block names ``<git dir>/gentle-hooks/brief-<12 hex>.json`` for its
candidate (:func:`~gentle_hooks.services.assess.brief_path`): one file per candidate the
writer was asked to verify, so every amended or re-staged change leaves one behind.
:func:`prune_briefs` removes the old ones at ``verify prepare``: never the file named for
the candidate being verified, never the brief given to the command, never one written in
the last :data:`KEEP_SECONDS` (another block of this worktree may name it: a commit not yet
pushed), and at most all but the newest :data:`KEEP_NEWEST`. Only files named exactly as a
block names them are touched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

#: The file names a block gives (``BRIEF_FILE`` of :mod:`~gentle_hooks.services.assess`).
_NAME = re.compile(r"brief-[0-9a-f]{12}\.json")
#: How many of the newest brief files are always kept.
KEEP_NEWEST = 16
#: A brief file younger than this (seconds) is always kept: a day.
KEEP_SECONDS = 24 * 60 * 60


def prune_briefs(folder: str, keep: Iterable[str], now: float) -> tuple[str, ...]:
    """Remove the brief files of ``folder`` (``<git dir>/gentle-hooks``) no block is likely
    to name any more: those beyond the :data:`KEEP_NEWEST` newest, older than
    :data:`KEEP_SECONDS` at ``now`` (seconds since the epoch), and not in ``keep`` (paths:
    the current candidate's brief file, the brief given). Returns the paths removed, in
    name order; a file that cannot be read or removed is left alone (this is tidying: it
    never fails the command)."""
    kept = {os.path.realpath(p) for p in keep}
    try:
        names = [n for n in os.listdir(folder) if _NAME.fullmatch(n)]
    except OSError:
        return ()
    dated: list[tuple[float, str]] = []
    for name in names:
        path = os.path.join(folder, name)
        try:
            dated.append((os.lstat(path).st_mtime, path))
        except OSError:
            continue
    dated.sort(reverse=True)
    removed: list[str] = []
    for mtime, path in dated[KEEP_NEWEST:]:
        if now - mtime < KEEP_SECONDS or os.path.realpath(path) in kept:
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        removed.append(path)
    return tuple(sorted(removed))
