"""An amend of a pushed commit: the commit gate's printed way out binds the candidate the
push gate judges (SPEC §3 "Base", §7; issue 14): real git, ``gentle-hook install``, a bare
remote.

``origin/main`` holds the writer's first commit; a second delegated edit is committed with
``git commit --amend``. The amended commit stands on that commit's parent, and the push gate
judges it against the merge-base of ``origin/main`` and it: that parent. The commit gate
judges the same base and names it with ``--base-ref`` in what it prints, so one paste of the
block gets the amend through ``git commit`` and ``git push -f`` alike.
"""

from __future__ import annotations

import json
import shlex

from tests.e2e.conftest import CHECK, World, paste_first_way

V1 = "def add(a, b):\n    return a + b  # v1\n"
V2 = "def add(a, b):\n    return a + b  # v2\n"


def _pushed_v1_then_staged_v2(w: World) -> str:
    """The writer's v1, spot-checked, committed and pushed; then the writer's v2 staged
    for an amend of it. Returns the id of the pushed commit's parent."""
    w.delegate(text=V1)
    w.spot_check()
    w.ok("add", "-A")
    assert w.git("commit", "-q", "-m", "writer: v1").code == 0
    assert w.git("push", "-q", "origin", "main").code == 0
    parent = w.rev("HEAD~1")
    w.delegate(text=V2)
    w.ok("add", "-A")
    return parent


def test_amend_of_a_pushed_commit_one_paste_gets_through_commit_and_push(native: World) -> None:
    w = native
    parent = _pushed_v1_then_staged_v2(w)
    blocked = w.git("commit", "--amend", "-m", "writer: v2")
    assert blocked.code == 1, blocked
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(CHECK))
    assert all(f"--staged --base-ref {parent}" in cmd for cmd in ran), ran
    r = w.git("commit", "--amend", "-m", "writer: v2")
    assert r.code == 0, r
    assert w.rev("HEAD~1") == parent
    pushed = w.git("push", "-f", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")


def test_amend_of_an_unpushed_commit_prints_no_base_ref(native: World) -> None:
    """Not delivered yet: the merge-base with ``origin/main`` is the amended commit's
    parent already, and ``--staged`` alone binds it."""
    w = native
    w.delegate(text=V1)
    w.spot_check()
    w.ok("add", "-A")
    assert w.git("commit", "-q", "-m", "writer: v1").code == 0
    w.delegate(text=V2)
    w.ok("add", "-A")
    blocked = w.git("commit", "--amend", "-m", "writer: v2")
    assert blocked.code == 1, blocked
    assert not any("--base-ref" in line for line in blocked.said), blocked
    paste_first_way(w, blocked.said, w.work, shlex.join(CHECK))
    assert w.git("commit", "--amend", "-m", "writer: v2").code == 0
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed


def test_amend_of_a_pushed_commit_prints_the_base_the_gate_used(native: World) -> None:
    """The block names the base it judged: the parent of the commit the amend replaces,
    the commit its ``--base-ref`` names, never ``origin/main`` (which holds the replaced
    commit, not that parent); the JSON decision's base names the same commit (issue 14,
    refuter finding 3). Pasted as printed, the commit and the push go through."""
    w = native
    parent = _pushed_v1_then_staged_v2(w)
    as_json = w.git("commit", "--amend", "-m", "writer: v2", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert as_json.code == 1, as_json
    decision = json.loads(next(x for x in as_json.lines if x.startswith("{")))
    assert decision["candidates"][0]["base"]["ref"] == parent, decision
    assert decision["candidates"][0]["base"]["commit"] == parent, decision
    blocked = w.git("commit", "--amend", "-m", "writer: v2")
    assert blocked.code == 1, blocked
    said = "\n".join(blocked.said)
    assert "origin/main" not in said, said
    line = next(s for s in blocked.said if s.startswith("gentle-hooks:   candidate "))
    assert line.endswith(
        f"(staged tree {w.ok('write-tree').strip()[:12]} vs {parent[:12]}, the parent of "
        "the commit this amend replaces)"
    ), line
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(CHECK))
    assert all(f"--base-ref {parent}" in cmd for cmd in ran), ran
    assert w.git("commit", "--amend", "-m", "writer: v2").code == 0
    pushed = w.git("push", "-f", "origin", "main")
    assert pushed.code == 0, pushed
