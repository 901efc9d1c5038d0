"""Index.restaging: the git reset / git add a partial commit's block prints make the
worktree's own index hold exactly the tree git handed the hook, losing nothing staged, or
there is no such pair (real git; the tree is what ``commit <paths>`` or ``commit -a``
would build, made in a scratch index)."""

from __future__ import annotations

import os
from pathlib import Path

from gentle_hooks.git.index import Restaging
from gentle_hooks.git.repository import Repository
from tests.conftest import git, write


def _tree_of(repo: Path, *steps: tuple[str, ...]) -> str:
    """The tree a scratch index holds after ``read-tree HEAD`` and ``steps``."""
    env = {"GIT_INDEX_FILE": str(repo / ".git" / "scratch-index")}
    git(repo, "read-tree", "HEAD", env=env)
    for args in steps:
        git(repo, *args, env=env)
    tree = git(repo, "write-tree", env=env).strip()
    os.unlink(env["GIT_INDEX_FILE"])
    return tree


def _apply(repo: Path, found: Restaging | None) -> str:
    assert found is not None
    unstage, stage = found.unstage, found.stage
    if unstage:
        git(repo, "reset", "-q", "--", *unstage)
    if stage:
        git(repo, "add", "-A", "--", *stage)
    return git(repo, "write-tree").strip()


def test_commit_paths_with_another_path_staged(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    write(repo / "README.md", "# staged, not committed\n")
    git(repo, "add", "README.md")
    before = git(repo, "write-tree").strip()
    tree = _tree_of(repo, ("add", "--", "src/app.py"))  # git commit src/app.py
    found = Repository.open(str(repo)).restaging(tree)
    assert found == (("README.md",), ("src/app.py",), ("README.md",), before)
    assert _apply(repo, found) == tree
    assert (repo / "README.md").read_text() == "# staged, not committed\n"  # still there


def test_every_set_aside_path_is_put_back_staged(repo: Path) -> None:
    # staged: a deletion, a rename, a modification, an addition modified since; the
    # commit takes src/app.py only: all of them are set aside and put back as they were
    for name in ("del.py", "keep.py", "notes.py"):
        write(repo / name, f"{name}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "more")
    git(repo, "rm", "-q", "del.py")
    git(repo, "mv", "keep.py", "kept.py")
    write(repo / "notes.py", "notes.py\nmore\n")
    write(repo / "new.py", "N = 1\n")
    git(repo, "add", "notes.py", "new.py")
    write(repo / "new.py", "N = 2\n")
    before = git(repo, "write-tree").strip()
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    tree = _tree_of(repo, ("add", "--", "src/app.py"))
    found = Repository.open(str(repo)).restaging(tree)
    assert found is not None and found.source == before
    assert set(found.kept) == {"del.py", "keep.py", "kept.py", "notes.py", "new.py"}
    assert _apply(repo, found) == tree
    git(repo, "commit", "-qm", "app")
    git(repo, "restore", "--staged", f"--source={found.source}", "--", *found.kept)
    staged = git(repo, "diff", "--cached", "--name-status", "--no-renames").splitlines()
    assert sorted(staged) == ["A\tkept.py", "A\tnew.py", "D\tdel.py", "D\tkeep.py", "M\tnotes.py"]
    assert git(repo, "show", ":new.py") == "N = 1\n"  # as staged, not as edited since
    assert git(repo, "show", ":notes.py") == "notes.py\nmore\n"


def test_commit_a_with_an_untracked_file(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    write(repo / "new.py", "X = 1\n")  # untracked: commit -a leaves it out
    tree = _tree_of(repo, ("add", "-u"))
    found = Repository.open(str(repo)).restaging(tree)
    assert found == ((), ("src/app.py",), (), "")
    assert _apply(repo, found) == tree


def test_a_staged_change_the_work_tree_no_longer_holds_is_kept_to_put_back(repo: Path) -> None:
    write(repo / "README.md", "# staged\n")
    git(repo, "add", "README.md")
    write(repo / "README.md", "# edited again\n")  # unstaging alone would lose "# staged"
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    before = git(repo, "write-tree").strip()
    tree = _tree_of(repo, ("add", "--", "src/app.py"))
    found = Repository.open(str(repo)).restaging(tree)
    assert found is not None
    assert found[:3] == (("README.md",), ("src/app.py",), ("README.md",))
    assert found.source == before  # the own index as it was
    assert git(repo, "write-tree").strip() == before  # the user's index untouched
    assert _apply(repo, found) == tree
    git(repo, "restore", "--staged", f"--source={found.source}", "--", "README.md")
    assert git(repo, "show", ":README.md") == "# staged\n"
    assert (repo / "README.md").read_text() == "# edited again\n"


def test_the_own_index_holding_the_tree_needs_nothing(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    git(repo, "add", "-A")
    tree = git(repo, "write-tree").strip()
    assert Repository.open(str(repo)).restaging(tree) == ((), (), (), "")
