"""Copilot's and Cursor's subagents, bracketed by their ``subagentStart``/``subagentStop``
hooks (SPEC §7 "Hooks"; seed 000: an inherited model is unknown, so small): install wires
the three events, a write while a subagent runs records ``unknown`` (never the parent's
model), the parent's model again after the stop, and uninstall removes our three entries.

Hook inputs: tests/fixtures/agents/{copilot,cursor,subagents}.json (sources named there).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.agents.runtimes import record_command, runtime
from gentle_hooks.services import agent_subagents
from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, write

BIN = os.path.dirname(sys.executable)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
ROWS = json.loads(
    (Path(__file__).parent.parent / "fixtures" / "agents" / "subagents.json").read_text(
        encoding="utf-8"
    )
)["rows"]
#: The parent's model each runtime names: Cursor's input, Copilot's settings file.
PARENT = {"cursor": "claude-4.5-sonnet", "copilot": "gpt-5"}
#: What makes a second write another tool call (its derived id differs).
AGAIN: dict[str, dict[str, Any]] = {
    "cursor": {"generation_id": "another-generation"},
    "copilot": {"timestamp": 1704614900000},
}


def models(repo: Path) -> list[object]:
    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT model, effort FROM pending_mutation ORDER BY id").fetchall()
    return [tuple(r) for r in rows]


def lifecycle(name: str, which: str, repo: Path) -> str:
    [row] = [r for r in ROWS if r["runtime"] == name and r["expect"]["lifecycle"] == which][:1]
    return json.dumps(row["payload"]).replace("@ROOT@", str(repo))


def record(repo: Path, name: str, data: str, env: dict[str, str] | None = None) -> str:
    proc = gh(repo, "record", "--from", name, input=data, env={**WITH_GH, **(env or {})})
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


@pytest.mark.parametrize("name", ["copilot", "cursor"])
def test_a_write_during_a_subagent_is_unknown_and_the_parents_after_it(
    name: str, repo: Path, tmp_path: Path
) -> None:
    rt = runtime(name)
    assert rt.wiring is not None
    if name == "copilot":
        write(repo / ".github" / "copilot" / "settings.json", '{"model": "gpt-5"}\n')
    proc = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    config = repo / rt.wiring.project
    hooks = json.loads(config.read_text())["hooks"]
    for event in (rt.wiring.event, "subagentStart", "subagentStop"):
        [entry] = hooks[event]
        assert entry[rt.wiring.command_key] == record_command(name, guarded=rt.wiring.guarded)

    said = record(repo, name, lifecycle(name, "subagent-start", repo))
    assert said.startswith("nothing recorded: ") and "started" in said, said
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    # the hook entry's GENTLE_WRITER_MODEL is the session's word, not the subagent's
    record(repo, name, data.decode(), env={"GENTLE_WRITER_MODEL": "parent-model"})
    assert models(repo) == [("unknown", "unknown")]

    said = record(repo, name, lifecycle(name, "subagent-stop", repo))
    assert "stopped" in said, said
    common = repo / ".git"
    assert agent_subagents.running(str(common), name, filled["expect"]["session_id"]) == []
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by the parent\n")
    again, _ = materialize(name, repo, tmp_path / "runtime", **AGAIN[name])
    record(repo, name, again.decode())
    assert [m for m, _ in models(repo)] == ["unknown", PARENT[name]]

    gone = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert gone.returncode == 0, gone.stderr
    assert "removed" in gone.stdout
    left = json.loads(config.read_text()).get("hooks", {}) if config.exists() else {}
    assert left == {}


def test_a_stop_that_never_came_expires(repo: Path, tmp_path: Path) -> None:
    common = str(repo / ".git")
    path = agent_subagents.start(common, "cursor", "s1", None, None)
    later = time.time() + agent_subagents.MAX_AGE + 1
    assert agent_subagents.stale(common, now=later) == [path]
    assert agent_subagents.running(common, "cursor", "s1", now=later) == []
    assert not os.path.exists(path)  # the look-up removed the expired marker


def test_parallel_subagents_are_stopped_one_at_a_time(repo: Path) -> None:
    common = str(repo / ".git")
    agent_subagents.start(common, "copilot", "s", "explore", None)
    agent_subagents.start(common, "copilot", "s", "code-review", None)
    agent_subagents.start(common, "copilot", "other-session", "explore", None)
    stopped = agent_subagents.stop(common, "copilot", "s", "code-review")
    assert stopped is not None and stopped.name == "code-review"
    assert [m.name for m in agent_subagents.running(common, "copilot", "s")] == ["explore"]
    assert agent_subagents.stop(common, "copilot", "s", None) is not None
    assert agent_subagents.running(common, "copilot", "s") == []
    assert agent_subagents.stop(common, "copilot", "s", "explore") is None
    assert len(agent_subagents.running(common, "copilot", "other-session")) == 1


def test_doctor_reports_an_expired_marker_and_fix_removes_it_alone(repo: Path) -> None:
    common = str(repo / ".git")
    old = agent_subagents.start(common, "copilot", "gone", "explore", None)
    live = agent_subagents.start(common, "copilot", "live", "explore", None)
    blob = json.loads(Path(old).read_text())
    blob["started"] -= agent_subagents.MAX_AGE + 60
    Path(old).write_text(json.dumps(blob))
    report = gh(repo, "doctor")
    assert old in report.stdout, report.stdout
    assert live not in report.stdout
    fixed = gh(repo, "doctor", "--fix")
    assert f"removed {old}" in fixed.stdout, fixed.stdout
    assert not os.path.exists(old) and os.path.exists(live)


def test_a_marker_that_cannot_be_kept_fails_in_one_line(repo: Path) -> None:
    state = repo / ".git" / "gentle-hooks"
    state.mkdir(exist_ok=True)
    (state / "subagents").write_text("not a directory")
    proc = gh(
        repo, "record", "--from", "copilot", input=lifecycle("copilot", "subagent-start", repo)
    )
    assert proc.returncode == 1  # Copilot logs a non-zero hook and goes on
    assert proc.stderr.startswith("gentle-hook: error: cannot keep the subagent's marker in ")
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.endswith("; nothing recorded\n") and "Traceback" not in proc.stderr


def test_a_copilot_write_through_the_claude_recorder_is_a_subagents_too(
    repo: Path, tmp_path: Path
) -> None:
    """Copilot also runs .claude/settings.json hooks: its write reaching the Claude Code
    recorder while a Copilot subagent runs is the subagent's, unknown, not the settings'."""
    from tests.integration.test_runtime_adapters import (
        COPILOT_SESSION,
        _claude_effort_everywhere,
        _copilot_inputs,
    )

    env = _claude_effort_everywhere(repo, tmp_path)
    start = json.loads(lifecycle("copilot", "subagent-start", repo))
    start["sessionId"] = COPILOT_SESSION
    record(repo, "copilot", json.dumps(start), env=env)
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    _, pascal = _copilot_inputs(repo)
    proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(pascal), env=env)
    assert proc.returncode == 0, proc.stderr
    assert models(repo) == [("unknown", "unknown")]


def test_an_oversized_subagent_name_is_kept_short(repo: Path) -> None:
    start = json.loads(lifecycle("copilot", "subagent-start", repo))
    start["agentName"] = "x" * 300_000
    said = record(repo, "copilot", json.dumps(start))
    assert len(said) < 300 and said.count("\n") == 1, said[:300]
    [marker] = agent_subagents.running(str(repo / ".git"), "copilot", start["sessionId"])
    assert marker.name == "x" * agent_subagents.MAX_LABEL


def _claude_subagent_write(repo: Path) -> str:
    """A Claude Code subagent's Write (agent_id set), its own transcript naming haiku."""
    own = repo / ".git" / "p" / "s1" / "subagents" / "agent-a2.jsonl"
    line = {"type": "assistant", "message": {"role": "assistant", "model": "claude-haiku-4-5"}}
    write(own, json.dumps(line) + "\n")
    write(repo / ".git" / "p" / "s1.jsonl", "")
    write(repo / "b.py", "y = 1\n")
    return json.dumps(
        {
            "session_id": "s1",
            "transcript_path": str(repo / ".git" / "p" / "s1.jsonl"),
            "cwd": str(repo),
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "agent_id": "a2",
            "agent_type": "Explore",
            "tool_name": "Write",
            "tool_input": {"file_path": str(repo / "b.py"), "content": "y = 1\n"},
            "tool_response": {},
            "tool_use_id": "toolu_b",
        }
    )


