"""Which commits post-commit attributes pending writer work to (reflog actions git writes)."""

from __future__ import annotations

import pytest

from gentle_hooks.hooks.recorders import is_replay


@pytest.mark.parametrize(
    ("action", "replay"),
    [
        ("commit", False),
        ("commit (initial)", False),
        ("commit (amend)", False),
        ("commit (merge)", False),
        ("rebase (continue)", False),
        ("pull --rebase origin main (continue)", False),
        (None, False),
        ("rebase (pick)", True),
        ("rebase (squash)", True),
        ("rebase (reword)", True),
        ("pull --rebase origin main (pick)", True),
        ("cherry-pick", True),
        ("revert", True),
        ("am", True),
    ],
)
def test_is_replay(action: str | None, replay: bool) -> None:
    assert is_replay(action) is replay
