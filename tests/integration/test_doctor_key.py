"""``doctor`` checks the ledger's key (``ledger.key``, the HMAC key sealing verify runs)
and ``doctor --fix`` repairs what is safe (SPEC §9, §10; issue 16, refuter r16y): a FIFO,
a link, a directory, a key of the wrong size or open to others fails with the path and
what is wrong; every other command stays one line and exit 2 at most, never a hang."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gentle_hooks.ledger.records import VerifyRun
from gentle_hooks.ledger.store import Ledger
from tests.conftest import write
from tests.integration.test_hostile_inputs import hostile

STATE = Path(".git") / "gentle-hooks"
RUN = VerifyRun(
    "/r", "sha256:x", "b1", "pass", "Ann <a@x>", "/tmp/room", "a.json", "sha256:0", "[]"
)


@pytest.fixture
def recorded(repo: Path) -> Path:
    """A repository with a writer's pending change recorded (the ledger exists)."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b + 0\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    return repo


def _ledger(repo: Path) -> str:
    return str(repo / STATE / "ledger.sqlite3")


def _break(key: Path, fault: str, tmp: Path) -> None:
    """Put ``fault`` where the key is."""
    if key.exists() or key.is_symlink():
        key.unlink()
    if fault == "fifo":
        os.mkfifo(key)
    elif fault == "link":
        real = tmp / "elsewhere.key"
        real.write_bytes(b"k" * 32)
        real.chmod(0o600)
        key.symlink_to(real)
    elif fault == "directory":
        key.mkdir()
    elif fault == "empty":
        key.write_bytes(b"")
        key.chmod(0o600)
    elif fault == "short":
        key.write_bytes(b"k" * 31)
        key.chmod(0o600)


FAULTS = ["fifo", "link", "directory", "empty", "short"]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_broken_key_without_sealed_runs_fails_doctor_and_the_fix_replaces_it(
    recorded: Path, tmp_path: Path, fault: str
) -> None:
    key = recorded / STATE / "ledger.key"
    _break(key, fault, tmp_path)
    for args in (("status",), ("assess", "--json"), ("hook", "pre-commit")):
        assert hostile(recorded, *args, timeout=30).returncode in (0, 2), args
    proc = hostile(recorded, "doctor", timeout=30)
    out = proc.stdout.decode()
    assert proc.returncode == 2
    line = next(x for x in out.splitlines() if x.startswith("FAIL  key:"))
    assert str(key) in line and "gentle-hook doctor --fix" in line, line
    fixed = hostile(recorded, "doctor", "--fix", timeout=30).stdout.decode()
    assert "moved the broken key aside" in fixed, fixed
    assert "ok    key:" in fixed and "FAIL  key" not in fixed, fixed
    assert stat.S_ISREG(key.lstat().st_mode) and key.stat().st_mode & 0o777 == 0o600
    kept = [p for p in (recorded / STATE).iterdir() if p.name.startswith("ledger.key.broken-")]
    assert len(kept) == 1  # what stood there is kept, never deleted
    with Ledger.open(_ledger(recorded)) as led:
        run = led.add_run(RUN)  # sealing works again
        assert led.verify_runs("sha256:x") == [run]


def test_a_key_open_to_others_is_made_private_and_its_runs_still_verify(recorded: Path) -> None:
    with Ledger.open(_ledger(recorded)) as led:
        run = led.add_run(RUN)
    key = recorded / STATE / "ledger.key"
    key.chmod(0o640)
    out = hostile(recorded, "doctor").stdout.decode()
    assert f"FAIL  key: {key} is open to other users (mode 640)" in out, out
    fixed = hostile(recorded, "doctor", "--fix").stdout.decode()
    assert "readable by its owner only" in fixed and "ok    key:" in fixed, fixed
    assert key.stat().st_mode & 0o777 == 0o600
    with Ledger.open(_ledger(recorded)) as led:
        assert led.verify_runs("sha256:x") == [run]  # the same key: still sealed


@pytest.mark.parametrize("fault", ["fifo", "link", "empty"])
def test_a_broken_key_that_sealed_runs_depend_on_is_left_with_what_to_do(
    recorded: Path, tmp_path: Path, fault: str
) -> None:
    with Ledger.open(_ledger(recorded)) as led:
        led.add_run(RUN)
    key = recorded / STATE / "ledger.key"
    _break(key, fault, tmp_path)
    out = hostile(recorded, "doctor", timeout=30).stdout.decode()
    line = next(x for x in out.splitlines() if x.startswith("FAIL  key:"))
    assert str(key) in line and "1 sealed verify run(s) depend on" in line, line
    assert "doctor --fix" not in line  # no fix that would unseal them
    fixed = hostile(recorded, "doctor", "--fix", timeout=30).stdout.decode()
    assert f"left {key} as it is" in fixed and "no longer count as observed" in fixed, fixed
    assert not [p for p in (recorded / STATE).iterdir() if ".broken-" in p.name]
    assert os.path.lexists(key)  # left where it was
