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


def test_git_paths_asks_one_rev_parse_and_reads_each_path_whole(tmp_path: Path) -> None:
    """``git_paths`` answers as ``git_path`` does for each name, in a linked worktree too,
    and in a repository whose path holds a line end (then each is asked on its own)."""
    for name in ("plain", "line\nend"):
        root = tmp_path / name
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        git(root, "commit", "-q", "--allow-empty", "-m", "one")
        linked = tmp_path / f"{name}-linked"
        git(root, "worktree", "add", "-q", "--detach", str(linked))
        for top in (root, linked):
            repo = Repository.open(str(top))
            names = ("shallow", "info/grafts", "HEAD")
            assert repo.git_paths(*names) == [repo.git_path(n) for n in names]
        assert Repository.open(str(linked)).git_paths("HEAD")[0].endswith("HEAD")


def test_notes_holding_searches_a_notes_ref_and_reads_no_notes_as_none(tmp_path: Path) -> None:
    """``notes_holding`` finds the commits whose note holds a word, by ref name or notes
    commit; no notes ref at all is no match, even beside a file of the ref's name."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "commit", "-q", "--allow-empty", "-m", "one")
    ref = "refs/notes/gentle-hooks"
    repo = Repository.open(str(root))
    (root / "refs" / "notes").mkdir(parents=True)
    (root / "refs" / "notes" / "gentle-hooks").write_text("needle\n")
    assert repo.notes_holding(ref, ["needle"]) == set()
    git(root, "notes", "--ref", ref, "add", "-m", "a needle here", "HEAD")
    head = repo.out(["rev-parse", "HEAD"])
    assert repo.notes_holding(ref, ["needle"]) == {head}
    assert repo.notes_holding(repo.out(["rev-parse", ref]), ["needle"]) == {head}
    assert repo.notes_holding(ref, ["absent"]) == set()
