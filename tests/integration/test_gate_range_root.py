"""``gate --range B`` and ``gate --range <empty tree>..B`` judge every commit of B, root
commits included, as a server's pre-receive judges a new repository's first push."""

from __future__ import annotations

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
    assert short.stderr.rstrip().endswith("root included: gentle-hook gate --range HEAD")
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
