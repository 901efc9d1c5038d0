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
