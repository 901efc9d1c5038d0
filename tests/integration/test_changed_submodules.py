"""The submodules git status shows changed (:func:`gentle_hooks.git.submodules.changed_submodules`;
issue 17, h17h): what a shell call's line names instead of "git status shows the same" when a
call from the outer repository changed no file of its own. Real repositories, row by row."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from gentle_hooks.git.submodules import changed_submodules
from tests.conftest import commit_all, git, write


@pytest.fixture
def outer(tmp_path: Path) -> Path:
    """A repository with the submodule ``sub`` (``a.py``), committed and clean."""
    lib = _committed(tmp_path / "lib", "a.py", "A = 1\n")
    top = _committed(tmp_path / "outer", "app.py", "X = 1\n")
    git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "sub")
    commit_all(top, "outer")
    return top


def _committed(root: Path, rel: str, text: str) -> Path:
    """A new repository at ``root`` with one commit holding ``rel`` (``text``); ``root``."""
    root.mkdir()
    git(root, "init", "-q")
    write(root / rel, text)
    commit_all(root, root.name)
    return root


def _sub_commit(outer: Path) -> None:
    write(outer / "sub" / "a.py", "A = 2\n")
    commit_all(outer / "sub", "moved on")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(lambda o: None, [], id="clean"),
        pytest.param(lambda o: write(o / "app.py", "X = 2\n"), [], id="outer-file-only"),
        pytest.param(lambda o: write(o / "sub" / "a.py", "A = 3\n"), ["sub"], id="modified"),
        pytest.param(lambda o: write(o / "sub" / "new.py", "N = 1\n"), ["sub"], id="untracked"),
        pytest.param(_sub_commit, ["sub"], id="new-commit"),
    ],
)
def test_changed_submodules(outer: Path, change: object, expected: list[str]) -> None:
    assert callable(change)
    change(outer)
    assert changed_submodules(Repository.open(str(outer))) == expected


def test_a_work_tree_without_gitmodules_has_none(tmp_path: Path) -> None:
    """A work tree without ``.gitmodules`` holds no submodule; a nested repository with
    changes in it is none (its changes never show in the outer status)."""
    plain = _committed(tmp_path / "plain", "app.py", "X = 1\n")
    nested = plain / "nested"
    nested.mkdir()
    git(nested, "init", "-q")
    write(nested / "n.py", "N = 1\n")
    assert changed_submodules(Repository.open(str(plain))) == []
