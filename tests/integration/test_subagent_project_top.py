"""A subagent's write records the child's model, never the parent's, wherever the session's
working directory is: the runtimes' project definitions are looked up from the repository's
top when the hook's ``cwd`` is a subdirectory (it follows ``cd``), and a subagent start in a
folder of repositories, or one of several workspace roots, keeps its marker where the later
writes look (SPEC §7 "Hooks"; seed 000: an inherited model is unknown). Real repositories,
the real CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from gentle_hooks.services import agent_subagents
from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, run_git, write

FIXTURES = Path(__file__).parent.parent / "fixtures" / "agents" / "subagents.json"
ROWS = json.loads(FIXTURES.read_text(encoding="utf-8"))["rows"]


def models(repo: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        rows = conn.execute("SELECT model, effort FROM pending_mutation ORDER BY id").fetchall()
    return [tuple(r) for r in rows]


def lifecycle(name: str, which: str) -> dict[str, object]:
    [row] = [r for r in ROWS if r["runtime"] == name and r["expect"]["lifecycle"] == which][:1]
    return dict(row["payload"])


def record(where: Path, name: str, data: object) -> str:
    proc = gh(where, "record", "--from", name, input=json.dumps(data))
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def test_claude_code_inheriting_subagent_in_a_subdirectory_is_unknown(
    repo: Path, tmp_path: Path
) -> None:
    """The refuter's repro: ``cwd`` a subdirectory, the definition at the repository's top."""
    write(repo / ".claude" / "agents" / "helper.md", "---\nname: helper\nmodel: inherit\n---\nb\n")
    (repo / "sub").mkdir()
    data, filled = materialize(
        "claude-code", repo, tmp_path / "runtime", agent_id="ag1", agent_type="helper"
    )
    payload = json.loads(data)
    payload["cwd"] = str(repo / "sub")
    ran = json.dumps({"type": "assistant", "message": {"model": "claude-opus-4-5"}}) + "\n"
    own = Path(payload["transcript_path"]).parent / payload["session_id"] / "subagents"
    write(own / "agent-ag1.jsonl", ran)
    apply_writes(filled, repo)
    record(repo / "sub", "claude-code", payload)
    assert [m for m, _ in models(repo)] == ["unknown"]


def test_claude_code_reads_the_definitions_of_claude_project_dir(
    repo: Path, tmp_path: Path
) -> None:
    """``cwd`` outside the repository (an added directory): ``$CLAUDE_PROJECT_DIR`` names
    the project whose definitions apply."""
    write(repo / ".claude" / "agents" / "helper.md", "---\nname: helper\nmodel: inherit\n---\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data, filled = materialize(
        "claude-code", repo, tmp_path / "runtime", agent_id="ag1", agent_type="helper"
    )
    payload = json.loads(data)
    payload["cwd"] = str(elsewhere)
    ran = json.dumps({"type": "assistant", "message": {"model": "claude-opus-4-5"}}) + "\n"
    own = Path(payload["transcript_path"]).parent / payload["session_id"] / "subagents"
    write(own / "agent-ag1.jsonl", ran)
    apply_writes(filled, repo)
    env = {"CLAUDE_PROJECT_DIR": str(repo)}
    proc = gh(elsewhere, "record", "--from", "claude-code", input=json.dumps(payload), env=env)
    assert proc.returncode == 0, proc.stderr
    assert [m for m, _ in models(repo)] == ["unknown"]


def test_gemini_definition_at_the_top_names_the_model_from_a_subdirectory(
    repo: Path, tmp_path: Path
) -> None:
    """Gemini CLI's ``.gemini/agents/*.md`` at the repository's top is found when the hook's
    ``cwd`` is a subdirectory (geminicli.com docs/core/subagents: project subagents live in
    the project's ``.gemini/agents/``)."""
    write(
        repo / ".gemini" / "agents" / "quick-fixer.md",
        "---\nname: quick-fixer\nkind: local\nmodel: gemini-2.5-flash-lite\n---\nFix bugs.\n",
    )
    (repo / "sub").mkdir()
    data, filled = materialize("gemini-cli", repo, tmp_path / "runtime")
    payload = json.loads(data)
    payload["cwd"] = str(repo / "sub")
    # the parent's call to the subagent has not finished: the write is the subagent's
    pending = {"id": "q1", "name": "quick-fixer", "args": {}, "status": "executing"}
    turn = {"id": "m2", "type": "gemini", "model": "gemini-2.5-pro", "toolCalls": [pending]}
    write(Path(payload["transcript_path"]), json.dumps(turn) + "\n")
    apply_writes(filled, repo)
    record(repo / "sub", "gemini-cli", payload)
    assert [m for m, _ in models(repo)] == ["gemini-2.5-flash-lite"]


def test_copilot_definition_at_the_top_names_the_model_from_a_subdirectory(repo: Path) -> None:
    write(repo / ".github" / "agents" / "code-review.agent.md", "---\nmodel: m-own\n---\nb\n")
    (repo / "sub").mkdir()
    start = {**lifecycle("copilot", "subagent-start"), "cwd": str(repo / "sub")}
    said = record(repo / "sub", "copilot", start)
    assert "writes in this session record as m-own" in said, said


def test_droid_definition_at_the_top_names_the_model_from_a_subdirectory(repo: Path) -> None:
    write(repo / ".factory" / "droids" / "reviewer.md", "---\nname: reviewer\nmodel: m-own\n---\n")
    (repo / "sub").mkdir()
    start = {**lifecycle("droid", "subagent-start"), "cwd": str(repo / "sub")}
    said = record(repo / "sub", "droid", start)
    assert "writes in this session record as m-own" in said, said


def _second_repo(where: Path) -> Path:
    where.mkdir()
    run_git(where, "init", "-q")
    write(where / "README.md", "# other\n")
    run_git(where, "add", ".")
    run_git(where, "commit", "-qm", "init")
    return where


def _live(repo: Path, name: str, session: str) -> int:
    return len(agent_subagents.running(str(repo / ".git"), name, session))


@pytest.mark.parametrize("layout", ["two-roots", "folder-of-repositories"])
def test_cursor_subagent_write_in_any_workspace_root_is_unknown(
    layout: str, repo: Path, tmp_path: Path
) -> None:
    other = _second_repo(tmp_path / "other")
    roots = [str(repo), str(other)] if layout == "two-roots" else [str(tmp_path)]
    start = {**lifecycle("cursor", "subagent-start"), "workspace_roots": roots}
    session = str(start["conversation_id"])
    said = record(tmp_path, "cursor", start)
    assert "started" in said, said
    write(other / "made.py", "x = 1\n")
    edit = {
        **start,
        "hook_event_name": "afterFileEdit",
        "generation_id": "gen-2",
        "file_path": str(other / "made.py"),
        "edits": [{"old_string": "", "new_string": "x = 1\n"}],
    }
    record(tmp_path, "cursor", edit)
    assert models(other) == [("unknown", "unknown")]  # never the composer's model
    stop = {**lifecycle("cursor", "subagent-stop"), "workspace_roots": roots}
    assert "stopped: writes" in record(tmp_path, "cursor", stop)
    assert _live(repo, "cursor", session) == _live(other, "cursor", session) == 0


def test_copilot_subagent_started_in_a_folder_of_repositories_is_unknown(
    repo: Path, tmp_path: Path
) -> None:
    write(repo / ".github" / "copilot" / "settings.json", '{"model": "gpt-5"}\n')
    start = {**lifecycle("copilot", "subagent-start"), "cwd": str(tmp_path)}
    said = record(tmp_path, "copilot", start)
    assert "started" in said, said
    write(repo / "src" / "made.py", "x = 1\n")
    create = {
        "sessionId": start["sessionId"],
        "timestamp": 1704614730000,
        "cwd": str(tmp_path),
        "toolName": "create",
        "toolArgs": json.dumps({"path": str(repo / "src" / "made.py"), "file_text": "x"}),
        "toolResult": {"resultType": "success", "textResultForLlm": "Created."},
    }
    record(tmp_path, "copilot", create)
    assert models(repo) == [("unknown", "unknown")]  # never the settings' gpt-5
    stop = {**lifecycle("copilot", "subagent-stop"), "cwd": str(tmp_path)}
    assert "stopped: writes" in record(tmp_path, "copilot", stop)
    assert _live(repo, "copilot", str(start["sessionId"])) == 0
