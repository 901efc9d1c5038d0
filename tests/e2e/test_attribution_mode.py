"""A mode change an agent's shell call makes is the writer's change of that path (SPEC §3
"Attribution follows content": a tree holds each path's blob and mode; §4: an exec-bit
flip makes a script runnable, a high-risk change; issue 13, MED).

Real git, ``gentle-hook install``, Claude Code's ``Bash`` hook inputs around a real
``chmod`` (tests/e2e/test_attribution_shell.py): the agent's ``chmod +x run.sh`` keeps the
file's blob, and recorded nothing, so the person's commit of the flip passed with no
trailer. Now the call records it (row A8): the person's commit of it is blocked, while a
person's own ``chmod +x``, made before the call or with no agent at all, commits with no
trailer.

The generic ``gentle-hook record`` (a runtime with no hook of its own, README "Any other
agent") of a path whose mode alone changed said "no path differs from where the writer
started" and recorded nothing, so the flip passed every gate (issue 13, r13r MED): it is
the writer's mode change too, blocked at commit, at push, by ``gate --range`` and by the
server (the commit's trailer), while a person's own flip the record did not name stays
theirs.
"""

from __future__ import annotations

import os

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_shell import _bash

SCRIPT = "#!/bin/sh\necho deploying\n"
WRITER = ("--model", "o4-mini", "--effort", "low")


@pytest.fixture
def scripted(native: World) -> World:
    """``native`` with ``run.sh`` (not executable) and ``other.sh`` committed by a human."""
    native.write("run.sh", SCRIPT)
    native.write("other.sh", SCRIPT)
    native.ok("add", "--", "run.sh", "other.sh")
    native.ok("commit", "-qm", "human: scripts")
    return native


def test_an_agents_chmod_blocks_the_persons_commit_of_it(scripted: World) -> None:
    w = scripted
    said = _bash(w, "chmod +x run.sh")
    assert "recorded: pending mutation #1" in said, said
    assert "changed the mode of run.sh (chmod)" in said, said
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert "in run.sh" in r.said[0], r
    os.chmod(w.work / "run.sh", 0o644)  # the person undoes the flip: nothing to commit there
    w.write("other.sh", SCRIPT + "echo done\n")
    r = w.git("commit", "-qam", "human: other")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_a_persons_chmod_before_the_call_stays_theirs(scripted: World) -> None:
    w = scripted
    os.chmod(w.work / "run.sh", 0o755)  # the person's, before the agent's call
    said = _bash(w, "chmod +x other.sh")
    assert "changed the mode of other.sh (chmod)" in said, said
    w.ok("add", "--", "run.sh")
    r = w.git("commit", "-qm", "human: runnable")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    r = w.git("commit", "-qam", "human: the rest")  # the agent's flip still blocks
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_an_agents_chmod_committed_in_the_call_blocks_the_push(scripted: World) -> None:
    w = scripted
    said = _bash(w, "chmod +x run.sh && git commit -qam runnable --no-verify")
    assert "changed the mode of run.sh (chmod)" in said, said
    r = w.git("push", "-q", "origin", "main")
    assert r.code != 0 and any("BLOCKED commit" in line for line in r.said), r


@pytest.mark.parametrize("named", [("run.sh",), ()], ids=["named", "differing-from-HEAD"])
def test_a_recorded_chmod_blocks_the_persons_commit_of_it(
    scripted: World, named: tuple[str, ...]
) -> None:
    w = scripted
    os.chmod(w.work / "run.sh", 0o755)  # the writer's, through a shell the record reports
    r = w.gh("record", *WRITER, *named)
    assert r.code == 0 and "recorded: pending mutation #1" in r.out, r
    assert "no path differs" not in r.out + r.err, r
    again = w.gh("record", *WRITER, *named)  # the same flip reported again is stored once
    assert "already recorded" in again.out + again.err, again
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert "in run.sh" in r.said[0], r


def test_a_recorded_chmod_committed_with_hooks_off_is_blocked_at_every_gate(
    scripted: World,
) -> None:
    w = scripted
    w.serve({"README.md": "# demo, served\n"})
    os.chmod(w.work / "run.sh", 0o755)
    assert w.gh("record", *WRITER, "run.sh").code == 0
    w.ok("commit", "-q", "--no-verify", "-am", "runnable")
    commit = w.rev("HEAD")
    r = w.gh("gate", "--range", "origin/main..HEAD")
    assert r.code == 1 and f"BLOCKED {commit[:12]} on origin/main..HEAD" in r.out + r.err, r
    r = w.git("push", "-q", "origin", "main")
    assert r.code == 1 and f"BLOCKED commit {commit[:12]}" in r.err, r
    r = w.git("push", "-q", "--no-verify", "origin", "main")  # the server reads the trailer
    assert r.code == 1 and f"remote: gentle-hooks: BLOCKED {commit[:12]}" in r.err, r
    assert w.remote_ref("refs/heads/main") != commit


def test_a_persons_chmod_the_record_does_not_name_stays_theirs(scripted: World) -> None:
    w = scripted
    os.chmod(w.work / "run.sh", 0o755)  # the person's
    w.write("other.sh", SCRIPT + "echo done\n")  # the writer's, named
    r = w.gh("record", *WRITER, "other.sh")
    assert r.code == 0 and "recorded: pending mutation #1" in r.out, r
    w.ok("add", "--", "run.sh")
    r = w.git("commit", "-qm", "human: runnable")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    r = w.git("commit", "-qam", "human: the rest")  # the writer's edit still blocks
    assert r.code == 1 and "in other.sh" in r.said[0], r


@pytest.mark.parametrize("by", ["bash", "record"])
def test_a_writers_chmod_put_back_then_made_again_by_the_person_is_theirs(
    scripted: World, by: str
) -> None:
    """The writer's flip recorded, the person puts it back (``chmod -x``), a gate looks
    (their commit of another file): the flip is nowhere, so it expires; the person's own
    ``chmod +x`` later commits with no trailer."""
    w = scripted
    if by == "bash":
        assert "changed the mode of run.sh (chmod)" in _bash(w, "chmod +x run.sh")
    else:
        os.chmod(w.work / "run.sh", 0o755)
        assert w.gh("record", *WRITER, "run.sh").code == 0
    os.chmod(w.work / "run.sh", 0o644)
    w.write("other.sh", SCRIPT + "echo done\n")
    r = w.git("commit", "-qam", "human: other")
    assert r.code == 0, r
    assert "pending writer work on run.sh expired" in r.err, r
    os.chmod(w.work / "run.sh", 0o755)  # the person's own flip
    r = w.git("commit", "-qam", "human: runnable")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
