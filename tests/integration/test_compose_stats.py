"""``Repository.compose_stats``: the numstat of (base, commit) pairs composed from the pair
before and the commit's own step equals ``git diff --raw --numstat`` of each pair.

Random chains of commits (fast-import) edit, add, delete, rename, revert to the base,
flip modes, swap a file and a directory, write binary files, symlinks and non-ASCII
names; each commit's pair against the chain's base is composed, and compared with
``diff_stats`` of a fresh repository object (one ``git diff`` per pair).
"""

from __future__ import annotations

import itertools
import random
import subprocess
from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from tests.conftest import git

NAMES = ("a.py", "a-b.py", "a/b.py", "a/c/d.py", "b.md", "ü/x.txt", "z.bin", "link", "x")


def _chain(root: Path, seed: int, n: int) -> list[str]:
    """Build ``n`` commits after a base; their trees, the base's first."""
    rng = random.Random(seed)
    git(root.parent, "init", "-q", str(root))
    files: dict[str, tuple[str, bytes]] = {
        "a.py": ("100644", b"".join(b"line %d\n" % i for i in range(40))),
        "b.md": ("100644", b"# doc\n"),
        "a/b.py": ("100644", b"x = 1\n"),
    }
    stream = []
    for k in range(n + 1):
        if k:
            files = dict(files)
            for _ in range(rng.randint(1, 3)):
                _mutate(rng, files, k)
        out = [b"commit refs/heads/main\nmark :%d\n" % (k + 1)]
        out.append(b"committer A <a@b> %d +0000\ndata 2\nc\n" % (1700000000 + k))
        if k:
            out.append(b"from :%d\n" % k)
        out.append(b"deleteall\n")
        for path, (mode, data) in sorted(files.items()):
            out.append(
                b"M %s inline %s\ndata %d\n%s\n" % (mode.encode(), path.encode(), len(data), data)
            )
        stream.append(b"".join(out))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream), check=True)
    return git(root, "log", "--reverse", "--format=%T", "main").split()


def _mutate(rng: random.Random, files: dict[str, tuple[str, bytes]], k: int) -> None:
    path = rng.choice(NAMES)
    what = rng.choice(["edit", "edit", "delete", "rename", "mode", "binary", "link", "swap"])
    if what == "delete":
        files.pop(path, None)
    elif what == "rename" and files:
        old = rng.choice(sorted(files))
        new = rng.choice(NAMES)
        if not any(n.startswith(new + "/") or new.startswith(n + "/") for n in files if n != old):
            files[new] = files.pop(old)
    elif what == "mode" and path in files and files[path][0] != "120000":
        mode, data = files[path]
        files[path] = ("100755" if mode == "100644" else "100644", data)
    elif what == "binary":
        _put(files, path, ("100644", bytes(range(256)) * 3 + bytes([k % 256])))
    elif what == "link":
        _put(files, path, ("120000", b"target-%d" % k))
    elif what == "swap":  # a file where a directory was, or the reverse
        for n in [n for n in files if n.startswith("a/")]:
            files.pop(n)
        files["a"] = ("100644", b"now a file %d\n" % k)
    else:
        mode, data = files.get(path, ("100644", b""))
        lines = data.split(b"\n")
        at = rng.randint(0, len(lines))
        lines[at:at] = [b"added %d" % k] * rng.randint(1, 3)
        _put(files, path, (mode if mode != "120000" else "100644", b"\n".join(lines)))


def _put(files: dict[str, tuple[str, bytes]], path: str, entry: tuple[str, bytes]) -> None:
    """Set ``path``, removing what conflicts with it (a file under it, or above it)."""
    for n in list(files):
        if n.startswith(path + "/") or path.startswith(n + "/"):
            files.pop(n)
    files[path] = entry


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("steps_read", ["by compose_stats", "ahead by step_changes"])
def test_composed_equals_direct(tmp_path: Path, seed: int, steps_read: str) -> None:
    root = tmp_path / "r"
    trees = _chain(root, seed, 25)
    base = trees[0]
    steps = [(base, t, p) for p, t in itertools.pairwise(trees)]
    repo = Repository.open(str(root))
    if steps_read != "by compose_stats":  # as the push gate reads them for attribution
        assert repo.step_changes(list(itertools.pairwise(trees))) is not None
    repo.compose_stats(steps)
    repo.prefetch_diffs([(base, t) for t in trees[1:]], None)
    fresh = Repository.open(str(root))
    for tree in trees[1:]:
        assert repo.diff_stats(base, tree) == fresh.diff_stats(base, tree), (seed, tree)