def _codex_subagent_write(repo: Path) -> str:
    """A Codex thread-spawned subagent's apply_patch (agent_id set), no rollout."""
    write(repo / "c.py", "z = 1\n")
    patch = "*** Begin Patch\n*** Add File: c.py\n+z = 1\n*** End Patch\n"
    return json.dumps(
        {
            "session_id": "s",
            "turn_id": "1",
            "transcript_path": None,
            "cwd": str(repo),
            "hook_event_name": "PostToolUse",
            "model": "gpt-5-codex",
            "permission_mode": "default",
            "agent_id": "thr-child",
            "agent_type": "worker",
            "tool_name": "apply_patch",
            "tool_input": {"command": patch},
            "tool_response": "ok",
            "tool_use_id": "call_c",
        }
    )


def _gemini_subagent_write(repo: Path) -> str:
    """A Gemini CLI write while the parent's call to subagent quick-fixer runs."""
    agents = repo / ".gemini" / "agents"
    write(agents / "quick-fixer.md", "---\nname: quick-fixer\nmodel: gemini-2.5-flash-lite\n---\n")
    parent = {
        "id": "m2",
        "type": "gemini",
        "model": "gemini-2.5-pro",
        "toolCalls": [{"id": "q1", "name": "quick-fixer", "args": {}, "status": "executing"}],
    }
    write(repo / ".git" / "g.jsonl", json.dumps(parent) + "\n")
    write(repo / "a.py", "x = 1\n")
    return json.dumps(
        {
            "session_id": "g",
            "transcript_path": str(repo / ".git" / "g.jsonl"),
            "cwd": str(repo),
            "hook_event_name": "AfterTool",
            "timestamp": "2025-12-02T10:00:03Z",
            "tool_name": "write_file",
            "tool_input": {"file_path": str(repo / "a.py"), "content": "x = 1\n"},
            "tool_response": {"llmContent": "ok"},
        }
    )


