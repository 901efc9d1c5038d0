"""Concurrent note writers lose nothing (SPEC §8): eight linked worktrees of one clone
commit delegated work at the same time; every commit's post-commit writes its note under
``refs/notes/gentle-hooks`` by compare-and-swap, retried, so every commit has its note.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.conftest import git, write

WORKTREES = 8
COMMITS = 10
NOTES = "refs/notes/gentle-hooks"
G = [sys.executable, "-m", "gentle_hooks"]


def _commit_loop(tree: Path, name: str) -> list[str]:
    """Ten delegated commits in one worktree; returns the commit ids."""
    env = {**os.environ, "GENTLE_WRITER_MODEL": "o4-mini", "GENTLE_WRITER_EFFORT": "low"}
    made = []
    for i in range(COMMITS):
        write(tree / f"{name}.py", f"VALUE = {i}\n")
        rec = subprocess.run(
            [*G, "record"], cwd=tree, env=env, capture_output=True, text=True, check=False
        )
        assert rec.returncode == 0, rec.stderr
        git(tree, "add", "-A")
        done = subprocess.run(
            ["git", "commit", "-q", "--no-verify", "-m", f"{name} {i}"],
            cwd=tree,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "cannot lock" not in done.stderr and "error" not in done.stderr.lower(), done.stderr
        made.append(git(tree, "rev-parse", "HEAD").strip())
    return made


def test_eight_worktrees_ten_commits_each_lose_no_note(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    write(repo / "README.md", "# project\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "initial")
    install = subprocess.run([*G, "install"], cwd=repo, capture_output=True, text=True, check=False)
    assert install.returncode == 0, install.stderr
    trees = []
    for n in range(WORKTREES):
        tree = tmp_path / f"wt{n}"
        git(repo, "worktree", "add", "-q", "-b", f"w{n}", str(tree), "main")
        trees.append((tree, f"w{n}"))
    with ThreadPoolExecutor(WORKTREES) as pool:
        results = list(pool.map(lambda t: _commit_loop(*t), trees))
    commits = [c for made in results for c in made]
    assert len(set(commits)) == WORKTREES * COMMITS
    noted = set(git(repo, "notes", f"--ref={NOTES}", "list").split()[1::2])
    missing = [c for c in commits if c not in noted]
    assert missing == [], f"{len(missing)} of {len(commits)} notes lost"
