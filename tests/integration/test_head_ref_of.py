"""``head_ref_of`` / ``head_reset_since(when, root)``: the ``HEAD`` reflog of another
worktree of the same repository, read with real git (issue 13: a reset in the writer's
linked worktree is looked for there, not in the worktree where a block is printed)."""

from __future__ import annotations

import time
from pathlib import Path

from gentle_hooks.git.repository import Repository
from tests.conftest import git


def test_each_worktrees_head_and_its_own_resets(repo: Path, tmp_path: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    linked = tmp_path / "linked wt"
    git(repo, "worktree", "add", "-q", "-b", "topic", str(linked), "HEAD")
    here, there = Repository.open(str(repo)), Repository.open(str(linked))
    assert here.head_ref_of(str(repo)) == "HEAD"
    assert here.head_ref_of(str(linked)) == "worktrees/linked-wt/HEAD"  # git names it
    assert there.head_ref_of(str(repo)) == "main-worktree/HEAD"
    assert there.head_ref_of(str(linked)) == "HEAD"
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    assert here.head_ref_of(str(other)) is None
    assert here.head_ref_of(str(tmp_path / "gone")) is None
    before = time.time() - 1
    git(linked, "reset", "-q", "--hard", "HEAD~1")
    assert here.head_reset_since(before, str(linked))
    assert there.head_reset_since(before)
    assert not here.head_reset_since(before)
    assert not there.head_reset_since(before, str(repo))
    assert not here.head_reset_since(before, str(other))
