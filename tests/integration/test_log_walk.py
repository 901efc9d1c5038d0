"""The push gate's early ``git log`` answers exactly what the processes it replaces answer.

* The walk: ``Repository.new_commits_of_tips`` and ``new_commits`` given a
  :class:`~gentle_hooks.git.logwalk.LogWalk`'s commits list what ``rev-list`` lists, in
  its order, with the parents it names (merges, a second root, tips sharing history,
  remote-tracking refs excluded, a range), and run no git process to do so.
* Each commit's change: ``step_changes`` kept from the walk equals ``git diff-tree``'s
  (renames seen as a deletion and an addition, binary by attribute, mode flips, symlinks,
  deletions, an empty commit, a merge, a root commit, paths holding a tab, a newline,
  ``\\x01`` and bytes that are not UTF-8), with no process; a diff algorithm or order
  file in the configuration keeps none of them (the batch passes those itself).
* A failed walk (an excluded id that is no object here) answers nothing.

Real repositories driven with the git CLI; nothing is mocked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from gentle_hooks.errors import GitError
from gentle_hooks.git.logwalk import LogWalk
from gentle_hooks.git.repository import Repository
from tests.conftest import commit_all, git, write
from tests.integration.test_push_batching import _history


def _walk(repo: Path, revs: list[str], stdin: Sequence[str] = (), changes: bool = True) -> LogWalk:
    here = os.getcwd()
    os.chdir(repo)
    try:
        return LogWalk(str(repo), os.environ, revs, stdin, changes)
    finally:
        os.chdir(here)


def _no_git(repo: Repository) -> None:
    """From now on any git process this repository starts fails (PATH holds no git)."""
    repo.env["PATH"] = "/nonexistent"


def _branchy(root: Path) -> dict[str, str]:
    """main: a root, a side branch merged back, a second root merged in; tips a, b."""
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    ids = {}
    write(root / "f.txt", "1\n")
    ids["root"] = commit_all(root, "root")
    git(root, "switch", "-q", "-c", "side")
    write(root / "s.txt", "side\n")
    ids["side"] = commit_all(root, "side")
    git(root, "switch", "-q", "main")
    write(root / "f.txt", "1\n2\n")
    ids["main2"] = commit_all(root, "main 2")
    git(root, "merge", "-q", "--no-edit", "side")
    ids["merge"] = git(root, "rev-parse", "HEAD").strip()
    git(root, "switch", "-q", "--orphan", "other")
    write(root / "o.txt", "other\n")
    ids["other"] = commit_all(root, "other root")
    git(root, "switch", "-q", "main")
    git(root, "merge", "-q", "--no-edit", "--allow-unrelated-histories", "other")
    ids["a"] = git(root, "rev-parse", "HEAD").strip()
    git(root, "switch", "-q", "-c", "b", ids["main2"])
    write(root / "b.txt", "b\n")
    ids["b"] = commit_all(root, "b")
    git(root, "update-ref", "refs/remotes/origin/main", ids["main2"])
    return ids


@pytest.mark.parametrize("remote", ["origin", ""])
def test_a_walk_of_new_tips_answers_as_rev_list(tmp_path: Path, remote: str) -> None:
    root = tmp_path / "r"
    ids = _branchy(root)
    tips = [ids["b"], ids["a"], ids["side"]]
    plain = Repository.open(str(root))
    want = plain.new_commits_of_tips(tips, remote)
    scope = f"--remotes={remote}" if remote else "--remotes"
    walk = _walk(root, ["--stdin", "--not", scope], tips)
    logged = walk.result()
    assert logged is not None
    repo = Repository.open(str(root))
    repo.know_log(("tips", tuple(tips), remote), logged)
    _no_git(repo)
    assert repo.new_commits_of_tips(tips, remote) == want
    commits = list(dict.fromkeys(c for cs in want.values() for c in cs))
    assert repo.outside_parents(commits) == plain.outside_parents(commits)
    assert all(repo.peel_commit(c) == c for c in commits)  # peeled from the walk
    if remote:  # the remote's main is excluded: main 2 is not new
        assert ids["main2"] not in commits and ids["root"] not in commits


def test_a_walk_of_a_range_answers_as_rev_list(tmp_path: Path) -> None:
    root = tmp_path / "r"
    ids = _branchy(root)
    plain = Repository.open(str(root))
    want = plain.new_commits(ids["a"], exclude=[ids["b"]])
    logged = _walk(root, [ids["a"], f"^{ids['b']}"]).result()
    assert logged is not None
    repo = Repository.open(str(root))
    repo.know_log(("range", ids["a"], (ids["b"],), None), logged)
    _no_git(repo)
    assert repo.new_commits(ids["a"], exclude=[ids["b"]]) == want
    assert repo.missing_objects([ids["b"]]) == []  # the walk proved it is here
    with pytest.raises(GitError):  # another question still asks git
        repo.new_commits(ids["a"], exclude=[ids["main2"]])


def test_a_walk_excluding_a_missing_object_answers_nothing(tmp_path: Path) -> None:
    root = tmp_path / "r"
    ids = _branchy(root)
    assert _walk(root, [ids["a"], "^" + "1" * 40]).result() is None


def _odd_history(root: Path) -> list[str]:
    """:func:`_history`, then paths with a tab, a newline, ``\\x01`` and non-UTF-8 bytes, a
    merge of a side branch, and an edit after it."""
    commits = _history(root)
    for name in (b"tab\there.txt", b"new\nline.txt", b"ctl\x01x.txt", b"latin\xe9.txt"):
        (root / os.fsdecode(name)).write_bytes(b"x\n")
    commits.append(commit_all(root, "odd names"))
    git(root, "switch", "-q", "-c", "side", commits[1])
    write(root / "side.txt", "side\n")
    commits.append(commit_all(root, "side"))
    git(root, "switch", "-q", "-")
    git(root, "merge", "-q", "--no-edit", "side")
    commits.append(git(root, "rev-parse", "HEAD").strip())
    (root / os.fsdecode(b"new\nline.txt")).write_bytes(b"x\ny\n")
    commits.append(commit_all(root, "after the merge"))
    return commits


def _steps(repo: Repository, commits: list[str]) -> list[tuple[str, str]]:
    infos = repo.read_commits(commits)
    pairs = []
    for info in infos:
        for p in info.parents or [None]:
            pairs.append((repo.tree_of(p) if p else repo.empty_tree, info.tree))
    return pairs


def test_changes_from_the_walk_equal_diff_tree(tmp_path: Path) -> None:
    root = tmp_path / "r"
    commits = _odd_history(root)
    plain = Repository.open(str(root))
    pairs = _steps(plain, commits)
    want = plain.step_changes(pairs)
    assert want is not None
    logged = _walk(root, ["--stdin", "--not", "--remotes"], [commits[-1]]).result()
    assert logged is not None and {c.id for c in logged} == set(commits)
    repo = Repository.open(str(root))
    repo.know_log(("tips", (commits[-1],), ""), logged)
    repo.gentle_config()  # the configuration is read (as the gate does) before git is gone
    merge = [c for c in logged if len(c.parents) == 2]
    assert len(merge) == 1 and merge[0].change is None
    _steps(repo, commits)  # every tree is known from the walk: no process
    _no_git(repo)
    merge_pairs = {(repo.tree_of(p), merge[0].tree) for p in merge[0].parents}
    # the merge's own diffs are git's to compute (the walk prints none): asked apart
    rest = [p for p in pairs if p not in merge_pairs]
    got = repo.step_changes(rest)
    assert got == [w for p, w in zip(pairs, want, strict=True) if p not in merge_pairs]
    names = {c.path for changes in got or [] for c in changes}
    assert {
        "tab\there.txt",
        "new\nline.txt",
        "ctl\x01x.txt",
        os.fsdecode(b"latin\xe9.txt"),
    } <= names


@pytest.mark.parametrize(
    ("key", "value"), [("diff.algorithm", "histogram"), ("diff.orderFile", "order")]
)
def test_a_diff_setting_keeps_no_change_from_the_walk(tmp_path: Path, key: str, value: str) -> None:
    root = tmp_path / "r"
    commits = _history(root)
    git(root, "config", key, value)
    write(root / "order", "*.py\n")
    logged = _walk(root, ["--stdin", "--not", "--remotes"], [commits[-1]]).result()
    assert logged is not None
    repo = Repository.open(str(root))
    repo.know_log(("tips", (commits[-1],), ""), logged)
    pairs = _steps(repo, commits)
    repo.gentle_config()
    _no_git(repo)
    with pytest.raises(GitError, match="not on PATH"):  # not kept: git is asked
        repo.step_changes(pairs)