def _gemini_delegated_write(repo: Path) -> str:
    """A Gemini CLI write while the parent's ``delegate_to_agent`` call to an extension's
    subagent runs (the extension's ``agents/auditor.md`` declares its model)."""
    data = json.loads(_gemini_subagent_write(repo))
    os.unlink(repo / ".gemini" / "agents" / "quick-fixer.md")
    agents = repo / ".gemini" / "extensions" / "audit" / "agents"
    write(agents / "auditor.md", "---\nname: auditor\nmodel: gemini-2.5-flash\n---\n")
    call = {"id": "d1", "name": "delegate_to_agent", "status": "executing"}
    parent = {"id": "m2", "type": "gemini", "model": "gemini-2.5-pro"}
    parent["toolCalls"] = [{**call, "args": {"agent_name": "auditor", "query": "audit"}}]
    write(repo / ".git" / "g.jsonl", json.dumps(parent) + "\n")
    return json.dumps(data)


def _opencode_subagent_write(repo: Path, model: object) -> str:
    """An OpenCode ``edit`` in a subagent's session (our plugin's ``parentID`` set), the
    session's own ``chat.params`` model ``model``."""
    write(repo / "d.py", "w = 1\n")
    call = {"hook": "tool.execute.after", "tool": "edit", "sessionID": "ses_child"}
    call |= {"callID": "toolu_d", "parentID": "ses_parent", "agent": "explore", "model": model}
    args = {"filePath": str(repo / "d.py"), "oldString": "w = 0", "newString": "w = 1"}
    return json.dumps({**call, "args": args, "directory": str(repo), "worktree": str(repo)})


