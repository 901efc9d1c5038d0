"""The process-execution scan skips what cannot match, and finds what one ``-G`` scan finds.

Every case compares the built-in assessment with the reference it must equal: git's numstat
diff, the documentation blobs, and one ``git diff -U0 -G <process_preselect>`` over the
whole diff, classified together. Real repositories, real git.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.errors import GitError
from gentle_hooks.git.parse import Listed, listing
from gentle_hooks.git.repository import Repository
from gentle_hooks.native.builtin import _ProcessScan, assess_native_builtin, gather_inputs
from gentle_hooks.native.classifier import (
    PROCESS_SCAN_LINE_LIMIT,
    SHEBANG,
    doc_blobs_to_prove,
    process_hits,
    process_needles,
    rename_blobs,
    upstream_stats,
)
from gentle_hooks.values.candidate import Projection
from tests.classifying import classify
from tests.conftest import commit_all, git, write

S = RiskSettings()
BODY = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(20))


def flagged(lines, risk: RiskSettings) -> list[tuple[str, str]]:
    """The lines :func:`process_hits` flags, as (path, what and where)."""
    out = []
    for hit in process_hits(lines, risk):
        what = "shebang" if hit.line == 1 and hit.text.startswith("#!") else "process call"
        out.append((hit.path, f"{what} at line {hit.line}: {hit.text.strip()[:120]}"))
    return out


def assess(root: Path, base: str = "HEAD~1", risk: RiskSettings = S):
    """The built-in inputs of HEAD against ``base``, checked against the reference: git's
    numstat, the documentation blobs and one ``-G`` scan over the whole diff, classified
    together. Returns the changes and the flagged lines."""
    repo = Repository.open(str(root))
    cand = repo.candidate(Projection.COMMITTED, flag_ref=base, config_ref=None)
    changes, blobs, added = gather_inputs(repo, cand, risk)
    _, env = assess_native_builtin(repo, cand, risk)
    ref_changes = repo.diff_stats(cand.base.tree, cand.tree)
    ref_blobs = repo.read_blobs(doc_blobs_to_prove(ref_changes, risk))
    ref_added = repo.added_lines_matching(cand.base.tree, cand.tree, risk.process_preselect)
    assert changes == ref_changes and blobs == ref_blobs
    ref_stats, whole = ref_changes, []
    if any(c.status in ("R", "C") for c in ref_changes):  # counted as upstream counts them
        ref_stats, whole = upstream_stats(ref_changes, repo.read_blobs(rename_blobs(ref_changes)))
        ref_blobs = repo.read_blobs(doc_blobs_to_prove(ref_stats, risk))
    reference = classify(
        ref_stats, ref_blobs, [*ref_added, *whole], risk, kind="base-diff", base_ref=cand.base.ref
    )
    assert env == reference
    assert flagged(added, risk) == flagged(ref_added, risk)
    return changes, flagged(added, risk)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a.py", BODY)
    write(root / "run.py", "import subprocess\n" + BODY)
    write(root / "tool", "#!/bin/sh\necho one\n", mode=0o755)
    commit_all(root, "base")
    return root


def test_rename_whose_new_side_adds_a_process_call(root: Path) -> None:
    git(root, "mv", "a.py", "b.py")
    write(root / "b.py", BODY + "subprocess.run(['make'])\n")
    commit_all(root)
    changes, hits = assess(root)
    assert [(c.status, c.old_path, c.path) for c in changes] == [("R", "a.py", "b.py")]
    assert hits == [("b.py", "process call at line 41: subprocess.run(['make'])")]


def test_a_renamed_file_keeps_its_unchanged_calls_out(root: Path) -> None:
    """Scanned path to path without renames, the new side would look added line by line
    and its old call would count: a rename among the candidates scans the whole diff."""
    write(root / "c.py", BODY + "subprocess.run(['old'])\n")
    commit_all(root, "c")
    git(root, "mv", "c.py", "d.py")
    write(root / "d.py", BODY + "subprocess.run(['old'])\nsubprocess.run(['new'])\n")
    commit_all(root)
    assert assess(root)[1] == [("d.py", "process call at line 42: subprocess.run(['new'])")]


def test_a_call_removed_is_no_hit(root: Path) -> None:
    write(root / "run.py", BODY + "x = 1\n")
    commit_all(root)
    assert assess(root)[1] == []


def test_a_call_in_an_unchanged_line_of_a_changed_file_is_no_hit(root: Path) -> None:
    write(root / "run.py", "import subprocess\n" + BODY.replace("x + 7", "x + 70"))
    commit_all(root)
    assert assess(root)[1] == []


def test_a_shebang_added_on_line_one(root: Path) -> None:
    write(root / "a.py", "#!/usr/bin/env python3\n" + BODY)
    write(root / "tool", "#!/bin/sh\necho two\n", mode=0o755)  # kept shebang: no hit
    commit_all(root)
    assert assess(root)[1] == [("a.py", "shebang at line 1: #!/usr/bin/env python3")]


@pytest.mark.parametrize("lines", [1, 3])
def test_an_over_long_line_in_a_selected_file_without_a_call_is_flagged(
    root: Path, lines: int
) -> None:
    """A line too long to scan, added to a file the ``-G`` scan selects ("filesystem"
    matches the preselect), is flagged unscanned though the blob holds no needle: as one
    ``-G`` scan over the whole diff flags it (the blob search once left that file out)."""
    long = "x" * (PROCESS_SCAN_LINE_LIMIT + 1)
    write(root / "a.py", BODY + "filesystem = 1\n" + "y = 2\n" * (lines - 1) + long + "\n")
    commit_all(root)
    assert assess(root)[1] == [("a.py", f"process call at line {41 + lines}: {long[:120]}")]


def test_a_long_file_of_short_lines_is_not_searched_further(root: Path) -> None:
    """Lines at the limit are no reason to scan a file (the search looks for longer ones)."""
    at_limit = "x" * PROCESS_SCAN_LINE_LIMIT
    write(root / "a.py", BODY + "filesystem = 1\n" + (at_limit + "\n") * 3)
    commit_all(root)
    assert assess(root)[1] == []


def test_binary_files_and_deletions_bring_no_hit(root: Path) -> None:
    write(root / "blob.bin", b"\0\1subprocess.run(x)\n#!/bin/sh\n")
    git(root, "rm", "-q", "run.py")
    commit_all(root)
    changes, hits = assess(root)
    assert {c.path for c in changes} == {"blob.bin", "run.py"} and hits == []


def test_submodule_bump(root: Path, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    write(lib / "x.py", "subprocess.run(1)\n")
    commit_all(lib, "lib 1")
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    commit_all(root, "add submodule")
    write(lib / "x.py", "subprocess.run(2)\n")
    commit_all(lib, "lib 2")
    git(root / "vendor" / "lib", "pull", "-q", "origin", "main")
    commit_all(root, "bump")
    changes, hits = assess(root)
    assert [c.path for c in changes] == ["vendor/lib"] and hits == []
    # a submodule commit has no blob to read: it is always scanned
    risk = RiskSettings(process_patterns=(r"^Subproject commit",), process_preselect="Subproject")
    new = git(root, "rev-parse", "HEAD:vendor/lib").strip()
    assert assess(root, risk=risk)[1] == [
        ("vendor/lib", f"process call at line 1: Subproject commit {new}")
    ]


@pytest.mark.parametrize("env", [{}, {"GIT_GLOB_PATHSPECS": "1"}, {"GIT_ICASE_PATHSPECS": "1"}])
def test_odd_paths_are_scanned_path_to_path(
    root: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many changes, few that may hold a hit: those are scanned by literal pathspec, even
    with names that are pathspec magic or glob patterns, whatever the environment says."""
    for i in range(30):
        write(root / "pkg" / f"m{i}.py", BODY)
    odd = ["[ab]*.py", ":(glob)x.py", "-dash.py", "sp ace/é.py", "new\nline.py", "A.PY"]
    for name in odd:
        write(root / name, "import os\nos.system('ls')\n")
    write(root / "a.PY", "os.system('x')\n")  # another case: not a match for "A.PY"
    commit_all(root, "more")
    for i in range(30):
        write(root / "pkg" / f"m{i}.py", BODY + f"y = {i}\n")
    for name in odd:
        write(root / name, "import os\nos.system('ls')\nos.system('rm')\n")
    commit_all(root)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    _, hits = assess(root)
    assert sorted(hits) == sorted((name, "process call at line 3: os.system('rm')") for name in odd)


