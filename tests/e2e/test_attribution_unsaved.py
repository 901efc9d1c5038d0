"""A person's unsaved lines are never the writer's when an agent then edits the file (SPEC
§3 "Attribution follows content": a human's ordinary commit passes; docs/agents/*.md).

Real git, ``gentle-hook install``, and each runtime's real hook input through ``gentle-hook
record --from NAME``: Claude Code's ``Edit`` and ``MultiEdit``, Gemini CLI's ``replace``,
Cursor's ``afterFileEdit``, Codex's ``apply_patch`` hunk (context and ``-``/``+`` lines),
Copilot's ``edit`` (``old_str``/``new_str``) and VS Code's ``replace_string_in_file``
(``oldString``/``newString``), OpenCode's ``edit``, Pi's ``edit`` (``edits`` of
``oldText``/``newText``), Amp's ``edit_file`` and Droid's ``Edit`` name exactly what the edit
changed, so the write is measured from the file as it was just before it (the replacements
undone), not from ``HEAD``:

* the person reverts the agent's edit: their own lines commit with no block and no trailer,
  and ``discard`` of the agent's work is accepted;
* the agent's edit kept: the commit is blocked;
* the agent's line copied elsewhere by the person, the original reverted: still blocked;
* the edit's new text in the file twice when it is recorded (the undo is ambiguous): the
  write is measured as before, from ``HEAD`` (fail closed): the person's lines block too.
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
PATH = "src/calc.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}


def _payload(runtime: str, w: World) -> tuple[str, bytes]:
    """(the ``--from`` name, the hook input) of one edit replacing :data:`OLD` with
    :data:`NEW` in :data:`PATH` (MultiEdit: ``VALUE = 1`` made ``VALUE = 2`` too)."""
    root, file = str(w.work), str(w.work / PATH)
    edit = {"file_path": file, "old_string": OLD, "new_string": NEW}
    if runtime in ("claude-code", "claude-multi"):
        tool = "Edit"
        if runtime == "claude-multi":
            tool = "MultiEdit"
            first = {"old_string": "VALUE = 1", "new_string": "VALUE = 2"}
            edit = {"file_path": file, "edits": [first, {"old_string": OLD, "new_string": NEW}]}
        data: dict[str, object] = {
            "session_id": "s1",
            "transcript_path": "",
            "cwd": root,
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": edit,
            "tool_response": {"filePath": file, "success": True},
            "tool_use_id": "toolu_1",
        }
        return "claude-code", json.dumps(data).encode()
    if runtime == "gemini-cli":
        data = {
            "session_id": "g1",
            "transcript_path": "",
            "cwd": root,
            "hook_event_name": "AfterTool",
            "timestamp": "2026-08-21T16:20:05.123Z",
            "tool_name": "replace",
            "tool_input": {**edit, "instruction": "apply the discount rules"},
            "tool_response": {
                "llmContent": f"Successfully modified file: {file} (1 replacements)."
            },
        }
        return "gemini-cli", json.dumps(data).encode()
    data = {
        "conversation_id": "c1",
        "generation_id": "gen1",
        "model": "claude-4.5-sonnet",
        "hook_event_name": "afterFileEdit",
        "cursor_version": "1.7.2",
        "workspace_roots": [root],
        "file_path": file,
        "edits": [{"old_string": OLD, "new_string": NEW}],
    }
    return "cursor", json.dumps(data).encode()


#: Codex's ``apply_patch`` envelope of the edit: one hunk, located by its ``@@`` line, with a
#: context line.
PATCH = (
    f"*** Begin Patch\n*** Update File: {PATH}\n@@ VALUE = 1\n def main():\n"
    f"-{OLD}+{NEW}*** End Patch\n"
)


def _more_payload(runtime: str, w: World) -> tuple[str, bytes]:
    """:func:`_payload` of the runtimes whose inputs name the edit under their own keys."""
    root, file = str(w.work), str(w.work / PATH)
    data: dict[str, object]
    if runtime == "codex":
        data = {
            "session_id": "x1",
            "turn_id": "t1",
            "transcript_path": None,
            "cwd": root,
            "hook_event_name": "PostToolUse",
            "model": "gpt-5-codex",
            "permission_mode": "default",
            "tool_name": "apply_patch",
            "tool_input": {"command": PATCH},
            "tool_response": f"Success. Updated the following files:\nM {PATH}\n",
            "tool_use_id": "call_1",
        }
    elif runtime == "copilot":
        args = {"path": file, "old_str": OLD, "new_str": NEW}
        data = {
            "sessionId": "p1",
            "timestamp": 1704614700000,
            "cwd": root,
            "toolName": "edit",
            "toolArgs": json.dumps(args),
            "toolResult": {"resultType": "success", "textResultForLlm": "File updated."},
        }
    elif runtime == "copilot-vscode":
        data = {
            "hookEventName": "PostToolUse",
            "sessionId": "v1",
            "timestamp": "2026-08-21T16:20:05.123Z",
            "cwd": root,
            "tool_name": "replace_string_in_file",
            "tool_input": {"filePath": file, "oldString": OLD, "newString": NEW},
            "tool_use_id": "tool_1",
            "tool_response": "The file was edited.",
        }
        return "copilot", json.dumps(data).encode()
    elif runtime == "opencode":
        data = {
            "tool": "edit",
            "sessionID": "o1",
            "callID": "call_o1",
            "args": {"filePath": file, "oldString": OLD, "newString": NEW},
            "model": {"modelID": "claude-sonnet-4-5"},
            "directory": root,
        }
    elif runtime == "pi":
        data = {
            "toolName": "edit",
            "toolCallId": "call_p1",
            "input": {"path": PATH, "edits": [{"oldText": OLD, "newText": NEW}]},
            "isError": False,
            "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
            "sessionId": "pi1",
            "cwd": root,
        }
    elif runtime == "amp":
        data = {
            "tool": "edit_file",
            "toolUseID": "toolu_a1",
            "input": {"path": file, "old_str": OLD, "new_str": NEW},
            "status": "done",
            "threadID": "T-1",
            "files": [file],
            "cwd": root,
        }
    else:
        data = {
            "session_id": "d1",
            "transcript_path": "",
            "cwd": root,
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "tool_name": "Edit",
            "tool_input": {"file_path": file, "old_string": OLD, "new_string": NEW},
            "tool_response": {"success": True},
            "tool_use_id": "toolu_d1",
        }
    return runtime, json.dumps(data).encode()


def _agent_edit(w: World, runtime: str, text: str) -> str:
    """The agent's edit of ``text`` (the file as the person left it, unsaved), recorded
    through the runtime's hook input; the file as the agent left it."""
    edited = text.replace(OLD, NEW, 1)
    if runtime == "claude-multi":
        edited = edited.replace("VALUE = 1", "VALUE = 2", 1)
    w.write(PATH, edited)
    first = runtime in ("claude-code", "claude-multi", "gemini-cli", "cursor")
    name, data = (_payload if first else _more_payload)(runtime, w)
    r = w.gh("record", "--from", name, input=data, env=MODEL)
    assert r.code == 0 and "recorded: pending mutation #1" in r.err, r
    return edited


