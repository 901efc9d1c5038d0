"""A person's own new file holding two lines of the writer's pending work at another path
has a recorded way out (SPEC §3 "Pending work ends cleanly"; issue 13): real git,
``gentle-hook install --share origin``, a bare remote with the server gate.

Refuter r13c (finding 2): the writer's ``worker.py`` pending; a person writes ``ping.py``
with the two lines ``response = requests.get(url, timeout=timeout)`` and
``response.raise_for_status()`` among their own and commits it: BLOCKED ("writer content
... in ping.py (was worker.py)") with no ``human:`` line, and ``discard --reason mine --
ping.py`` failed "no pending writer work on ping.py".

* The block offers ``human: gentle-hook discard --reason ... -- ping.py``; pasted as
  printed from the user's cwd it claims exactly the content ``ping.py`` holds (bound to
  its blob): the commit passes with no trailer and the push, ``gate --range`` and the
  server let it through.
* The writer's ``worker.py`` stays pending and blocked; ``ping.py`` edited since, with
  more writer lines, is judged again.
* A copy of the writer's file byte for byte, or the writer's file moved there, is never
  offered the discard, and the discard is refused.
"""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.test_attribution_generic import served

__all__ = ["served"]  # the fixture, imported for pytest

WORKER = (
    "import requests\n\n\ndef fetch(url, timeout=10):\n"
    "    response = requests.get(url, timeout=timeout)\n"
    "    response.raise_for_status()\n"
    "    return response.json()\n"
)
PING = (
    "import requests\n\n\ndef ping(url, timeout=5):\n"
    '    """Whether url answers."""\n'
    "    response = requests.get(url, timeout=timeout)\n"
    "    response.raise_for_status()\n"
    "    return response.status_code == 200\n"
)
MORE = (
    "\n\ndef data(url, timeout=10):\n    return fetch(url, timeout)\n    return response.json()\n"
)


def _pending(w: World) -> None:
    """The writer's new ``worker.py``, recorded."""
    w.write("worker.py", WORKER)
    r = w.gh("record", "--model", "claude-sonnet", "--effort", "medium", "worker.py")
    assert r.code == 0, r


def _offered(w: World, path: str = "ping.py") -> list[str]:
    """The person's commit of ``path`` (staged), blocked; the ``human:`` commands."""
    w.ok("add", path)
    r = w.git("commit", "-qm", "human: ping")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert f"in {path} (was worker.py)" in r.said[0], r
    return [s.split("human: ", 1)[1] for s in r.said if "human: " in s]


def test_a_persons_new_file_with_two_writer_lines_is_claimed_as_printed(served: World) -> None:
    w = served
    _pending(w)
    w.write("ping.py", PING)
    human = _offered(w)
    assert human == [
        "gentle-hook discard --reason 'a human change, not the writer work' -- ping.py"
    ], human
    done = w.run(["sh", "-c", human[0]])
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    passed = w.git("commit", "-qm", "human: ping")
    assert passed.code == 0 and not [s for s in passed.said if "BLOCKED" in s], passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    gate = w.gh("gate", "--range", "origin/main..HEAD")
    assert gate.code == 0, gate
    push = w.git("push", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("main") == w.rev("HEAD")
    # the writer's own path stays the writer's
    w.ok("add", "worker.py")
    blocked = w.git("commit", "-qm", "writer")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not any("human: " in s for s in blocked.said), blocked
    assert w.gh("discard", "--reason", "x", "--", "worker.py").code == 2


def test_the_claim_is_bound_to_the_content(served: World) -> None:
    """``ping.py`` claimed, then edited with more of the writer's lines: judged again."""
    w = served
    _pending(w)
    w.write("ping.py", PING)
    done = w.gh("discard", "--reason", "mine", "--", "ping.py")
    assert done.code == 0, done
    w.write("ping.py", PING + MORE)
    w.ok("add", "ping.py")
    r = w.git("commit", "-qm", "human: ping")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_the_writers_file_copied_whole_is_never_claimed(served: World) -> None:
    w = served
    _pending(w)
    w.write("ping.py", WORKER)
    assert _offered(w) == []
    r = w.gh("discard", "--reason", "mine", "--", "ping.py")
    assert r.code == 2, r
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]


def test_the_writers_file_moved_is_never_claimed(served: World) -> None:
    """The writer's edit of a committed file moved with ``git mv`` and edited: the path it
    went to is the writer's path, never a person's own."""
    w = served
    w.write("worker.py", "import requests\n")
    w.ok("add", "worker.py")
    w.ok("commit", "-qm", "human: worker stub")
    _pending(w)
    w.ok("mv", "worker.py", "ping.py")
    w.write("ping.py", WORKER + "\n# moved\n")
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: moved")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert not any("human: " in s and "ping.py" in s for s in r.said), r
    d = w.gh("discard", "--reason", "mine", "--", "ping.py")
    assert d.code == 2, d


def test_in_a_linked_worktree_the_printed_claim_is_pushed_from_there(served: World) -> None:
    """The writer's ``worker.py`` pending in the first worktree; a person in linked
    worktree ``b`` commits ``ping.py``: blocked with the ``human:`` line, which pasted
    there claims it; the commit passes and is pushed from there, and the writer's work
    stays pending in the first worktree."""
    w = served
    _pending(w)
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write("ping.py", PING, cwd=b)
    w.ok("add", "ping.py", cwd=b)
    r = w.git("commit", "-qm", "human: ping", cwd=b)
    assert r.code == 1 and "in ping.py (was worker.py)" in r.said[0], r
    human = [s.split("human: ", 1)[1] for s in r.said if "human: " in s]
    assert len(human) == 1 and human[0].endswith(" -- ping.py"), r
    assert w.run(["sh", "-c", human[0]], cwd=b).code == 0
    passed = w.git("commit", "-qm", "human: ping", cwd=b)
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=b)
    push = w.git("push", "origin", "topic", cwd=b)
    assert push.code == 0, push
    assert w.remote_ref("topic") == w.rev("HEAD", cwd=b)
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
