"""A runtime's over-long or multi-line model, session id or tool call id never loses the
writer's record (SPEC §6 "pending mutation", §7 "Hooks"; docs/robustness.md).

The hook input and transcripts are the runtime's, not the person's: a model name the ledger
would refuse is recorded as ``unknown`` (so small, seed 000), an id as its SHA-256 (so a
replay still records once), each with one plain note on stderr; the hook exits 0.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.integration.test_hostile_inputs import hostile

LONG = "m" * 300


def _rows(repo: Path) -> list[tuple[str, str | None, str | None]]:
    """(model, session_id, tool_call_id) of every pending mutation, read with sqlite3."""
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if not ledger.exists():
        return []
    with contextlib.closing(sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)) as conn:
        rows = conn.execute("SELECT model, session_id, tool_call_id FROM pending_mutation")
        return [(str(m), s, t) for m, s, t in rows]


def _input(
    name: str, repo: Path, tmp: Path, transcript_model: str | None = None, **override: object
) -> bytes:
    """The runtime's hook input after its write; ``transcript_model`` replaces the model the
    transcript names."""
    data, filled = materialize(name, repo, tmp / "scratch", **override)
    apply_writes(filled, repo)
    if transcript_model is not None:
        transcript = tmp / "scratch" / f"{name}-transcript.jsonl"
        text = transcript.read_text(encoding="utf-8")
        assert filled["expect"]["model"] in text
        transcript.write_text(
            text.replace(json.dumps(filled["expect"]["model"]), json.dumps(transcript_model)),
            encoding="utf-8",
        )
    return data


@pytest.mark.parametrize(
    ("runtime", "where"),
    [
        pytest.param("claude-code", "transcript", id="claude-code-transcript"),
        pytest.param("codex", "payload", id="codex-payload"),
        pytest.param("codex", "transcript", id="codex-turn-context"),
        pytest.param("gemini-cli", "transcript", id="gemini-transcript"),
    ],
)
@pytest.mark.parametrize("model", [LONG, "gpt\nfive"], ids=["too-long", "two-lines"])
def test_an_unusable_runtime_model_is_recorded_as_unknown(
    repo: Path, tmp_path: Path, runtime: str, where: str, model: str
) -> None:
    override: dict[str, object] = {"model": model} if where == "payload" else {}
    if runtime == "codex" and where == "transcript":
        override["model"] = None  # the turn_context line names it
    data = _input(
        runtime,
        repo,
        tmp_path,
        transcript_model=model if where == "transcript" else None,
        **override,
    )
    proc = hostile(repo, "record", "--from", runtime, stdin=data)
    assert proc.returncode == 0, proc.stderr
    [(stored, _, _)] = _rows(repo)
    assert stored == "unknown"
    err = proc.stderr.decode()
    assert "--model" not in err
    assert f"note: the model {runtime} names " in err and "recorded as unknown" in err


@pytest.mark.parametrize(
    ("runtime", "field", "column"),
    [
        pytest.param("claude-code", "session_id", 1, id="claude-code-session"),
        pytest.param("claude-code", "tool_use_id", 2, id="claude-code-tool-call"),
        pytest.param("codex", "tool_use_id", 2, id="codex-tool-call"),
        pytest.param("gemini-cli", "session_id", 1, id="gemini-session"),
    ],
)
def test_an_over_long_runtime_id_is_hashed_and_a_replay_records_once(
    repo: Path, tmp_path: Path, runtime: str, field: str, column: int
) -> None:
    long_id = "i" * 250 + "\tx"
    data = _input(runtime, repo, tmp_path, **{field: long_id})
    first = hostile(repo, "record", "--from", runtime, stdin=data)
    assert first.returncode == 0, first.stderr
    hashed = "sha256:" + hashlib.sha256(long_id.encode()).hexdigest()
    assert f"recorded as {hashed}".encode() in first.stderr
    again = hostile(repo, "record", "--from", runtime, stdin=data)
    assert again.returncode == 0, again.stderr
    [row] = _rows(repo)  # the replay records nothing
    assert row[column] == hashed
    assert b"nothing recorded" in again.stderr


def test_a_person_s_own_over_long_model_flag_is_still_refused(repo: Path, tmp_path: Path) -> None:
    """``--model`` is the person's word: it is checked, and named, as ``record`` checks it."""
    data = _input("codex", repo, tmp_path)
    proc = hostile(repo, "record", "--from", "codex", "--model", LONG, stdin=data)
    assert proc.returncode == 1  # the hook's non-blocking code
    assert b"--model is longer than 200 characters" in proc.stderr
    assert _rows(repo) == []
