"""Copilot in VS Code (agent mode) records through the files ``install --agent copilot`` and
``install --agent claude-code`` write (SPEC §7 "Hooks"; docs/agents/copilot.md).

VS Code loads ``.github/hooks/*.json`` (``postToolUse`` turned into ``PostToolUse``, ``bash``
run on Linux and macOS) and ``.claude/settings.json``, and hands a hook its own input
(microsoft/vscode-docs docs/agent-customization/hooks.md @ 00a75e33, "Hook file locations",
"Common input fields", "PostToolUse input", FAQ): camelCase ``hookEventName``/``sessionId``,
``tool_name`` ``editFiles`` with ``tool_input.files``, VS Code's tool names such as
``create_file`` and ``replace_string_in_file`` with ``tool_input.filePath``, a ``tool_use_id``
and a ``tool_response`` text. The built-in tool names and ``multi_replace_string_in_file``'s
``replacements[].filePath``: microsoft/vscode-copilot-chat
src/extension/tools/common/toolNames.ts.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import gh, git, write


def vscode_input(repo: Path, tool: str, tool_input: dict[str, Any], call: str) -> str:
    return json.dumps(
        {
            "timestamp": "2026-02-09T10:30:00.000Z",
            "cwd": str(repo),
            "sessionId": "vs-1",
            "hookEventName": "PostToolUse",
            "transcript_path": str(repo.parent / "vs-transcript.json"),
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": call,
            "tool_response": "File edited successfully",
        }
    )


def rows(repo: Path) -> list[tuple[Any, ...]]:
    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT model, effort, source, session_id, tool_call_id, paths FROM pending_mutation"
        ).fetchall()


#: (tool, its input with @ROOT@ for the work tree, the paths recorded)
TOOLS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("editFiles", {"files": ["src/app.py", "src/new.py"]}, ["src/app.py", "src/new.py"]),
    ("replace_string_in_file", {"filePath": "@ROOT@/src/app.py"}, ["src/app.py"]),
    ("create_file", {"filePath": "@ROOT@/src/new.py", "content": "x = 1\n"}, ["src/new.py"]),
    ("insert_edit_into_file", {"filePath": "@ROOT@/src/app.py", "code": "..."}, ["src/app.py"]),
    (
        "multi_replace_string_in_file",
        {"replacements": [{"filePath": "@ROOT@/src/app.py"}, {"filePath": "@ROOT@/src/new.py"}]},
        ["src/app.py", "src/new.py"],
    ),
]


def _filled(value: dict[str, Any], repo: Path) -> dict[str, Any]:
    filled: dict[str, Any] = json.loads(json.dumps(value).replace("@ROOT@", str(repo)))
    return filled


@pytest.mark.parametrize("recorder", ["copilot", "claude-code"])
@pytest.mark.parametrize(("tool", "tool_input", "paths"), TOOLS, ids=[t[0] for t in TOOLS])
def test_a_vscode_agent_edit_records_its_paths_once(
    recorder: str, tool: str, tool_input: dict[str, Any], paths: list[str], repo: Path
) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by copilot\n")
    write(repo / "src" / "new.py", "x = 1\n")
    data = vscode_input(repo, tool, _filled(tool_input, repo), "tool-123")
    for _ in range(2):  # a replayed tool_use_id records once
        proc = gh(repo, "record", "--from", recorder, input=data)
        assert proc.returncode == 0, proc.stderr
    [(model, effort, source, session, call, stored)] = rows(repo)
    assert (source, session, call) == ("copilot", "vs-1", "tool-123")
    assert json.loads(str(stored)) == paths
    assert (model, effort) == ("unknown", "unknown")


def test_copilot_cli_settings_are_not_vscodes_writer(repo: Path, isolated_git: Path) -> None:
    """Copilot CLI's settings name the CLI's model; VS Code's input names none, so a VS Code
    edit is recorded unknown (small), never as the CLI's model; the person's word wins."""
    write(isolated_git / ".copilot" / "settings.json", '{"model": "gpt-5", "effortLevel": "high"}')
    write(repo / "src" / "app.py", "y = 2\n")
    data = vscode_input(repo, "editFiles", {"files": ["src/app.py"]}, "t-1")
    assert gh(repo, "record", "--from", "copilot", input=data).returncode == 0
    assert rows(repo)[0][:2] == ("unknown", "unknown")
    data = vscode_input(repo, "editFiles", {"files": ["src/app.py"]}, "t-2")
    proc = gh(
        repo,
        "record",
        "--from",
        "copilot",
        "--model",
        "claude-opus-4-5",
        "--effort",
        "high",
        input=data,
    )
    assert proc.returncode == 0, proc.stderr
    assert rows(repo)[1][:2] == ("claude-opus-4-5", "high")


def test_vscode_edit_blocks_the_commit_that_takes_it_and_not_a_persons_own(repo: Path) -> None:
    assert gh(repo, "install").returncode == 0
    assert gh(repo, "install", "--agent", "copilot").returncode == 0
    write(repo / "human.txt", "mine\n")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by copilot\n")
    data = vscode_input(repo, "editFiles", {"files": ["src/app.py"]}, "t-9")
    proc = gh(repo, "record", "--from", "copilot", input=data)
    assert proc.returncode == 0 and proc.stderr.startswith("recorded: pending mutation #1: ")
    git(repo, "add", "human.txt")
    own = subprocess.run(["git", "commit", "-q", "-m", "mine"], cwd=repo, capture_output=True)
    assert own.returncode == 0, own.stderr
    git(repo, "add", "src/app.py")
    theirs = subprocess.run(
        ["git", "commit", "-q", "-m", "agent"], cwd=repo, capture_output=True, text=True
    )
    assert theirs.returncode == 1, theirs.stderr
    assert "BLOCKED" in theirs.stderr
