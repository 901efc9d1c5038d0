"""Stash entries kept and dropped, read by :mod:`gentle_hooks.git.stashes` with real git
(issue 13, refuter r13c: a stash round trip logs the same ``reset: moving to HEAD`` as
``git reset --hard``; the popped stash's commits are what tell them apart)."""

from __future__ import annotations

import time
from pathlib import Path

from gentle_hooks.git.repository import Repository
from gentle_hooks.git.stashes import dropped_stashes, stash_entries
from tests.conftest import run_git


def test_entries_are_listed_newest_first_with_their_index_and_untracked_commits(
    repo: Path,
) -> None:
    (repo / "src" / "app.py").write_text("changed = 1\n", encoding="utf-8")
    run_git(repo, "stash", "-q")
    (repo / "README.md").write_text("# changed\n", encoding="utf-8")
    (repo / "new.txt").write_text("new\n", encoding="utf-8")
    run_git(repo, "stash", "-q", "-u")
    r = Repository.open(str(repo))
    listed = stash_entries(r)
    assert [name for name, _ in listed] == ["stash@{0}", "stash@{1}"]
    assert [len(parts) for _, parts in listed] == [3, 2]  # work tree, index(, untracked)
    assert listed[0][1][0] == run_git(repo, "rev-parse", "stash@{0}").strip()
    assert dropped_stashes(r, 0) == []


def test_a_popped_or_dropped_entry_is_found_among_loose_objects(repo: Path) -> None:
    since = time.time() - 1
    (repo / "src" / "app.py").write_text("changed = 1\n", encoding="utf-8")
    run_git(repo, "stash", "-q")
    popped = run_git(repo, "rev-parse", "stash@{0}").strip()
    run_git(repo, "stash", "pop", "-q")
    r = Repository.open(str(repo))
    assert stash_entries(r) == []
    found = dropped_stashes(r, since)
    assert [parts[0] for parts in found] == [popped]
    assert dropped_stashes(r, time.time() + 60) == []  # made before: not looked at


def test_no_stash_is_nothing(repo: Path) -> None:
    r = Repository.open(str(repo))
    assert stash_entries(r) == [] and dropped_stashes(r, 0) == []
