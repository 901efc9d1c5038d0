"""Agent-runtime recorders: Claude Code's PostToolUse JSON and the generic env form."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import gh, write


def hook_json(repo: Path, transcript: Path | None, **extra: object) -> str:
    event = {
        "session_id": "sess-1",
        "cwd": str(repo),
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_use_id": "toolu_01",
        "tool_input": {
            "file_path": str(repo / "src" / "app.py"),
            "old_string": "a",
            "new_string": "b",
        },
        "transcript_path": str(transcript) if transcript else None,
        **extra,
    }
    return json.dumps(event)


def mutations(repo: Path) -> list[tuple[str, ...]]:
    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT model, effort, source, session_id, tool_call_id, paths FROM pending_mutation"
        ).fetchall()


def test_claude_code_post_tool_use(repo: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "message": {"content": "hi"}})
        + "\n"
        + json.dumps({"type": "assistant", "message": {"model": "claude-opus-4-1"}})
        + "\n"
    )
    write(repo / "src" / "app.py", "changed by the writer\n")  # PostToolUse: after the write
    proc = gh(
        repo, "record", "--from", "claude-code", input=hook_json(repo, transcript, effort="high")
    )
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo) == [
        ("claude-opus-4-1", "high", "claude-code", "sess-1", "toolu_01", '["src/app.py"]')
    ]
    env = json.loads(gh(repo, "assess", "--json").stdout)
    assert env["writerProfileSource"] == "runtime"
    assert env["writerProfile"]["profiles"] == [
        {"model": "claude-opus-4-1", "effort": "high", "small": False}
    ]
    assert env["decision"]["applies"] is True


def test_unknown_writer_is_recorded_as_small(repo: Path) -> None:
    write(repo / "src" / "app.py", "changed by the writer\n")
    proc = gh(repo, "record", "--from", "claude-code", input=hook_json(repo, None))
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][:2] == ("unknown", "unknown")
    env = json.loads(gh(repo, "assess", "--json").stdout)
    assert env["writerProfile"] == {
        "small": True,
        "profiles": [{"model": None, "effort": None, "small": True}],
    }


def test_env_form_fills_what_the_hook_lacks(repo: Path) -> None:
    proc = gh(
        repo,
        "record",
        "--from",
        "claude-code",
        input=hook_json(repo, None),
        env={"GENTLE_WRITER_MODEL": "o4-mini", "GENTLE_WRITER_EFFORT": "low"},
    )
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][:2] == ("o4-mini", "low")


def test_generic_env_form_without_adapter(repo: Path) -> None:
    proc = gh(repo, "record", env={"GENTLE_WRITER_MODEL": "gpt-5", "GENTLE_WRITER_EFFORT": "high"})
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][:3] == ("gpt-5", "high", None)


def test_paths_outside_the_repository_are_left_out(repo: Path, tmp_path: Path) -> None:
    event = json.loads(hook_json(repo, None))
    event["tool_input"] = {"file_path": str(tmp_path / "elsewhere.txt")}
    proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(event))
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][5] == "[]"


@pytest.mark.parametrize("stdin", ["", "not json", "[1, 2]", '"text"'])
def test_bad_hook_input_is_one_line_exit_2(repo: Path, stdin: str) -> None:
    proc = gh(repo, "record", "--from", "claude-code", input=stdin)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "record --from claude-code" in proc.stderr
    write(repo / "x", "")
