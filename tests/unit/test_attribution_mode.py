"""Row A8 of :func:`gentle_hooks.policy.attribution.carries_row`: a writer's mode change
(its entry's blob is the one it started from: ``chmod +x``) is carried by a change of
that path's mode, whatever blob the path holds by then (a person's own hunk of the file
committed first, or with it), and by nothing else."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import (
    CONTENT_ROWS,
    PathChange,
    carries_row,
    holds_own_lines,
)
from tests.unit.test_attribution import PNG0, SH0, SH_W, change, entry

FLIP = entry(SH0, SH0, "run.sh")  # the writer's chmod +x of run.sh holding SH0


@pytest.mark.parametrize(
    ("old", "new", "path", "row"),
    [
        (SH0, SH0, "run.sh", "A8"),  # the flip committed (a mode-only change)
        (SH0, SH_W, "run.sh", "A5"),  # a content change of the path: not the flip
        (SH_W, SH_W, "run.sh", "A8"),  # the flip after a person's own hunk was committed
        (SH0, SH0, "other.sh", "A5"),  # another path
        (SH0, None, "run.sh", "A5"),  # deleted
    ],
    ids=["mode-only", "content", "other-blob", "other-path", "deleted"],
)
def test_a_mode_entry_is_carried_by_its_mode_change_alone(
    old: bytes | None, new: bytes | None, path: str, row: str
) -> None:
    assert carries_row(change(old, new, path), FLIP) == row
    assert carries_row(change(old, new, path), FLIP, elsewhere=True) == row


def test_a_mode_change_carries_no_content_entry_and_a8_is_content() -> None:
    """A mode-only change of a path whose entry wrote content stays row A5, as before;
    A8 is a content row a ``discard`` may claim (a person flips a mode alike)."""
    assert carries_row(change(SH_W, SH_W, "run.sh"), entry(SH0, SH_W, "run.sh")) == "A5"
    assert carries_row(change(PNG0, PNG0), entry(PNG0, PNG0)) == "A8"
    assert "A8" in CONTENT_ROWS and not holds_own_lines("A8", FLIP)


@pytest.mark.parametrize(
    ("old", "new", "flipped", "row"),
    [
        (SH0, SH_W, True, "A8"),  # a person's hunk committed with the writer's flip
        (SH0, SH_W, False, "A5"),  # the person's hunk alone (git add -p, the mode declined)
        (SH_W, SH_W, True, "A8"),  # the flip left after that hunk, committed later
    ],
    ids=["hunk-and-flip", "hunk-alone", "flip-after-hunk"],
)
def test_a_mode_entry_is_carried_by_a_change_of_its_paths_mode(
    old: bytes, new: bytes, flipped: bool, row: str
) -> None:
    c = change(old, new, "run.sh")
    c = PathChange(c.path, c.old_blob, c.new_blob, c.old, c.new, mode_changed=flipped)
    assert carries_row(c, FLIP) == row
