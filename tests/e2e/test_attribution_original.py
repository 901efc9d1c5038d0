"""Claude Code hands the file as it was just before an ``Edit``, ``MultiEdit`` or ``Write``
(``tool_response.originalFile``): the write is measured from it where it is consistent, so a
person's unsaved lines are never the writer's even where the edit's replacements cannot be
undone exactly (SPEC §3 "Attribution follows content"; docs/agents/claude-code.md).

Real git, ``gentle-hook install`` and Claude Code's ``PostToolUse`` input through
``gentle-hook record --from claude-code``, its ``tool_response`` in the shapes Claude Code
writes (``filePath``, ``oldString``, ``newString``, ``originalFile``, ``structuredPatch``,
``userModified``, ``replaceAll`` for ``Edit``; ``type``, ``filePath``, ``content``,
``structuredPatch``, ``originalFile`` for ``Write``: the ``toolUseResult`` objects of
Claude Code session transcripts, which hooks receive as ``tool_response``):

* the edit's new text typed by the person too (an ambiguous undo) or an edit that removes
  (no undo at all), and a whole-file ``Write``: reverted, the person's lines commit;
* an ``originalFile`` the edit does not turn into the file (a stale or foreign one), or a
  ``Write`` whose ``content`` the file no longer holds: the write is measured as before,
  from ``HEAD`` (fail closed), and the person's lines block;
* the agent's edit kept: blocked.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
HUMAN = (
    "\n\ndef human_special_formatter(report_rows):\n"
    "    return format_rows_for_display(report_rows)\n"
)
OLD = "    return VALUE\n"
NEW = "    return apply_discount_rules(VALUE, region_table)\n"
TWICE = "\n\ndef mine(VALUE, region_table):\n" + NEW  # the person typed the new text too
PATH = "src/calc.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}


def _input(w: World, tool: str, args: dict[str, object], response: dict[str, object]) -> bytes:
    file = str(w.work / PATH)
    data = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(w.work),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": {"file_path": file, **args},
        "tool_response": {"filePath": file, **response},
        "tool_use_id": "toolu_1",
    }
    return json.dumps(data).encode()


def _agent(w: World, kind: str, start: str, original: str | None = None, later: str = "") -> str:
    """The agent's call of ``kind`` on ``start`` (the file as the person left it, unsaved),
    recorded with ``original`` as ``originalFile`` (``start`` when None), ``later`` added to
    the file's end before the hook runs; the file the call left."""
    told = start if original is None else original
    if kind == "write":
        after = start.replace(OLD, NEW, 1)
        args: dict[str, object] = {"content": after}
        response: dict[str, object] = {"type": "update", "content": after, "structuredPatch": []}
        tool = "Write"
    else:
        old, new = (OLD, NEW) if kind == "edit" else ("VALUE = 1\n", "")
        after = start.replace(old, new, 1)
        args = {"old_string": old, "new_string": new, "replace_all": False}
        response = {"oldString": old, "newString": new, "structuredPatch": []}
        response |= {"userModified": False, "replaceAll": False}
        tool = "Edit"
    w.write(PATH, after + later)
    data = _input(w, tool, args, {**response, "originalFile": told})
    r = w.gh("record", "--from", "claude-code", input=data, env=MODEL)
    assert r.code == 0 and "recorded: pending mutation #1" in r.err, r
    return after


@pytest.fixture
def based(native: World) -> World:
    """``native`` with :data:`PATH` holding :data:`BASE`, committed by a human."""
    return native.human_base({PATH: BASE})


@pytest.mark.parametrize(
    ("kind", "mine"),
    [
        ("edit", BASE + TWICE + HUMAN),  # the new text twice: the undo is ambiguous
        ("remove", BASE + HUMAN),  # a removal: nothing to undo
        ("write", BASE + HUMAN),  # a whole-file write
    ],
    ids=["ambiguous-edit", "removing-edit", "write"],
)
def test_the_persons_lines_commit_once_the_call_is_reverted(
    based: World, kind: str, mine: str
) -> None:
    w = based
    w.write(PATH, mine)  # the person's own lines, unsaved
    _agent(w, kind, mine)
    w.write(PATH, mine)  # the person reverts the agent's call
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize("kind", ["edit", "remove", "write"])
def test_the_agents_call_kept_still_blocks(based: World, kind: str) -> None:
    w = based
    mine = BASE + TWICE + HUMAN
    w.write(PATH, mine)
    _agent(w, kind, mine)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_an_original_the_edit_does_not_turn_into_the_file_measures_from_head(
    based: World,
) -> None:
    """``originalFile`` names a file the edit does not turn into what the work tree holds
    (here one without the person's lines): it is not taken, and every line that differs
    from ``HEAD`` is the writer's, the person's included (fail closed)."""
    w = based
    mine = BASE + TWICE + HUMAN
    w.write(PATH, mine)
    _agent(w, "edit", mine, original=BASE + TWICE)
    w.write(PATH, mine)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_write_the_work_tree_no_longer_holds_measures_from_head(based: World) -> None:
    """The file changed again between the ``Write`` and its hook (it is not the written
    ``content``): ``originalFile`` is not taken (fail closed), the person's lines block."""
    w = based
    mine = BASE + HUMAN
    w.write(PATH, mine)
    _agent(w, "write", mine, later="# changed after the write\n")
    w.write(PATH, mine)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
