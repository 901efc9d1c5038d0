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


def _journal_of_an_older_state(repo: Path) -> bytes:
    """A real rollback journal: of a copy of the ledger as it is now, left by a transaction
    killed mid-way (replayed, it would put the store back to this state)."""
    state = repo / ".git" / "gentle-hooks"
    copy = state.parent / "copy.sqlite3"
    copy.write_bytes((state / "ledger.sqlite3").read_bytes())
    pid = os.fork()
    if pid == 0:  # a rollback-mode writer, killed before its commit
        import sqlite3

        conn = sqlite3.connect(copy, isolation_level=None)
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("PRAGMA cache_size=1")
        conn.execute("BEGIN")
        conn.execute("DELETE FROM pending_mutation")
        os._exit(0)
    os.waitpid(pid, 0)
    journal = Path(f"{copy}-journal")
    assert journal.stat().st_size > 0
    return journal.read_bytes()


def test_a_writer_refuses_a_stale_journal_rather_than_roll_it_back(repo: Path) -> None:
    """A writer's open would roll a stale journal back into the store, silently deleting
    rows recorded after the journal's state: it refuses, as readers do, and loses none;
    the record it was asked for is spooled (durable), the journal named with its fix, and
    folded in once the fix moved the journal aside."""
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m1", "--effort", "low", "a.py").returncode == 0
    old = _journal_of_an_older_state(repo)
    write(repo / "b.py", "b = 1\n")
    assert hostile(repo, "record", "--model", "m2", "--effort", "low", "b.py").returncode == 0
    journal = repo / ".git" / "gentle-hooks" / "ledger.sqlite3-journal"
    journal.write_bytes(old)

    write(repo / "c.py", "c = 1\n")
    proc = hostile(repo, "record", "--model", "m3", "--effort", "low", "c.py")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert out.startswith("spooled: pending mutation") and "m3/low" in out, out
    assert str(journal) in out and "run: gentle-hook doctor --fix" in out, out
    assert (journal.parent / "spool.jsonl").is_file()
    assert journal.read_bytes() == old  # nothing rolled back

    git(repo, "add", "-A")
    gate = hostile(repo, "hook", "pre-commit")
    assert gate.returncode == 2 and str(journal).encode() in gate.stderr  # fails closed

    fixed = hostile(repo, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert "folded the spooled writer records" in fixed.stdout.decode(), fixed.stdout
    status = hostile(repo, "status").stdout.decode()
    assert "pending mutation #1: m1/low" in status and "pending mutation #2: m2/low" in status
    assert "pending mutation #3: m3/low, 1 path(s)" in status, status


def test_a_fifo_journal_fails_the_commit_gate_closed_without_waiting(repo: Path) -> None:
    """A FIFO where SQLite looks for its journal blocks any open of it for ever: the
    pre-commit gate refuses it in one line instead (its own probe included)."""
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    os.mkfifo(repo / ".git" / "gentle-hooks" / "ledger.sqlite3-journal")
    write(repo / "human.txt", "hi\n")
    git(repo, "add", "human.txt")
    proc = hostile(repo, "hook", "pre-commit", timeout=30)
    assert proc.returncode == 2
    assert "ledger.sqlite3-journal is a FIFO" in proc.stderr.decode()