RUNTIMES = ["claude-code", "claude-multi", "gemini-cli", "cursor"]
RUNTIMES += ["codex", "copilot", "copilot-vscode", "opencode", "pi", "amp", "droid"]


@pytest.fixture
def based(native: World) -> World:
    """``native`` with :data:`PATH` holding :data:`BASE`, committed by a human."""
    return native.human_base({PATH: BASE})


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_persons_unsaved_lines_commit_once_the_agents_edit_is_reverted(
    based: World, runtime: str
) -> None:
    w = based
    mine = BASE + HUMAN
    w.write(PATH, mine)  # the person's own lines, unsaved
    _agent_edit(w, runtime, mine)
    w.write(PATH, mine)  # the person reverts the agent's edit
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_discard_of_the_reverted_edit_is_accepted(based: World, runtime: str) -> None:
    w = based
    mine = BASE + HUMAN
    w.write(PATH, mine)
    _agent_edit(w, runtime, mine)
    w.write(PATH, mine)
    r = w.gh("discard", PATH, "--reason", "the agent's edit reverted")
    assert r.code == 0 and "discarded: 1 pending writer entry on src/calc.py" in r.out, r


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_agents_edit_kept_still_blocks(based: World, runtime: str) -> None:
    w = based
    mine = BASE + HUMAN
    w.write(PATH, mine)
    _agent_edit(w, runtime, mine)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert w.gh("discard", PATH, "--reason", "x").code == 2


@pytest.mark.parametrize("runtime", ["claude-code", "cursor"])
def test_the_agents_line_copied_elsewhere_by_the_person_still_blocks(
    based: World, runtime: str
) -> None:
    """The person copies the agent's new line into their own function and reverts the
    original: the line is the writer's wherever it sits."""
    w = based
    mine = BASE + HUMAN
    w.write(PATH, mine)
    _agent_edit(w, runtime, mine)
    w.write(PATH, mine + "\n\ndef copied(VALUE, region_table):\n" + NEW)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


@pytest.mark.parametrize("runtime", ["claude-code", "gemini-cli"])
def test_an_ambiguous_undo_measures_the_write_from_head(based: World, runtime: str) -> None:
    """The edit's new text is in the file twice when it is recorded (the person had typed it
    too): which one the agent wrote cannot be told, so every line that differs from
    ``HEAD`` is the writer's, the person's included (fail closed), after the agent's own
    occurrence is reverted as before."""
    w = based
    mine = BASE + "\n\ndef mine(VALUE, region_table):\n" + NEW + HUMAN
    w.write(PATH, mine)
    _agent_edit(w, runtime, mine)
    w.write(PATH, mine)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
