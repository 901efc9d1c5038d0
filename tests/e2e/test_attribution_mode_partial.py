"""A writer's mode change stays pending while the work tree or the index holds it (SPEC §3
"Attribution follows content": pending work ends when a commit takes it, a discard
abandons it, or nothing local holds it any more; issue 13, refuter r13t MED).

Real git, ``gentle-hook install``, Claude Code's ``Bash`` hook inputs around a real
``chmod`` (tests/e2e/test_attribution_shell.py). The agent's ``chmod +x run.sh`` is pending;
the person edits ``run.sh`` too and stages only their own content hunk (``git add -p``,
the mode hunk declined). Their commit is theirs, but the work tree still holds the
writer's mode: the flip must not expire there, and the later commit of it (``commit -a``)
is the writer's, blocked. The person who puts the mode back (``chmod -x``) ends it.
"""

from __future__ import annotations

import os

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_mode import SCRIPT, WRITER
from tests.e2e.test_attribution_shell import _bash

MINE = SCRIPT + "echo by hand\n"


@pytest.fixture
def scripted(native: World) -> World:
    """``native`` with ``run.sh`` (not executable) committed by a human."""
    native.write("run.sh", SCRIPT)
    native.ok("add", "--", "run.sh")
    native.ok("commit", "-qm", "human: script")
    return native


def _flip(w: World, by: str) -> None:
    """The writer's ``chmod +x run.sh``: an agent's shell call, or the generic record."""
    if by == "bash":
        assert "changed the mode of run.sh (chmod)" in _bash(w, "chmod +x run.sh")
    else:
        os.chmod(w.work / "run.sh", 0o755)
        r = w.gh("record", *WRITER, "run.sh")
        assert r.code == 0 and "recorded: pending mutation #1" in r.out, r


def _commit_own_hunk(w: World) -> None:
    """The person edits ``run.sh`` and commits their content hunk alone (``git add -p``:
    the mode change declined, the hunk taken): theirs, no trailer."""
    w.write("run.sh", MINE)
    assert os.stat(w.work / "run.sh").st_mode & 0o100
    add = w.run(["git", "add", "-p", "run.sh"], input=b"n\ny\n")
    assert add.code == 0, add
    assert w.ok("diff", "--cached", "--summary") == ""  # no mode staged
    r = w.git("commit", "-qm", "human: say it")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    assert w.ok("ls-tree", "HEAD", "run.sh").startswith("100644 ")
    assert "expired" not in r.err, r


@pytest.mark.parametrize("by", ["bash", "record"])
def test_the_writers_flip_left_after_a_persons_own_hunk_is_still_the_writers(
    scripted: World, by: str
) -> None:
    w = scripted
    _flip(w, by)
    _commit_own_hunk(w)
    status = w.gh("status")
    assert "expired" not in status.out + status.err, status
    r = w.git("commit", "-qam", "human: the rest")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert "in run.sh" in r.said[0], r
    assert w.ok("ls-tree", "HEAD", "run.sh").startswith("100644 ")


def test_the_writers_flip_staged_after_a_persons_own_hunk_is_still_the_writers(
    scripted: World,
) -> None:
    w = scripted
    _flip(w, "bash")
    _commit_own_hunk(w)
    w.ok("add", "run.sh")
    r = w.git("commit", "-qm", "human: runnable")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_the_writers_flip_put_back_after_a_persons_own_hunk_ends(scripted: World) -> None:
    w = scripted
    _flip(w, "bash")
    _commit_own_hunk(w)
    os.chmod(w.work / "run.sh", 0o644)  # the person puts the mode back
    w.write("run.sh", MINE + "echo more\n")
    r = w.git("commit", "-qam", "human: more")
    assert r.code == 0, r
    assert "pending writer work on run.sh expired" in r.err, r
    os.chmod(w.work / "run.sh", 0o755)  # the person's own flip, later
    r = w.git("commit", "-qam", "human: runnable")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_the_writers_flip_committed_with_a_persons_own_hunk_is_the_writers(
    scripted: World,
) -> None:
    w = scripted
    _flip(w, "bash")
    w.write("run.sh", MINE)
    r = w.git("commit", "-qam", "human: say it")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert "in run.sh" in r.said[0], r
