"""Store states that make a command fail are seen by ``doctor`` (SPEC §6): a schema that
holds bytes that are not UTF-8, an id at SQLite's largest rowid.

Each test plants the state with SQLite in a real repository's ledger and runs the CLI as a
user would, asserting the one-line contract (``hostile`` of :mod:`.test_hostile_inputs`).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_hostile_inputs import hostile

LEDGER = Path(".git") / "gentle-hooks" / "ledger.sqlite3"


@pytest.fixture
def recorded(repo: Path) -> Path:
    """A repository with a writer's pending change recorded (the ledger exists)."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b + 0\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    return repo


def _sql(repo: Path, *statements: str) -> None:
    with contextlib.closing(sqlite3.connect(repo / LEDGER, isolation_level=None)) as conn:
        for statement in statements:
            conn.execute(statement)


def test_a_schema_with_bytes_that_are_not_utf8_is_damage_doctor_fix_moves_aside(
    recorded: Path,
) -> None:
    """SQLite reports such a schema as malformed in a message Python cannot decode: every
    command names the store and doctor; doctor fails it as damage and --fix moves it aside
    (its writer work held in quarantine), after which records land again."""
    planted = bytes.fromhex("435245415445205441424c4520646973636172642861292031f8").hex()
    _sql(
        recorded,
        "PRAGMA writable_schema = 1",
        f"UPDATE sqlite_master SET sql = CAST(x'{planted}' AS TEXT) WHERE name = 'discard'",
    )
    for args in (("status",), ("record", "--model", "m", "--effort", "low"), ("doctor",)):
        proc = hostile(recorded, *args)
        assert proc.returncode == 2 and b"codec can't decode" not in proc.stderr, proc.stderr
    status = hostile(recorded, "status").stderr.decode()
    assert str(LEDGER) in status and "malformed database schema" in status, status
    assert status.rstrip().endswith("gentle-hook doctor"), status
    report = hostile(recorded, "doctor").stdout.decode()
    assert "FAIL  integrity: unreadable: malformed database schema" in report, report
    assert report.rstrip().splitlines()[2].endswith("doctor --fix"), report
    fixed = hostile(recorded, "doctor", "--fix")
    said = fixed.stdout.decode()
    assert "held as quarantine 1:" in said and "ok    integrity: ok" in said, said
    assert list((recorded / LEDGER.parent).glob("ledger.sqlite3.salvaged-*")), said
    write(recorded / "src" / "other.py", "X = 1\n")
    again = hostile(recorded, "record", "--model", "m2", "--effort", "low", "src/other.py")
    assert again.returncode == 0, again.stderr


def test_a_row_id_at_the_end_of_sqlites_ids_is_found_and_renumbered_by_fix(
    recorded: Path,
) -> None:
    """A row (not the counter) holding the largest rowid: SQLite numbers new rows after
    it, so every record fails "database or disk is full"; doctor fails ``counters`` naming
    the table, --fix renumbers the row and what refers to it, and records land again."""
    last = 2**63 - 1
    _sql(
        recorded,
        f"UPDATE pending_mutation SET id = {last}",
        f"UPDATE writer_entry SET mutation_id = {last}",
    )
    write(recorded / "src" / "other.py", "X = 1\n")
    record = ("record", "--model", "m2", "--effort", "low", "src/other.py")
    failed = hostile(recorded, *record)
    assert failed.returncode == 2 and b"database or disk is full" in failed.stderr
    doctor = hostile(recorded, "doctor")
    report = doctor.stdout.decode()
    assert doctor.returncode == 2, report
    [line] = [x for x in report.splitlines() if x.startswith("FAIL  counters: ")]
    assert f"the highest id of pending_mutation is {last}" in line, line
    assert line.endswith(" doctor --fix"), line
    fixed = hostile(recorded, "doctor", "--fix")
    said = fixed.stdout.decode()
    assert "renumbered the rows of pending_mutation" in said and f"{last} -> 1 " in said, said
    assert "ok    counters: every table numbers new records" in said, said
    assert hostile(recorded, *record).returncode == 0
    with contextlib.closing(sqlite3.connect(recorded / LEDGER)) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM pending_mutation ORDER BY id")]
        refs = [r[0] for r in conn.execute("SELECT mutation_id FROM writer_entry ORDER BY id")]
    assert ids == [1, 2] and refs == [1, 2]
    status = hostile(recorded, "status")
    assert status.returncode == 0 and b"pending mutation #1:" in status.stdout, status.stdout
