"""A ledger held locked by another process: a writer waits a bounded time, well under an
agent runtime's hook limit, then fails with one line naming the holder (exit 2)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gentle_hooks.ledger.lock_wait import LOCK_WAIT_SECONDS
from tests.conftest import write
from tests.integration.test_hostile_inputs import hostile

#: Holds the write lock of the ledger named by argv[1] until stdin closes.
HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def held(repo: Path) -> Iterator[subprocess.Popen[str]]:
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(ledger)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    yield holder
    holder.communicate("")


def test_a_writer_waits_a_bounded_time_and_names_the_lock_holder(
    repo: Path, held: subprocess.Popen[str]
) -> None:
    # (a writer's pending mutation is spooled instead: test_ledger_spool)
    start = time.monotonic()
    proc = hostile(repo, "review", "decline", timeout=60)
    took = time.monotonic() - start
    assert proc.returncode == 2, proc.stderr
    # one wait of LOCK_WAIT_SECONDS, not two 30 s busy timeouts back to back
    assert LOCK_WAIT_SECONDS <= took < 10, took
    err = proc.stderr.decode()
    assert f"busy: process {held.pid} (" in err and "write lock" in err, err


def test_doctor_names_the_lock_and_its_holder(repo: Path, held: subprocess.Popen[str]) -> None:
    proc = hostile(repo, "doctor", timeout=30)
    out = proc.stdout.decode()
    (line,) = [x for x in out.splitlines() if x.startswith("FAIL  lock:")]
    assert f"process {held.pid} (" in line and "holds the write lock" in line, out
