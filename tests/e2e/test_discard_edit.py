"""A discard in the writer's own work tree is refused while its change still carries the
writer's edit by any row the gates use (SPEC §3 "Pending work ends cleanly", §6
``discard``): real git, ``gentle-hook install``, a bare remote with the server gate.

* A one-line edit with no added significant line (``return False`` made ``return True``,
  with a human's line added after it: row A6) or a one-line removal (``check_auth(user)``
  taken out: row A1 of a removal-only write) is refused in
  one line naming the path and a ``git restore`` runnable as printed; once that ran, the
  discard is accepted and the human's commit carries no trailer.
* A block of the staged change never offers a ``discard`` the discard would refuse.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

BASE = (
    "def is_admin(user):\n    return False\n\n\ndef fetch(user, url):\n"
    "    check_auth(user)\n    return get(url)\n"
)
FLIPPED = BASE.replace("return False", "return True")
REMOVED = BASE.replace("    check_auth(user)\n", "")
NOTE = "\n# a human's note\n"
RESTORE = "git restore --source=HEAD --staged --worktree -- ':(top,literal)src/app.py'"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its remote; ``src/app.py`` holds :data:`BASE`,
    pushed."""
    return native.serve({"src/app.py": BASE})


@pytest.mark.parametrize("text", [FLIPPED, REMOVED], ids=["flip", "removal"])
def test_a_discard_is_refused_while_the_writers_one_line_edit_is_here(
    served: World, text: str
) -> None:
    w = served
    w.delegate(text=text)
    w.write("src/app.py", text + NOTE)  # a human's line too: no longer the writer's blob
    for staged in (False, True):
        if staged:
            w.ok("add", "-A")
        r = w.gh("discard", "--all", "--reason", "x")
        assert r.code == 2 and r.out == "", r
        assert len(r.err.splitlines()) == 1, r
        assert "src/app.py: still holds the writer's change" in r.err, r
        assert f"`{RESTORE}`" in r.err, r
    assert w.ledger("SELECT COUNT(*) FROM discard") == [(0,)]
    assert w.git("commit", "-qm", "mine").code == 1
    done = w.run(["sh", "-c", RESTORE])
    assert done.code == 0, done
    assert w.ok("status", "--porcelain") == ""
    accepted = w.gh("discard", "--all", "--reason", "x")
    assert accepted.code == 0, accepted
    w.write("src/app.py", BASE + NOTE)
    assert w.git("commit", "-qam", "human: note").code == 0
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_a_block_of_the_writers_edit_offers_no_discard_it_would_refuse(served: World) -> None:
    """The writer's removal, then a human's line in the same file: the commit is blocked,
    and the block offers the spot check, not a discard the writer's edit still refuses."""
    w = served
    w.delegate(text=REMOVED)
    w.write("src/app.py", REMOVED + NOTE)
    r = w.git("commit", "-qam", "human: note")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert not [line for line in r.said if " discard " in line], r
    assert w.gh("discard", "--all", "--reason", "x").code == 2
