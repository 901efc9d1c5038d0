"""A person's edit on top of the writer's live content keeps the writer's content the
writer's (SPEC §3 "Attribution follows content"; issue 13, refuter r13s F4): real git,
``gentle-hook install``.

Open (strict xfail): the writer writes ``c = a * b`` / ``return c``, recorded; an unrecorded
rename ``c`` -> ``total`` on top of it is judged ``not delegated``. The change carries the
entry only by row A3 (it removes the writer's removed line), and the gates drop a shape-only
row when neither the work tree nor the index holds the writer's content
(:func:`gentle_hooks.services.settle.content_away`); ``held_keys`` does not see
``total = a * b`` as the writer's ``c = a * b`` renamed (the line is too short to have a
shape), so the content counts as away, and the pending work expires at the commit gate
("no worktree, index, HEAD ... holds it"). Row A9 (rewrite) is not what decides here.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution import _blocked_staged


@pytest.mark.xfail(strict=True, reason="open: issue 13 F4, see the module docstring")
def test_a_rename_on_top_of_the_writers_lines_stays_delegated(native: World) -> None:
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a - b\n")
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.delegate("src/app.py", "def add(a, b):\n    c = a * b\n    return c\n")
    w.write("src/app.py", "def add(a, b):\n    total = a * b\n    return total\n")
    w.ok("add", "-A")
    _blocked_staged(w.git("commit", "-qm", "agent"))
