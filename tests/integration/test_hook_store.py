"""The commit gate fails closed on a damaged or newer ledger, even for a human's commit
(SPEC §6: "An unreadable or corrupt store fails closed in a gate ... and the repair
command"), and passes silently when there is no ledger at all."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.conftest import gh, git, write


@pytest.fixture
def hooked(repo: Path) -> Path:
    proc = gh(repo, "install", "-t", "pre-commit")
    assert proc.returncode == 0, proc.stderr
    return repo


def commit(repo: Path) -> subprocess.CompletedProcess[str]:
    write(repo / "human.txt", "a human's change\n")
    git(repo, "add", "human.txt")
    return subprocess.run(
        ["git", "commit", "-q", "-m", "human"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )


def test_no_ledger_human_commit_passes_silently(hooked: Path) -> None:
    proc = commit(hooked)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert not (hooked / ".git" / "gentle-hooks").exists()


@pytest.mark.parametrize("damage", ["newer", "empty", "garbage"])
def test_damaged_ledger_fails_the_commit_closed(hooked: Path, damage: str) -> None:
    assert gh(hooked, "record", "--model", "m", "--effort", "low").returncode == 0
    assert gh(hooked, "record", "--model", "m", "--effort", "low").returncode == 0
    db = hooked / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if damage == "newer":
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA user_version = 99")
    elif damage == "empty":
        db.write_bytes(b"")
    else:
        db.write_bytes(b"not a database at all" * 100)
    before = db.read_bytes()
    proc = commit(hooked)
    assert proc.returncode != 0
    assert f"ledger {db}" in proc.stderr and "gentle-hook doctor" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert db.read_bytes() == before
    assert git(hooked, "rev-list", "--count", "HEAD").strip() == "1"
