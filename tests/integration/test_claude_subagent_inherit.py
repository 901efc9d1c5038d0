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


@pytest.mark.parametrize(
    ("where", "front", "expect"),
    [
        ("project", "model: inherit\n", "unknown"),
        ("project", "", "unknown"),  # no model: Claude Code's default is inherit
        ("user", "model: 'inherit'\n", "unknown"),
        ("project", "model: haiku\n", "claude-opus-4-1"),  # its own: what the transcript says
        (None, "", "claude-opus-4-1"),  # no definition (a built-in): it cannot be told
    ],
    ids=["inherit", "no-model", "user-inherit", "own-model", "no-definition"],
)
def test_an_inheriting_subagent_records_unknown(
    where: str | None, front: str, expect: str, repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    base = {"project": repo, "user": isolated_git}.get(where or "")
    if base is not None:
        write(base / ".claude" / "agents" / "helper.md", f"---\nname: helper\n{front}---\nBody\n")
    data, filled = materialize(
        "claude-code", repo, tmp_path / "runtime", agent_id="c0ffee", agent_type="helper"
    )
    payload = json.loads(data)
    own = Path(payload["transcript_path"]).parent / payload["session_id"] / "subagents"
    write(own / "agent-c0ffee.jsonl", RAN)
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert recorded_model(repo) == expect
