"""Git work the gates share or start early gives exactly what asking on demand gives.

* The remote the work goes to (``branch.<name>.remote`` / ``.pushRemote``,
  ``remote.pushDefault``, ``url.<base>.insteadOf``) read from the gate's first ``git
  config`` process equals what a ``git config`` of its own reads, and runs no other.
* ``Repository.start_steps``: the step diff started early is the one ``step_changes``
  reads for the same pairs (one ``diff-tree``), and asked for other pairs it is stopped
  and the answer is still git's.
* ``start_staged_delta`` / ``staged_tree``: the index against ``HEAD`` started early, and
  the index written as a tree while the base is resolved, equal ``git diff-index`` and
  ``git write-tree``; nothing is left running or in the git directory.

Real repositories driven with the git CLI; nothing is mocked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from gentle_hooks.git.repository import Repository
from gentle_hooks.values.candidate import Projection
from tests.conftest import commit_all, git, write


def _repo(root: Path) -> list[str]:
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root / "a.py", "a = 1\n")
    write(root / "pkg/b.py", "b = 2\n")
    commits = [commit_all(root, "one")]
    write(root / "a.py", "a = 2\n")
    write(root / "pkg/c.py", "c = 3\n")
    commits.append(commit_all(root, "two"))
    (root / "pkg/b.py").unlink()
    commits.append(commit_all(root, "three"))
    return commits


def _configure(root: Path, bare: Path) -> None:
    git(bare.parent, "init", "-q", "--bare", str(bare))
    git(root, "config", "remote.origin.url", "https://example.com/a.git")
    git(root, "config", "remote.fork.url", "srv:fork.git")
    git(root, "config", "remote.local.url", str(bare))
    git(root, "config", "--add", "url.https://example.com/.insteadOf", "ex:")
    git(root, "config", "--add", "url.srv:.insteadOf", "ex:")  # same prefix: git's order
    git(root, "config", "--add", "url.https://example.com/.insteadOf", "exa:")
    git(root, "config", "remote.pushDefault", "fork")


def test_work_remote_from_the_gate_config_equals_its_own_config_read(tmp_path: Path) -> None:
    root, bare = tmp_path / "r", tmp_path / "remote.git"
    _repo(root)
    _configure(root, bare)
    settings: list[tuple[str, ...]] = [
        (),
        ("branch.main.remote", "local"),
        ("branch.main.pushRemote", "origin"),
        ("branch.main.remote", "nowhere"),
    ]
    for setting in settings:
        if setting:
            git(root, "config", *setting)
        preloaded = Repository.open(str(root))
        preloaded.gentle_config()
        runs: list[Sequence[str]] = []
        preloaded._will_run = runs.append  # type: ignore[method-assign,assignment]
        fresh = Repository.open(str(root))
        assert preloaded.work_remote() == fresh.work_remote(), setting
        # no config of its own, and the branch read from HEAD's file (a plain ref)
        assert [r[0] for r in runs] == [], setting
    git(root, "switch", "-q", "--detach")
    preloaded = Repository.open(str(root))
    preloaded.gentle_config()
    assert preloaded.work_remote() == Repository.open(str(root)).work_remote() == "fork"


def test_started_steps_are_the_step_changes_of_the_same_pairs(tmp_path: Path) -> None:
    root = tmp_path / "r"
    commits = _repo(root)
    trees = [git(root, "rev-parse", f"{c}^{{tree}}").strip() for c in commits]
    pairs = [(trees[0], trees[1]), (trees[1], trees[2]), (trees[2], trees[2])]
    want = Repository.open(str(root)).step_changes(pairs)
    assert want is not None and [len(s) for s in want] == [2, 1, 0]
    early = Repository.open(str(root))
    early.start_steps(pairs)
    runs: list[list[str]] = []
    early._will_run = lambda args: runs.append(list(args))  # type: ignore[method-assign]
    assert early.step_changes(pairs) == want
    assert runs == []  # the started process answered
    other = Repository.open(str(root))
    other.start_steps(pairs[:1])
    assert other.step_changes(pairs) == want  # asked for more: stopped, then git's answer
    assert other._steps_started is None


def test_staged_delta_started_early_and_staged_tree_equal_git(tmp_path: Path) -> None:
    root = tmp_path / "r"
    _repo(root)
    write(root / "a.py", "a = 3\n")
    write(root / "new.py", "n = 1\n")
    git(root, "add", "-A")
    early = Repository.open(str(root))
    early.start_staged_delta()
    cand = early.candidate(Projection.STAGED)
    assert cand.tree == git(root, "write-tree").strip()
    delta = early.staged_delta()
    assert delta == Repository.open(str(root)).staged_delta()
    assert delta is not None and sorted(c.path for c in delta) == ["a.py", "new.py"]
    assert early._staged_started is None
    unread = Repository.open(str(root))
    unread.start_staged_delta()
    started = unread._staged_started
    assert started is not None
    unread.drop_staged_delta()
    assert started.returncode is not None and unread._staged_started is None
    leftovers = [n for n in os.listdir(root / ".git") if n.startswith("gentle-hooks-index-")]
    assert leftovers == []
