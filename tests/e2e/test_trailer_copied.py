"""A human's ``git commit -F`` of a writer commit's message gets no writer trailer (SPEC §3
"human commits never receive a writer trailer; amended writer commits keep theirs"): real
git, ``gentle-hook install``.

* The message file copies a writer commit's ``Gentle-Writer`` trailer; the human's commit
  carries no writer content: the trailer goes, and the push passes.
* A writer commit made with ``-F`` of a message naming its writer keeps the trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    assert native.gh("install", "--server", cwd=native.remote).code == 0
    assert native.gh("install", "--share", "origin").code == 0
    native.write("src/app.py", "def add(a, b):\n    return 0\n")
    native.ok("commit", "-qam", "human: base")
    native.ok("push", "-q", "origin", "main")
    return native


def test_a_human_commit_with_a_copied_writer_message_gets_no_trailer(served: World) -> None:
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent: add").code == 0
    message = w.ok("log", "-1", "--format=%B")
    assert "Gentle-Writer: o4-mini/low" in message, message
    copied = w.base / "msg.txt"
    copied.write_text(message)
    w.write("README.md", "a human's notes\n")
    w.ok("add", "README.md")
    r = w.git("commit", "-q", "-F", str(copied))
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B"), r
    assert w.git("push", "origin", "main").code == 0
    assert w.remote_ref("main") == w.rev("HEAD")


def test_a_writer_commit_made_with_f_keeps_its_trailer(served: World) -> None:
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    copied = w.base / "msg.txt"
    copied.write_text("agent: add\n\nGentle-Writer: o4-mini/low\n")
    assert w.git("commit", "-qa", "-F", str(copied)).code == 0
    assert w.ok("log", "-1", "--format=%(trailers:key=Gentle-Writer)").strip() == (
        "Gentle-Writer: o4-mini/low"
    )