def _opencode_configured_write(repo: Path) -> str:
    """An OpenCode subagent's ``edit`` whose agent's Markdown file names its model
    (``.opencode/agents/explore.md``, opencode.ai/docs/agents): the task tool runs the child
    on it, so the session's ``chat.params`` model is the child's own."""
    agents = repo / ".opencode" / "agents"
    write(agents / "explore.md", "---\ndescription: x\nmodel: anthropic/claude-haiku-4-5\n---\n")
    return _opencode_subagent_write(repo, {"modelID": "claude-haiku-4-5"})


@pytest.mark.parametrize(
    ("name", "build", "own"),
    [
        ("opencode", _opencode_configured_write, ("claude-haiku-4-5", "unknown")),
        (
            "opencode",  # no model configured for explore: the parent's model, so unknown
            lambda repo: _opencode_subagent_write(repo, {"modelID": "claude-haiku-4-5"}),
            ("unknown", "unknown"),
        ),
        ("opencode", lambda repo: _opencode_subagent_write(repo, None), ("unknown", "unknown")),
        ("gemini-cli", _gemini_subagent_write, ("gemini-2.5-flash-lite", "unknown")),
        ("gemini-cli", _gemini_delegated_write, ("gemini-2.5-flash", "unknown")),
        ("claude-code", _claude_subagent_write, ("claude-haiku-4-5", "unknown")),
        ("codex", _codex_subagent_write, ("unknown", "unknown")),
    ],
)
def test_the_hook_entrys_writer_does_not_override_a_named_subagents_own(
    name: str, build: Any, own: tuple[str, str], repo: Path
) -> None:
    data = build(repo)
    env = {"GENTLE_WRITER_MODEL": "parent-model", "GENTLE_WRITER_EFFORT": "high"}
    record(repo, name, data, env=env)
    assert models(repo) == [own]


def test_a_droid_subagents_writes_record_its_own_model_between_task_and_its_stop(
    repo: Path, tmp_path: Path
) -> None:
    """Droid runs a subagent through its Task tool: install wires PreToolUse (matcher Task)
    and SubagentStop beside the write hook; a write between them records the model the
    custom droid's definition declares (never the session's, nor the hook entry's
    GENTLE_WRITER_MODEL), and the session's own again after the stop."""
    write(
        repo / ".factory" / "droids" / "reviewer.md", "---\nname: reviewer\nmodel: m-haiku\n---\n"
    )
    proc = gh(repo, "install", "--agent", "droid", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    hooks = json.loads((repo / ".factory" / "settings.json").read_text())["hooks"]
    command = "gentle-hook record --from droid"
    assert hooks["PreToolUse"] == [
        {"matcher": "Task", "hooks": [{"type": "command", "command": command}]}
    ]
    assert hooks["SubagentStop"] == [{"hooks": [{"type": "command", "command": command}]}]
    data, filled = materialize("droid", repo, tmp_path / "runtime")
    transcript = filled["payload"]["transcript_path"]
    write(Path(transcript[: -len(".jsonl")] + ".settings.json"), '{"model": "m-parent"}')
    start = json.loads(lifecycle("droid", "subagent-start", repo))
    said = record(repo, "droid", json.dumps({**start, "transcript_path": transcript}))
    assert "reviewer of Factory Droid started: writes in this session record as m-haiku" in said
    apply_writes(filled, repo)
    record(repo, "droid", data.decode(), env={"GENTLE_WRITER_MODEL": "parent-model"})
    assert models(repo) == [("m-haiku", "unknown")]
    assert "stopped" in record(repo, "droid", lifecycle("droid", "subagent-stop", repo))
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by the parent\n")
    again, _ = materialize("droid", repo, tmp_path / "runtime", tool_use_id="toolu_again")
    record(repo, "droid", again.decode())
    assert [m for m, _ in models(repo)] == ["m-haiku", "m-parent"]
    gone = gh(repo, "uninstall", "--agent", "droid", "--scope", "project")
    assert gone.returncode == 0, gone.stderr
    assert not (repo / ".factory" / "settings.json").exists()  # install created it: removed
