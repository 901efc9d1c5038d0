"""A writer's commit record delegates a commit only while that commit carries the writer's
content (SPEC §3 "Attribution follows content", §5 "Decision"): real git, two linked worktrees
of one clone, ``gentle-hook install``, a bare remote with the server gate and notes shared.

* A writer's commit, amended with a human's line, then rebased onto ``origin/main`` that
  already holds the writer's part (pushed from the other worktree): the rebased commit adds
  only the human's line. Its record and its ``Gentle-Writer`` trailer came along, but it
  carries no writer content: the pre-push gate, the server gate, ``gate --range`` and
  ``status --committed`` all pass it.
* A writer's commit already pushed and cherry-picked onto another branch, or a human's commit
  re-using a writer commit's message (``git commit -C``): whatever the push gate decides,
  ``status --committed`` says the same (delegated, with what is missing, or not).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World

BASE = "".join(f"anchor_{k} = {k}\n" for k in range(4))
TRAILER = "Gentle-Writer:"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote, notes shared with it, ``src/g.py``
    holding :data:`BASE` pushed, and a linked worktree ``b`` on branch ``topic``."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("src/g.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: g")
    w.ok("push", "-q", "origin", "main")
    w.ok("worktree", "add", "-q", "-b", "topic", str(w.base / "b"), "main")
    return w


def _insert(w: World, where: Path, anchor: int, lines: list[str]) -> None:
    """Put ``lines`` after ``anchor_<anchor>`` in ``src/g.py`` of the work tree ``where``."""
    path = where / "src/g.py"
    text = path.read_text().splitlines(keepends=True)
    at = next(i for i, ln in enumerate(text) if ln.startswith(f"anchor_{anchor} "))
    path.write_text("".join(text[: at + 1] + [f"{ln}\n" for ln in lines] + text[at + 1 :]))


def _writer_edit(w: World, where: Path) -> None:
    _insert(w, where, 0, ['w_1_a = "writer 1"', 'w_1_b = "writer 1"'])
    r = w.gh("record", "--model", "o4-mini", "--effort", "low", "src/g.py", cwd=where)
    assert r.code == 0, r


def _verified_push(w: World, where: Path) -> None:
    """The parent's check of HEAD in ``where``, then ``git push origin +HEAD:main`` with the
    notes; it must pass."""
    w.report("--committed", cwd=where)
    w.spot_check("--committed", cwd=where)
    _push(w, where, expect=0)


def _push(w: World, where: Path, expect: int) -> None:
    refspecs = ("+HEAD:refs/heads/main", "refs/notes/gentle-hooks*:refs/notes/gentle-hooks*")
    r = w.git("push", "origin", *refspecs, cwd=where)
    assert r.code == expect, r
    if expect == 0:
        assert w.remote_ref("main") == w.rev("HEAD", cwd=where), r


def _delegated(w: World, where: Path) -> bool:
    """What ``status --committed`` says of HEAD in ``where``: delegated or not."""
    r = w.gh("status", "--committed", cwd=where)
    assert r.code == 0, r
    return "not delegated" not in r.out + r.err


def test_a_rebase_onto_the_pushed_writer_part_leaves_the_humans_line_only(served: World) -> None:
    w = served
    a, b = w.work, w.base / "b"
    _writer_edit(w, a)
    w.ok("commit", "-q", "--no-verify", "-am", "writer", cwd=a)
    # the writer's commit goes out from the other worktree, checked there
    w.ok("cherry-pick", "main", cwd=b)
    _verified_push(w, b)
    # meanwhile in A a human amends the writer's commit with a line of their own
    _insert(w, a, 2, ['h_2_a = "human 2"', 'h_2_b = "human 2"'])
    w.ok("commit", "-q", "--no-verify", "--amend", "-a", "--no-edit", cwd=a)
    w.ok("fetch", "-q", "origin", cwd=a)
    rebased = w.git("rebase", "origin/main", cwd=a)
    assert rebased.code == 0, rebased
    head = w.rev("HEAD", cwd=a)
    added = w.ok("diff", "-U0", "HEAD^", "HEAD", cwd=a)
    assert '+h_2_a = "human 2"' in added and "writer" not in added, added
    # the human's line alone: no trailer, no record, and no gate holds it as the writer's
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=a)
    assert w.ledger("SELECT count(*) FROM commit_record WHERE commit_id = ?", [head]) == [(0,)]
    assert not _delegated(w, a)
    gate = w.gh("gate", "--range", "origin/main..HEAD", cwd=a)
    assert gate.code == 0, gate
    assert "BLOCKED" not in gate.out + gate.err, gate
    _push(w, a, expect=0)
    assert w.remote_ref("main") == head


def test_a_rebase_onto_the_writers_cherry_pick_leaves_the_humans_line_only(
    served: World,
) -> None:
    # the writer's commit, still unpushed, is cherry-picked onto topic; in main a human
    # amends it with a line of their own and rebases it onto topic: the rebased commit adds
    # only the human's line (its author date is the picked commit's, as topic's tip's is)
    w = served
    a = w.work
    _writer_edit(w, a)
    w.ok("commit", "-q", "--no-verify", "-am", "writer", cwd=a)
    w.ok("cherry-pick", "main", cwd=w.base / "b")
    _insert(w, a, 2, ['h_2_a = "human 2"', 'h_2_b = "human 2"'])
    w.ok("add", "src/g.py", cwd=a)
    w.ok("commit", "-q", "--no-verify", "--amend", "-m", "amended", cwd=a)
    assert w.git("rebase", "topic", cwd=a).code == 0
    head = w.rev("HEAD", cwd=a)
    added = w.ok("diff", "-U0", "HEAD^", "HEAD", cwd=a)
    assert '+h_2_a = "human 2"' in added and "writer" not in added, added
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=a)
    assert w.ledger("SELECT count(*) FROM commit_record WHERE commit_id = ?", [head]) == [(0,)]
    assert not _delegated(w, a)


def _status_and_push_agree(w: World, where: Path, branch: str) -> tuple[bool, int]:
    """``status --committed`` of HEAD in ``where`` and the pre-push gate's answer for
    ``git push origin HEAD:<branch>``: (status says delegated, push exit code); they agree
    when a blocked push is a delegated status with something missing."""
    status = w.gh("status", "--committed", cwd=where)
    assert status.code == 0, status
    said = status.out + status.err
    delegated = "not delegated" not in said
    push = w.git("push", "origin", f"HEAD:refs/heads/{branch}", cwd=where)
    assert push.code in (0, 1), push
    assert delegated == (push.code == 1), (status, push)
    if push.code == 1:
        assert "missing" in said, status
    return delegated, push.code


def test_status_agrees_with_push_on_a_pushed_writer_commit_cherry_picked(served: World) -> None:
    w = served
    a, b = w.work, w.base / "b"
    # topic moves on with a human's commit first, so the pick lands on another base
    w.write("README.md", "# demo, topic\n", cwd=b)
    w.ok("commit", "-qam", "human: topic readme", cwd=b)
    _writer_edit(w, a)
    w.report(cwd=a)
    w.spot_check(cwd=a)
    w.ok("commit", "-qam", "writer", cwd=a)
    _push(w, a, expect=0)
    w.ok("cherry-pick", "main", cwd=b)
    assert _status_and_push_agree(w, b, "topic") == (True, 1)


def test_status_agrees_with_push_on_a_writer_message_reused_with_hooks_off(
    served: World,
) -> None:
    w = served
    a = w.work
    _writer_edit(w, a)
    w.report(cwd=a)
    w.spot_check(cwd=a)
    w.ok("commit", "-qam", "writer", cwd=a)
    _push(w, a, expect=0)
    w.write("README.md", "# demo, a human's note\n", cwd=a)
    w.ok("add", "README.md", cwd=a)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-C", "HEAD", cwd=a)
    assert TRAILER in w.ok("log", "-1", "--format=%B", cwd=a)
    assert _status_and_push_agree(w, a, "main") == (True, 1)


def test_a_writer_message_reused_for_a_humans_change_loses_its_trailer(served: World) -> None:
    w = served
    a = w.work
    _writer_edit(w, a)
    w.report(cwd=a)
    w.spot_check(cwd=a)
    w.ok("commit", "-qam", "writer", cwd=a)
    _push(w, a, expect=0)  # nothing pending any more
    w.write("README.md", "# demo, a human's note\n", cwd=a)
    w.ok("add", "README.md", cwd=a)
    w.ok("commit", "-q", "-C", "HEAD", cwd=a)
    assert TRAILER not in w.ok("log", "-1", "--format=%B", cwd=a)
    assert _status_and_push_agree(w, a, "main") == (False, 0)
