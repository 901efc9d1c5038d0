"""A Claude Code subagent whose definition runs it on the parent's model (``model:
inherit``, or no ``model:``, Claude Code's default) records its model as unknown, so small,
even though its own transcript names the model that ran (SPEC §7 "Hooks": an inherited
model is unknown; docs/agents/claude-code.md). Real repositories, the real CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, write

#: The subagent's own transcript names the model that ran: the parent's, when it inherits.
RAN = json.dumps({"type": "assistant", "message": {"model": "claude-opus-4-1"}}) + "\n"


def recorded_model(repo: Path) -> object:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        [(model,)] = conn.execute("SELECT model FROM pending_mutation").fetchall()
    return model


def _record_as(repo: Path, tmp_path: Path, agent_type: str) -> object:
    """Record a Write by subagent ``agent_type`` whose own transcript names the model that
    ran (:data:`RAN`); the model recorded."""
    data, filled = materialize(
        "claude-code", repo, tmp_path / "runtime", agent_id="c0ffee", agent_type=agent_type
    )
    payload = json.loads(data)
    own = Path(payload["transcript_path"]).parent / payload["session_id"] / "subagents"
    write(own / "agent-c0ffee.jsonl", RAN)
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    return recorded_model(repo)


@pytest.mark.parametrize(
    ("where", "front", "expect"),
    [
        ("project", "model: inherit\n", "unknown"),
        ("project", "", "unknown"),  # no model: Claude Code's default is inherit
        ("user", "model: 'inherit'\n", "unknown"),
        ("project", "model: haiku\n", "claude-opus-4-1"),  # its own: what the transcript says
        # no definition and not a built-in: it may inherit, so its model is not known
        (None, "", "unknown"),
    ],
    ids=["inherit", "no-model", "user-inherit", "own-model", "no-definition"],
)
def test_an_inheriting_subagent_records_unknown(
    where: str | None, front: str, expect: str, repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    base = {"project": repo, "user": isolated_git}.get(where or "")
    if base is not None:
        write(base / ".claude" / "agents" / "helper.md", f"---\nname: helper\n{front}---\nBody\n")
    assert _record_as(repo, tmp_path, "helper") == expect


@pytest.mark.parametrize(
    ("definition", "agent_type", "expect"),
    [
        # Claude Code names a subagent by its front matter's name:, not its file's name
        (
            ("writer.md", "---\nname: code-writer\nmodel: inherit\n---\nBody\n"),
            "code-writer",
            "unknown",
        ),
        (
            ("writer.md", "---\nname: code-writer\nmodel: haiku\n---\nBody\n"),
            "code-writer",
            "claude-opus-4-1",
        ),
        # a file named as the type but naming another subagent is not its definition: none is
        # read, so whether it inherits cannot be told
        (
            ("code-writer.md", "---\nname: other\nmodel: inherit\n---\nBody\n"),
            "code-writer",
            "unknown",
        ),
        # the built-ins that run on the main conversation's model (docs, "Built-in subagents")
        (None, "general-purpose", "unknown"),
        (None, "Plan", "unknown"),
        (None, "Explore", "claude-opus-4-1"),  # its own model (Haiku): what the transcript says
        # a definition of the built-in's name wins over the built-in
        (
            ("gp.md", "---\nname: general-purpose\nmodel: sonnet\n---\nBody\n"),
            "general-purpose",
            "claude-opus-4-1",
        ),
    ],
    ids=[
        "named-inherit",
        "named-own",
        "file-name-only",
        "general-purpose",
        "plan",
        "explore",
        "redefined",
    ],
)
def test_a_subagent_is_found_by_its_name_or_as_a_built_in(
    definition: tuple[str, str] | None,
    agent_type: str,
    expect: str,
    repo: Path,
    tmp_path: Path,
) -> None:
    if definition is not None:
        write(repo / ".claude" / "agents" / definition[0], definition[1])
    assert _record_as(repo, tmp_path, agent_type) == expect


@pytest.mark.parametrize(
    "agent_type",
    # code.claude.com/docs/en/sub-agents: subagents a plugin ships (its agents/ directory,
    # named "<plugin>:<agent>" in /agents) and ones defined for one session with the
    # --agents JSON flag have no .claude/agents/*.md file the recorder can read
    ["code-reviewer:security", "session-helper"],
    ids=["plugin", "agents-flag"],
)
def test_a_subagent_without_a_readable_definition_records_unknown_and_says_so(
    agent_type: str, repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize(
        "claude-code", repo, tmp_path / "runtime", agent_id="c0ffee", agent_type=agent_type
    )
    payload = json.loads(data)
    own = Path(payload["transcript_path"]).parent / payload["session_id"] / "subagents"
    write(own / "agent-c0ffee.jsonl", RAN)  # what ran: the parent's model, if it inherits
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert recorded_model(repo) == "unknown"
    lines = proc.stderr.splitlines()
    assert lines[0] == "recorded: pending mutation #1: unknown/unknown via claude-code, 1 path(s)"
    assert lines[1:] == [
        f"note: subagent '{agent_type}' of Claude Code has no definition gentle-hooks can read "
        "(.claude/agents/*.md of the project or the user; a plugin's subagent or one given "
        "with --agents is not read), so whether it runs on its own model or the parent's "
        "cannot be told: its model is recorded as unknown"
    ]
