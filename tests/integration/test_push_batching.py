"""The push gate's batched git reads give exactly what one process per commit gives.

* ``Repository.prefetch_diffs``: every (base tree, tree) pair's numstat and ``-G`` scan from
  two ``git diff-tree --stdin`` processes equal ``diff_stats`` / ``added_lines_matching``
  run pair by pair (renames, binary, mode flips, symlinks, deletions, empty and repeated
  pairs, a shebang on line 1, ``diff.algorithm`` set, an invalid ``diff.algorithm``).
* ``Repository.new_commits_of_tips``: one walk of many tips lists for each what
  ``new_commits`` lists for it alone; ``peel_many`` peels what ``peel_commit`` peels.
* ``Repository.learn_merge_bases``: what it learns equals ``git merge-base`` for every
  commit (linear history, a merged side branch, a criss-cross with two best ancestors).

Real repositories driven with the git CLI; nothing is mocked.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from tests.conftest import commit_all, git, write

ERE = RiskSettings().process_preselect


def _tree(repo: Path, rev: str) -> str:
    return git(repo, "rev-parse", f"{rev}^{{tree}}").strip()


def _fresh(repo: Path) -> Repository:
    return Repository.open(str(repo))


def _history(root: Path) -> list[str]:
    """Commits exercising every kind of path change the adapter parses; their ids."""
    root.mkdir()
    git(root, "init", "-q")
    rng = random.Random(8)
    body = "".join(f"line {i} {rng.random()}\n" for i in range(60))
    write(root / "src/app.py", body)
    write(root / "src/old_name.py", body + "x = 1\n")
    write(root / "docs/guide.md", "# guide\n")
    write(root / "bin/tool", "echo hi\n", mode=0o644)
    write(root / "data.bin", b"\0\1\2" * 50)
    # attributes: a text file diffed as binary (numstat "-"), as git diff reads them
    write(root / ".gitattributes", "*.dat -diff\n")
    write(root / "notes.dat", "one\n")
    commits = [commit_all(root, "base")]
    # a rename with an edit that adds a process call, an exec-bit flip, binary change
    git(root, "mv", "src/old_name.py", "src/new_name.py")
    write(root / "src/new_name.py", body + "x = 1\nimport subprocess\nsubprocess.run(['ls'])\n")
    (root / "bin/tool").chmod(0o755)
    write(root / "data.bin", b"\0\3\2" * 50)
    write(root / "notes.dat", "one\ntwo\n")
    commits.append(commit_all(root, "rename, exec, binary"))
    # a shebang added on line 1, a symlink, a deletion, a doc edit
    write(root / "scripts/run.py", "#!/usr/bin/env python3\nprint('x')\n")
    (root / "link").symlink_to("src/app.py")
    git(root, "rm", "-q", "docs/guide.md")
    commits.append(commit_all(root, "shebang, symlink, delete"))
    # an edit that removes the process call (old side matches, new side does not)
    write(root / "src/new_name.py", body + "x = 2\n")
    write(root / "src/app.py", body.replace("line 30", "line thirty"))
    commits.append(commit_all(root, "remove the call"))
    commits.append(commit_all(root, "empty"))  # --allow-empty: the same tree again
    return commits


@pytest.mark.parametrize("algorithm", [None, "histogram", "minimal", "patience"])
def test_prefetched_diffs_equal_one_process_per_pair(tmp_path: Path, algorithm: str | None) -> None:
    root = tmp_path / "r"
    commits = _history(root)
    if algorithm:
        git(root, "config", "diff.algorithm", algorithm)
    trees = [_tree(root, c) for c in commits]
    base = trees[0]
    pairs = [(base, t) for t in trees] + [(trees[1], trees[3]), (trees[3], trees[1]), (base, base)]
    pairs.append(pairs[1])  # a repeated pair
    batched = _fresh(root)
    assert batched.prefetch_diffs(pairs, ERE) is True
    single = _fresh(root)
    for a, b in pairs:
        assert batched.diff_stats(a, b) == single.diff_stats(a, b), (a, b)
        assert batched.added_lines_matching(a, b, ERE) == single.added_lines_matching(a, b, ERE), (
            a,
            b,
        )
    # the history really exercises the scan: a process call and a shebang are found
    found = {x.path for a, b in pairs for x in batched.added_lines_matching(a, b, ERE)}
    assert "src/new_name.py" in found
    dat = [c for c in batched.diff_stats(base, trees[1]) if c.path == "notes.dat"]
    assert dat and dat[0].additions is None  # the attribute made it binary, as git diff does
    # and the counts are git's own
    numstat = git(root, "diff", "--numstat", base, trees[2]).split("\n")
    ours = {c.path: (c.additions, c.deletions) for c in batched.diff_stats(base, trees[2])}
    for line in filter(None, numstat):
        added, deleted, path = line.split("\t")
        if "=>" not in path:
            want = (None, None) if added == "-" else (int(added), int(deleted))
            assert ours[path] == want, path


def test_prefetch_with_an_invalid_diff_algorithm_keeps_nothing(tmp_path: Path) -> None:
    """A setting git refuses: nothing is kept, and the per-pair diff reports git's error."""
    root = tmp_path / "r"
    commits = _history(root)
    git(root, "config", "diff.algorithm", "no-such-algorithm")
    trees = [_tree(root, c) for c in commits]
    repo = _fresh(root)
    assert repo.prefetch_diffs([(trees[0], t) for t in trees[1:]], ERE) is False
    with pytest.raises(GitError):
        repo.diff_stats(trees[0], trees[1])


