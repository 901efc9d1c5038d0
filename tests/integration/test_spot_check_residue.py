"""Spot checks killed by SIGKILL at any moment leave nothing the next spot check or
``doctor --fix`` does not remove, and a running spot check's checkout is never touched
(SPEC §5 "Spot check"; docs/robustness.md).

The system's temporary directory is the test's own (``TMPDIR``), so the rooms counted are
this test's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import git, write
from tests.integration.test_hostile_inputs import hostile

PREFIX = "gentle-hooks-spot-"


@pytest.fixture
def slow(repo: Path, tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    """(repo, env, flag): a staged writer change with a receipt whose re-run waits while
    ``flag`` exists, and an unstaged edit, so a spot check re-runs in a temporary
    checkout under the test's own ``TMPDIR``."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    flag = tmp_path / "hold"
    env = {"TMPDIR": str(tmp)}
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    git(repo, "add", "-A")
    wait = f"import os, time\nwhile os.path.exists({str(flag)!r}): time.sleep(0.05)"
    ran = hostile(repo, "receipt", "run", "--staged", "--", sys.executable, "-c", wait, env=env)
    assert ran.returncode == 0, ran.stderr
    write(repo / "README.md", "# edited\n")
    return repo, env, flag


def rooms(env: dict[str, str]) -> list[str]:
    return sorted(n for n in os.listdir(env["TMPDIR"]) if n.startswith(PREFIX))


def linked(repo: Path) -> list[str]:
    out = git(repo, "worktree", "list", "--porcelain")
    trees = [line[len("worktree ") :] for line in out.splitlines() if line.startswith("worktree ")]
    return trees[1:]


def _kill_spot_checks(repo: Path, env: dict[str, str], flag: Path, count: int) -> None:
    """Start ``count`` spot checks one after another, each killed by SIGKILL at a later
    moment (before its room, while git makes the checkout, during the re-run)."""
    flag.write_text("")
    for i in range(count):
        proc = subprocess.Popen(
            [sys.executable, "-m", "gentle_hooks", "spot-check", "--staged"],
            cwd=repo,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(0.15 + i * 0.12)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the spot check and its re-run
        proc.wait()
    flag.unlink()


def test_killed_spot_checks_are_reported_and_removed_by_doctor_fix(
    slow: tuple[Path, dict[str, str], Path],
) -> None:
    repo, env, flag = slow
    _kill_spot_checks(repo, env, flag, 10)
    assert rooms(env), "no kill landed while a room existed"
    report = hostile(repo, "doctor", env=env)
    out = report.stdout.decode()
    assert report.returncode == 2, out
    assert "left behind by a spot check that was killed" in out
    assert "run: gentle-hook doctor --fix" in out
    fixed = hostile(repo, "doctor", "--fix", env=env)
    assert fixed.returncode == 0, fixed.stdout
    assert rooms(env) == [] and linked(repo) == []


def test_killed_spot_checks_are_swept_by_the_next_one(
    slow: tuple[Path, dict[str, str], Path],
) -> None:
    repo, env, flag = slow
    _kill_spot_checks(repo, env, flag, 10)
    assert rooms(env), "no kill landed while a room existed"
    ours = Path(env["TMPDIR"]) / f"{PREFIX}claimed"  # killed before its checkout was made
    ours.mkdir()
    (ours / "lock").write_text(f"{2**22 + 5}\n{os.path.realpath(repo / '.git')}\n")
    ran = hostile(repo, "spot-check", "--staged", env=env)
    assert ran.returncode == 0, ran.stderr
    assert rooms(env) == [] and linked(repo) == []
    assert hostile(repo, "doctor", env=env).returncode == 0


def test_a_running_spot_checks_checkout_is_never_removed(
    slow: tuple[Path, dict[str, str], Path],
) -> None:
    repo, env, flag = slow
    flag.write_text("")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gentle_hooks", "spot-check", "--staged"],
        cwd=repo,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not linked(repo):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    hostile(repo, "doctor", "--fix", env=env)
    other = subprocess.run(  # another spot check sweeps before it makes its own room
        [sys.executable, "-m", "gentle_hooks", "spot-check", "--staged", "--receipt", "999"],
        cwd=repo,
        env={**os.environ, **env},
        capture_output=True,
        check=False,
    )
    assert other.returncode == 2
    assert len(linked(repo)) == 1 and len(rooms(env)) == 1
    flag.unlink()
    assert proc.wait(timeout=60) == 0, proc.stderr
    assert rooms(env) == [] and linked(repo) == []


def test_a_room_without_its_owner_of_another_repository_is_left_to_it(
    slow: tuple[Path, dict[str, str], Path],
) -> None:
    """A dead room that names this repository is removed; one that names another is that
    repository's to sweep; one that names none (killed before it was claimed) is anyone's
    once it is a minute old."""
    repo, env, _ = slow
    tmp = Path(env["TMPDIR"])
    theirs = tmp / f"{PREFIX}theirs"
    theirs.mkdir()
    (theirs / "lock").write_text(f"{2**22 + 5}\n/elsewhere/.git\n")
    unclaimed_old = tmp / f"{PREFIX}old"
    unclaimed_old.mkdir()
    (unclaimed_old / "lock").write_text("")
    os.utime(unclaimed_old, (time.time() - 3600, time.time() - 3600))
    unclaimed_new = tmp / f"{PREFIX}new"
    unclaimed_new.mkdir()
    ours = tmp / f"{PREFIX}ours"  # killed after claiming its room, before its checkout
    ours.mkdir()
    (ours / "lock").write_text(f"{2**22 + 5}\n{os.path.realpath(repo / '.git')}\n")
    report = hostile(repo, "doctor", env=env)
    assert f"FAIL  spot-check checkouts: {ours}: left behind" in report.stdout.decode()
    assert str(theirs) not in report.stdout.decode()
    fixed = hostile(repo, "doctor", "--fix", env=env)
    assert fixed.returncode == 0, fixed.stdout
    assert rooms(env) == [f"{PREFIX}new", f"{PREFIX}theirs"]