def test_patterns_without_a_literal_scan_the_whole_diff(root: Path) -> None:
    risk = RiskSettings(process_patterns=(r"^\w+\W\d\W$",), process_preselect="launch")
    assert process_needles(risk) is None
    write(root / "a.py", BODY + "launch(1)\n")
    commit_all(root)
    assert assess(root, risk=risk)[1] == [("a.py", "process call at line 41: launch(1)")]


def test_a_preselect_that_misses_a_pattern_is_honoured(root: Path) -> None:
    """The configured ``-G`` preselect decides which files are scanned, as before: a line
    the patterns flag counts only in a file whose changed lines the preselect matches."""
    risk = RiskSettings(process_patterns=(r"\bfrobnicate\(",), process_preselect="spawn_it")
    write(root / "a.py", BODY + "frobnicate(1)\n")
    write(root / "run.py", "spawn_it = 1\nfrobnicate(2)\n")
    commit_all(root)
    assert assess(root, risk=risk)[1] == [("run.py", "process call at line 2: frobnicate(2)")]


def test_a_prefetched_pair_is_answered_as_diffed(root: Path) -> None:
    """The push gate diffs its commits ahead (prefetch_diffs): the assessment of such a
    pair reads what was prefetched, and it is the same assessment."""
    write(root / "a.py", BODY + "subprocess.run(['x'])\n")
    commit_all(root, "one")
    write(root / "run.py", "#!/bin/sh\n" + BODY)
    commit_all(root, "two")
    repo = Repository.open(str(root))
    cand = repo.candidate(Projection.COMMITTED, flag_ref="HEAD~2", config_ref=None)
    other = git(root, "rev-parse", "HEAD~1^{tree}").strip()
    pairs = [(cand.base.tree, cand.tree), (cand.base.tree, other)]
    assert repo.prefetch_diffs(pairs, S.process_preselect)
    assert repo.prefetched(cand.base.tree, cand.tree, S.process_preselect)
    assert assess_native_builtin(repo, cand, S) == assess_native_builtin(
        Repository.open(str(root)), cand, S
    )
    assert assess(root, base="HEAD~2")[1] == [
        ("a.py", "process call at line 41: subprocess.run(['x'])"),
        ("run.py", "shebang at line 1: #!/bin/sh"),
    ]


