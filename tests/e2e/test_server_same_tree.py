"""The server keeps what it saw (SPEC §3 "Attribution follows content", §8): a commit that
brings back the exact tree of a candidate the server holds a note for is judged by that
note, even when the commit itself carries no note and no trailer.

Each row through ``gentle-hook install``, real git, a bare remote with the server gate
(``install --server``) and notes shared with it (``install --share origin``). The writer's
change is committed and pushed with hooks off; the server rejects it (plan unmet), and its
note reaches the server (``gentle-hook sync push``, as the rejection prints). Then:

* ``git reset --soft HEAD~1`` and a commit with every local hook off, an ``--amend`` of the
  message alone, or a ``cherry-pick`` onto a new branch from the same base: the new commit
  has the same tree (the same candidate identity), no note and no trailer of its own, and
  the server rejects it, naming the note it judged by; ``gate --range`` in a clone with the
  notes and no ledger blocks it too; once the candidate is spot-checked and its records
  shared, the server accepts it;
* human rows: a person's unrelated commit after the rejected push, a person's revert
  that brings back the tree of a verified writer commit already in the history, and a
  person's two reverts of their own edit of a verified writer line, pass with no
  "delegated" anywhere.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.server_rewrites import (
    NEW,
    OFF,
    accepted_as_persons,
    ci_range_gate,
    rejected_and_noted,
)


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    return native.serve({})


def _same_tree_again(w: World, how: str, first: str) -> tuple[str, str]:
    """The same tree committed again with every local hook off, as ``how`` says; the new
    commit and the branch it is on."""
    branch = "main"
    if how == "reset-soft":
        w.ok("reset", "-q", "--soft", "HEAD~1")
        w.ok(*OFF, "commit", "-q", "-n", "-m", "tidy")
    elif how == "amend-message":
        w.ok(*OFF, "commit", "-q", "-n", "--amend", "-m", "tidy")
    else:  # cherry-pick onto a new branch from the same base
        branch = "other"
        w.ok("checkout", "-q", "-b", branch, "origin/main")
        w.ok(*OFF, "cherry-pick", first)
        w.ok(*OFF, "commit", "-q", "-n", "--amend", "-m", "tidy")
    again = w.rev("HEAD")
    assert again != first
    assert w.rev(f"{again}^{{tree}}") == w.rev(f"{first}^{{tree}}")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", again)
    # the server holds no note of the new commit (git copies a note on amend locally,
    # notes.rewriteRef, but a push of the branch alone does not send it)
    assert again not in w.ok("notes", "--ref", "gentle-hooks", "list", cwd=w.remote)
    return again, branch


@pytest.mark.parametrize("how", ["reset-soft", "amend-message", "cherry-pick"])
def test_the_same_tree_again_with_hooks_off_is_rejected_by_the_server(
    served: World, how: str
) -> None:
    w = served
    first = rejected_and_noted(w)
    before = w.remote_ref("main")
    again, branch = _same_tree_again(w, how, first)

    push = w.git("push", "--no-verify", "origin", f"{branch}:{branch}")
    assert push.code == 1, push
    assert (
        f"remote: gentle-hooks: BLOCKED {again[:12]} on refs/heads/{branch}: delegated "
        f"(a gentle-hooks note of {first[:12]} records writer work for this tree)" in push.err
    ), push
    assert f"remote: gentle-hooks: REJECTED refs/heads/{branch}" in push.err
    assert "missing a passing re-run of the writer's test on this exact change" in push.err, push
    assert w.remote_ref(branch) == (before if branch == "main" else None)

    # CI agrees: a clone with the notes and no ledger blocks it by the same note
    gate = ci_range_gate(w, again)
    assert gate.code == 1, gate
    assert (
        f"BLOCKED {again[:12]} on origin/main..candidate: delegated "
        f"(a gentle-hooks note of {first[:12]} records writer work for this tree)" in gate.out
    ), gate

    # the way out: the candidate spot-checked, then pushed through the push gate (it records
    # the commit made with hooks off and shares its note)
    w.report("--committed")
    w.spot_check("--committed")
    # an amend after the first commit (amend-message, or a cherry-pick made in the same second
    # as the first commit, so its very id) has the first commit's note copied onto it
    # (notes.rewriteRef): gate --range judges it by that note of its own, which the spot
    # check does not reach until the push gate writes it
    if w.git("notes", "--ref", "gentle-hooks", "show", again).code != 0:
        local = w.gh("gate", "--range", f"origin/main..{branch}")
        assert local.code == 0, local
        assert local.out.splitlines()[0] == (
            f"ok {again[:12]} on origin/main..{branch}: delegated (a gentle-hooks note of "
            f"{first[:12]} records writer work for this tree), verified as its plan requires"
        ), local
    done = w.git("push", "origin", f"{branch}:{branch}")
    assert (done.code, w.remote_ref(branch)) == (0, again), done


def test_a_persons_unrelated_commit_after_the_rejected_push_passes(served: World) -> None:
    w = served
    rejected_and_noted(w)
    w.ok("reset", "-q", "--hard", "origin/main")
    w.write("README.md", "# demo\n\nby hand\n")
    w.ok("commit", "-qam", "human: readme")
    head = w.rev("HEAD")
    push = w.git("push", "--no-verify", "origin", "main")
    assert (push.code, w.remote_ref("main")) == (0, head), push
    assert "delegated" not in push.err and "BLOCKED" not in push.err, push


def test_a_persons_revert_to_a_verified_writer_tree_is_not_delegated(served: World) -> None:
    w = served
    w.delegate(text=NEW)
    w.spot_check()
    w.ok("add", "-A")
    w.ok("commit", "-qm", "writer: sub")
    w.ok("push", "-q", "origin", "main")
    w.write("src/app.py", NEW + "# by hand\n")
    w.ok("commit", "-qam", "human: comment")
    w.ok("push", "-q", "origin", "main")
    w.ok("revert", "--no-edit", "HEAD")
    head = w.rev("HEAD")
    accepted_as_persons(w, "main")
    ci = w.gh("gate", "--range", "HEAD~1..HEAD")
    assert ci.code == 0, ci
    assert ci.out.splitlines()[0] == f"ok {head[:12]} on HEAD~1..HEAD: not delegated", ci


#: The writer's function of four lines of its own (refuter r13s, issue 13), and a person's
#: edit of one of them.
SUMS = (
    "def add(a, b):\n    total = compute_sum(a, b)\n    return total\n\n\n"
    "def compute_sum(a, b):\n    return a + b\n"
)
SWAPPED = SUMS.replace("compute_sum(a, b)\n    return total", "compute_sum(b, a)\n    return total")


def test_a_persons_revert_of_a_revert_over_their_own_commit_is_plain(served: World) -> None:
    """Refuter r13s LOW: the writer's verified function pushed; a person swaps the
    arguments of one of its lines, then ``git revert HEAD`` twice. The first revert puts
    the writer's line back among the writer's other lines (its old side holds them): it
    built on delivered content, yet the push gate recorded it as "made with hooks off" and
    blocked it as writer content "re-applied on another base". Every commit is plain."""
    w = served
    w.delegate(text=SUMS)
    w.spot_check()
    w.ok("commit", "-qam", "writer: sums")
    w.ok("push", "-q", "origin", "main")
    w.write("src/app.py", SWAPPED)
    w.ok("commit", "-qam", "human: swap")
    w.ok("revert", "--no-edit", "HEAD")
    w.ok("revert", "--no-edit", "HEAD")
    for commit in ("HEAD", "HEAD~1", "HEAD~2"):
        assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B", commit)
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0 and ci.out.splitlines()[-1] == "3 commit(s), 0 delegated, 0 blocked", ci
    head = w.rev("HEAD")
    push = w.git("push", "origin", "main")
    assert (push.code, w.remote_ref("main")) == (0, head), push
    said = push.out + push.err
    assert "delegated" not in said and "hooks off" not in said and "BLOCKED" not in said, push


def test_the_same_tree_again_is_rejected_after_a_blocked_push_shared_its_note(
    served: World,
) -> None:
    # nothing shared by hand: the plain push the local gate blocks still sends the notes
    # (install --share: the pre-push gate merges and pushes them, blocked or not)
    w = served
    first = w.unverified(NEW)
    rejected = w.git("push")
    assert rejected.code == 1 and "BLOCKED" in rejected.err, rejected
    assert w.remote_ref("main") != first
    before = w.remote_ref("main")
    again, _ = _same_tree_again(w, "reset-soft", first)
    push = w.git("push", "--no-verify")
    assert push.code == 1, push
    assert (
        f"remote: gentle-hooks: BLOCKED {again[:12]} on refs/heads/main: delegated "
        f"(a gentle-hooks note of {first[:12]} records writer work for this tree)" in push.err
    ), push
    assert w.remote_ref("main") == before
