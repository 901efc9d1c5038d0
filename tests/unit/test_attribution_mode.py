"""Row A8 of :func:`gentle_hooks.policy.attribution.carries_row`: a writer's mode change
(its entry's blob is the one it started from: ``chmod +x``) is carried by a change of
that path keeping that blob (the mode alone changed), and by nothing else."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import CONTENT_ROWS, carries_row, holds_own_lines
from tests.unit.test_attribution import PNG0, SH0, SH_W, change, entry

FLIP = entry(SH0, SH0, "run.sh")  # the writer's chmod +x of run.sh holding SH0


@pytest.mark.parametrize(
    ("old", "new", "path", "row"),
    [
        (SH0, SH0, "run.sh", "A8"),  # the flip committed (a mode-only change)
        (SH0, SH_W, "run.sh", "A5"),  # a content change of the path: not the flip
        (SH_W, SH_W, "run.sh", "A5"),  # another blob's mode change
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
