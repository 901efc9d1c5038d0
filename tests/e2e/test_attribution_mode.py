"""A mode change an agent's shell call makes is the writer's change of that path (SPEC §3
"Attribution follows content": a tree holds each path's blob and mode; §4: an exec-bit
flip makes a script runnable, a high-risk change; issue 13, MED).

Real git, ``gentle-hook install``, Claude Code's ``Bash`` hook inputs around a real
``chmod`` (tests/e2e/test_attribution_shell.py): the agent's ``chmod +x run.sh`` keeps the
file's blob, and recorded nothing, so the person's commit of the flip passed with no
trailer. Now the call records it (row A8): the person's commit of it is blocked, while a
person's own ``chmod +x``, made before the call or with no agent at all, commits with no
trailer.
"""

from __future__ import annotations

import os

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_shell import _bash

SCRIPT = "#!/bin/sh\necho deploying\n"


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
