"""``assess --base-ref REF`` where REF names no commit says why in ``gate --range``'s words
(refuter r14z finding 2, issue 14): the README quick start ``assess --base-ref HEAD~3
--committed-only`` in a 2-commit repository, a ``--depth 1`` clone and an empty one said
"'HEAD~3' is not a known ref or commit (see: git branch -a)"."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import commit_all, gh, git, paste, write

QUICK_START = ("assess", "--base-ref", "HEAD~3", "--committed-only")


def _two_commits(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "two"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / "a.py", "A = 1\n")
    commit_all(repo, "first")
    write(repo / "b.py", "B = 2\n")
    commit_all(repo, "second")
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "2"  # the fixture's premise
    return repo, git(repo, "rev-parse", "HEAD~1").strip()


def test_a_complete_history_too_short_prints_the_assess_of_all_after_the_root(
    tmp_path: Path,
) -> None:
    repo, root = _two_commits(tmp_path)
    proc = gh(repo, *QUICK_START)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    line, fix = _one_line(proc.stderr)
    assert line == (
        "gentle-hook: error: cannot assess: 'HEAD~3' does not exist: the history is complete "
        f"and HEAD has only 2 commit(s); give a base inside it, or assess everything after its "
        f"first commit ({root[:12]}) with the command that follows"
    ), proc.stderr
    assert fix.endswith(f"assess --committed-only --base-ref {root}"), proc.stderr
    assert "not a known ref" not in proc.stderr
    pasted = paste(fix, repo)
    assert pasted.returncode == 0, pasted.stdout + pasted.stderr
    assert pasted.stdout.startswith("risk: "), pasted.stdout


def _one_line(stderr: str) -> tuple[str, str]:
    """The error line of a failed ``assess`` whose gap has a fix, split at its ``; run: ``
    (the one-line rule: one line on stderr, the command last)."""
    assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
    line, fix = stderr.rstrip("\n").rsplit("; run: ", 1)
    return line, fix


def test_with_json_the_fix_keeps_json_on_one_line(tmp_path: Path) -> None:
    """``assess --json --base-ref HEAD~999``: one stderr line whose command keeps --json,
    and pasted, prints the envelope."""
    repo, root = _two_commits(tmp_path)
    proc = gh(repo, "assess", "--json", "--base-ref", "HEAD~999")
    assert proc.returncode == 2 and proc.stdout.startswith("{"), proc.stdout
    _, fix = _one_line(proc.stderr)
    assert fix.endswith(f"assess --json --base-ref {root}"), proc.stderr
    pasted = paste(fix, repo)
    assert pasted.returncode == 0 and '"risk"' in pasted.stdout, pasted.stdout + pasted.stderr


def test_from_a_subdirectory_the_fix_keeps_cwd(tmp_path: Path) -> None:
    repo, root = _two_commits(tmp_path)
    sub = repo / "sub"
    sub.mkdir()
    proc = gh(sub, "assess", "--cwd", "..", "--base-ref", "HEAD~3", "--committed-only")
    assert proc.returncode == 2
    _, fix = _one_line(proc.stderr)
    assert fix.endswith(f"assess --cwd .. --committed-only --base-ref {root}"), proc.stderr
    assert paste(fix, sub).returncode == 0


def test_a_shallow_clone_prints_the_unshallow_fetch(tmp_path: Path) -> None:
    repo, _ = _two_commits(tmp_path)
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    assert (clone / ".git" / "shallow").is_file()  # the fixture's premise
    proc = gh(clone, *QUICK_START)
    assert proc.returncode == 2
    assert proc.stderr == (
        "gentle-hook: error: cannot assess: 'HEAD~3' is not in this shallow clone; "
        "fetch more history; run: git fetch --unshallow\n"
    ), proc.stderr
    assert paste("git fetch --unshallow", clone).returncode == 0


def test_an_empty_repository_says_it_has_no_commits(tmp_path: Path) -> None:
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    proc = gh(repo, *QUICK_START)
    assert proc.returncode == 2
    assert proc.stderr == (
        "gentle-hook: error: cannot assess against 'HEAD~3': this repository has no commits "
        "yet: commit first, then name a base\n"
    )


def test_a_base_that_exists_is_unchanged(tmp_path: Path) -> None:
    repo, _ = _two_commits(tmp_path)
    proc = gh(repo, "assess", "--base-ref", "HEAD~1", "--committed-only")
    assert proc.returncode == 0, proc.stderr


def test_a_plain_unknown_name_keeps_its_own_message(tmp_path: Path) -> None:
    """A typo in a complete history is not a history too short: git's own words stand."""
    repo, _ = _two_commits(tmp_path)
    proc = gh(repo, "assess", "--base-ref", "mian", "--committed-only")
    assert proc.returncode == 2
    assert proc.stderr == (
        "gentle-hook: error: --base-ref 'mian' is not a known ref or commit (see: git branch -a)\n"
    )


def test_a_base_naming_a_tree_says_it_is_a_tree(tmp_path: Path) -> None:
    """``HEAD^{tree}`` exists: it names a tree, not a commit (its stem resolving does not make
    it a history too short)."""
    repo, _ = _two_commits(tmp_path)
    proc = gh(repo, "assess", "--base-ref", "HEAD^{tree}", "--committed-only")
    assert proc.returncode == 2
    assert proc.stderr == (
        "gentle-hook: error: --base-ref 'HEAD^{tree}' names a tree, not a commit; pass a "
        "branch, tag or commit id\n"
    )


def test_a_range_start_unknown_or_not_a_commit_is_one_line(tmp_path: Path) -> None:
    """``gate --range`` with a start that is a typo or a tree: one line, exit 2 (no history
    is too short, so no command to judge the whole history)."""
    repo, _ = _two_commits(tmp_path)
    unknown = gh(repo, "gate", "--range", "nonexistent..HEAD")
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "gentle-hook: error: --range start 'nonexistent' is not a known ref or commit "
        "(see: git branch -a)\n",
    )
    tree = gh(repo, "gate", "--range", "HEAD^{tree}..HEAD")
    assert (tree.returncode, tree.stderr) == (
        2,
        "gentle-hook: error: --range start 'HEAD^{tree}' names a tree, not a commit; pass a "
        "branch, tag or commit id\n",
    )
    past = gh(repo, "gate", "--range", "HEAD~5..HEAD")
    assert past.returncode == 2
    assert len(past.stderr.splitlines()) == 1 and "; run: " in past.stderr, past.stderr
