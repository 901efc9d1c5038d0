"""``doctor --fix`` moves a ledger row no command can read into the quarantine table, kept
exactly; held writer work keeps the gates closed, naming the row and the commands that
restore or discard it (docs/robustness.md "doctor"; SPEC §6, §7 "Exit codes").

Real repositories, the real CLI, rows damaged with sqlite3 itself.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.ledger.location import idle_path
from tests.conftest import git, write
from tests.integration.test_hostile_inputs import _edit_ledger, hostile, recorded_repo

__all__ = ["recorded_repo"]  # the fixture, shared


def _ledger(repo: Path) -> Path:
    return repo / ".git" / "gentle-hooks" / "ledger.sqlite3"


def _dump(repo: Path, table: str) -> list[str]:
    """The table's rows as sqlite3 itself writes them (``.dump``: every value exactly, its
    storage class and bytes)."""
    proc = subprocess.run(
        ["sqlite3", str(_ledger(repo)), f".dump {table}"],
        capture_output=True,
        check=True,
    )
    return [
        line for line in proc.stdout.decode("utf-8", "replace").splitlines() if "INSERT" in line
    ]


def _quarantine(repo: Path) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(_ledger(repo))) as conn:
        return list(conn.execute("SELECT id, source, source_id, state FROM quarantine"))


def _printed(line: str, label: str) -> str:
    """The command after ``label:`` in a one-line error (up to the next ``; label:``)."""
    found = re.search(rf"; {label}: (.*?)(?:; (?:run|or): |$)", line)
    assert found, line
    return found.group(1)


def _run_printed(repo: Path, command: str) -> subprocess.CompletedProcess[bytes]:
    """Run a printed command exactly as printed, by a shell, in the repository."""
    return subprocess.run(["sh", "-c", command], cwd=repo, capture_output=True, check=False)


DAMAGE = [
    ("pending_mutation", "recorded_at", "'x'"),
    ("pending_mutation", "model", "CAST(X'FF61' AS TEXT)"),  # text that is not UTF-8
    ("writer_entry", "state", "'zzz'"),
    ("writer_entry", "added", "'[[1]]'"),
    # a BLOB root: the gates' queries by root would not even see the row
    ("pending_mutation", "root", "CAST(root AS BLOB)"),
    # a path git refuses as a pathspec: the gates said "outside repository" while doctor
    # said healthy (issue 16, refuter r16y)
    ("writer_entry", "path", "''"),
    ("writer_entry", "path", "'/etc/passwd'"),
    ("writer_entry", "path", "'src/../../x'"),
]


@pytest.mark.parametrize("value", ["''", "'/etc/passwd'", "'src/../../x'", "'../x'"])
def test_doctor_finds_a_writer_entry_path_outside_the_tree(recorded_repo: Path, value: str) -> None:
    _edit_ledger(recorded_repo, f"UPDATE writer_entry SET path={value}")
    gate = hostile(recorded_repo, "hook", "pre-commit")
    assert gate.returncode == 2 and b"not a path in the work tree" in gate.stderr, gate.stderr
    proc = hostile(recorded_repo, "doctor")
    out = proc.stdout.decode()
    assert proc.returncode == 2 and "healthy\n" not in out.replace("unhealthy", ""), out
    assert "FAIL  rows: 1 row(s) other commands refuse: writer_entry row 1 column path" in out
    assert "run: gentle-hook doctor --fix" in out


@pytest.mark.parametrize(("table", "column", "value"), DAMAGE)
def test_held_writer_work_keeps_the_gates_closed_and_restores_exactly(
    recorded_repo: Path, table: str, column: str, value: str
) -> None:
    repo = recorded_repo
    _edit_ledger(repo, f"PRAGMA ignore_check_constraints = ON; UPDATE {table} SET {column}={value}")
    before = _dump(repo, table)
    fixed = hostile(repo, "doctor", "--fix")
    assert f"quarantined {table} row 1 as quarantine 1" in fixed.stdout.decode(), fixed.stdout
    assert _dump(repo, table) == [] and _quarantine(repo) == [(1, table, 1, "held")]
    assert fixed.returncode == 2 and b"FAIL  quarantine" in fixed.stdout  # still unhealthy

    for args in (("hook", "pre-commit"), ("assess",)):
        proc = hostile(repo, *args)
        err = proc.stderr.decode()
        assert proc.returncode == 2, err
        assert f"{table} row 1 is held in quarantine 1" in err, err
    # the command the gate printed to restore it runs as printed, and restores it exactly
    restored = _run_printed(repo, _printed(err, "run"))
    assert restored.returncode == 2, restored.stderr  # the report after: the row is bad again
    assert b"restored" in restored.stdout
    assert _dump(repo, table) == before
    assert _quarantine(repo) == [(1, table, 1, "restored")]


def test_a_discarded_row_stays_kept_and_the_gate_judges_again(recorded_repo: Path) -> None:
    repo = recorded_repo
    _edit_ledger(repo, "UPDATE pending_mutation SET recorded_at='x'")
    hostile(repo, "doctor", "--fix")
    err = hostile(repo, "hook", "pre-commit").stderr.decode()
    assert "held in quarantine 1" in err
    assert hostile(repo, "doctor", "--discard", "1").returncode == 2  # a reason is required
    discard = _run_printed(repo, _printed(err, "or"))
    assert discard.returncode == 0, discard.stdout + discard.stderr
    assert _quarantine(repo) == [(1, "pending_mutation", 1, "discarded")]
    # the writer's entry is intact: the gate judges it (blocked: no evidence), not refused
    gate = hostile(repo, "hook", "pre-commit")
    assert gate.returncode == 1 and b"BLOCKED" in gate.stderr, gate.stderr
    assert b"unknown/unknown" in gate.stderr and b"()" not in gate.stderr, gate.stderr
    again = hostile(repo, "doctor", "--restore", "1")
    assert again.returncode == 2 and b"is discarded already" in again.stderr


def test_held_evidence_does_not_close_the_gate(recorded_repo: Path) -> None:
    repo = recorded_repo
    _edit_ledger(repo, "UPDATE receipt SET exit_code='x'")
    assert hostile(repo, "hook", "pre-commit").returncode == 2  # the bad row refused
    hostile(repo, "doctor", "--fix")
    assert _quarantine(repo) == [(1, "receipt", 1, "held")]
    doctor = hostile(repo, "doctor")
    assert doctor.returncode == 0, doctor.stdout  # evidence held: the gate asks for it again
    gate = hostile(repo, "hook", "pre-commit")
    assert gate.returncode == 1 and b"BLOCKED" in gate.stderr, gate.stderr


def test_a_row_breaking_a_check_constraint_is_quarantined_not_the_ledger(
    recorded_repo: Path,
) -> None:
    repo = recorded_repo
    assert hostile(repo, "escalate", "--item", "1", "--reason", "r").returncode == 0
    _edit_ledger(repo, "PRAGMA ignore_check_constraints = ON; UPDATE escalation SET item=9")
    fixed = hostile(repo, "doctor", "--fix")
    assert b"moved the damaged ledger aside" not in fixed.stdout
    assert _quarantine(repo) == [(1, "escalation", 1, "held")]
    assert b"ok    constraints: ok" in fixed.stdout, fixed.stdout
    # the escalation is writer work's: the gate stays closed, naming it
    err = hostile(repo, "hook", "pre-commit").stderr.decode()
    assert "escalation row 1 is held in quarantine 1" in err, err
    # restoring puts the very row back, CHECK constraint broken as it stood
    assert hostile(repo, "doctor", "--restore", "1").returncode == 2
    with contextlib.closing(sqlite3.connect(_ledger(repo))) as conn:
        assert conn.execute("SELECT item FROM escalation WHERE id = 1").fetchone() == (9,)


def test_held_work_is_never_skipped_by_the_idle_fast_path(recorded_repo: Path) -> None:
    """Every live entry quarantined: nothing pending is left in the tables themselves,
    yet the commit gate still runs and refuses."""
    repo = recorded_repo
    _edit_ledger(repo, "UPDATE writer_entry SET added='[[1]]'")
    hostile(repo, "doctor", "--fix")
    assert not os.path.exists(idle_path(str(_ledger(repo))))  # held work is pending work
    write(repo / "src" / "human.py", "X = 1\n")
    git(repo, "add", "src/human.py")
    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "hook", "pre-commit"],
        cwd=repo,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 2 and b"held in quarantine" in proc.stderr, proc.stderr


def test_held_writer_work_refuses_a_push_naming_it(recorded_repo: Path) -> None:
    repo = recorded_repo
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-qm", "writer change")
    head = git(repo, "rev-parse", "HEAD").strip()
    _edit_ledger(repo, "UPDATE pending_mutation SET recorded_at='x'")
    hostile(repo, "doctor", "--fix")
    line = f"refs/heads/main {head} refs/heads/main {'0' * 40}\n".encode()
    proc = hostile(repo, "hook", "pre-push", "origin", "x", stdin=line)
    assert proc.returncode == 2 and b"held in quarantine 1" in proc.stderr, proc.stderr
