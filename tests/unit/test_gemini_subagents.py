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


@pytest.mark.parametrize("scope", ["home", "proj"])
def test_an_extensions_subagent_counts(
    scope: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an extension bundles subagents in its agents/ directory (docs/extensions/reference.md)
    where = tmp_path / scope / ".gemini" / "extensions" / "audit" / "agents"
    where.mkdir(parents=True)
    (where / "auditor.md").write_text("---\nname: sec-auditor\nmodel: gemini-2.5-flash\n---\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    event = gemini_cli.decode(_write(tmp_path, [call("sec-auditor", "executing")], ""))
    assert (event.model, event.agent) == ("gemini-2.5-flash", "sec-auditor")


def test_an_extensions_subagent_replaces_a_user_one_of_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Gemini CLI registers user, project, then extension agents; the last one of a name wins
    home = tmp_path / "home" / ".gemini"
    (home / "agents").mkdir(parents=True)
    (home / "agents" / "a.md").write_text("---\nname: fixer\nmodel: gemini-2.5-pro\n---\n")
    (home / "extensions" / "x" / "agents").mkdir(parents=True)
    (home / "extensions" / "x" / "agents" / "a.md").write_text("---\nname: fixer\n---\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    event = gemini_cli.decode(_write(tmp_path, [call("fixer", "executing")], ""))
    assert (event.model, event.agent) == (None, "fixer")


def delegate(agent: object, status: str = "executing") -> dict[str, object]:
    args = {"agent_name": agent, "query": "fix it"} if agent is not None else {}
    return {"id": "d1", "name": "delegate_to_agent", "args": args, "status": status}


@pytest.mark.parametrize(
    ("calls", "expect"),
    [
        # delegate_to_agent names the subagent in args.agent_name: its declared model
        ([delegate("quick-fixer")], ("gemini-2.5-flash-lite", "quick-fixer")),
        # a subagent no definition here names (an extension's, a remote one): unknown
        ([delegate("elsewhere")], (None, "elsewhere")),
        ([delegate(None)], (None, "delegate_to_agent")),
        # a finished delegation: the parent's turn again
        ([delegate("quick-fixer", "success")], ("gemini-2.5-pro", None)),
    ],
)
def test_a_write_during_a_delegation_is_the_delegated_subagents(
    calls: list[dict[str, object]],
    expect: tuple[str | None, str | None],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    event = gemini_cli.decode(_write(tmp_path, calls, "model: gemini-2.5-flash-lite\n"))
    assert (event.model, event.agent) == expect


@pytest.mark.parametrize(
    ("calls", "expect"),
    [
        ([], ("gemini-2.5-pro", None)),
        ([call("quick-fixer", "executing")], ("gemini-2.5-flash-lite", "quick-fixer")),
    ],
    ids=["parent", "subagent"],
)
def test_the_newest_gemini_message_is_found_behind_megabytes_of_later_records(
    calls: list[dict[str, object]],
    expect: tuple[str | None, str | None],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # records Gemini CLI appends after the model's turn (chatRecordingTypes.ts: 'info'
    # messages, a pasted file in a 'user' message) may fill more than the last 4 MiB
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("GEMINI_PROJECT_DIR", raising=False)
    data = _write(tmp_path, calls, "model: gemini-2.5-flash-lite\n")
    later = {"id": "i1", "type": "info", "content": "x" * (1024 * 1024)}
    with (tmp_path / "t.jsonl").open("a") as fh:
        fh.writelines(json.dumps(later) + "\n" for _ in range(6))
    event = gemini_cli.decode(data)
    assert (event.model, event.agent) == expect


def test_a_transcript_is_read_back_no_further_than_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gemini_cli, "SCAN_LIMIT", 3 * 1024 * 1024)
    transcript = tmp_path / "t.jsonl"
    parent = {"id": "m2", "type": "gemini", "model": "gemini-2.5-pro", "toolCalls": []}
    later = {"id": "i1", "type": "info", "content": "x" * (1024 * 1024)}
    transcript.write_text(json.dumps(parent) + "\n" + (json.dumps(later) + "\n") * 2)
    assert gemini_cli.model_from_transcript(str(transcript)) == "gemini-2.5-pro"
    transcript.write_text(json.dumps(parent) + "\n" + (json.dumps(later) + "\n") * 4)
    assert gemini_cli.model_from_transcript(str(transcript)) is None
