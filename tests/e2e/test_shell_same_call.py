"""Content that existed before a Claude Code ``Bash`` call, moved, committed, stashed or
restored by that same call, stays the person's; only what the call newly wrote is the
writer's (SPEC §3 "Attribution follows content"; docs/agents/claude-code.md).

Real git, ``gentle-hook install``, a real shell command run between Claude Code's
documented ``PreToolUse`` and ``PostToolUse`` inputs (code.claude.com/docs/en/hooks). Refuter
r17q HIGH:

* mc: ``git mv`` of a person's staged file and of a file holding their edit, committed
  ``--no-verify`` in the same call: the push was blocked ("writer content in lib/notes.py,
  lib/other.py");
* mc2: a clean file ``git mv``'d and committed in the same call: the push was blocked;
* mc4: ``git mv`` of the person's edited file then ``git stash`` in the same call; the
  person pops it and commits: blocked;
* sp-same: ``git stash pop && sed -i`` of the person's stash in one call; the person takes
  the sed edit out and commits their own line: blocked (in two calls it passed);
* ce: ``git checkout feat -- app.py && sed -i`` the same;
* ``git mv``, an edit of the new path and ``git stash`` in one call: the stashed path was
  measured from nothing, so the person's lines in it were the writer's;
* the call's own edit in those calls stays the writer's.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.e2e.claude_bash import bash_call
from tests.e2e.conftest import World

MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
APP = "def add(a, b):\n    return a - b\n"
EDIT = "sed -i 's/a - b/a + b/' src/app.py"


def _bash(w: World, command: str, call: str = "toolu_s1") -> str:
    """Claude Code's Bash call of ``command``: PreToolUse, the command, PostToolUse."""
    return bash_call(w, command, call, MODEL)


@pytest.fixture
def based(native: World) -> World:
    native.write("src/app.py", APP)
    native.write("src/other.py", "x = 1\n")
    native.ok("add", "-A")
    native.ok("commit", "-qm", "human: base")
    native.ok("push", "-q", "origin", "main")
    return native


def _pushed(w: World) -> None:
    r = w.git("push", "-q", "origin", "main")
    assert r.code == 0, r


def test_a_persons_files_moved_and_committed_in_one_call_stay_theirs(based: World) -> None:
    """r17q mc."""
    w = based
    w.write("src/notes.py", 'def note():\n    return "person"\n')
    w.ok("add", "src/notes.py")
    w.write("src/other.py", "x = 1\ny = 2  # person\n")
    move = "git mv src/notes.py lib/notes.py && git mv src/other.py lib/other.py"
    said = _bash(w, f"mkdir -p lib && {move} && git commit --no-verify -qam move")
    assert "in commits it made" not in said, said
    _pushed(w)


def test_a_clean_file_moved_and_committed_in_one_call_is_moved_content(based: World) -> None:
    """r17q mc2."""
    w = based
    said = _bash(w, "git mv src/other.py src/renamed.py && git commit --no-verify -qm move")
    assert "in commits it made" not in said, said
    _pushed(w)


def test_a_persons_edit_moved_and_stashed_in_one_call_stays_theirs(based: World) -> None:
    """r17q mc4: popped by the person and committed."""
    w = based
    w.write("src/other.py", "x = 1\ny = 2  # person\n")
    said = _bash(w, "mkdir -p lib && git mv src/other.py lib/other.py && git stash -q")
    assert "in commits it made" not in said, said
    w.ok("stash", "pop", "-q")
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: move")
    assert r.code == 0, r


@pytest.mark.parametrize("keep", [False, True], ids=["edit-out", "edit-kept"])
def test_a_persons_edit_moved_edited_and_stashed_in_one_call_is_measured_from_it(
    based: World, keep: bool
) -> None:
    """``git mv f lib/f && sed -i lib/f && git stash``: the stashed new path is measured
    from what the moved one held, so the person's line stays theirs, the call's edit not."""
    w = based
    w.write("src/other.py", "x = 1\ny = 2  # person\n")
    edit = "sed -i 's/x = 1/x = 3/' lib/other.py"
    _bash(w, f"mkdir -p lib && git mv src/other.py lib/other.py && {edit} && git stash -q")
    w.ok("stash", "pop", "-q")
    if not keep:
        path = w.work / "lib/other.py"
        path.write_text(path.read_text().replace("x = 3", "x = 1"))
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: move")
    if keep:
        assert r.code == 1 and "lib/other.py" in r.said[0], r
    else:
        assert r.code == 0, r


def test_the_writers_file_moved_and_committed_by_a_later_call_stays_the_writers(
    based: World,
) -> None:
    """Content an earlier call wrote is not the person's once moved and committed."""
    w = based
    _bash(w, "printf 'def w():\\n    return 42\\n' > src/w.py", "toolu_s0")
    _bash(w, "git add src/w.py && git mv src/w.py src/lib_w.py && git commit --no-verify -qm m")
    r = w.git("push", "-q", "origin", "main")
    assert r.code != 0 and any("BLOCKED commit" in line for line in r.said), r


def _stashed(w: World) -> str:
    w.write("src/app.py", APP + "# person line\n")
    w.ok("stash", "-q")
    return "git stash pop -q"


def _branch(w: World) -> str:
    w.ok("checkout", "-qb", "feat")
    w.write("src/app.py", APP + "# person line\n")
    w.ok("commit", "-qam", "human: feat")
    w.ok("checkout", "-q", "main")
    return "git checkout feat -- src/app.py"


@pytest.mark.parametrize("source", [_stashed, _branch], ids=["sp-same", "ce"])
@pytest.mark.parametrize("keep", [False, True], ids=["edit-out", "edit-kept"])
def test_content_restored_and_edited_in_one_call_is_measured_from_where_it_came(
    based: World, source: Callable[[World], str], keep: bool
) -> None:
    """r17q sp-same, ce: the person's line stays theirs; the call's edit is the writer's."""
    w = based
    restore = source(w)
    said = _bash(w, f"{restore} && {EDIT}")
    assert "recorded: pending mutation #1" in said, said
    if not keep:
        path = w.work / "src/app.py"
        path.write_text(path.read_text().replace("a + b", "a - b"))
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: line")
    if keep:
        assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
        assert "src/app.py" in r.said[0], r
    else:
        assert r.code == 0, r
        assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
