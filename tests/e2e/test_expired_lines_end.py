"""Expired writer work read by its distinctive lines, both ways, and for a bounded time
(SPEC §3 "Attribution follows content", §6 ``expired``;
:func:`gentle_hooks.policy.distinctive.removed_again`,
:func:`~gentle_hooks.policy.distinctive.lines_still_count`): real git,
``gentle-hook install``, a bare remote with the server gate.

A writer's *removal* of two security checks, parked as a patch, the path put back and a
human's commit expiring the entry: the patch re-applied removes the writer's distinctive
removed lines again, and is blocked at commit and push like added lines brought back.

An expired entry's lines count for
:data:`~gentle_hooks.policy.distinctive.EXPIRED_LINES_DAYS` days after the writer's write:
the same lines brought back a day before that are the writer's, a day after it they are
anyone's (a person's own later line is never blocked forever).
"""

from __future__ import annotations

import sqlite3

import pytest

from gentle_hooks.policy.distinctive import EXPIRED_LINES_DAYS
from tests.e2e.conftest import World
from tests.e2e.test_attribution import TRAILER, _blocked_push, _blocked_staged, _message
from tests.e2e.test_expired_lines_back import _bring_back, _parked_then_human_commit

CHECKS = (
    '    if not verify_signature(user.token):\n        raise PermissionError("invalid api token")\n'
)
AUTH = "import os\n\n\ndef is_admin(user):\n" + CHECKS + '    return user.role == "admin"\n'
LAX = AUTH.replace(CHECKS, "")
DOC = '"""Who may do what."""\n' + AUTH


def _removal_parked_and_re_applied(w: World) -> None:
    """The writer's removal of ``CHECKS`` recorded and parked as a patch, the path put back,
    a human's docstring commit expiring the entry, the patch applied again."""
    w.serve({"src/auth.py": AUTH})
    w.delegate(rel="src/auth.py", text=LAX)
    patch = w.ok("diff")
    w.ok("checkout", "--", "src/auth.py")
    w.write("src/auth.py", DOC)
    human = w.git("commit", "-qam", "human: docstring")
    assert human.code == 0, human
    assert [s for s in human.said if "expired" in s], human
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    assert TRAILER not in _message(w)
    applied = w.run(["git", "apply"], input=patch.encode())
    assert applied.code == 0, applied
    assert (w.work / "src" / "auth.py").read_text(encoding="utf-8") == DOC.replace(CHECKS, "")


def test_a_parked_writer_removal_re_applied_after_it_expired_is_blocked(native: World) -> None:
    w = native
    _removal_parked_and_re_applied(w)
    _blocked_staged(w.git("commit", "-qam", "tidy auth"), "src/auth.py")
    w.ok("commit", "-q", "--no-verify", "-am", "tidy auth")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad, "src/auth.py")


def test_the_printed_discard_claims_a_removal_re_applied(native: World) -> None:
    """A person who says the removal is theirs runs the block's ``discard`` as printed: the
    expired entry is claimed (recorded) and the commit passes with no trailer."""
    w = native
    _removal_parked_and_re_applied(w)
    blocked = w.git("commit", "-qam", "tidy auth")
    _blocked_staged(blocked, "src/auth.py")
    offered = [s for s in blocked.said if " discard " in s]
    assert len(offered) == 1 and "human: " in offered[0], blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0, done
    assert w.ledger("SELECT state FROM writer_entry") == [("discarded",)]
    passed = w.git("commit", "-qam", "tidy auth")
    assert passed.code == 0, passed
    assert TRAILER not in _message(w)


def _aged(w: World, days: float) -> None:
    """The writer's entries recorded ``days`` days earlier than they were."""
    conn = sqlite3.connect(w.work / ".git" / "gentle-hooks" / "ledger.sqlite3")
    try:
        with conn:
            conn.execute("UPDATE writer_entry SET recorded_at = recorded_at - ?", (days * 86400,))
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("days", "blocked"),
    [(EXPIRED_LINES_DAYS - 1, True), (EXPIRED_LINES_DAYS + 1, False)],
    ids=["a-day-before-the-end", "a-day-after-the-end"],
)
def test_expired_lines_count_for_a_documented_time(native: World, days: int, blocked: bool) -> None:
    w = native
    patch = _parked_then_human_commit(w, "patch")
    _aged(w, days)
    _bring_back(w, "patch", patch)
    r = w.git("commit", "-qam", "deploy")
    if blocked:
        _blocked_staged(r)
        return
    assert r.code == 0 and not [s for s in r.said if "BLOCKED" in s], r
    assert TRAILER not in _message(w)
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed


