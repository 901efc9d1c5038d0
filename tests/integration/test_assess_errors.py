"""Bad input to ``assess``: exit 2, one line saying what to run instead, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import commit_all, gh, git, write


def one_line_error(proc, *needles: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture
def two_commits(repo: Path) -> Path:
    write(repo / "a.py", "1\n")
    commit_all(repo, "second")
    return repo


def test_unknown_ref(two_commits: Path) -> None:
    one_line_error(
        gh(two_commits, "assess", "--base-ref", "nope", "--committed-only"),
        "'nope' is not a known ref or commit",
    )


def test_range_as_base_ref(two_commits: Path) -> None:
    one_line_error(
        gh(two_commits, "assess", "--base-ref", "HEAD~1..HEAD", "--committed-only"),
        "is a range",
        "'HEAD~1'",
    )


def test_tree_id_as_base_ref(two_commits: Path) -> None:
    tree = git(two_commits, "rev-parse", "HEAD^{tree}").strip()
    one_line_error(
        gh(two_commits, "assess", "--base-ref", tree, "--committed-only"),
        "names a tree, not a commit",
    )


def test_option_like_ref(two_commits: Path) -> None:
    one_line_error(
        gh(two_commits, "assess", "--base-ref=--output=/tmp/x", "--committed-only"),
        "not a valid ref name",
    )


def test_not_a_repository(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    one_line_error(gh(tmp_path / "plain", "assess"), "not a git repository")


def test_missing_cwd(tmp_path: Path) -> None:
    proc = gh(tmp_path, "assess", "--cwd", str(tmp_path / "absent"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_bare_repository(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    one_line_error(gh(bare, "assess"), "bare repository", "gate --range")


def test_inside_git_dir(repo: Path) -> None:
    one_line_error(gh(repo / ".git", "assess"), "run from the work tree")


def test_unknown_escalation_item(two_commits: Path) -> None:
    one_line_error(
        gh(
            two_commits,
            "assess",
            "--committed-only",
            "--base-ref",
            "HEAD~1",
            "--escalate-item",
            "7",
            "--escalate-reason",
            "x",
        ),
        "1 data, 2 security, 3 contracts, 4 concurrency, 5 delivery, 6 untested",
    )


def test_escalation_without_reason(two_commits: Path) -> None:
    one_line_error(
        gh(
            two_commits,
            "assess",
            "--committed-only",
            "--base-ref",
            "HEAD~1",
            "--escalate-item",
            "security",
        ),
        "needs a reason",
        "--escalate-reason",
    )


def test_unknown_effort(two_commits: Path) -> None:
    one_line_error(
        gh(
            two_commits,
            "assess",
            "--committed-only",
            "--base-ref",
            "HEAD~1",
            "--writer-effort",
            "max",
        ),
        "unknown effort level 'max'",
    )


def test_dirty_tracked_with_base_ref_refuses(two_commits: Path) -> None:
    write(two_commits / "a.py", "dirty\n")
    one_line_error(gh(two_commits, "assess", "--base-ref", "HEAD~1"), "--committed-only")
    ok = gh(two_commits, "assess", "--base-ref", "HEAD~1", "--committed-only")
    assert ok.returncode == 0, ok.stderr


def test_untracked_only_with_base_ref_is_not_dirty(two_commits: Path) -> None:
    write(two_commits / "new.py", "n\n")
    proc = gh(two_commits, "assess", "--base-ref", "HEAD~1", "--json")
    assert proc.returncode == 0, proc.stderr


def test_empty_candidate(two_commits: Path) -> None:
    one_line_error(
        gh(two_commits, "assess", "--base-ref", "HEAD", "--committed-only"),
        "the candidate is empty",
        "--base-ref HEAD~1",
    )


def test_bad_config(two_commits: Path) -> None:
    write(two_commits / ".gentle-hooks.toml", "[gate]\nwho = 1\n")
    one_line_error(
        gh(two_commits, "assess", "--committed-only", "--base-ref", "HEAD~1"),
        "unknown key 'gate.who'",
    )


def test_click_usage_error_exits_2(two_commits: Path) -> None:
    proc = gh(two_commits, "assess", "--no-such-flag")
    assert proc.returncode == 2 and "No such option" in proc.stderr


def test_unknown_command_exits_2(two_commits: Path) -> None:
    assert gh(two_commits, "frobnicate").returncode == 2


def test_schema_command_names() -> None:
    proc = gh(Path.cwd(), "schema", "nope")
    assert proc.returncode == 2


def test_negated_ref_is_range_syntax(two_commits: Path) -> None:
    one_line_error(
        gh(two_commits, "assess", "--base-ref", "^HEAD~1", "--committed-only"),
        "range syntax",
        "'HEAD~1'",
    )


def test_committed_only_and_staged_together(two_commits: Path) -> None:
    one_line_error(gh(two_commits, "assess", "--committed-only", "--staged"), "pick one")


def test_usage_errors_are_one_line(two_commits: Path) -> None:
    one_line_error(gh(two_commits, "assess", "--review-outcome", "maybe"), "--review-outcome")


def test_empty_candidate_on_a_root_commit_suggests_what_works(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a.py", "1\n")
    commit_all(root)
    one_line_error(
        gh(root, "assess", "--base-ref", "HEAD", "--committed-only"), "no earlier commit"
    )
