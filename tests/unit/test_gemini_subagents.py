"""Gemini CLI: a write while the parent's call to a subagent runs is the subagent's
(gentle_hooks.agents.gemini_cli.running_subagent), decided row by row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents import gemini_cli

AGENT = "---\nname: quick-fixer\nkind: local\n{model}tools: [write_file, replace]\n---\nFix bugs.\n"


def _write(tmp_path: Path, calls: list[dict[str, object]], model_line: str) -> bytes:
    agents = tmp_path / "proj" / ".gemini" / "agents"
    agents.mkdir(parents=True)
    (agents / "quick-fixer.md").write_text(AGENT.format(model=model_line))
    transcript = tmp_path / "t.jsonl"
    parent = {"id": "m2", "type": "gemini", "model": "gemini-2.5-pro", "toolCalls": calls}
    transcript.write_text(json.dumps(parent) + "\n")
    return json.dumps(
        {
            "session_id": "g",
            "transcript_path": str(transcript),
            "cwd": str(tmp_path / "proj"),
            "hook_event_name": "AfterTool",
            "timestamp": "2025-12-02T10:00:03Z",
            "tool_name": "write_file",
            "tool_input": {"file_path": "a.py", "content": "x = 1\n"},
            "tool_response": {"llmContent": "ok"},
        }
    ).encode()


def call(name: str, status: str) -> dict[str, object]:
    return {"id": "q1", "name": name, "args": {}, "status": status}


@pytest.mark.parametrize(
    ("calls", "model_line", "expect"),
    [
        # a pending call to a defined subagent: its declared model
        (
            [call("quick-fixer", "executing")],
            "model: gemini-2.5-flash-lite\n",
            ("gemini-2.5-flash-lite", "quick-fixer"),
        ),
        (
            [call("quick-fixer", "scheduled")],
            "model: 'gemini-2.5-flash'\n",
            ("gemini-2.5-flash", "quick-fixer"),
        ),
        # it declares none, or inherits: unknown, never the parent's
        ([call("quick-fixer", "executing")], "", (None, "quick-fixer")),
        ([call("quick-fixer", "executing")], "model: inherit\n", (None, "quick-fixer")),
        # a built-in subagent: unknown
        ([call("codebase_investigator", "executing")], "", (None, "codebase_investigator")),
        # the call finished: the parent's turn
        ([call("quick-fixer", "success")], "model: x\n", ("gemini-2.5-pro", None)),
        # a pending call that is no subagent (the parent's own tool): the parent's
        ([call("run_shell_command", "executing")], "model: x\n", ("gemini-2.5-pro", None)),
        ([call("write_file", "executing")], "model: x\n", ("gemini-2.5-pro", None)),
        ([], "model: x\n", ("gemini-2.5-pro", None)),
    ],
)
def test_a_write_during_a_subagent_call_is_the_subagents(
    calls: list[dict[str, object]],
    model_line: str,
    expect: tuple[str | None, str | None],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    event = gemini_cli.decode(_write(tmp_path, calls, model_line))
    assert (event.model, event.agent) == expect
    assert event.effort is None


def test_a_user_level_definition_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".gemini" / "agents").mkdir(parents=True)
    (home / ".gemini" / "agents" / "other.md").write_text(
        "---\nname: mine\nmodel: gemini-2.5-flash\n---\n"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    event = gemini_cli.decode(_write(tmp_path, [call("mine", "executing")], ""))
    assert (event.model, event.agent) == ("gemini-2.5-flash", "mine")
