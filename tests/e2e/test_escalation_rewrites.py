"""An escalation follows the writer's change through a rewrite, and a person's escalation
is no writer work (SPEC §3 "Binding", §5 "Escalation" and "Decision", §10: "An escalated
change is blocked until an accepted verdict for that candidate exists").

Each row through ``gentle-hook install``, real git, a bare remote with the server gate
(``install --server``) and notes shared with it (``install --share origin``):

* the writer's escalated commit, verified and committed, then amended with hooks off onto
  new writer content that keeps none of the first version's lines: the local push, the
  server and ``gate --range`` all block it for its missing verifier, until a verify run
  of the new candidate is recorded (issue 18/13, refuter item 1); amended with hooks on,
  the commit gate blocks it the same way;
* a person's own commit after ``gentle-hook escalate`` (no writer recorded, no agent
  trailer, no agent in the environment) commits and pushes as a human's commit, and no
  gate labels it delegated: the gate applies to delegated candidates only (§5
  "Decision"), and an escalation raises the plan of a delegated change, it is not writer
  work (issue 18/13, refuter item 2).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

BASE = "def add(a, b):\n    return a + b\n"
#: The writer's first version of ``src/app.py``: a token check added below the base's
#: function (the verifier's brief checks it).
FIRST = BASE + "\n\ndef check_token(t):\n    return bool(t) and t.startswith('tok-')\n"
#: The writer's rewrite, recorded before the amend: the check again, none of the first
#: version's lines (so the amended commit carries only the second version's work).
SECOND = BASE + "\n\ndef check_token(token):\n    return token[:4] == 'tok-' and len(token) > 4\n"
VERIFIER_MISSING = "needs 1 accepted gentle-ai-verify verdict(s) for this candidate"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    return native.serve({})


def _verified_escalated_commit(w: World) -> str:
    """The writer's escalated change, spot-checked, verified by a verify run and committed
    through the commit gate; the commit's id."""
    w.delegate(text=FIRST)
    w.spot_check()
    w.escalate()
    added = w.verified()
    assert "status pass: accepted" in added.out, added
    w.ok("add", "-A")
    passed = w.git("commit", "-m", "writer: tokens")
    assert passed.code == 0, passed
    return w.rev("HEAD")


def _blocked_for_verifier(r: str, said: list[str], commit: str) -> None:
    """The block names the commit, plan risk high and the verifier it lacks."""
    assert any(f"BLOCKED {r}{commit[:12]}" in line for line in said), said
    assert any("(plan risk high)" in line for line in said), said
    assert any(VERIFIER_MISSING in line for line in said), said


def test_an_amend_with_hooks_off_keeps_the_escalation_of_a_verified_commit(
    served: World,
) -> None:
    w = served
    first = _verified_escalated_commit(w)
    w.write("src/app.py", SECOND)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("commit", "-qa", "--amend", "--no-verify", "-m", "v2")
    amended = w.rev("HEAD")
    assert amended != first
    # the commit's note still holds the escalation: every gate reads the plan as high
    note = w.ok("notes", "--ref", "gentle-hooks", "show", amended)
    assert '"kind":"escalation"' in note, note

    push = w.git("push", "origin", "main")
    assert push.code == 1, push
    _blocked_for_verifier("commit ", push.said, amended)

    # the writer's self-verification of the new candidate does not stand for the verifier
    w.report("--committed")
    w.spot_check("--committed")
    again = w.git("push", "origin", "main")
    assert again.code == 1, again
    _blocked_for_verifier("commit ", again.said, amended)
    assert w.remote_ref("main") != amended

    # local push and CI agree: gate --range and the server gate block it the same way
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 1, ci
    _blocked_for_verifier("", ci.out.splitlines(), amended)
    server = w.git("push", "--no-verify", "origin")
    assert server.code != 0, server
    assert f"remote: gentle-hooks: BLOCKED {amended[:12]} on refs/heads/main" in server.err
    assert w.remote_ref("main") != amended

    # the way out: a verify run of the new candidate, its verdict added as printed
    added = w.verified("--committed")
    assert "status pass: accepted" in added.out, added
    done = w.git("push", "origin", "main")
    assert (done.code, w.remote_ref("main")) == (0, amended), done


def test_an_amend_with_hooks_on_keeps_the_escalation_at_the_commit_gate(served: World) -> None:
    w = served
    _verified_escalated_commit(w)
    w.write("src/app.py", SECOND)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.report()
    w.spot_check()
    blocked = w.git("commit", "-qa", "--amend", "-m", "v2")
    assert blocked.code == 1, blocked
    assert blocked.said[0].startswith("gentle-hooks: BLOCKED the staged change: "), blocked
    assert any("(plan risk high)" in line for line in blocked.said), blocked
    assert any(VERIFIER_MISSING in line for line in blocked.said), blocked


def test_a_persons_escalated_commit_is_no_writer_work(served: World) -> None:
    w = served
    w.write("src/app.py", "def add(a, b):\n    return a + b  # checked by hand\n")
    escalated = w.gh("escalate", "--item", "data", "--reason", "careful")
    assert escalated.code == 0, escalated
    committed = w.git("commit", "-qam", "human: careful edit")
    assert committed.code == 0, committed
    assert committed.said == [
        f"gentle-hooks: {w.rev('HEAD')[:12]} took this work tree's escalation: a person's "
        "commit with no writer work, so no verifier run is required"
    ], committed
    head = w.rev("HEAD")
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B", head)

    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0, ci
    assert ci.out.splitlines() == [
        f"ok {head[:12]} on origin/main..HEAD: not delegated",
        "1 commit(s), 0 delegated, 0 blocked",
    ], ci
    status = w.gh("status", "--committed")
    assert "gate: applies" not in status.out, status

    push = w.git("push", "origin", "main")
    assert (push.code, w.remote_ref("main")) == (0, head), push
    assert not any("BLOCKED" in line or "delegated" in line for line in push.lines), push