@pytest.mark.parametrize("tail", ["  # noqa: S605", ";"], ids=["comment", "semicolon"])
def test_expired_lines_brought_back_with_a_tail_in_a_linked_worktree_are_blocked(
    native: World, tail: str
) -> None:
    """The parked patch applied in another worktree, a linter's comment or a ``;`` appended
    to the writer's distinctive line: still the writer's there (the ledger is shared)."""
    w = native
    patch = _parked_then_human_commit(w, "patch")
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    applied = w.run(["git", "apply"], input=patch.encode(), cwd=b)
    assert applied.code == 0, applied
    text = (b / "src" / "app.py").read_text(encoding="utf-8")
    w.write("src/app.py", text.replace('| sh")\n', f'| sh"){tail}\n'), cwd=b)
    _blocked_staged(w.git("commit", "-qam", "apply wip", cwd=b))


GATE = (
    '"""Access."""\n\n\ndef is_authorized(user):\n    known = user.name in NAMES\n'
    "    return False\n\n\nNAMES = set()\n"
)
OPEN = GATE.replace("    return False\n", "    return True\n")


def _edit_parked_then_human_commit(w: World) -> str:
    """The writer's one-line edit (``return False`` -> ``return True``, README's own
    example: no line of it distinctive) parked as a patch, the path put back and a human's
    commit of the path expiring the entry; the patch."""
    w.serve({"src/app.py": GATE})
    w.delegate(text=OPEN)
    patch = w.ok("diff")
    w.ok("checkout", "--", "src/app.py")
    w.write("src/app.py", GATE + "\n\ndef helper():\n    return NAMES\n")
    human = w.git("commit", "-qam", "human: helper")
    assert human.code == 0 and [s for s in human.said if "expired" in s], human
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    return patch


def test_a_parked_one_line_writer_edit_re_applied_after_it_expired_is_blocked(
    native: World,
) -> None:
    w = native
    patch = _edit_parked_then_human_commit(w)
    applied = w.run(["git", "apply"], input=patch.encode())
    assert applied.code == 0, applied
    _blocked_staged(w.git("commit", "-qam", "open up"))


def test_a_humans_own_edit_of_the_same_line_after_the_expiry_passes(native: World) -> None:
    """Another line in its place, or the writer's line put somewhere else: the human's."""
    w = native
    _edit_parked_then_human_commit(w)
    text = (w.work / "src" / "app.py").read_text(encoding="utf-8")
    w.write("src/app.py", text.replace("    return False\n", "    return bool(known)\n"))
    r = w.git("commit", "-qam", "human: known")
    assert r.code == 0 and not [s for s in r.said if "BLOCKED" in s], r
    text = (w.work / "src" / "app.py").read_text(encoding="utf-8")
    w.write("src/app.py", text.replace("    return NAMES\n", "    return True\n"))
    r = w.git("commit", "-qam", "human: helper says yes")
    assert r.code == 0 and not [s for s in r.said if "BLOCKED" in s], r
    assert TRAILER not in _message(w)


@pytest.mark.parametrize(
    "writer",
    [LAX, AUTH.replace(CHECKS, "    log_access(user.name)\n")],
    ids=["removal", "edit"],
)
def test_after_reset_hard_a_humans_own_rewrite_of_the_removed_lines_passes(
    native: World, writer: str
) -> None:
    """The writer's removal (or edit) of the checks thrown away with ``reset --hard``; a
    human writes a check of their own in their place: theirs at commit and at push (their
    own line where the writer's were is no removal of the writer's)."""
    w = native
    w.serve({"src/auth.py": AUTH})
    w.delegate(rel="src/auth.py", text=writer)
    w.ok("reset", "-q", "--hard")
    w.write("src/auth.py", AUTH.replace(CHECKS, "    require_token(user)\n"))
    r = w.git("commit", "-qam", "human: one check")
    assert r.code == 0 and not [s for s in r.said if "BLOCKED" in s], r
    assert w.ledger("SELECT state FROM writer_entry") == [("expired",)]
    assert TRAILER not in _message(w)
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
