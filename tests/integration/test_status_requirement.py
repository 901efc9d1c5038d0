"""``status`` prints what the plan requires only when the gate applies (refuter r14z
finding 4, issue 14): in a clean or empty repository it opened with "requires: writer
self-verification + the parent's spot check" and then said "not delegated; the gate does
not apply"."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import gh, git, write


def test_a_clean_repository_prints_no_requirement(repo: Path) -> None:
    assert git(repo, "status", "--porcelain") == ""  # the fixture's premise: clean
    out = gh(repo, "status")
    assert out.returncode == 0, out.stderr
    assert "status: not delegated; the gate does not apply" in out.stdout
    assert "requires:" not in out.stdout, out.stdout
    assert "writer self-verification stands" not in out.stdout


def test_an_empty_repository_prints_no_requirement(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    out = gh(empty, "status")
    assert out.returncode == 0, out.stderr
    assert "status: not delegated; the gate does not apply" in out.stdout
    assert "requires:" not in out.stdout, out.stdout


def test_delegated_work_still_prints_its_requirement(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # writer\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    out = gh(repo, "status").stdout
    assert "status: not delegated" not in out, out
    assert any(line.startswith("requires: ") for line in out.splitlines()), out


def test_assess_still_prints_the_plans_requirement(repo: Path) -> None:
    """``assess`` shows the plan whatever the gate does (informational)."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by hand\n")
    out = gh(repo, "assess").stdout
    assert "gate: not delegated" in out and "requires: " in out, out
