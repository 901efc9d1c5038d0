"""``receipt run --committed`` in a work tree with uncommitted changes runs on the commit's
exact tree, in a temporary linked checkout, and never changes the user's work tree or index
(issue 13 Build 4: no "work tree has other changes" dead end, no stash dance; refuter
r13y: it printed ``git stash push`` / ``git stash pop``). Real git, ``gentle-hook install``,
a real push to a bare remote.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n"
BROKEN = "def add(a, b):\n    return a - b  # a human's edit in progress\n"
#: Exit 0 when add(2, 2) == 4 in the tree it runs in.
TEST = (
    sys.executable,
    "-c",
    "import sys; sys.path.insert(0, 'src'); import app; sys.exit(0 if app.add(2, 2) == 4 else 1)",
)


def _state(w: World) -> dict[str, str]:
    """The user's files, index and stash, byte for byte."""
    files = ("src/app.py", "README.md", "notes.txt", ".git/index")
    out = {p: hashlib.sha256((w.work / p).read_bytes()).hexdigest() for p in files}
    out["status"] = w.ok("status", "--porcelain", "--untracked-files=all")
    out["stash"] = w.ok("stash", "list")
    return out


def test_a_committed_report_in_a_dirty_tree_runs_on_the_commit(native: World) -> None:
    w = native
    w.unverified(GOOD)
    # uncommitted work: a staged edit, an unstaged edit that fails the test, an untracked file
    w.write("README.md", "# demo\n\nwork in progress\n")
    w.ok("add", "README.md")
    w.write("src/app.py", BROKEN)
    w.write("notes.txt", "the user's notes\n")
    before = _state(w)
    made = w.gh("receipt", "run", "--committed", "--", *TEST)
    assert made.code == 0, made
    assert not any("stash" in line for line in made.lines), made
    assert any(
        "ran in a temporary linked checkout of the committed tree" in line
        and "the work tree has uncommitted or untracked changes" in line
        for line in made.lines
    ), made
    assert ": exit 0  (ran it" in made.err, made  # the commit's add, not the work tree's
    assert _state(w) == before
    listed = json.loads(w.gh("receipt", "list", "--committed", "--json").out)
    last = listed["records"][-1]  # the report just made, bound to the commit
    assert last["command"] == shlex.join(TEST), listed
    assert (
        listed["identity"]
        == json.loads(w.gh("assess", "--committed-only", "--json").out)["candidate"]["identity"]
    )
    w.spot_check("--committed")
    assert _state(w) == before
    pushed = w.git("push", "origin", "main")
    assert pushed.code == 0, pushed
    assert _state(w) == before
    assert w.ok("worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_committed_report_in_a_clean_tree_runs_in_place(native: World) -> None:
    w = native
    w.unverified(GOOD)
    made = w.gh("receipt", "run", "--committed", "--", *TEST)
    assert made.code == 0, made
    assert not any("temporary linked checkout" in line for line in made.lines), made
    w.spot_check("--committed")
    assert w.git("push", "origin", "main").code == 0
