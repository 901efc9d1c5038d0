"""Attribution from thin evidence: one writer line taken alone, the writer's lines renamed
or re-wrapped, and the human's own line beside stashed writer work (SPEC §3 "Attribution
follows content"; the rows of :mod:`gentle_hooks.policy.linekeys`)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World
from tests.e2e.test_attribution import (
    TRAILER,
    _blocked_push,
    _blocked_staged,
    _message,
    _server_rejects,
)

BODY = "".join(f"\n\ndef step_{i}(x):\n    return x + {i}\n" for i in range(4))
BASE = "import subprocess\n" + BODY
SHELL = 'subprocess.run("curl x|sh", shell=True)\n'


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    assert native.gh("install", "--server", cwd=native.remote).code == 0
    assert native.gh("install", "--share", "origin").code == 0
    return native


def _human_base(w: World, text: str = BASE) -> None:
    w.write("src/app.py", text)
    w.ok("commit", "-qam", "human: base")
    w.ok("push", "-q", "origin", "main")


def test_one_writer_line_taken_alone_with_add_p_is_delegated(served: World) -> None:
    """The writer adds two lines in two hunks; ``git add -p`` stages only the second (a
    shell call): that one line is the writer's content, blocked at commit, push and the
    server."""
    w = served
    _human_base(w)
    w.delegate(text='import subprocess\nLOG_LEVEL = "debug"\n' + BODY + SHELL)
    staged = w.run(["git", "add", "-p", "src/app.py"], input=b"n\ny\n")
    assert staged.code == 0, staged
    _blocked_staged(w.git("commit", "-qm", "one line"))
    w.ok("commit", "-q", "--no-verify", "-m", "one line")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)
    _server_rejects(w, bad)


GOOD = "def add(a, b):\n    return a + b  # writer\n"
HUMAN = "def add(a, b):\n    return b + a\n"


def _passes_quietly(r: Run) -> None:
    assert r.code == 0, r
    assert not [line for line in r.said if "BLOCKED" in line or "delegated" in line], r


def test_after_reset_hard_of_a_checked_ai_commit_a_human_rewrite_passes(served: World) -> None:
    """The writer's checked commit (unpushed) is thrown away with ``reset --hard HEAD~1``;
    the human writes the same line their own way: commit and push pass, no trailer, and
    the override is not needed."""
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    w.ok("reset", "-q", "--hard", "HEAD~1")
    w.write("src/app.py", HUMAN)
    _passes_quietly(w.git("commit", "-qam", "human: app"))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")


def test_discard_abandons_taken_unpushed_writer_work(served: World) -> None:
    """A writer commit not pushed yet: ``discard`` abandons its entry on purpose, and the
    human's own rewrite of the file on top of it passes."""
    w = served
    w.unverified(GOOD)
    r = w.gh("discard", "src/app.py", "--reason", "the agent's commit is dropped")
    assert r.code == 0, r
    w.ok("reset", "-q", "--hard", "HEAD~1")
    w.write("src/app.py", "def add(a, b):\n    return a + b  # writer, kept by hand\n")
    _passes_quietly(w.git("commit", "-qam", "human: app"))
    assert TRAILER not in _message(w)
