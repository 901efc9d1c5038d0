"""``out()`` drops only the line end git writes last: a value or path ending in white
space (a space, a U+2028 LINE SEPARATOR) comes back whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from tests.conftest import git


@pytest.mark.parametrize("value", ["a\u2028", "a ", " a", "a\t", "a\x0c"])
def test_out_keeps_trailing_white_space_of_the_value(repo: Path, value: str) -> None:
    git(repo, "config", "gentle.test", value)
    assert Repository.open(str(repo)).out(["config", "--get", "gentle.test"]) == value


def test_out_of_a_root_ending_in_a_line_separator(tmp_path: Path) -> None:
    root = tmp_path / "r\u2028"
    root.mkdir()
    git(root, "init", "-q")
    assert Repository.open(str(root)).out(["rev-parse", "--show-toplevel"]) == str(root)
