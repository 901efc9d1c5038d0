"""A person's edit on top of the writer's live content keeps the writer's content the
writer's (SPEC §3 "Attribution follows content"; issue 13, refuter r13s F4): real git,
``gentle-hook install``.

The writer writes ``c = a * b`` / ``return c`` over ``return a - b``, recorded; an
unrecorded rename ``c`` -> ``total`` on top of it was judged ``not delegated``: every
writer line was gone (``c = a * b`` too short to have a shape), so the change carried the
entry only by row A3 and the gates dropped it as content away. The block the writer put
there, its names renamed, is its edit (row A6, :mod:`gentle_hooks.policy.renamededit`).
The other way: the writer's edit thrown away and a person's own version written (row A9),
or a person's rename of the writer's content once delivered, stays the person's.
"""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.test_attribution import _blocked_staged

BASE = "def add(a, b):\n    return a - b\n"
WRITER = "def add(a, b):\n    c = a * b\n    return c\n"
RENAMED = "def add(a, b):\n    total = a * b\n    return total\n"


def _based(w: World) -> None:
    w.write("src/app.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")


def test_a_rename_on_top_of_the_writers_lines_stays_delegated(native: World) -> None:
    w = native
    _based(w)
    w.delegate("src/app.py", WRITER)
    w.write("src/app.py", RENAMED)
    assert "not delegated" not in w.gh("status").out
    w.ok("add", "-A")
    _blocked_staged(w.git("commit", "-qm", "agent"))
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "agent")
    r = w.gh("gate", "--range", "HEAD~1..HEAD")
    assert r.code == 1 and "BLOCKED" in r.out + r.err, r


def test_a_persons_rename_of_the_writers_delivered_lines_is_theirs(native: World) -> None:
    """The writer's block committed (and its entry taken), then a person renames ``c`` in
    a commit of their own: its old side holds the block as the writer wrote it."""
    w = native
    _based(w)
    w.delegate("src/app.py", WRITER)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "agent")
    w.write("src/app.py", RENAMED)
    r = w.git("-c", "core.hooksPath=/dev/null", "commit", "-qam", "human: rename")
    assert r.code == 0, r
    g = w.gh("gate", "--range", "HEAD~1..HEAD")
    assert g.code == 0 and "BLOCKED" not in g.out + g.err, g


def test_a_persons_own_version_after_throwing_the_edit_away_is_theirs(native: World) -> None:
    """Row A9 the other way: the writer's edit thrown away, the person's own function body
    of several lines of their own (none of the writer's block) passes with no trailer."""
    w = native
    _based(w)
    w.delegate("src/app.py", WRITER)
    w.ok("checkout", "--", "src/app.py")
    w.write(
        "src/app.py",
        "def add(first, second):\n    if first is None:\n        raise ValueError(first)\n"
        "    return first + second\n",
    )
    w.ok("add", "-A")
    w.person_commits("-qm", "human: own add")
