"""``gentle-hook verify run`` is recorded before its checks run: a run killed before its
end stands as an observed failure (rule R2; SPEC §9; seed 001 "Rules").

Refuter finding 4 of issue 18: a run was recorded only at its end, so a run killed while
the brief's suite failed left nothing, and another brief's pass was accepted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import user_path
from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """:func:`~tests.integration.test_verify.make_env`'s repository."""
    return make_env(repo, tmp_path)


def _killed_run(env: Env) -> None:
    """Start ``verify run`` of a brief whose first criterion sleeps, wait for its start
    row, and kill it (and its checks) with SIGKILL: no end row, no cleanup."""
    slow = {"criterion": "slow", "run": "python3 -c 'import time; time.sleep(60)'"}
    env.brief({**BRIEF, "successCriteria": [slow, *BRIEF["successCriteria"]]})
    extra = {"TMPDIR": str(env.tmp), "PYTHONPATH": "src", "PATH": user_path()}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gentle_hooks", "verify", "run", "--brief", str(env.brief_path)],
        cwd=env.repo,
        env={**os.environ, **extra},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ledger = env.repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
        if ledger.exists() and env.rows("SELECT count(*) FROM verify_run") == [(1,)]:
            break
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def test_a_killed_run_stands_as_a_failure(env: Env) -> None:
    """The killed run's start row is the only row; another brief's pass is then held back
    (R2), the reason saying the run started and never ended."""
    _killed_run(env)
    assert env.rows("SELECT status, verdict_digest FROM verify_run") == [("fail", "started")]
    env.brief({**BRIEF, "id": "add-2"})
    passed = env.json("verify", "run", "--brief", str(env.brief_path))
    assert passed["status"] == "pass", passed["outcomes"]
    added = env.gh("verdict", "add", passed["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout
    said = env.gh("status").stdout
    assert "brief 'add-1' started for this candidate and never ended" in said, said


def test_an_ended_run_does_not_stand(env: Env) -> None:
    """A run that ends writes its end row; its start row then holds nothing back."""
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    rows = env.rows("SELECT status, verdict_digest FROM verify_run ORDER BY id")
    assert [r[0] for r in rows] == ["fail", "pass"] and rows[0][1] == "started", rows
    assert env.gh("verdict", "add", out["json_path"]).returncode == 0
