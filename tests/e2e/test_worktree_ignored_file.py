"""A linked worktree lacks a file git ignores that the suite needs (``localcfg.py``, made
in the main work tree; git shares no ignored file between worktrees): the writer's failed
``receipt run`` there says so in the words ``gate --reverify`` uses ("lacks the file …,
which git ignores"), names the work tree that holds it and the ``cp`` that copies it, and
the block says the failure is the work tree's, never "fix the change"; pasting the copy and
the report it prints ends the block (issue 14, refuter r14u finding 3). A failure of the
change itself in the same worktree still says "fix the change". Real git,
``gentle-hook install``, real pytest.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.e2e.conftest import World, paste_first_way

GOOD = "def add(a, b):\n    return b + a\n"
BROKEN = "def add(a, b):\n    return a - b\n"
TESTS = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
NEEDS_LOCAL = (
    "import sys\n\nsys.path.insert(0, 'src')\n\n"
    "import app  # noqa: E402\nimport localcfg  # noqa: E402\n\n\n"
    "def test_add():\n    assert localcfg.NAME == 'dev' and app.add(2, 3) == 5\n"
)


def _linked(w: World) -> Path:
    """The base's test needs ``localcfg.py``, which git ignores; the main work tree has
    one, the linked worktree ``wt`` (branch ``topic``) does not; its path."""
    w.human_base({".gitignore": "__pycache__/\nlocalcfg.py\n", "tests/test_local.py": NEEDS_LOCAL})
    w.write("localcfg.py", "NAME = 'dev'\n")
    assert w.run(list(TESTS)).code == 0  # the main work tree's suite passes
    wt = w.base / "wt"
    w.ok("worktree", "add", "-q", "-b", "topic", str(wt), "main")
    return wt


def test_a_worktree_lacking_an_ignored_file_is_told_so_not_to_fix_the_change(
    native: World,
) -> None:
    w = native
    wt = _linked(w)
    w.write("src/app.py", GOOD, cwd=wt)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", cwd=wt).code == 0
    ran = w.gh("receipt", "run", "--", *TESTS, cwd=wt)
    assert ran.code != 0, ran
    said = " ".join(ran.lines)
    assert "the run lacks the file localcfg.py, which git ignores" in said, ran
    assert f"the work tree {w.work} holds it" in said, ran
    copy = said.split("to copy it, run: ", 1)[1].splitlines()[0].strip()
    assert copy.startswith("cp -- "), copy
    w.ok("add", "src/app.py", cwd=wt)
    blocked = w.git("commit", "-qm", "writer", cwd=wt)
    assert blocked.code == 1, blocked
    printed = "\n".join(blocked.said)
    assert "its run lacked the file localcfg.py, which git ignores" in printed, blocked
    assert "fix the change" not in printed, blocked
    # the copy the report printed, then the way out the block printed, pasted as printed
    assert w.run(["sh", "-c", copy], cwd=w.base).code == 0, copy
    paste_first_way(w, blocked.said, wt, None)
    w.spot_check("--staged", cwd=wt)
    done = w.git("commit", "-qm", "writer", cwd=wt)
    assert done.code == 0, done


def test_a_failure_of_the_change_in_that_worktree_still_says_fix_the_change(
    native: World,
) -> None:
    w = native
    wt = _linked(w)
    w.run(["cp", str(w.work / "localcfg.py"), str(wt / "localcfg.py")])
    w.write("src/app.py", BROKEN, cwd=wt)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", cwd=wt).code == 0
    ran = w.gh("receipt", "run", "--", *TESTS, cwd=wt)
    assert ran.code != 0 and "which git ignores" not in ran.out + ran.err, ran
    w.ok("add", "src/app.py", cwd=wt)
    blocked = w.git("commit", "-qm", "writer", cwd=wt)
    assert blocked.code == 1, blocked
    assert "fix the change" in "\n".join(blocked.said), blocked
    assert shlex.join(TESTS) in "\n".join(blocked.said), blocked


#: The base's test, needing ``conf/localcfg.py`` (ignored; ``conf/`` holds nothing else).
NEEDS_CONF = NEEDS_LOCAL.replace("sys.path.insert(0, 'src')", "sys.path[:0] = ['src', 'conf']")


def test_a_lacked_file_in_a_folder_the_worktree_lacks_is_copied_as_the_block_prints(
    native: World,
) -> None:
    """``conf/localcfg.py`` is ignored and ``conf/`` holds nothing git tracks, so the linked
    worktree has no ``conf/``: the copy ``receipt run`` prints makes it first, and the block
    and ``status`` name the work tree holding the file and print that copy as a ``run:``
    line; the block's first way pasted as printed, then the spot check, ends it (issue 14,
    refuter r14v MED 2: ``cp`` failed with no such directory)."""
    w = native
    w.human_base({".gitignore": "__pycache__/\nlocalcfg.py\n", "tests/test_local.py": NEEDS_CONF})
    w.write("conf/localcfg.py", "NAME = 'dev'\n")
    assert w.run(list(TESTS)).code == 0  # the main work tree's suite passes
    wt = w.base / "wt"
    w.ok("worktree", "add", "-q", "-b", "topic", str(wt), "main")
    assert not (wt / "conf").exists()
    w.write("src/app.py", GOOD, cwd=wt)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", cwd=wt).code == 0
    ran = w.gh("receipt", "run", "--", *TESTS, cwd=wt)
    assert ran.code != 0, ran
    copy = " ".join(ran.lines).split("to copy it, run: ", 1)[1].splitlines()[0].strip()
    made = shlex.join(("mkdir", "-p", "--", str(wt / "conf")))
    assert copy == (
        f"{made} && "
        + shlex.join(("cp", "--", str(w.work / "conf/localcfg.py"), str(wt / "conf/localcfg.py")))
    ), ran
    w.ok("add", "src/app.py", cwd=wt)
    blocked = w.git("commit", "-qm", "writer", cwd=wt)
    assert blocked.code == 1, blocked
    held = f"(the work tree {w.work} holds it)"
    assert f"gentle-hooks:   run: {copy}" in blocked.said, blocked
    assert held in "\n".join(blocked.said), blocked
    status = w.gh("status", "--staged", cwd=wt)
    assert f"run: {copy}" in status.out + status.err and held in status.out + status.err, status
    ran_now = paste_first_way(w, blocked.said, wt, None)
    assert ran_now[0] == copy, ran_now
    w.spot_check("--staged", cwd=wt)
    done = w.git("commit", "-qm", "writer", cwd=wt)
    assert done.code == 0, done


def test_a_staged_report_in_a_temporary_checkout_names_the_lacked_file_not_an_untracked_one(
    native: World,
) -> None:
    """``--staged`` with an untracked ``notes.txt`` beside: the report runs in a temporary
    checkout of the staged tree (the worktree's ignored files linked in, and it has no
    ``localcfg.py``); its failure names the file it lacked and the work tree holding it,
    not ``notes.txt`` to stage, and so does the block, whose first way pasted as printed,
    then the spot check, ends it (issue 14, refuter r14v MED 3)."""
    w = native
    wt = _linked(w)
    w.write("src/app.py", GOOD, cwd=wt)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", cwd=wt).code == 0
    w.ok("add", "src/app.py", cwd=wt)
    w.write("notes.txt", "a person's notes\n", cwd=wt)  # untracked, not the change's
    ran = w.gh("receipt", "run", "--staged", "--", *TESTS, cwd=wt)
    assert ran.code != 0, ran
    said = " ".join(ran.lines)
    assert "the run lacks the file localcfg.py, which git ignores" in said, ran
    assert f"the work tree {w.work} holds it" in said, ran
    assert "notes.txt the run did not see" not in said and "git add" not in said, ran
    blocked = w.git("commit", "-qm", "writer", cwd=wt)
    assert blocked.code == 1, blocked
    printed = "\n".join(blocked.said)
    assert "its run lacked the file localcfg.py, which git ignores" in printed, blocked
    assert "notes.txt" not in printed and "git add" not in printed, blocked
    paste_first_way(w, blocked.said, wt, None)
    w.spot_check("--staged", cwd=wt)
    done = w.git("commit", "-qm", "writer", cwd=wt)
    assert done.code == 0, done
    assert (wt / "notes.txt").exists()
