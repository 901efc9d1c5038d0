"""A derived tool call id (a runtime that names no call: Kiro CLI) names every call with the
same fields, so it is a replay only while the first call's work is live (SPEC §6 "a replay
records once"; docs/agents/kiro.md).

The same edit made again after the first one's work ended (discarded here; settled or
expired alike) is a new call: it records, and its commit is gated. Recording it as a replay
would let the model's content through ungated.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, git


def test_the_same_kiro_edit_after_its_work_ended_records_again(repo: Path, tmp_path: Path) -> None:
    assert gh(repo, "install").returncode == 0
    data, filled = materialize("kiro", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    first = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert first.stderr.startswith("recorded: pending mutation #1: "), first.stderr
    # delivered immediately again: a replay
    again = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert "is recorded already (mutation #1)" in again.stderr, again.stderr
    # the person throws the edit away on purpose; later the agent makes the very same call
    git(repo, "checkout", "--", "src/app.py")
    assert gh(repo, "discard", "src/app.py", "--reason", "not wanted").returncode == 0
    apply_writes(filled, repo)
    later = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert later.stderr.startswith("recorded: pending mutation #2: "), later.stderr
    replay = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert "is recorded already (mutation #2)" in replay.stderr, replay.stderr
    git(repo, "add", "src/app.py")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "kiro's edit"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 1, done.stderr


def test_a_kiro_replay_is_one_call_while_its_commit_is_unpushed_and_a_new_one_once_pushed(
    repo: Path, tmp_path: Path
) -> None:
    """The window of a derived id (docs/agents/kiro.md, "What is recorded"): Kiro's event
    names no id, so the same event again is a replay while the first call's work is live,
    in a commit not yet on the remote too; once that commit is pushed (the work settled) it
    is a new call and records again, with nothing left to attribute."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "HEAD:main")
    git(repo, "branch", "-q", "--set-upstream-to=origin/main")
    assert gh(repo, "install").returncode == 0
    data, filled = materialize("kiro", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    first = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert first.stderr.startswith("recorded: pending mutation #1: "), first.stderr
    git(repo, "add", "src/app.py")
    skip = {**os.environ, "GENTLE_HOOKS_SKIP": "checked by hand"}
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "kiro's edit"], cwd=repo, env=skip, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    inside = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert "is recorded already (mutation #1)" in inside.stderr, inside.stderr
    pushed = subprocess.run(
        ["git", "push", "-q", "origin", "HEAD:main"], cwd=repo, env=skip, capture_output=True
    )
    assert pushed.returncode == 0, pushed.stderr
    outside = gh(repo, "record", "--from", "kiro", input=data.decode())
    assert outside.stderr.startswith("recorded: pending mutation #2: "), outside.stderr
    assert "no content is attributed to the writer" in outside.stderr
