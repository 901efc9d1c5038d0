"""services/room_run.tree_links: a suite's operands that pass through a link of the room's
tree, resolved from its root (issue 18, h18h finding 3: ``all -> tests/unit``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.services.room_failures import failure_line
from gentle_hooks.services.room_run import tree_links


def test_tree_links(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "tests" / "unit").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tree / "all").symlink_to("tests/unit")
    (tree / "here").symlink_to(".")
    (tree / "out").symlink_to("../outside")
    got = tree_links(
        "python3 -m pytest -q all here out tests ./tests/unit -k 'x y' nothing", str(tree)
    )
    assert got == {"all": "tests/unit", "here": "."}


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("$ x\n1 failed in 0.03s\n", "$ x\n1 failed in 1.20s\n\n", True),
        ("Traceback\nAssertionError\n", "Traceback\nImportError: no name 'mul'\n", False),
        ("E at 0x7f3a12\n", "E at 0x7f00bb\n", True),
    ],
)
def test_a_failure_is_its_last_line_numbers_masked(a: str, b: str, same: bool) -> None:
    """How a criterion failed: the last non-blank line of its output, numbers masked."""
    assert (failure_line(a) == failure_line(b)) is same
