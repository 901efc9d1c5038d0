"""``gate --range B`` and ``gate --range <empty tree>..B`` judge every commit of B, root
commits included, as a server's pre-receive judges a new repository's first push."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.conftest import commit_all, gh, git, run_git, write

EMPTY = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _root_repo(tmp_path: Path, trailer: bool) -> Path:
    root = tmp_path / "r"
    run_git(tmp_path, "init", "-q", "-b", "main", str(root))
    write(root / "a.py", "X = 1\n")
    git(root, "add", "-A")
    message = "root\n\nCo-authored-by: Claude <noreply@anthropic.com>\n" if trailer else "root"
    git(root, "commit", "-q", "-m", message)
    return root


def test_a_delegated_root_commit_is_judged_and_blocked(tmp_path: Path) -> None:
    root = _root_repo(tmp_path, trailer=True)
    for spec in ("HEAD", f"{EMPTY}..HEAD"):
        r = gh(root, "gate", "--range", spec)
        assert r.returncode == 1, (spec, r.stdout, r.stderr)
        assert r.stdout.startswith("BLOCKED "), r.stdout
        assert "1 commit(s), 1 delegated, 1 blocked" in r.stdout


def test_the_json_format_asked_for_agents_prints_the_gate_document(tmp_path: Path) -> None:
    """``GENTLE_HOOKS_FORMAT=json`` (SPEC §7: a block's decision as one JSON object for
    agents) gives ``gate --range`` its ``--json`` document, the block's commands inside."""
    import json

    root = _root_repo(tmp_path, trailer=True)
    r = gh(root, "gate", "--range", "HEAD", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert r.returncode == 1, (r.stdout, r.stderr)
    doc = json.loads(r.stdout)
    assert doc["schema"] == "gentle-hooks.gate/v1" and doc["blocked"] is True, doc
    assert [c["blocked"] for c in doc["commits"]] == [True], doc
    text = gh(root, "gate", "--range", "HEAD", env={"GENTLE_HOOKS_FORMAT": "text"})
    assert text.stdout.startswith("BLOCKED "), text.stdout


def test_a_human_root_range_passes_and_a_missing_start_names_the_root_range(
    tmp_path: Path,
) -> None:
    root = _root_repo(tmp_path, trailer=False)
    commit_all(root, "second")
    ok = gh(root, "gate", "--range", "main")
    assert ok.returncode == 0, ok.stderr
    assert "2 commit(s), 0 delegated, 0 blocked" in ok.stdout
    short = gh(root, "gate", "--range", "HEAD~5..HEAD")
    assert short.returncode == 2
    # one line; the way out ends it, runnable as printed, and it judges the whole history
    assert len(short.stderr.splitlines()) == 1, short.stderr
    last = short.stderr.rstrip().rsplit("; run: ", 1)[-1]
    assert last.endswith(" gate --range HEAD"), short.stderr
    program, *args = shlex.split(last)
    assert program.rsplit("/", 1)[-1] == "gentle-hook", last
    whole = gh(root, *args)
    assert whole.returncode == 0, whole.stderr
    assert "2 commit(s), 0 delegated, 0 blocked" in whole.stdout
    bad = gh(root, "gate", "--range", "a..b..c")
    assert bad.returncode == 2 and "give A..B" in bad.stderr


def test_an_unfetched_remote_branch_as_start_names_the_fetch_that_makes_it_known(
    tmp_path: Path,
) -> None:
    # a single-branch clone of `topic` never fetched origin/main: the start is unknown
    # here (not beyond a complete history), and the printed fetch makes it known
    origin = _root_repo(tmp_path, trailer=False)
    git(origin, "switch", "-q", "-c", "topic")
    commit_all(origin, "on topic")
    clone = tmp_path / "clone"
    run_git(
        tmp_path, "clone", "-q", "--single-branch", "--branch", "topic", str(origin), str(clone)
    )
    assert "origin/main" not in run_git(clone, "branch", "-r")
    r = gh(clone, "gate", "--range", "origin/main..HEAD")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "'origin/main' is not known here" in r.stderr, r.stderr
    assert "gate --range HEAD" not in r.stderr
    fix = "git fetch origin refs/heads/main:refs/remotes/origin/main"
    assert r.stderr.rstrip().endswith(f"run: {fix}"), r.stderr
    run_git(clone, *fix.split()[1:])
    again = gh(clone, "gate", "--range", "origin/main..HEAD")
    assert again.returncode == 0, again.stderr
    assert "1 commit(s), 0 delegated, 0 blocked" in again.stdout


def test_a_start_on_a_remote_branch_that_does_not_exist_prints_no_fetch(tmp_path: Path) -> None:
    # origin has no branch `dev`: a fetch of it fails when pasted; the way out lists the
    # branches origin has
    origin = _root_repo(tmp_path, trailer=False)
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", str(origin), str(clone))
    r = gh(clone, "gate", "--range", "origin/dev..HEAD")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "origin has no branch 'dev'" in r.stderr, r.stderr
    assert "git fetch" not in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
    last = r.stderr.rstrip().rsplit("; run: ", 1)[-1]
    assert last == "git ls-remote --heads origin", r.stderr
    listed = run_git(clone, *shlex.split(last)[1:])
    assert "refs/heads/main" in listed


def test_a_plain_branch_start_a_single_branch_clone_never_fetched_is_fetched(
    tmp_path: Path,
) -> None:
    # `main..HEAD` in a single-branch clone of `topic`: origin has main; the printed fetch
    # makes it a local branch and the same range is judged (not the whole history)
    origin = _root_repo(tmp_path, trailer=False)
    git(origin, "switch", "-q", "-c", "topic")
    commit_all(origin, "on topic")
    clone = tmp_path / "clone"
    run_git(
        tmp_path, "clone", "-q", "--single-branch", "--branch", "topic", str(origin), str(clone)
    )
    r = gh(clone, "gate", "--range", "main..HEAD")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert len(r.stderr.splitlines()) == 1, r.stderr
    last = r.stderr.rstrip().rsplit("; run: ", 1)[-1]
    assert last == "git fetch origin refs/heads/main:refs/heads/main", r.stderr
    run_git(clone, *shlex.split(last)[1:])
    again = gh(clone, "gate", "--range", "main..HEAD")
    assert again.returncode == 0, again.stderr
    assert "1 commit(s), 0 delegated, 0 blocked" in again.stdout


def _last_command(stderr: str) -> str:
    assert len(stderr.splitlines()) == 1, stderr
    return stderr.rstrip().rsplit("; run: ", 1)[-1]


def test_a_remote_branch_start_past_a_shallow_history_prints_the_unshallow_fetch(
    tmp_path: Path,
) -> None:
    # `origin/main~1` in a --depth 1 clone: origin/main is here, its parent is not; the
    # revision suffix is no part of a branch name to look up on the remote
    origin = _root_repo(tmp_path, trailer=False)
    commit_all(origin, "second")
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(clone))
    for start in ("origin/main~1", "origin/main^", "HEAD~1"):
        r = gh(clone, "gate", "--range", f"{start}..origin/main")
        assert r.returncode == 2, (start, r.stdout, r.stderr)
        assert "has no branch" not in r.stderr, r.stderr
        assert f"cannot assess: '{start}' is not in this shallow clone" in r.stderr, r.stderr
        assert _last_command(r.stderr) == "git fetch --unshallow", r.stderr
    run_git(clone, "fetch", "-q", "--unshallow")
    again = gh(clone, "gate", "--range", "origin/main~1..origin/main")
    assert again.returncode == 0, again.stderr
    assert "1 commit(s), 0 delegated, 0 blocked" in again.stdout


