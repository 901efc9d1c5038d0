"""A removal-only write thrown away in the worktree it was recorded in stops delegating in
the other once its content is nowhere (SPEC §3 "Pending work ends cleanly"; issue 13, LOW:
:func:`gentle_hooks.services.attribution.expire_shaped` looked for the ``git reset`` in the
current worktree's ``HEAD`` reflog, not in the writer's).

Real git, a linked worktree made with ``git worktree add``, ``gentle-hook install``: the
writer removes two lines in linked worktree B (recorded there), B is reset (``git reset
--hard``: the removal is nowhere any more), then a person in the main worktree removes the
same two lines and adds one of their own. Their change matches the writer's only by its
shape (row A3), and the writer's content is gone: the commit passes with no trailer and the
entry expires. Reset in neither worktree, the same commit stays blocked (fail closed).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

BASE = (
    "def main():\n"
    "    check_user_token(request_header)\n"
    "    verify_session_expiry(session_store)\n"
    "    return handle_request(request_body)\n"
)
REMOVED = "def main():\n    return handle_request(request_body)\n"
HUMAN = (
    "def main():\n"
    "    log_request_for_audit(request_body)\n"
    "    return handle_request(request_body)\n"
)


@pytest.mark.parametrize("reset", [True, False], ids=["reset-in-writers-tree", "no-reset"])
def test_a_removal_reset_away_in_the_writers_worktree_ends_there(
    native: World, reset: bool
) -> None:
    w = native.serve({"src/app.py": BASE})
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=REMOVED, cwd=b)
    if reset:
        w.ok("reset", "-q", "--hard", cwd=b)
    else:
        w.write("src/app.py", BASE, cwd=b)  # put back by hand: no reset in any reflog
    w.write("src/app.py", HUMAN)
    r = w.git("commit", "-qam", "human: audit instead of checks")
    if reset:
        assert r.code == 0, r
        assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
        assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    else:
        assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