def test_prefetch_of_a_missing_tree_keeps_nothing(tmp_path: Path) -> None:
    root = tmp_path / "r"
    commits = _history(root)
    trees = [_tree(root, c) for c in commits]
    repo = _fresh(root)
    assert repo.prefetch_diffs([(trees[0], trees[1]), (trees[0], "1" * 40)], ERE) is False
    assert repo.diff_stats(trees[0], trees[1]) == _fresh(root).diff_stats(trees[0], trees[1])


def _merge_base(root: Path, a: str, b: str) -> str:
    proc = subprocess.run(["git", "merge-base", a, b], cwd=root, capture_output=True, text=True)
    return proc.stdout.strip()


def _learn_and_compare(root: Path, base: str, tip: str) -> int:
    """Learn merge-bases for every commit of ``base..tip``; check each against git; return
    how many were learnt (answered without a process)."""
    ids = git(root, "rev-list", "--topo-order", "--reverse", tip, f"^{base}").split()
    repo = _fresh(root)
    repo.learn_merge_bases(base, tip, repo.read_commits(ids))
    learnt = 0
    for c in ids:
        if (base, c) in repo._merge_bases:
            learnt += 1
        assert repo.merge_base(base, c) == _merge_base(root, base, c), c
    return learnt


def test_learnt_merge_bases_equal_git_linear_and_merged(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a", "0\n")
    commit_all(root, "root")
    git(root, "switch", "-q", "-c", "topic")
    for i in range(4):
        write(root / "a", f"{i}\n")
        commit_all(root, f"topic {i}")
    git(root, "switch", "-q", "main")
    for i in range(3):
        write(root / "m", f"{i}\n")
        commit_all(root, f"main {i}")
    main = git(root, "rev-parse", "main").strip()
    topic = git(root, "rev-parse", "topic").strip()
    assert _learn_and_compare(root, main, topic) == 4  # all of a linear topic learnt
    # a side branch off main merged into topic: its commits descend from main's tip
    git(root, "switch", "-q", "-c", "side", "main")
    write(root / "s", "1\n")
    commit_all(root, "side")
    git(root, "switch", "-q", "topic")
    git(root, "merge", "-q", "--no-edit", "side")
    tip = git(root, "rev-parse", "HEAD").strip()
    old_main = git(root, "rev-parse", "main~2").strip()
    assert _learn_and_compare(root, old_main, tip) >= 1
    assert _learn_and_compare(root, main, tip) >= 1


def test_criss_cross_with_two_best_ancestors_learns_nothing(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a", "0\n")
    commit_all(root, "root")
    git(root, "branch", "b")
    write(root / "x", "1\n")
    commit_all(root, "main 1")
    git(root, "switch", "-q", "b")
    write(root / "y", "1\n")
    commit_all(root, "b 1")
    b1 = git(root, "rev-parse", "HEAD").strip()
    git(root, "switch", "-q", "main")
    m1 = git(root, "rev-parse", "HEAD").strip()
    git(root, "merge", "-q", "--no-edit", b1)
    git(root, "switch", "-q", "b")
    git(root, "merge", "-q", "--no-edit", m1)
    write(root / "z", "1\n")
    commit_all(root, "b 2")
    main = git(root, "rev-parse", "main").strip()
    tip = git(root, "rev-parse", "b").strip()
    bests = git(root, "merge-base", "--all", main, tip).split()
    assert len(bests) == 2  # the criss-cross really has two best common ancestors
    assert _learn_and_compare(root, main, tip) == 0


def test_one_walk_of_many_tips_lists_each_tip_as_its_own_rev_list(tmp_path: Path) -> None:
    """``new_commits_of_tips``: each tip's commits are those ``new_commits`` lists for it
    alone (merges, a criss-cross, a tip already on the remote, a repeated tip), parents
    before children and the tip last; ``peel_many`` peels tags, and a chunk holding a
    non-commit keeps nothing, each id then peeled alone."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root / "a", "0\n")
    commit_all(root, "root")
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")  # what the remote has
    for name, files in (("x", "bc"), ("y", "de")):
        git(root, "switch", "-q", "-c", name, "main")
        for f in files:
            write(root / f, f"{name}\n")
            commit_all(root, f"{name} {f}")
    git(root, "switch", "-q", "x")
    git(root, "merge", "-q", "--no-edit", "y")  # a merge of two new lines of history
    git(root, "switch", "-q", "y")
    git(root, "merge", "-q", "--no-edit", "x~1")  # and a criss-cross
    git(root, "tag", "-a", "-m", "t", "t1", "x")
    tips = [git(root, "rev-parse", r).strip() for r in ("x", "y", "y~1", "main", "x", "x~1")]
    repo = _fresh(root)
    walked = repo.new_commits_of_tips(tips, "origin")
    parents = {
        c: ps
        for c, *ps in (
            line.split() for line in git(root, "rev-list", "--parents", "--all").splitlines()
        )
    }
    for tip in tips:
        alone = _fresh(root).new_commits(tip, remote="origin")
        assert sorted(walked[tip]) == sorted(alone), tip
        assert not alone or walked[tip][-1] == tip
        place = {c: i for i, c in enumerate(walked[tip])}
        assert all(place[p] < place[c] for c in walked[tip] for p in parents[c] if p in place)
    assert walked[tips[3]] == []  # main is on the remote
    assert repo.new_commits_of_tips([], "") == {}
    tag = git(root, "rev-parse", "t1").strip()
    tree = git(root, "rev-parse", "x^{tree}").strip()
    peeling = _fresh(root)
    peeling.peel_many([tag, tips[1]])
    assert peeling._peeled == {f"{tag}^{{commit}}": tips[0], f"{tips[1]}^{{commit}}": tips[1]}
    assert peeling.peel_commit(tag) == tips[0]
    failing = _fresh(root)
    failing.peel_many([tag, tree])
    assert failing._peeled == {}
    assert (failing.peel_commit(tag), failing.peel_commit(tree)) == (tips[0], None)


def test_config_read_with_gentle_config_answers_as_git_config_get(tmp_path: Path) -> None:
    """``remote.<name>.url`` and ``diff.algorithm`` come from the same process as the
    ``gentle.*`` keys; every answer equals ``git config --get``; a config write forgets them."""
    root = tmp_path / "r"
    _history(root)
    git(root, "config", "gentle.gate.mode", "warn")
    git(root, "config", "remote.origin.url", "https://example.com/a.git")
    git(root, "config", "remote.My.Fork.url", "/srv/fork.git")
    git(root, "config", "--add", "remote.twice.url", "first")
    git(root, "config", "--add", "remote.twice.url", "second")
    git(root, "config", "diff.algorithm", "histogram")
    repo = _fresh(root)
    assert repo.gentle_config() == b"gentle.gate.mode\nwarn\0"
    keys = [
        "remote.origin.url",
        "remote.My.Fork.url",
        "REMOTE.My.Fork.URL",
        "remote.my.fork.url",  # a subsection is case-sensitive: unset
        "remote.twice.url",
        "remote.none.url",
        "diff.algorithm",
        "Diff.Algorithm",
    ]
    for key in keys:
        proc = subprocess.run(["git", "config", "--get", key], cwd=root, capture_output=True)
        want = proc.stdout.decode().strip() if proc.returncode == 0 else None
        assert repo.config_get(key) == want, key
    repo.run(["config", "remote.origin.url", "changed"])
    assert repo.config_get("remote.origin.url") == "changed"


def test_multi_values_read_with_gentle_config_answer_as_git_config_get_all(
    tmp_path: Path,
) -> None:
    """``remote.<name>.push`` and ``gentle-hooks.shareWith`` (whether a push shares the
    notes) come from the process that reads ``gentle.*``: every answer equals ``git config
    --get-all`` (several values in order, a value-less key, a value holding a newline, a
    subsection's case); a config write forgets them."""
    root = tmp_path / "r"
    _history(root)
    git(root, "config", "--add", "remote.origin.push", "refs/heads/*:refs/heads/*")
    git(root, "config", "--add", "remote.origin.push", "refs/notes/gentle-hooks*:refs/notes/x*")
    git(root, "config", "remote.My.Fork.push", "a\nb")
    git(root, "config", "--add", "gentle-hooks.shareWith", "origin")
    git(root, "config", "--add", "gentle-hooks.shareWith", "My.Fork")
    with open(root / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write('[remote "bare"]\n\tpush\n')
    repo = _fresh(root)
    repo.gentle_config()
    keys = [
        "remote.origin.push",
        "Remote.origin.PUSH",
        "remote.My.Fork.push",
        "remote.my.fork.push",  # a subsection is case-sensitive: unset
        "remote.bare.push",
        "remote.none.push",
        "gentle-hooks.shareWith",
        "GENTLE-HOOKS.SHAREWITH",
    ]
    runs = []
    repo._will_run = lambda args: runs.append(list(args))  # type: ignore[method-assign]
    for key in keys:
        proc = subprocess.run(["git", "config", "--get-all", key], cwd=root, capture_output=True)
        assert repo.config_get_all(key) == proc.stdout.decode().splitlines(), key
    assert runs == []  # every answer from the one process
    del repo._will_run
    repo.run(["config", "--add", "remote.origin.push", "HEAD"])
    assert repo.config_get_all("remote.origin.push")[-1] == "HEAD"


def test_a_path_spelling_the_next_echo_line_is_not_taken_for_it(tmp_path: Path) -> None:
    """A file named ``<base tree> <next tree>\\n…`` (the line diff-tree echoes before the
    next pair) is a path, not a pair boundary: the counts equal one process per pair."""
    root = tmp_path / "r"
    commits = _history(root)
    base, first = _tree(root, commits[0]), _tree(root, commits[1])
    git(root, "switch", "-q", "-c", "scratch", commits[1])
    write(root / "README", "next\n")
    nxt = _tree(root, commit_all(root, "next"))
    git(root, "switch", "-q", "-")
    write(root / f"{base} {nxt}\nnotes.txt", "hello\n")
    crafted = _tree(root, commit_all(root, "crafted"))
    pairs = [(base, crafted), (base, nxt), (first, crafted)]
    repo = _fresh(root)
    assert repo.prefetch_diffs(pairs, ERE) is True
    single = _fresh(root)
    for a, b in pairs:
        assert repo.diff_stats(a, b) == single.diff_stats(a, b), (a, b)
        assert repo.added_lines_matching(a, b, ERE) == single.added_lines_matching(a, b, ERE)


def test_a_diff_algorithm_git_refuses_is_refused_as_git_diff_refuses_it(tmp_path: Path) -> None:
    """``diff.algorithm = " histogram"`` (quoted, with a space): git diff fails on it, so the
    batch keeps nothing and each pair reports git's own error."""
    root = tmp_path / "r"
    commits = _history(root)
    with open(root / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write('[diff]\n\talgorithm = " histogram"\n')
    trees = [_tree(root, c) for c in commits]
    repo = _fresh(root)
    repo.gentle_config()  # the value comes from the shared config read, as in the hook
    assert repo.prefetch_diffs([(trees[0], t) for t in trees[1:]], ERE) is False
    with pytest.raises(GitError, match=r"diff\.algorithm"):
        repo.diff_stats(trees[0], trees[1])


def test_prefetch_builtin_finds_the_same_process_hits_as_one_scan_per_pair(
    tmp_path: Path,
) -> None:
    """The push gate's batch: numstat for all pairs, one blob search, ``-G`` only over the
    pairs that may hold a hit. Every pair's flagged lines equal a whole ``-G`` scan's."""
    from gentle_hooks.native.builtin import prefetch_builtin
    from gentle_hooks.native.classifier import process_hits

    root = tmp_path / "r"
    commits = _history(root)
    trees = [_tree(root, c) for c in commits]
    risk = RiskSettings()
    pairs = [(trees[0], t) for t in trees[1:]] + [(trees[1], trees[3]), (trees[3], trees[2])]
    batched = _fresh(root)
    assert prefetch_builtin(batched, pairs, risk) is True
    single = _fresh(root)
    flagged = 0
    for a, b in pairs:
        assert batched.prefetched(a, b, ERE)
        assert batched.diff_stats(a, b) == single.diff_stats(a, b)
        got = process_hits(batched.added_lines_matching(a, b, ERE), risk)
        want = process_hits(single.added_lines_matching(a, b, ERE), risk)
        assert got == want, (a, b)
        flagged += len(want)
    assert flagged >= 2  # the history holds a process call and a shebang to find


@pytest.mark.parametrize("submodule", ["diff", "log", "short"])
def test_porcelain_settings_plumbing_ignores_are_passed(tmp_path: Path, submodule: str) -> None:
    """``diff.submodule`` (a submodule's content in the scan with ``diff``) and
    ``diff.orderFile`` (the order of paths) shape ``git diff``; the batch passes them, so
    every pair still equals one porcelain process."""
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q")
    write(sub / "a", "a\n")
    s1 = commit_all(sub, "s1")
    write(sub / "x.py", "import subprocess\nsubprocess.run(['x'])\n")
    s2 = commit_all(sub, "s2")
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "b.py", "b\n")
    write(root / "z.py", "z\n")
    git(tmp_path, "clone", "-q", str(sub), str(root / "sub"))
    git(root / "sub", "checkout", "-q", s1)
    base = _tree(root, commit_all(root, "base"))  # sub: an embedded repository, a gitlink
    git(root / "sub", "checkout", "-q", s2)
    one = _tree(root, commit_all(root, "bump"))
    write(root / "b.py", "b2\n")
    write(root / "z.py", "z2\n")
    git(root, "add", "b.py", "z.py")
    two = _tree(root, commit_all(root, "edit"))
    write(root / "order.txt", "z.py\nsub\n")
    git(root, "config", "diff.orderFile", "order.txt")
    git(root, "config", "diff.submodule", submodule)
    pairs = [(base, one), (base, two)]
    batched = _fresh(root)
    batched.gentle_config()
    assert batched.prefetch_diffs(pairs, ".") is True
    single = _fresh(root)
    for a, b in pairs:
        assert batched.diff_stats(a, b) == single.diff_stats(a, b)
        assert batched.added_lines_matching(a, b, ".") == single.added_lines_matching(a, b, ".")
    assert [c.path for c in batched.diff_stats(base, two)] == ["z.py", "sub", "b.py"]
    inner = [x.path for x in batched.added_lines_matching(base, one, ".")]
    assert ("sub/x.py" in inner) is (submodule == "diff")
