"""A ``git stash`` never lets ``discard`` launder the writer's pending work (SPEC §3
"Pending work ends cleanly"; docs/security.md: a discard claims writer content only once
its content was nowhere, stashes included, and "a ``git stash`` popped again changes none
of this"): real git, ``gentle-hook install --share origin``, a bare remote with the server
gate.

Refuter r13c (finding 1): the writer's ``purge`` stashed, ``discard --all`` accepted, the
stash popped, committed and pushed: it passed with no trailer, and ``gate --range`` said
"not delegated".

* While a stash entry holds the writer's content the discard is refused, in one line naming
  the entry and the ways out (``git stash drop stash@{N}``, or pop it first).
* Popped again, the content is the writer's pending work as before the stash: the block
  offers no discard and the discard is refused (the stash's reset is no evidence that the
  content left).
* Dropped (the content nowhere), the discard is accepted; content typed again then passes,
  its note and ``gate --range --json`` naming the discard as an override.
* Open (strict xfail): dropped, then typed again before any discard, the block offers no
  discard, as after a pop: git keeps nothing that tells the two apart.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import Run, World
from tests.e2e.test_attribution_generic import APP, served

__all__ = ["served"]  # the fixture, imported for pytest

PURGE = "\ndef purge(path):\n    shutil.rmtree(path)\n"


def _stashed(w: World) -> None:
    """The writer's ``purge`` appended to ``app.py``, recorded, then ``git stash``."""
    w.write("app.py", APP + PURGE)
    r = w.gh("record", "--model", "claude-sonnet", "--effort", "medium", "app.py")
    assert r.code == 0, r
    w.ok("stash", "-q")


def _blocked(w: World) -> None:
    """The writer's content committed and pushed by the refuter's way: the commit is
    blocked with no ``discard`` offered, and with hooks off the push and the server are
    too."""
    w.ok("add", "app.py")
    r = w.git("commit", "-qm", "purge")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert not any(" discard " in s for s in r.said), r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "purge")
    gate = w.gh("gate", "--range", "origin/main..HEAD")
    assert gate.code != 0 and "not delegated" not in gate.out, gate
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0, push
    forced = w.git("push", "-q", "--no-verify", "origin", "main", "refs/notes/gentle-hooks")
    assert forced.code != 0, forced
    assert w.remote_ref("main") != w.rev("HEAD")


def test_a_discard_is_refused_while_a_stash_holds_the_writers_work(served: World) -> None:
    w = served
    _stashed(w)
    r = w.gh("discard", "--all", "--reason", "not needed")
    assert r.code == 2 and r.out == "", r
    assert len(r.err.splitlines()) == 1, r
    assert "app.py" in r.err and "stash@{0}" in r.err, r
    assert _drop(r) == "git stash drop 'stash@{0}'" and "pop it first" in r.err, r
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]
    w.ok("stash", "pop", "-q")
    _blocked(w)


def _drop(r: Run) -> str:
    """The command a stash refusal prints between backticks."""
    return r.err.split("`")[1]


def test_the_printed_drop_lets_the_discard_through(served: World) -> None:
    """The drop the refusal prints, pasted via ``sh``, empties the stash of the writer's
    work: the discard is then accepted and the stash's other entry is kept."""
    w = served
    w.write("g.py", "def util():\n    return 2\n")
    w.ok("stash", "-q")  # a person's own stash, older
    _stashed(w)
    r = w.gh("discard", "--all", "--reason", "not needed")
    assert r.code == 2, r
    assert w.run(["sh", "-c", _drop(r)]).code == 0
    assert len(w.ok("stash", "list").splitlines()) == 1
    done = w.gh("discard", "--all", "--reason", "not needed")
    assert done.code == 0, done


def test_a_stash_popped_again_leaves_the_writers_work_pending(served: World) -> None:
    w = served
    _stashed(w)
    w.ok("stash", "pop", "-q")
    r = w.gh("discard", "--all", "--reason", "not needed")
    assert r.code == 2 and "still holds the writer's change" in r.err, r
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    _blocked(w)


def test_an_older_stash_entry_is_named(served: World) -> None:
    """The writer's stash pushed down by a later one is named as ``stash@{1}``."""
    w = served
    _stashed(w)
    w.write("g.py", "def util():\n    return 2\n")
    w.ok("stash", "-q")
    r = w.gh("discard", "--all", "--reason", "not needed")
    assert r.code == 2 and _drop(r) == "git stash drop 'stash@{1}'", r
    assert "stash@{0}" not in r.err, r


def test_a_dropped_stash_lets_the_discard_claim_the_content(served: World) -> None:
    """The stash dropped, the discard is accepted; the same lines typed again by a person
    pass, and the note, ``gate --range --json`` and the server list the discard."""
    w = served
    _stashed(w)
    w.ok("stash", "drop", "-q")
    done = w.gh("discard", "--all", "--reason", "not needed")
    assert done.code == 0, done
    w.write("app.py", APP + PURGE)  # typed by a person
    w.ok("add", "app.py")
    passed = w.git("commit", "-qm", "purge")
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert '"hook":"discard"' in note and '"reason":"not needed"' in note, note
    gate = w.gh("gate", "--range", "origin/main..HEAD", "--json")
    assert gate.code == 0, gate
    (commit,) = json.loads(gate.out)["commits"]
    assert commit["delegated"] is False, gate.out
    assert commit["overrides"] == [
        "override by Test Committer <committer@example.com> (discard): not needed"
    ], gate.out
    text = w.gh("gate", "--range", "origin/main..HEAD")
    assert "recorded override: override by" in text.out, text
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 13, h13c's open end): after a stash is gone, nothing git keeps tells "
    "`git stash drop` then a person's retyping from `git stash pop` (both only drop the "
    "refs/stash reflog entry; the tree a pop writes, or freshens, is written again by the "
    "gate's own snapshot of the same content, so object times cannot tell them either); "
    "the way through is the printed restore, discard, then retype",
)
def test_a_dropped_stash_typed_again_before_any_discard_offers_it(served: World) -> None:
    """Stash, drop, then the same lines typed again by a person before any discard ran:
    the block should offer the ``human:`` discard line, as after a ``git reset --hard``
    (it offers none: read as a pop, the writer's pending work)."""
    w = served
    _stashed(w)
    w.ok("stash", "drop", "-q")
    w.write("app.py", APP + PURGE)  # typed by a person
    w.ok("add", "app.py")
    r = w.git("commit", "-qm", "purge")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    run = [line.split("human: ", 1)[1] for line in r.said if "human: " in line]
    assert len(run) == 1 and "discard --reason" in run[0], r
