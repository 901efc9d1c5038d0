"""A store this process may not write (SPEC §6, §7 "Exit codes"): ``doctor`` fails naming
the place, the system's reason and the ``chmod`` that fixes it, and ``record`` says the
same in its one line with exit 2.

Permission bits do not bind root: as root, the commands run with the capabilities that
override them (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``, ``CAP_FOWNER``) dropped by
``setpriv``, which is what an ordinary user meets.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import write

_CAPS = "-dac_override,-dac_read_search,-fowner"


def _prefix() -> list[str]:
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("needs setpriv to drop root's permission override")
    return ["setpriv", f"--inh-caps={_CAPS}", f"--bounding-set={_CAPS}"]


def bound(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI run as a process the permission bits bind."""
    env = {**os.environ, "GENTLE_WRITER_MODEL": "m", "GENTLE_WRITER_EFFORT": "low"}
    return subprocess.run(
        [*_prefix(), sys.executable, "-m", "gentle_hooks", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


@pytest.fixture
def used(repo: Path) -> Iterator[Path]:
    """``repo`` after normal use: the store with its ``-wal`` and ``-shm`` files; write
    permission given back at the end so the temporary directory can be removed."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert bound(repo, "record", "src/app.py").returncode == 0
    assert bound(repo, "status").returncode == 0
    state = repo / ".git" / "gentle-hooks"
    assert (state / "ledger.sqlite3-wal").exists() and (state / "ledger.sqlite3-shm").exists()
    try:
        yield repo
    finally:
        for p in [state, *state.iterdir()]:
            p.chmod(p.stat().st_mode | 0o200)


def _deny(paths: list[Path]) -> None:
    for p in paths:
        p.chmod(p.stat().st_mode & ~0o222)


def test_a_read_only_state_directory_and_store_fail_doctor_and_record_alike(used: Path) -> None:
    state = used / ".git" / "gentle-hooks"
    places = [state, *(state / f"ledger.sqlite3{s}" for s in ("", "-wal", "-shm"))]
    _deny(places)
    fix = "chmod u+w " + " ".join(str(p) for p in places)
    doctor = bound(used, "doctor")
    assert doctor.returncode == 2, doctor.stdout
    line = next(x for x in doctor.stdout.splitlines() if "access" in x)
    assert line.startswith(f"FAIL  access: {state}: Permission denied"), line
    assert line.endswith(f"; run: {fix}"), line
    write(used / "src" / "app.py", "def add(a, b):\n    return a + b + 0\n")
    record = bound(used, "record", "src/app.py")
    assert record.returncode == 2
    err = record.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert f"{state}: Permission denied" in err and err.endswith(f"; run: {fix}"), err
    subprocess.run(fix, shell=True, check=True)  # runnable exactly as printed
    assert bound(used, "record", "src/app.py").returncode == 0
    assert bound(used, "doctor").returncode == 0


def test_a_read_only_state_directory_alone_fails_doctor(used: Path) -> None:
    state = used / ".git" / "gentle-hooks"
    _deny([state])
    doctor = bound(used, "doctor")
    assert doctor.returncode == 2, doctor.stdout
    line = next(x for x in doctor.stdout.splitlines() if "access" in x)
    assert line.startswith(f"FAIL  access: {state}: Permission denied"), line
    assert line.endswith(f"; run: chmod u+w {state}"), line