def test_a_remote_branch_start_past_a_complete_history_names_the_whole_range(
    tmp_path: Path,
) -> None:
    # `origin/main~5` where origin/main has 2 commits: what `HEAD~5` prints there (the
    # history is complete; judge all of it), not "origin has no branch 'main~5'"
    origin = _root_repo(tmp_path, trailer=False)
    commit_all(origin, "second")
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", str(origin), str(clone))
    r = gh(clone, "gate", "--range", "origin/main~5..origin/main")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "'origin/main~5' does not exist: the history is complete" in r.stderr, r.stderr
    program, *args = shlex.split(_last_command(r.stderr))
    assert program.rsplit("/", 1)[-1] == "gentle-hook", r.stderr
    assert args == ["gate", "--range", "origin/main"], r.stderr
    whole = gh(clone, *args)
    assert whole.returncode == 0, whole.stderr
    assert "2 commit(s), 0 delegated, 0 blocked" in whole.stdout
    # a suffix on a branch the remote lacks names the branch without it
    dev = gh(clone, "gate", "--range", "origin/dev~1..origin/main")
    assert "origin has no branch 'dev':" in dev.stderr, dev.stderr
    assert _last_command(dev.stderr) == "git ls-remote --heads origin", dev.stderr


def test_a_commit_id_start_on_another_branch_of_a_shallow_single_branch_clone_is_fetched(
    tmp_path: Path,
) -> None:
    # CI's `<sha>..HEAD`, <sha> on a branch a --depth 1 single-branch clone did not fetch:
    # `git fetch --unshallow` alone leaves it unknown ("not a known ref or commit", no
    # command); the printed fetch by id brings it and the range's history, pasted as is
    origin = _root_repo(tmp_path, trailer=False)
    git(origin, "switch", "-q", "-c", "other")
    commit_all(origin, "on other")
    other = git(origin, "rev-parse", "HEAD").strip()
    git(origin, "switch", "-q", "main")
    commit_all(origin, "second")
    commit_all(origin, "third")
    for depth in (("--depth", "1"), ()):
        clone = tmp_path / f"clone{len(depth)}"
        run_git(tmp_path, "clone", "-q", *depth, "--single-branch", f"file://{origin}", str(clone))
        r = gh(clone, "gate", "--range", f"{other}..HEAD")
        assert r.returncode == 2, (r.stdout, r.stderr)
        fix = _last_command(r.stderr)
        assert fix == f"git fetch {'--unshallow ' if depth else ''}origin {other}", r.stderr
        run_git(clone, *shlex.split(fix)[1:])
        again = gh(clone, "gate", "--range", f"{other}..HEAD")
        assert again.returncode == 0, (again.stdout, again.stderr)
        assert "2 commit(s), 0 delegated, 0 blocked" in again.stdout, again.stdout