def _additions(tmp_path: Path, n: int) -> tuple[Path, list[str]]:
    """A chain of ``n`` commits that each add one file; the root and the commits' trees."""
    root = tmp_path / "r"
    git(tmp_path, "init", "-q", str(root))
    stream = []
    for k in range(n):
        data = b"v = %d\n" % k
        stream.append(
            b"commit refs/heads/main\ncommitter A <a@b> %d +0000\ndata 2\nc\n" % (1700000000 + k)
            + b"M 100644 inline f%d.py\ndata %d\n%s\n" % (k, len(data), data)
        )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream), check=True)
    return root, git(root, "log", "--reverse", "--format=%T", "main").split()


def test_composition_diffs_less(tmp_path: Path) -> None:
    """A chain of additions is composed: the steps are diffed, not each pair whole."""
    root, trees = _additions(tmp_path, 30)
    repo = Repository.open(str(root))
    repo.compose_stats([(trees[0], t, p) for p, t in itertools.pairwise(trees)])
    assert all((trees[0], t) in repo._stats for t in trees[1:])
    assert len(repo.diff_stats(trees[0], trees[-1])) == 29


def test_steps_read_ahead_leave_nothing_to_diff(tmp_path: Path) -> None:
    """With the steps read by :meth:`step_changes` (the push gate's attribution diff), a
    chain that starts at its base is composed without diffing or listing a tree again."""
    root, trees = _additions(tmp_path, 12)
    repo = Repository.open(str(root))
    steps = list(itertools.pairwise(trees))
    got = repo.step_changes(steps)
    assert got is not None and [len(g) for g in got] == [1] * 11
    trace = tmp_path / "trace"
    repo.env["GIT_TRACE2_EVENT"] = str(trace)
    repo.compose_stats([(trees[0], t, p) for p, t in steps])
    started = trace.read_text() if trace.exists() else ""
    assert '"diff-tree"' not in started and '"ls-tree"' not in started
    fresh = Repository.open(str(root))
    for tree in trees[1:]:
        assert repo._stats[(trees[0], tree)] == fresh.diff_stats(trees[0], tree)


def test_one_step_read_ahead_is_composed_without_a_process(tmp_path: Path) -> None:
    """A push of one commit on its base: the step the attribution diff read is the pair's
    numstat, composed with no ``git diff`` of its own (a lone step is otherwise left to be
    diffed whole)."""
    root, trees = _additions(tmp_path, 2)
    repo = Repository.open(str(root))
    assert repo.step_changes([(trees[0], trees[1])]) is not None
    trace = tmp_path / "trace"
    repo.env["GIT_TRACE2_EVENT"] = str(trace)
    repo.compose_stats([(trees[0], trees[1], trees[0])])
    assert (trees[0], trees[1]) in repo._stats
    started = trace.read_text() if trace.exists() else ""
    assert '"diff-tree"' not in started and '"diff"' not in started
    assert repo.diff_stats(trees[0], trees[1]) == Repository.open(str(root)).diff_stats(
        trees[0], trees[1]
    )
    lone = Repository.open(str(root))  # its step not read: nothing composed, diffed whole
    lone.compose_stats([(trees[0], trees[1], trees[0])])
    assert (trees[0], trees[1]) not in lone._stats


@pytest.mark.parametrize("seed", range(12))
def test_a_lone_step_composed_equals_direct(tmp_path: Path, seed: int) -> None:
    """Each pair of a random chain composed alone, from its step read ahead and the pair
    before it (or the base), equals ``git diff --raw --numstat`` of the pair."""
    root = tmp_path / "r"
    trees = _chain(root, seed, 25)
    base = trees[0]
    fresh = Repository.open(str(root))
    for prev, tree in itertools.pairwise(trees):
        repo = Repository.open(str(root))
        if prev != base:
            repo.prefetch_diffs([(base, prev)], None)
            repo._stats[(base, prev)] = fresh.diff_stats(base, prev)
        assert repo.step_changes([(prev, tree)]) is not None
        repo.compose_stats([(base, tree, prev)])
        assert repo.diff_stats(base, tree) == fresh.diff_stats(base, tree), (seed, tree)
