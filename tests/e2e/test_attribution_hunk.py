"""One of the writer's edits staged alone is the writer's, whatever other lines of the file
say (SPEC §3 "Attribution follows content"; row A6 of :mod:`gentle_hooks.policy.attribution`,
row H1 of :mod:`gentle_hooks.policy.hunks`): real git, ``gentle-hook install``, a bare remote
with the server gate and notes shared with it.

* the writer turns ``return 0`` into ``return []`` (a line too short to be keyed) and
  ``LIMIT = 10`` into ``LIMIT = 1000``; ``git add -p`` stages the first hunk only: blocked
  at commit, at push and at the server, whether another function ends in ``return None``
  or ``return -1``;
* the writer swaps the bodies of ``add`` and ``sub`` (no line of the file is new); the
  first hunk staged alone: blocked at commit, at push and at the server;
* a person's own different edit of the same line (``return 0`` -> ``return ()``), writer
  work pending: passes with no trailer.
"""

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

BASE = (
    "def find(items, key):\n    for item in items:\n        if item.key == key:\n"
    "            return item\n    return {end}\n\n\ndef first(items):\n    if not items:\n"
    "        return 0\n    return items[0]\n\n\nLIMIT = 10\n"
)
SWAPPED = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate and notes shared."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    return w


def _base(w: World, text: str) -> None:
    w.write("src/app.py", text)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")


def _first_hunk_alone_is_blocked(w: World, staged: str) -> None:
    r = w.run(["git", "add", "-p", "src/app.py"], input=b"s\ny\nn\n")
    assert r.code == 0, r
    assert w.ok("show", ":src/app.py") == staged
    r = w.git("commit", "-qm", "one hunk")
    assert not [line for line in r.said if "expired" in line], r
    _blocked_staged(r)
    w.ok("commit", "-q", "--no-verify", "-m", "one hunk")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)
    _server_rejects(w, bad)


@pytest.mark.parametrize("end", ["None", "-1"])
def test_the_writers_short_line_edit_staged_alone_is_delegated(served: World, end: str) -> None:
    """``return 0`` -> ``return []`` staged alone (``git add -p``, split, first hunk)."""
    w = served
    base = BASE.format(end=end)
    _base(w, base)
    writer = base.replace("return 0", "return []").replace("LIMIT = 10", "LIMIT = 1000")
    w.delegate("src/app.py", writer)
    _first_hunk_alone_is_blocked(w, base.replace("return 0", "return []"))


def test_the_writers_swapped_bodies_one_staged_alone_is_delegated(served: World) -> None:
    """The writer swaps ``return a - b`` and ``return a + b``; the first swap staged alone."""
    w = served
    _base(w, SWAPPED)
    writer = SWAPPED.replace("a - b", "X").replace("a + b", "a - b").replace("X", "a + b")
    w.delegate("src/app.py", writer)
    _first_hunk_alone_is_blocked(w, SWAPPED.replace("a - b", "a + b", 1))


def test_a_persons_own_edit_of_the_writers_line_passes(served: World) -> None:
    """Writer work pending (``return 0`` -> ``return []``), a person stages their own
    ``return ()`` there: theirs (row A5), no trailer, the push passes."""
    w = served
    base = BASE.format(end="None")
    _base(w, base)
    w.delegate("src/app.py", base.replace("return 0", "return []").replace("10", "1000"))
    mine = base.replace("return 0", "return ()")
    blob = w.run(["git", "hash-object", "-w", "--stdin"], input=mine.encode()).out.strip()
    w.ok("update-index", "--cacheinfo", f"100644,{blob},src/app.py")
    r = w.git("commit", "-qm", "human: first returns ()")
    assert r.code == 0, r
    assert TRAILER not in _message(w)
    w.ok("checkout", "--", "src/app.py")
    r = w.git("push", "origin", "main")
    assert r.code == 0, r
