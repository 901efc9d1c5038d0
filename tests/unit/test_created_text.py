"""The way out of a candidate holding files its test run created: the exclude patterns
match exactly the file, whatever its name."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gentle_hooks.report.created_text import exclude_pattern


@pytest.mark.parametrize(
    ("path", "pattern"),
    [
        ("last-run.txt", "/last-run.txt"),
        ("out/*.log", "/out/\\*.log"),
        ("#notes", "/#notes"),
        ("!keep", "/!keep"),
        ("a[1]?", "/a\\[1]\\?"),
        ("back\\slash", "/back\\\\slash"),
        ("trailing  ", "/trailing\\ \\ "),
    ],
)
def test_exclude_pattern(path: str, pattern: str) -> None:
    assert exclude_pattern(path) == pattern


@pytest.mark.parametrize("name", ["out*.log", "#notes", "!keep", "a[1]?", "sp ace ", "b\\s"])
def test_git_ignores_exactly_the_file(tmp_path: Path, name: str) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / name).write_text("x")
    (tmp_path / "other.log").write_text("x")
    (tmp_path / ".git" / "info" / "exclude").write_text(exclude_pattern(name) + "\n")
    out = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines() == ["?? other.log"]
