"""A human's own module is not the writer's for sharing its idioms, and a discard printed
for a human works at commit and at push (SPEC §3 "Attribution follows content", "Pending
work ends cleanly"; the boilerplate table of :mod:`gentle_hooks.policy.boilerplate`):
real git, ``gentle-hook install``, a bare remote with the server gate and notes shared.

* The writer's pending ``src/f.py`` and a human's own ``src/g.py`` share ``import
  logging``, ``logger = logging.getLogger(__name__)`` and ``if __name__ == "__main__":``:
  the human's commit of ``g.py`` alone passes commit and push, no trailer.
* A removal-only writer edit and a human's same removal: blocked, and the discard is
  refused until the ``git restore`` it prints took the change out; then the discard and
  the human's edit made again pass at commit and at push, with no trailer and no writer
  record.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Run, World
from tests.e2e.test_attribution import TRAILER, _message

WRITER_F = (
    "import logging\nlogger = logging.getLogger(__name__)\n\ndef main():\n"
    '    logger.info("writer")\n\nif __name__ == "__main__":\n    main()\n'
)
HUMAN_G = (
    "import logging\nlogger = logging.getLogger(__name__)\n\ndef run():\n"
    '    print("human tool")\n\nif __name__ == "__main__":\n    run()\n'
)


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate and notes shared."""
    return native.serve({})


def _passes_quietly(r: Run) -> None:
    assert r.code == 0, r
    assert not [line for line in r.said if "BLOCKED" in line or "delegated" in line], r


def test_a_humans_module_sharing_the_writers_idioms_is_the_humans(served: World) -> None:
    w = served
    w.delegate("src/f.py", WRITER_F)
    w.write("src/g.py", HUMAN_G)
    w.ok("add", "src/g.py")
    _passes_quietly(w.git("commit", "-qm", "human: g"))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin", "main"))
    assert w.remote_ref("main") == w.rev("HEAD")


API = "def handler(user):\n    check_auth(user)\n    return serve(user)\n"


@pytest.mark.parametrize("human", ["an edit of their own", "the same removal"])
def test_a_discarded_removal_lets_the_humans_commit_through_at_push(
    served: World, human: str
) -> None:
    """The writer only removed ``check_auth(user)``, put back with ``checkout --``; a human
    removes it too (with a line of their own, or exactly as the writer did): blocked,
    since a removal cannot be told from the writer's, and in the writer's own work tree
    the discard is refused while the change carries it (no ``discard`` offered). The human
    takes the change out with the ``git restore`` the refusal prints, discards the
    writer's work, and makes the edit again: their commit and its push pass, no trailer,
    no writer record; the discard is in the ledger and in the commit's note."""
    w = served
    w.write("src/api.py", API)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: api")
    w.ok("push", "-q", "origin", "main")
    removed = API.replace("    check_auth(user)\n", "")
    w.delegate("src/api.py", removed)
    w.ok("checkout", "--", "src/api.py")
    mine = API.replace("check_auth(user)", "audit(user)") if human.startswith("an") else removed
    w.write("src/api.py", mine)
    r = w.git("commit", "-qam", "human: api")
    assert r.code == 1, r
    assert not [line for line in r.said if "human: gentle-hook discard" in line], r
    reason = "my own removal"
    refused = w.gh("discard", "--reason", reason, "--", "src/api.py")
    assert refused.code == 2 and "still holds the writer's change" in refused.err, refused
    assert w.run(["sh", "-c", refused.err.split("`")[1]]).code == 0
    assert w.gh("discard", "--reason", reason, "--", "src/api.py").code == 0
    w.write("src/api.py", mine)
    _passes_quietly(w.git("commit", "-qam", "human: api"))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin", "main"))
    assert w.remote_ref("main") == w.rev("HEAD")
    assert w.ledger("SELECT count(*) FROM commit_record") == [(0,)]
    assert len(w.ledger("SELECT reason FROM discard")) == 1
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert "writer edit discarded: src/api.py" in note, note
