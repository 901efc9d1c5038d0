"""A Copilot subagent's write records the model its custom agent definition declares
(SPEC §7 "Hooks"; seed 000: an inherited model is unknown; docs/agents/copilot.md).

Copilot runs a custom agent as a subagent (``subagentStart`` names it in ``agentName``;
github/docs content/copilot/reference/hooks-reference.md @ 05da5bc3, "subagentStart"). Its
definition is ``.github/agents/NAME.agent.md`` (project) or ``~/.copilot/agents/`` (user, which
wins on a name in both), with ``model:`` in its YAML front matter (github/docs
content/copilot/how-tos/copilot-cli/customize-copilot/create-custom-agents-for-cli.md). VS Code
names the subagent in ``agent_type`` (microsoft/vscode-docs
docs/agent-customization/hooks.md @ 00a75e33, "SubagentStart input").
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import gh, write

SESSION = "5f0c3d1e-2a4b-4c6d-8e0f-1a2b3c4d5e6f"


def definition(model: str, name: str | None = None) -> str:
    named = f"name: {name}\n" if name else ""
    return f"---\n{named}description: Fixes things\nmodel: {model}\n---\n\nYou fix things.\n"


def start(repo: Path, agent: str) -> str:
    return json.dumps(
        {
            "sessionId": SESSION,
            "timestamp": 1704614700000,
            "cwd": str(repo),
            "transcriptPath": "/home/u/.copilot/session-state/5f0c3d1e/events.jsonl",
            "agentName": agent,
        }
    )


def stop(repo: Path, agent: str) -> str:
    return json.dumps(
        {
            "sessionId": SESSION,
            "timestamp": 1704614760000,
            "cwd": str(repo),
            "transcriptPath": "/home/u/.copilot/session-state/5f0c3d1e/events.jsonl",
            "agentId": "agent-7",
            "agentType": "custom",
            "agentName": agent,
            "response": "Done.",
            "stopReason": "end_turn",
        }
    )


def create(repo: Path) -> str:
    write(repo / "src" / "fixed.py", "x = 1\n")
    return json.dumps(
        {
            "sessionId": SESSION,
            "timestamp": 1704614730000,
            "cwd": str(repo),
            "toolName": "create",
            "toolArgs": json.dumps({"path": str(repo / "src" / "fixed.py"), "file_text": "x"}),
            "toolResult": {"resultType": "success", "textResultForLlm": "Created."},
        }
    )


def writers(repo: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        return conn.execute("SELECT model, effort FROM pending_mutation ORDER BY id").fetchall()


def run(repo: Path, data: str) -> str:
    proc = gh(repo, "record", "--from", "copilot", input=data)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


@pytest.mark.parametrize(
    ("files", "expect"),
    [
        # the refuter's case: the project's definition names the subagent's own model
        ({".github/agents/fixer.agent.md": definition("claude-sonnet-4.5")}, "claude-sonnet-4.5"),
        # named by its front matter, whatever the file is called
        ({".github/agents/f.agent.md": definition("gpt-5-mini", "fixer")}, "gpt-5-mini"),
        # the user's definition wins over the repository's
        (
            {
                ".github/agents/fixer.agent.md": definition("claude-sonnet-4.5"),
                "~/.copilot/agents/fixer.agent.md": definition("claude-haiku-4.5"),
            },
            "claude-haiku-4.5",
        ),
        # inherit is the parent's, which is unknown for the child; no definition: a built-in
        ({".github/agents/fixer.agent.md": definition("inherit")}, "unknown"),
        ({}, "unknown"),
    ],
    ids=["project", "front-matter-name", "user-wins", "inherit", "built-in"],
)
def test_a_subagents_write_records_its_declared_model(
    files: dict[str, str], expect: str, repo: Path, isolated_git: Path
) -> None:
    for rel, text in files.items():
        base = isolated_git if rel.startswith("~/") else repo
        write(base / rel.removeprefix("~/"), text)
    # the parent's own model, which the child never takes
    write(repo / ".github" / "copilot" / "settings.json", '{"model": "gpt-5"}\n')
    said = run(repo, start(repo, "fixer"))
    assert f"writes in this session record as {expect}" in said, said
    run(repo, create(repo))
    run(repo, stop(repo, "fixer"))
    assert writers(repo) == [(expect, "unknown")]


def test_vscode_names_the_subagent_in_agent_type(repo: Path) -> None:
    write(repo / ".github" / "agents" / "Plan.agent.md", definition("claude-sonnet-4.5"))
    data = {
        "timestamp": "2026-02-09T10:30:00.000Z",
        "cwd": str(repo),
        "sessionId": SESSION,
        "hookEventName": "SubagentStart",
        "transcript_path": "/t.json",
        "agent_id": "subagent-456",
        "agent_type": "Plan",
    }
    said = run(repo, json.dumps(data))
    assert "Plan of GitHub Copilot" in said and "record as claude-sonnet-4.5" in said, said
