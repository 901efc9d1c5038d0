"""A rollback journal beside the write-ahead-log ledger (SQLite never writes one there)
stops every read-only open; doctor names it, ``doctor --fix`` moves it aside, and every
committed row is still there."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import git, write
from tests.integration.test_hostile_inputs import hostile


def test_a_stale_journal_is_named_and_moved_aside_keeping_the_rows(repo: Path) -> None:
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    state = repo / ".git" / "gentle-hooks"
    journal = state / "ledger.sqlite3-journal"
    journal.write_bytes(os.urandom(3000))
    git(repo, "add", "-A")

    proc = hostile(repo, "status")
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert str(journal) in err and err.rstrip().endswith("run: gentle-hook doctor --fix"), err

    doctor = hostile(repo, "doctor").stdout.decode()
    (line,) = [x for x in doctor.splitlines() if x.startswith("FAIL  journal:")]
    assert str(journal) in line and line.endswith("run: gentle-hook doctor --fix"), doctor

    fixed = hostile(repo, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert "moved the stale rollback journal aside" in fixed.stdout.decode()
    assert not journal.exists()
    (kept,) = [p for p in os.listdir(state) if p.startswith("ledger.sqlite3-journal.stale-")]
    assert (state / kept).stat().st_size == 3000

    status = hostile(repo, "status")
    assert status.returncode == 0, status.stderr
    assert "pending mutation #1: m/low, 1 path(s)" in status.stdout.decode()
