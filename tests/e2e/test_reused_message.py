"""A reused message does not make a commit delegated; the content does (SPEC §3
"Attribution follows content", §6): real git, ``gentle-hook install``, a bare remote with
the server gate and notes shared.

The writer's verified commit is undone (``git reset --soft HEAD~1``) and re-made with its
own message (``git commit -C ORIG_HEAD``, which hands prepare-commit-msg the source
``commit`` and the message with its ``Gentle-Writer`` trailer):

* with the writer's content taken out and a human's own change staged instead, the
  commit is the human's: no trailer, no commit record, its push passes, ``status`` agrees;
* with the writer's content still staged, it stays the writer's: the trailer is kept
  and the commit recorded.
"""

from __future__ import annotations

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n"
TRAILER = "Gentle-Writer:"


def _writer_commit_undone(w: World) -> None:
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    assert TRAILER in w.ok("log", "-1", "--format=%B")
    w.ok("reset", "-q", "--soft", "HEAD~1")


def test_a_humans_change_under_the_writers_reused_message_is_the_humans(native: World) -> None:
    w = native
    _writer_commit_undone(w)
    w.ok("checkout", "HEAD", "--", "src/app.py")  # the writer's content out
    w.write("README.md", "# demo\n\nA human's note.\n")
    w.ok("add", "README.md")
    r = w.git("commit", "-q", "-C", "ORIG_HEAD")
    assert r.code == 0, r
    assert TRAILER not in w.ok("log", "-1", "--format=%B")
    human = w.rev("HEAD")
    assert w.ledger("SELECT count(*) FROM commit_record WHERE commit_id = ?", [human]) == [(0,)]
    status = w.gh("status", "--committed")
    assert status.code == 0 and "not delegated" in status.out + status.err, status
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert w.remote_ref("main") == w.rev("HEAD")


def test_the_writers_content_under_its_reused_message_stays_the_writers(native: World) -> None:
    w = native
    _writer_commit_undone(w)
    r = w.git("commit", "-q", "-C", "ORIG_HEAD")
    assert r.code == 0, r
    assert TRAILER in w.ok("log", "-1", "--format=%B")
    again = w.rev("HEAD")
    assert w.ledger("SELECT count(*) FROM commit_record WHERE commit_id = ?", [again]) == [(1,)]