def test_blob_search_reads_large_blobs_and_keeps_unknown_ids(root: Path) -> None:
    big = b"x" * ((1 << 20) - 3) + b"Popen(" + b"y" * 100
    write(root / "big.txt", big)
    write(root / "plain.txt", b"nothing here\n" * 10000)
    write(root / "script", b"#!/bin/sh\n")
    commit_all(root)
    oid = {
        name: git(root, "rev-parse", f"HEAD:{name}").strip()
        for name in ("big.txt", "plain.txt", "script", "a.py")
    }
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    missing = "1" * len(tree)
    repo = Repository.open(str(root))
    search = repo.search_blobs([b"Popen"], SHEBANG)
    search.add([oid["plain.txt"], oid["big.txt"]])
    search.add([oid["script"], oid["a.py"], tree, missing])
    assert search.finish() == {oid["big.txt"], oid["script"], tree, missing}
    assert repo.search_blobs([b"Popen"], SHEBANG).finish() == set()


def test_a_failed_cat_file_is_a_git_error(root: Path, tmp_path: Path) -> None:
    repo = Repository.open(str(root))
    repo.env = {**repo.env, "GIT_DIR": str(tmp_path / "nowhere")}
    search = repo.search_blobs([b"Popen"], SHEBANG)
    search.add(["1" * 40])
    with pytest.raises(GitError, match=r"git cat-file failed: .*not a git repository"):
        search.finish()
    search.abort()


