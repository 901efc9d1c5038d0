"""A path a Claude Code ``Bash`` call creates by moving another, and edits in the same call,
is measured from what the moved path held before the call (SPEC §3 "Attribution follows
content": a rename carries content with its path; docs/agents/claude-code.md).

Real git, ``gentle-hook install``, a real shell command run between Claude Code's
documented ``PreToolUse`` and ``PostToolUse`` inputs (code.claude.com/docs/en/hooks,
``tool_name`` ``Bash``, ``tool_input.command``, the same ``tool_use_id``). Refuter r17p:

* ``git mv calc.py pricing.py && sed -i ... pricing.py``, the person reverting the sed line:
  the pure rename was blocked ("writer content in pricing.py"), the note said the call
  staged content of its own, and ``discard --all`` was refused;
* the same with the person's own unsaved function in ``calc.py`` first: it was stored as
  the writer's (measured from the empty file) and their commit of it blocked;
* plain ``mv`` and an edit: the same;
* the call's own edit stays the writer's: the sed line kept, the commit is blocked;
* content the call stages at the new path alone is measured from the moved path's index
  content: the person's staged lines stay theirs.
"""

from __future__ import annotations

import pytest

from tests.e2e.claude_bash import bash_call
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
HUMAN = "\n\ndef human_special_formatter(rows):\n    return format_rows_for_display(rows)\n"
EDIT = "sed -i 's/VALUE = 1/VALUE = 2/' src/pricing.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}


def _bash(w: World, command: str, call: str = "toolu_m1") -> str:
    """Claude Code's Bash call of ``command``: PreToolUse, the command, PostToolUse."""
    return bash_call(w, command, call, MODEL)


@pytest.fixture
def based(native: World) -> World:
    native.write("src/calc.py", BASE)
    native.write("src/other.py", "OTHER = 2\n")
    native.ok("add", "-A")
    native.ok("commit", "-qm", "human: base")
    return native


def _revert(w: World) -> None:
    """The person takes the call's edit back out of the work tree."""
    path = w.work / "src/pricing.py"
    path.write_text(path.read_text().replace("VALUE = 2", "VALUE = 1"))


@pytest.mark.parametrize("move", ["git mv", "mv"])
@pytest.mark.parametrize("persons", ["none", "unstaged", "staged"])
def test_a_rename_the_person_keeps_without_the_edit_is_theirs(
    based: World, move: str, persons: str
) -> None:
    """r17p mv3 (persons none), mv2 (unstaged): the person's rename commit was blocked."""
    w = based
    if persons != "none":
        w.write("src/calc.py", BASE + HUMAN)
    if persons == "staged":
        w.ok("add", "src/calc.py")
    said = _bash(w, f"{move} src/calc.py src/pricing.py && {EDIT}")
    assert "recorded: pending mutation #1" in said and "1 path(s)" in said, said
    assert "staged content of its own" not in said, said
    _revert(w)
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: rename")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def test_the_persons_rename_without_the_edit_can_be_discarded(based: World) -> None:
    """r17p mv3: "still holds the writer's change" refused the discard."""
    w = based
    _bash(w, f"git mv src/calc.py src/pricing.py && {EDIT}")
    _revert(w)
    r = w.gh("discard", "--all", "--reason", "took the edit out")
    assert r.code == 0 and "discarded: 1 pending writer entry" in r.out + r.err, r


@pytest.mark.parametrize("move", ["git mv", "mv"])
def test_the_calls_own_edit_of_a_renamed_file_stays_the_writers(based: World, move: str) -> None:
    w = based
    w.write("src/calc.py", BASE + HUMAN)
    _bash(w, f"{move} src/calc.py src/pricing.py && {EDIT}")
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: rename")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert "src/pricing.py" in r.said[0], r


def test_what_a_call_stages_at_a_renamed_path_is_measured_from_the_moved_index(
    based: World,
) -> None:
    """Content staged alone at the new path is the writer's from the moved path's index
    blob: the person's staged function stays theirs once the call's line is gone."""
    w = based
    w.write("src/calc.py", BASE + HUMAN)
    w.ok("add", "src/calc.py")
    evil = (BASE + HUMAN).replace("VALUE = 1", "VALUE = 2")
    blob = w.run(["git", "hash-object", "-w", "--stdin"], input=evil.encode()).out.strip()
    cacheinfo = f"git update-index --cacheinfo 100644,{blob},src/pricing.py"
    said = _bash(w, f"git mv src/calc.py src/pricing.py && {cacheinfo}")
    assert "staged content of its own that the work tree does not hold" in said, said
    r = w.git("commit", "-qm", "human: rename")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    w.ok("add", "-A")  # the work tree's: the person's function, not the call's line
    r = w.git("commit", "-qm", "human: rename")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
