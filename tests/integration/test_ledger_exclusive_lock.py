"""A healthy ledger held by another process in SQLite's EXCLUSIVE locking mode (no reader
gets in): doctor calls it a condition, never damage, ``doctor --fix`` keeps it in place,
and every recorder spools its record instead of losing it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_hostile_inputs import _claude, hostile

#: Holds the ledger named by argv[1] in EXCLUSIVE locking mode until stdin closes.
EXCLUSIVE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA locking_mode=EXCLUSIVE")
conn.execute("BEGIN IMMEDIATE")
conn.execute("SELECT 1").fetchall()
print("held", flush=True)
sys.stdin.read()
"""


def _ledger(repo: Path) -> Path:
    return repo / ".git" / "gentle-hooks" / "ledger.sqlite3"


def _mutations(repo: Path) -> int:
    conn = sqlite3.connect(_ledger(repo))
    try:
        return int(conn.execute("SELECT count(*) FROM pending_mutation").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture
def held(repo: Path) -> Iterator[subprocess.Popen[str]]:
    """A recorded mutation, then another process holding the ledger exclusively."""
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    holder = subprocess.Popen(
        [sys.executable, "-c", EXCLUSIVE, str(_ledger(repo))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.communicate("")


def test_doctor_calls_an_exclusive_lock_a_condition_not_damage(
    repo: Path, held: subprocess.Popen[str]
) -> None:
    proc = hostile(repo, "doctor", timeout=90)
    out = proc.stdout.decode()
    (line,) = [x for x in out.splitlines() if x.startswith("FAIL  integrity:")]
    assert "not damage" in line and f"process {held.pid} (" in line, out
    ledger_lines = [x for x in out.splitlines() if x.startswith(("FAIL  integrity", "FAIL  lock"))]
    assert not any("--fix" in x or "moves it aside" in x for x in ledger_lines), out


def test_doctor_fix_never_moves_a_locked_ledger_aside(
    repo: Path, held: subprocess.Popen[str]
) -> None:
    hostile(repo, "doctor", "--fix", timeout=120)
    assert not list(_ledger(repo).parent.glob("ledger.sqlite3.damaged-*"))
    held.communicate("")
    assert _mutations(repo) == 1  # the writer's record is still there


def test_a_record_behind_an_exclusive_lock_is_spooled(
    repo: Path, held: subprocess.Popen[str]
) -> None:
    write(repo / "b.py", "b = 1\n")
    proc = hostile(repo, "record", "--model", "m", "--effort", "low", "b.py")
    assert proc.returncode == 0 and b"spooled: pending mutation" in proc.stdout, proc.stderr
    assert (_ledger(repo).parent / "spool.jsonl").is_file()
    held.communicate("")
    assert hostile(repo, "status").returncode in (0, 1)  # a reader folds it in
    assert _mutations(repo) == 2


def test_a_runtime_hook_behind_an_exclusive_lock_is_spooled(
    repo: Path, tmp_path: Path, held: subprocess.Popen[str]
) -> None:
    data = _claude(repo, tmp_path)
    proc = hostile(repo, "record", "--from", "claude-code", stdin=data)
    assert proc.returncode == 0 and b"spooled: pending mutation" in proc.stderr, proc.stderr
    held.communicate("")
    assert hostile(repo, "status").returncode in (0, 1)
    assert _mutations(repo) == 2


#: Holds the ledger's write lock (ordinary locking mode: readers still read) until stdin
#: closes; taken while another connection is open, as an EXCLUSIVE locking mode one cannot.
WRITE_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("stopped", ["open_entries", "add_mutation_once"])
def test_a_lock_taken_after_records_open_spools_the_mutation(
    repo: Path, monkeypatch: pytest.MonkeyPatch, stopped: str
) -> None:
    """Another process takes the write lock after ``record`` opened the ledger; SQLite
    refuses the next statement as locked, a read (``open_entries``, the first a plain
    record makes; a lock held at a checkpoint or a recovery keeps a read out) or the write:
    either way the mutation is spooled, never lost (refuter r16z)."""
    import sqlite3

    from gentle_hooks.ledger import lock_wait
    from gentle_hooks.ledger.sqlite_file import store_error
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.services import mutation

    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    write(repo / "b.py", "b = 2\n")
    monkeypatch.setattr(lock_wait, "_gave_up", False)  # this process has waited for nothing
    monkeypatch.setattr(lock_wait, "STATEMENT_WAIT_MS", 200)
    holders: list[subprocess.Popen[str]] = []
    real_open = mutation.open_store
    real = getattr(Ledger, stopped)

    def open_then_lock(r: object) -> Ledger:
        led = real_open(r)  # type: ignore[arg-type]
        holder = subprocess.Popen(
            [sys.executable, "-c", WRITE_LOCK, led.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        holders.append(holder)
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        return led

    def locked(self: Ledger, *args: object) -> object:
        if stopped == "add_mutation_once":
            return real(self, *args)  # the real write meets the real lock
        raise store_error(self.path, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(mutation, "open_store", open_then_lock)
    monkeypatch.setattr(Ledger, stopped, locked)
    try:
        req = mutation.MutationRequest(cwd=str(repo), model="m", effort="low", paths=("b.py",))
        rec = mutation.record_mutation(req, {})
    finally:
        for holder in holders:
            holder.communicate("")
    assert rec.spooled is not None and Path(rec.spooled).is_file(), rec
    assert rec.record.paths == ("b.py",)
    monkeypatch.undo()
    assert hostile(repo, "status").returncode in (0, 1)  # a reader folds it in
    assert _mutations(repo) == 2
    conn = sqlite3.connect(_ledger(repo))
    try:
        rows = conn.execute("SELECT path, blob IS NOT NULL FROM writer_entry ORDER BY id")
        assert [tuple(r) for r in rows] == [("a.py", 1), ("b.py", 1)]
    finally:
        conn.close()


@pytest.mark.parametrize("fix", [False, True], ids=["doctor", "doctor --fix"])
def test_doctor_waits_for_a_held_lock_once(repo: Path, fix: bool) -> None:
    """``doctor`` opened the ledger three times behind an exclusive lock, waiting each time
    (18.5 s; ``doctor --fix`` 55 s): one bounded wait, then every check names the holder.
    Measured against the same doctor with the lock free, so a loaded machine does not
    read as a second wait (one is 6 s)."""
    import time

    from gentle_hooks.ledger.lock_wait import LOCK_WAIT_SECONDS

    args = ("doctor", "--fix") if fix else ("doctor",)
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    start = time.monotonic()
    hostile(repo, *args, timeout=90)
    free = time.monotonic() - start
    holder = subprocess.Popen(
        [sys.executable, "-c", EXCLUSIVE, str(_ledger(repo))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        start = time.monotonic()
        proc = hostile(repo, *args, timeout=120)
        locked = time.monotonic() - start
    finally:
        holder.communicate("")
    out = proc.stdout.decode()
    assert proc.returncode == 2, out
    named = [x for x in out.splitlines() if f"process {holder.pid} (" in x]
    assert {x.split(":")[0] for x in named} >= {"FAIL  integrity", "FAIL  lock"}, out
    assert locked - free < 1.5 * LOCK_WAIT_SECONDS, (free, locked)