def test_streamed_diff_stats_equal_the_whole_output(root: Path) -> None:
    for i in range(3000):
        write(root / f"d{i % 7}" / f"file {i}.txt", f"{i}\n")
    commit_all(root, "many")
    for i in range(0, 3000, 2):
        write(root / f"d{i % 7}" / f"file {i}.txt", f"{i}\n{i}\n")
    git(root, "mv", "a.py", "moved.py")
    commit_all(root)
    repo = Repository.open(str(root))
    base = git(root, "rev-parse", "HEAD~1^{tree}").strip()
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    calls: list[tuple[int, bool]] = []
    listed: list[Listed] = []

    def on_listed(items: list[Listed], done: bool) -> None:
        calls.append((len(items), done))
        listed.extend(items)

    changes = repo.diff_stats(base, tree, on_listed=on_listed)
    assert changes == repo.diff_stats(base, tree)
    assert listed == [listing(c) for c in changes]
    assert calls[-1][1] is True and all(not done for _, done in calls[:-1])
    with pytest.raises(GitError, match="git diff failed"):
        repo.diff_stats(base, "0" * len(tree), on_listed=on_listed)


OPS = st.lists(
    st.tuples(
        st.sampled_from(["edit", "rename", "delete", "binary", "chmod"]),
        st.sampled_from(["a.py", "run.py", "tool", "x/é y.py", "new.py"]),
        st.sampled_from(["", "subprocess.run(x)", "#!/bin/sh", "Popen(y)", "plain"]),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_generated_changes_scan_as_one_whole_diff_scan(ops) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "init", "-q")
        write(root / "a.py", BODY)
        write(root / "run.py", "import subprocess\n" + BODY)
        write(root / "tool", "#!/bin/sh\necho one\n", mode=0o755)
        commit_all(root, "base")
        for i, (kind, name, line) in enumerate(ops):
            path = root / name
            if kind == "edit":
                old = path.read_text() if path.exists() else ""
                lines = old.splitlines()
                lines.insert(i % (len(lines) + 1), line)
                write(path, "\n".join(lines) + "\n")
            elif kind == "rename" and path.exists():
                target = root / f"renamed{i}.py"
                os.replace(path, target)
                write(target, target.read_text() + line + "\n")
            elif kind == "delete" and path.exists():
                path.unlink()
            elif kind == "binary":
                write(path, b"\0" + line.encode())
            elif kind == "chmod" and path.exists():
                path.chmod(path.stat().st_mode ^ 0o111)
        commit_all(root)
        if git(root, "rev-parse", "HEAD^{tree}") != git(root, "rev-parse", "HEAD~1^{tree}"):
            assess(root)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_generated_changes_diffed_as_pair_trees_scan_as_one_whole_diff_scan(ops) -> None:
    """The same, every restricted scan diffing its changes as trees of their own."""
    with mock.patch("gentle_hooks.native.builtin._MAX_PATHSPECS", 0):
        test_generated_changes_scan_as_one_whole_diff_scan.hypothesis.inner_test(ops)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_generated_changes_listed_in_pieces_scan_as_one_whole_diff_scan(ops) -> None:
    """The same, git's output read 100 bytes at a time: the listing comes in pieces, and
    the scan completes it with a listing of its own while git counts."""
    read = os.read
    with mock.patch.object(os, "read", lambda fd, n: read(fd, min(n, 100))):
        test_generated_changes_scan_as_one_whole_diff_scan.hypothesis.inner_test(ops)


def test_folded_needles_find_any_case(tmp_path: Path) -> None:
    """A blob search with ``fold`` finds a needle in any ASCII case; without, only as is."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a.py", "import SubProcess\n")
    commit_all(root, "a")
    repo = Repository.open(str(root))
    oid = git(root, "rev-parse", "HEAD:a.py").strip()
    for fold, hit in ((True, True), (False, False)):
        search = repo.search_blobs([b"subprocess"], SHEBANG, fold)
        try:
            search.add([oid])
            assert (oid in search.finish()) is hit
        finally:
            search.abort()


def _git_argvs(trace: Path) -> list[list[str]]:
    """The argv of every git process a ``GIT_TRACE2_EVENT`` file names."""
    if not trace.exists():
        return []
    events = (json.loads(line) for line in trace.read_text().splitlines())
    return [e["argv"] for e in events if e.get("event") == "start"]


@pytest.mark.parametrize("new_call", [False, True])
def test_many_files_holding_unchanged_calls_diff_only_those_changes(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_call: bool
) -> None:
    """More changed files hold a call than pathspecs are given: only those changes are
    scanned, diffed as two trees of their own (no pathspec, not the candidate's trees),
    and the scan finds what one ``-G`` scan of the whole diff finds (the unchanged calls
    are no hit, a new one is). The candidate's inputs take four git processes (trace2):
    the count, the listing of its own (the count's comes in pieces), the blob search, one
    ``-G`` scan."""
    for i in range(90):
        write(root / f"m{i:02}.py", f"subprocess.run(['x{i}'])\n" + BODY)
        write(root / f"plain{i:02}.py", BODY)
    commit_all(root, "many")
    for i in range(90):
        body = BODY.replace("x + 3", f"x + {i + 100}")
        extra = "subprocess.run(['new'])\n" if new_call and i == 45 else ""
        write(root / f"m{i:02}.py", f"subprocess.run(['x{i}'])\n" + body + extra)
        write(root / f"plain{i:02}.py", body)
    commit_all(root)
    repo = Repository.open(str(root))
    cand = repo.candidate(Projection.COMMITTED, flag_ref="HEAD~1", config_ref=None)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the trees are written
    gather_inputs(Repository.open(str(root)), cand, S)
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    argvs = [a for a in _git_argvs(trace) if a[1:2] != ["rev-parse"]]  # the open's
    scans = [a for a in argvs if a[1:2] == ["diff"] and "-G" in a]
    assert len(argvs) <= 4 and len(scans) == 1 and "--" not in scans[0], argvs
    assert {cand.base.tree, cand.tree}.isdisjoint(scans[0][-2:]), scans[0]
    assert not list(tmp_path.glob("gentle-hooks-objects-*"))
    hits = assess(root)[1]
    assert hits == (
        [("m45.py", "process call at line 42: subprocess.run(['new'])")] if new_call else []
    )


def test_most_changes_holding_calls_scan_the_whole_diff_early(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More than half of the changes hold a call (and more than pathspecs are given): the
    scan of the whole diff starts before the search ends, on the candidate's own trees,
    and finds what it finds (the unchanged calls are no hit, a new one is)."""
    for i in range(90):
        write(root / f"m{i:02}.py", f"subprocess.run(['x{i}'])\n" + BODY)
    commit_all(root, "many")
    for i in range(90):
        extra = "subprocess.run(['new'])\n" if i == 45 else ""
        write(root / f"m{i:02}.py", f"subprocess.run(['x{i}'])\n" + BODY + f"v = {i}\n" + extra)
    commit_all(root)
    repo = Repository.open(str(root))
    cand = repo.candidate(Projection.COMMITTED, flag_ref="HEAD~1", config_ref=None)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    gather_inputs(Repository.open(str(root)), cand, S)
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    scans = [a for a in _git_argvs(trace) if a[1:2] == ["diff"] and "-G" in a]
    assert len(scans) == 1 and scans[0][-2:] == [cand.base.tree, cand.tree], scans
    assert assess(root)[1] == [("m45.py", "process call at line 43: subprocess.run(['new'])")]


@pytest.mark.parametrize("most", [False, True])
def test_the_scan_starts_before_the_count_lists_every_path(root: Path, most: bool) -> None:
    """Git holds the last piece of its listing until it has counted every line: a listing
    that comes in pieces is completed by a ``git diff --raw`` of its own, and the search
    and the scan (of the whole diff when most changes may bring a hit, else of those
    changes) start then, before the count's listing ends, with the same lines."""
    for i in range(90):
        write(root / f"m{i:02}.py", f"subprocess.run(['x{i}'])\n" + BODY)
        write(root / f"plain{i:02}.py", BODY)
    commit_all(root, "many")
    for i in range(90):
        extra = "subprocess.run(['new'])\n" if i == 45 else ""
        write(root / f"m{i:02}.py", f"subprocess.run(['x{i}'])\n" + BODY + f"v = {i}\n" + extra)
        if not most:
            write(root / f"plain{i:02}.py", BODY + f"v = {i}\n")
    commit_all(root)
    repo = Repository.open(str(root))
    cand = repo.candidate(Projection.COMMITTED, flag_ref="HEAD~1", config_ref=None)
    changes = repo.diff_stats(cand.base.tree, cand.tree)
    reference = repo.added_lines_matching(cand.base.tree, cand.tree, S.process_preselect)
    scan = _ProcessScan(Repository.open(str(root)), cand, S)
    try:
        scan.feed([listing(c) for c in changes[:10]], False)
        deadline = time.monotonic() + 10
        while scan.lister is None and time.monotonic() < deadline:
            time.sleep(0.01)  # the search finds a call among the first 10 blobs
        assert scan.lister is not None
        scan.lister.join()
        assert scan.complete and scan.early is not None  # the count has listed 10 paths
        scan.feed([listing(c) for c in changes[10:]], True)
        scan.early.join()
        assert scan._went_whole() is most
        assert flagged(scan.finish(changes), S) == flagged(reference, S)
        assert flagged(reference, S) == [
            ("m45.py", "process call at line 43: subprocess.run(['new'])")
        ]
    finally:
        scan.abort()


def test_a_listing_in_pieces_where_no_blob_may_hit_costs_no_listing_more(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No changed blob may bring a hit: the count's listing, in pieces, is not completed by
    a listing of its own (no process more than the count and the search), and nothing is
    scanned."""
    for i in range(90):
        write(root / f"plain{i:02}.py", BODY)
    commit_all(root, "many")
    for i in range(90):
        write(root / f"plain{i:02}.py", BODY + f"v = {i}\n")
    commit_all(root)
    repo = Repository.open(str(root))
    cand = repo.candidate(Projection.COMMITTED, flag_ref="HEAD~1", config_ref=None)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    read = os.read
    with mock.patch.object(os, "read", lambda fd, n: read(fd, min(n, 1000))):
        changes, _, added = gather_inputs(Repository.open(str(root)), cand, S)
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    argvs = [a[1] for a in _git_argvs(trace) if a[1:2] != ["rev-parse"]]
    assert len(changes) == 90 and added == []
    assert sorted(argvs) == ["cat-file", "diff"], argvs


def test_a_search_that_finds_many_calls_back_once_and_stops(root: Path) -> None:
    """``many``: past n blobs found, the callback runs once; stopped, the search answers
    what it found without an error."""
    oids = []
    for i in range(6):
        write(root / f"s{i}.py", f"subprocess.run(['{i}'])\n")
    commit_all(root, "s")
    for i in range(6):
        oids.append(git(root, "rev-parse", f"HEAD:s{i}.py").strip())
    repo = Repository.open(str(root))
    calls: list[int] = []

    def many() -> None:
        calls.append(1)
        search.stop()

    search = repo.search_blobs([b"subprocess"], SHEBANG, False, (2, many))
    try:
        search.add(oids)
        found = search.finish()
    finally:
        search.abort()
    assert calls == [1] and 2 < len(found) <= len(oids) and found <= set(oids)
