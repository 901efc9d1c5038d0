"""A short generic line the writer also wrote does not make a human's code the writer's
(SPEC §3 "Attribution follows content"; issue 13, no false blocks): real git,
``gentle-hook install --share origin``, a bare remote with the server gate.

Refuter r13a (F3): the writer appended ``def helper(x)`` with ``result = x * 2`` and
``return result``; the human threw it away (``git checkout app.py``) and wrote their own
``total`` with ``result = 0`` ... ``return result``. The one shared line, ``return result``,
was read as a *telling* writer line: the commit was BLOCKED as delegated, in the writer's
worktree and in a linked one, and ``discard --all`` refused ("still holds lines the writer
wrote"). A one-name line (``return result``, ``result = 0``) is trivial (row L6).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World

APP = (
    'import os\n\n\ndef greet(name):\n    return "hello " + name\n\n\n'
    'def is_authorized(user):\n    return user == "admin"\n'
)
TEST = 'from app import greet\n\n\ndef test_greet():\n    assert greet("x") == "hello x"\n'
HELPER = "\n\ndef helper(x):\n    result = x * 2\n    return result\n"
TOTAL = (
    "\n\ndef total(items):\n    result = 0\n    for item in items:\n"
    "        result += item\n    return result\n"
)


@pytest.fixture
def served(native: World) -> World:
    """One pushed commit of ``app.py``, ``g.py`` and ``test_app.py``; the server gate on the
    bare remote; notes shared with it."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("app.py", APP)
    w.write("g.py", "def util():\n    return 1\n")
    w.write("test_app.py", TEST)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")
    return w


def record(w: World, cwd: Path | None = None) -> None:
    """``gentle-hook record app.py --model gpt-4o-mini --effort low``."""
    r = w.gh("record", "app.py", "--model", "gpt-4o-mini", "--effort", "low", cwd=cwd)
    assert r.code == 0, r


def _passes_without_trailer(w: World, cwd: Path | None = None) -> None:
    w.person_commits("-qam", "human: total", cwd=cwd)


def test_a_humans_function_sharing_one_generic_line_passes(served: World) -> None:
    w = served
    w.write("app.py", APP + HELPER)
    record(w)
    w.ok("checkout", "-q", "app.py")
    w.write("app.py", APP + TOTAL)
    _passes_without_trailer(w)
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push


def test_discard_all_takes_the_writers_thrown_away_work(served: World) -> None:
    w = served
    w.write("app.py", APP + HELPER)
    record(w)
    w.ok("checkout", "-q", "app.py")
    w.write("app.py", APP + TOTAL)
    r = w.gh("discard", "--all", "--reason", "thrown away")
    assert r.code == 0, r


def test_the_same_function_in_a_linked_worktree_passes(served: World) -> None:
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write("app.py", APP + HELPER)
    record(w)
    w.ok("checkout", "-q", "app.py")
    w.write("app.py", APP + TOTAL, cwd=b)
    _passes_without_trailer(w, cwd=b)


def test_the_writers_helper_itself_is_still_blocked(served: World) -> None:
    w = served
    w.write("app.py", APP + HELPER)
    record(w)
    r = w.git("commit", "-qam", "helper")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
