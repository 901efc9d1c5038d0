"""services/room_run.tree_links: a suite's operands that pass through a link of the room's
tree, resolved from its root (issue 18, h18h finding 3: ``all -> tests/unit``)."""

from __future__ import annotations

from pathlib import Path

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
