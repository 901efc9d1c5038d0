"""What a check changed in a verify run's clean room (SPEC §9; seed 001 "Scope": "never
repairs the artifact it judges").

Room ``services``. :func:`room_changes` compares the room after a check's run with what it
held before (:func:`~gentle_hooks.services.cleanroom.room_touched`), the candidate's files
and the base tree's with their trees (git, hashed from the files), and removes the reports
a check declares (:func:`~gentle_hooks.policy.outputs.declared_outputs`) so the next run
starts from the tree. :mod:`gentle_hooks.services.room_run` ends a run at the first check
that changed anything.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from gentle_hooks.policy.outputs import is_output
from gentle_hooks.services.cleanroom import ASIDE, BASE, TREE, Room, RoomStamp, room_touched
from gentle_hooks.services.record import Bound
from gentle_hooks.services.room_dirs import require_real_dirs


def room_changes(
    bound: Bound, room: Room, before: RoomStamp, with_base: bool, outputs: tuple[str, ...]
) -> tuple[str, ...]:
    """What changed in ``room`` since ``before``: entries touched, the candidate's files
    edited or added to, the base tree's too (as ``../base/...``). Files added at the
    check's ``outputs`` (:func:`~gentle_hooks.policy.outputs.declared_outputs`) are its
    reports, not changes: they are removed here, so the next run starts from the tree."""
    cand = bound.candidate
    # a check may have put a link in tree/'s place: git must not clean through it
    require_real_dirs(room.path, f"{ASIDE}/{BASE}", must=(TREE, f"{TREE}/.git"))
    changed = set(_held_touched(bound, room_touched(room, before)))
    changed.update(bound.repo.room_changes(room.tree, cand.tree))
    changed.update(
        _unless_outputs(room.tree, bound.repo.room_additions(room.tree, cand.tree), outputs)
    )
    if with_base:
        base_changed = bound.repo.room_changes(room.base, cand.base.tree)
        added = bound.repo.room_additions(room.base, cand.base.tree)
        base_changed += _unless_outputs(room.base, added, outputs)
        changed.update(os.path.join("..", "base", p) for p in base_changed)
    return tuple(sorted(changed))


def _held_touched(bound: Bound, touched: Sequence[str]) -> tuple[str, ...]:
    """``touched`` without the entries of ``tree/`` the candidate's tree does not hold
    (neither a file of it nor a directory on the way to one): an ignored output an earlier
    check or run wrote there (a test's ``report.txt`` in ``.gitignore``), rewritten or
    removed by this one. Only files ``.gitignore`` does not ignore count as added
    (docs/spec-notes.md §9); one that is not ignored stopped the run that added it."""
    inside = [p for p in touched if p != ".." and not p.startswith(".." + os.sep)]
    if not inside:
        return tuple(touched)
    held = {"."}
    for *_, path in bound.repo.tree_entries(bound.candidate.tree):
        while path and path not in held:
            held.add(path)
            path = os.path.dirname(path)
    return tuple(p for p in touched if p in held or p not in inside)


def _unless_outputs(top: str, added: Sequence[str], outputs: tuple[str, ...]) -> tuple[str, ...]:
    """``added`` (files new under ``top``) without the ones at ``outputs``, which are
    removed, with the directories left empty by that up to ``top``."""
    reports = [p for p in added if is_output(p, outputs)]
    for rel in reports:
        full = os.path.join(top, rel)
        with contextlib.suppress(OSError):
            os.unlink(full)
        parent = os.path.dirname(full)
        while parent != top and parent.startswith(top + os.sep):
            try:
                os.rmdir(parent)  # only an empty one: the candidate's files stay
            except OSError:
                break
            parent = os.path.dirname(parent)
    return tuple(p for p in added if p not in reports)
