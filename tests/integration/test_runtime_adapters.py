"""``gentle-hook record --from NAME`` on real repositories, driven by each runtime's
documented hook input (tests/fixtures/agents/, sources named there), and the generic env form.

A hook runs after the tool wrote: every test leaves the file as the tool left it, then pipes
the runtime's payload into the real CLI.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.agent_payloads import RUNTIMES, apply_writes, materialize
from tests.conftest import gh, git, write

#: What each runtime's hook prints on standard output (runtimes that parse it get ``{}``).
ACK = {
    "claude-code": "",
    "codex": "",
    "gemini-cli": "{}\n",
    "cursor": "{}\n",
    "copilot": "",
    "windsurf": "",
    "droid": "",
    "cline": "",
    "opencode": "",
    "pi": "",
    "kiro": "",
    "augment": "",
    "amp": "",
}


def mutations(repo: Path) -> list[tuple[object, ...]]:
    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT model, effort, source, session_id, tool_call_id, paths FROM pending_mutation"
        ).fetchall()


def entries(repo: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        return conn.execute("SELECT path, blob, state FROM writer_entry").fetchall()


def blob(repo: Path, rel: str) -> str:
    return git(repo, "hash-object", rel).strip()


@pytest.mark.parametrize("name", RUNTIMES)
def test_documented_payload_records_a_pending_mutation(
    name: str, repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", name, input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ACK[name]
    expect = filled["expect"]
    [(model, effort, source, session, call, paths)] = mutations(repo)
    assert (model, effort, source, session) == (
        expect["model"] or "unknown",
        expect["effort"] or "unknown",
        name,
        expect["session_id"],
    )
    assert json.loads(str(paths)) == expect["paths"]
    if expect["tool_call_id"] == "derived":
        assert str(call).startswith("derived:")
    else:
        assert call == expect["tool_call_id"]
    # the content the writer left is what is attributed (attribution follows content)
    assert entries(repo) == [("src/app.py", blob(repo, "src/app.py"), "open")]
    assert proc.stderr.startswith("recorded: pending mutation #1: ")
    env = json.loads(gh(repo, "assess", "--json").stdout)
    assert env["writerProfileSource"] == "runtime"
    assert env["decision"]["applies"] is True


@pytest.mark.parametrize("name", RUNTIMES)
def test_a_replayed_tool_call_records_once(name: str, repo: Path, tmp_path: Path) -> None:
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    assert gh(repo, "record", "--from", name, input=data.decode()).returncode == 0
    # the human edits the file afterwards; the runtime replays the same hook input
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by a human\n")
    again = gh(repo, "record", "--from", name, input=data.decode())
    assert again.returncode == 0, again.stderr
    call = mutations(repo)[0][4]
    assert again.stderr == (
        f"nothing recorded: tool call {call} of {name} is recorded already (mutation #1): "
        "nothing was recorded again\n"
    )
    assert len(mutations(repo)) == 1
    assert len(entries(repo)) == 1  # the human's content is not attributed to the writer


def test_the_ledger_refuses_a_second_row_for_one_call(repo: Path, tmp_path: Path) -> None:
    data, filled = materialize("claude-code", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    assert gh(repo, "record", "--from", "claude-code", input=data.decode()).returncode == 0
    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with sqlite3.connect(db) as conn, pytest.raises(sqlite3.IntegrityError, match="call_once"):
        conn.execute(
            "INSERT INTO pending_mutation (root, model, effort, source, session_id, "
            "tool_call_id, paths, recorded_at) "
            "VALUES ('r', 'm', 'low', 'claude-code', 'abc123', 'toolu_01ABC123', '[]', 0)"
        )


def test_the_same_call_id_from_another_source_is_another_call(repo: Path) -> None:
    write(repo / "src" / "app.py", "x = 1\n")
    base = ["record", "--model", "m", "--effort", "low", "--tool-call", "c1", "src/app.py"]
    assert gh(repo, *base, "--source", "a").returncode == 0
    write(repo / "src" / "app.py", "x = 2\n")
    assert gh(repo, *base, "--source", "b").returncode == 0
    again = gh(repo, *base, "--source", "b")
    assert again.returncode == 0
    assert [m[2] for m in mutations(repo)] == ["a", "b"]
    assert "recorded already" in again.stderr or "recorded already" in again.stdout


@pytest.mark.parametrize(
    ("name", "override", "why"),
    [
        (
            "claude-code",
            {"tool_name": "Bash", "tool_input": {"command": "sed -i s/a/b/ src/app.py"}},
            "the Bash call of Claude Code ran a shell command: its input names no file it "
            "changed, and no snapshot of the work tree from before it was kept (the PreToolUse "
            "hook of Bash takes it and its line says why it kept none; if it did not run, "
            "install the recorder again), so nothing it changed is "
            "recorded from this call (the commit gate still applies to a commit made in the "
            "Claude Code session, where CLAUDECODE is set, or carrying its Co-Authored-By: "
            "Claude trailer)",
        ),
        ("claude-code", {"tool_name": "Read"}, "Read is not a file-writing tool of Claude Code"),
        (
            "gemini-cli",
            {"tool_name": "run_shell_command", "tool_input": {"command": "sed -i s/a/b/ x"}},
            "the run_shell_command call of Gemini CLI ran a shell command: its input names no "
            "file it changed",
        ),
        ("copilot", {"toolName": "view"}, "view is not a file-writing tool of GitHub Copilot"),
        (
            "cursor",
            {"hook_event_name": "beforeReadFile"},
            "beforeReadFile is not afterFileEdit, the event gentle-hooks records from for Cursor",
        ),
    ],
)
def test_an_event_that_writes_no_file_records_nothing(
    name: str, override: dict[str, object], why: str, repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize(name, repo, tmp_path / "runtime", **override)
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", name, input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(f"nothing recorded: {why}")
    assert mutations(repo) == []


def test_paths_outside_the_repository_record_nothing(repo: Path, tmp_path: Path) -> None:
    write(repo / "README.md", "# dirty, by a human\n")  # never attributed to the writer
    outside = tmp_path / "elsewhere.txt"
    data, _ = materialize(
        "claude-code",
        repo,
        tmp_path / "runtime",
        tool_input={"file_path": str(outside), "content": "x"},
    )
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == f"nothing recorded: no written path lies in {repo}\n"
    assert mutations(repo) == []


def test_outside_any_work_tree_records_nothing(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    data, filled = materialize("cursor", plain, tmp_path / "runtime")
    apply_writes(filled, plain)
    proc = gh(plain, "record", "--from", "cursor", input=data.decode())
    assert (proc.returncode, proc.stdout) == (0, "{}\n")
    assert proc.stderr == f"nothing recorded: {plain} is not in a git work tree\n"


def test_a_subagent_without_its_own_transcript_is_unknown_so_small(
    repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize(
        "claude-code", repo, tmp_path / "runtime", agent_id="sub1", agent_type="Explore"
    )
    apply_writes(filled, repo)
    assert gh(repo, "record", "--from", "claude-code", input=data.decode()).returncode == 0
    assert mutations(repo)[0][:2] == ("unknown", "unknown")
    env = json.loads(gh(repo, "assess", "--json").stdout)
    assert env["writerProfile"]["small"] is True


def test_env_form_fills_what_the_hook_lacks(repo: Path, tmp_path: Path) -> None:
    data, filled = materialize("copilot", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    proc = gh(
        repo,
        "record",
        "--from",
        "copilot",
        input=data.decode(),
        env={"GENTLE_WRITER_MODEL": "gpt-5-mini", "GENTLE_WRITER_EFFORT": "low"},
    )
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][:2] == ("gpt-5-mini", "low")


def test_generic_env_form_without_adapter(repo: Path) -> None:
    proc = gh(repo, "record", env={"GENTLE_WRITER_MODEL": "gpt-5", "GENTLE_WRITER_EFFORT": "high"})
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][:3] == ("gpt-5", "high", None)


def test_a_transcript_that_is_a_fifo_never_hangs_the_hook(repo: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    data, filled = materialize("claude-code", repo, tmp_path / "runtime", transcript_path=str(fifo))
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][0] == "unknown"


@pytest.mark.parametrize("name", RUNTIMES)
@pytest.mark.parametrize("stdin", ["", "not json", "[1, 2]", '"text"', "[" * 5000 + "]" * 5000])
def test_bad_hook_input_is_one_line_and_a_non_blocking_exit(
    name: str, repo: Path, stdin: str
) -> None:
    proc = gh(repo, "record", "--from", name, input=stdin)
    assert proc.returncode == 1  # never 2: the runtime would block on, or hide, its tool result
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert f"record --from {name}" in proc.stderr
    assert proc.stderr.rstrip().endswith("; nothing recorded")
    assert mutations(repo) == []


def test_unknown_runtime_is_a_usage_error(repo: Path) -> None:
    proc = gh(repo, "record", "--from", "no-such-agent", input="{}")
    assert proc.returncode == 2
    assert "'no-such-agent' is not an agent runtime gentle-hooks knows; valid names: " in (
        proc.stderr
    )
    assert len(proc.stderr.splitlines()) == 1 and "nothing recorded" not in proc.stderr


@pytest.mark.parametrize(
    ("typed", "meant", "command"),
    [
        ("claude", "claude-code", ("record", "--from")),
        ("gemini", "gemini-cli", ("record", "--from")),
        ("copilot-cli", "copilot", ("record", "--from")),
        ("Cursor", "cursor", ("record", "--from")),
        ("claud", "claude-code", ("install", "--agent")),
        ("codx", "codex", ("uninstall", "--agent")),
    ],
)
def test_a_mistyped_runtime_lists_the_names_and_suggests_the_closest(
    repo: Path, typed: str, meant: str, command: tuple[str, ...]
) -> None:
    """Bad input is one line and exit 2 (README "Agent runtimes"): the runtime never runs
    a hook with a name we do not know, so a person typed it, and is told what to type."""
    proc = gh(repo, *command, typed, input="{}")
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert f"'{typed}' is not an agent runtime gentle-hooks knows (did you mean {meant}?)" in (
        proc.stderr
    )
    assert "valid names: claude-code, codex, gemini-cli, cursor, copilot" in proc.stderr
    assert mutations(repo) == []


def test_record_from_a_runtime_without_hook_input_is_a_usage_error(repo: Path) -> None:
    proc = gh(repo, "record", "--from", "aider", input="{}")
    assert proc.returncode == 2
    assert "'aider' has no hook input to decode (see docs/agents/aider.md); valid names: " in (
        proc.stderr
    )
    assert "nothing recorded" not in proc.stderr


#: Identifier members of each runtime's input that a lone surrogate escape (invalid Unicode,
#: which JSON parsers accept) may hide in.
SURROGATE_FIELDS = {
    "claude-code": ("session_id", "tool_use_id", "cwd"),
    "codex": ("session_id", "tool_use_id", "model"),
    "gemini-cli": ("session_id", "cwd"),
    "cursor": ("conversation_id", "model"),
    "copilot": ("sessionId", "cwd"),
    "windsurf": ("trajectory_id", "model_name"),
    "droid": ("session_id", "tool_use_id", "cwd"),
    "cline": ("taskId", "timestamp"),
    "opencode": ("sessionID", "callID", "directory"),
    "pi": ("sessionId", "toolCallId", "cwd"),
    "kiro": ("cwd",),
    "augment": ("conversation_id",),
    "amp": ("threadID", "toolUseID", "cwd"),
}


@pytest.mark.parametrize(
    ("name", "key"), [(n, k) for n, keys in SURROGATE_FIELDS.items() for k in keys]
)
def test_a_lone_surrogate_in_an_id_is_an_invalid_field_never_a_crash(
    name: str, key: str, repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    payload = json.loads(data)
    payload[key] = "x\ud800"
    stdin = json.dumps(payload)  # ensure_ascii: the surrogate travels as the escape \ud800
    assert "\\ud800" in stdin
    proc = gh(repo, "record", "--from", name, input=stdin)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    # the writer's content is still attributed (fail closed); no invalid text is stored
    [row] = mutations(repo)
    assert all(v is None or isinstance(v, str) for v in row), row
    assert all("\ud800" not in v for v in row if isinstance(v, str))
    assert entries(repo) == [("src/app.py", blob(repo, "src/app.py"), "open")]
    # a replay of that same input still records once
    write(repo / "src" / "app.py", "x = 'by a human'\n")
    again = gh(repo, "record", "--from", name, input=stdin)
    assert again.returncode == 0, again.stderr
    assert len(mutations(repo)) == 1


@pytest.mark.parametrize("name", RUNTIMES)
def test_a_nul_in_the_written_path_records_nothing_never_a_crash(
    name: str, repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    text = data.decode().replace("src/app.py", "src/app\\u0000.py")
    assert "\\u0000" in text
    proc = gh(repo, "record", "--from", name, input=text)
    assert proc.returncode == 1, proc.stderr  # non-blocking for every runtime
    assert "Traceback" not in proc.stderr and "null byte" not in proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.endswith("; nothing recorded") and f"record --from {name}" in line
    assert mutations(repo) == []


#: A writing call whose path cannot be read, per runtime: the member of the documented
#: payload (tests/fixtures/agents/) replaced, and the phrase naming what was unreadable.
UNREADABLE = {
    "claude-code": ("tool_input", {"file_path": 123}, "tool_input.file_path is a number"),
    "codex": ("tool_input", {"command": 7}, "tool_input names none of"),
    "gemini-cli": ("tool_input", {"file_path": ["a"]}, "tool_input.file_path is a list"),
    "cursor": ("file_path", 5, "the input.file_path is a number"),
    "copilot": ("toolArgs", '{"path": null}', "toolArgs.path is null"),
    "windsurf": ("tool_info", {"file_path": 5}, "tool_info.file_path is a number"),
    "droid": ("tool_input", {"file_path": 123}, "tool_input.file_path is a number"),
    "cline": (
        "postToolUse",
        {"toolName": "write_to_file", "parameters": {"path": 5}, "success": True},
        "postToolUse.parameters.path is a number",
    ),
    "opencode": ("args", {"filePath": 5}, "args.filePath is a number"),
    "pi": ("input", {"path": 5}, "input.path is a number"),
    "kiro": ("tool_input", {"command": "create", "path": 5}, "tool_input.path is a number"),
    "augment": ("tool_input", {"command": "str_replace", "path": 5}, "tool_input.path is a number"),
    # the files Amp's filesModifiedByToolCall named, as our plugin hands them over
    "amp": ("files", [5], "files names no path that can be read"),
}
#: Members also taken out of the payload for that case (None deletes): Auggie's
#: ``file_changes`` would name the path on its own.
UNREADABLE_ALSO: dict[str, dict[str, object]] = {"augment": {"file_changes": None}}


@pytest.mark.parametrize("name", RUNTIMES)
def test_a_write_with_no_readable_path_never_blames_the_dirty_tree(
    name: str, repo: Path, tmp_path: Path
) -> None:
    """A person's own dirty file is never attributed to a writer whose path is unreadable
    (SPEC §3): nothing is recorded, the hook exits non-blocking naming what it could not
    read, and the person's commit passes."""
    assert gh(repo, "install").returncode == 0
    write(repo / "human.txt", "human edit\n")
    key, value, phrase = UNREADABLE[name]
    also = UNREADABLE_ALSO.get(name, {})
    data, filled = materialize(name, repo, tmp_path / "runtime", **{key: value, **also})
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", name, input=data.decode())
    assert proc.returncode == 1, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert phrase in line and line.endswith("; nothing recorded"), line
    assert mutations(repo) == []
    git(repo, "add", "human.txt")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "mine"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


#: Copilot CLI runs the hooks of .claude/settings.json ("Hooks locations") and hands them its
#: own tool arguments (``path``) in the PostToolUse shape, github/docs
#: content/copilot/reference/hooks-reference.md ("Hooks locations"; "postToolUse /
#: PostToolUse" input: hook_event_name, session_id, timestamp, cwd, tool_name, tool_input,
#: tool_result). No tool call id: the same payload piped twice records once.
def test_copilot_input_in_claude_shape_records_its_path_only_and_once(repo: Path) -> None:
    assert gh(repo, "install").returncode == 0
    for agent in ("claude-code", "copilot"):
        assert gh(repo, "install", "--agent", agent).returncode == 0
    write(repo / "human.txt", "human edit\n")
    write(repo / "agent.py", "agent edit\n")
    payload = {
        "hook_event_name": "PostToolUse",
        "session_id": "cp1",
        "timestamp": "2026-12-02T01:00:00Z",
        "cwd": str(repo),
        "tool_name": "Edit",
        "tool_input": {"path": str(repo / "agent.py")},
        "tool_result": {},
    }
    for _ in range(2):
        proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(payload))
        assert proc.returncode == 0, proc.stderr
    [row] = mutations(repo)
    assert json.loads(str(row[5])) == ["agent.py"]
    assert str(row[4]).startswith("derived:")
    git(repo, "add", "human.txt")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "mine"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("name", "pre"),
    [("claude-code", "PreToolUse"), ("codex", "PreToolUse"), ("gemini-cli", "BeforeTool")],
)
def test_a_pre_tool_event_records_nothing_and_leaves_the_call_to_its_post_event(
    name: str, pre: str, repo: Path, tmp_path: Path
) -> None:
    post, filled = materialize(name, repo, tmp_path / "runtime")
    before, _ = materialize(name, repo, tmp_path / "runtime", hook_event_name=pre)
    wired = json.loads(post)["hook_event_name"]
    # the pre-tool hook fires before the file changes
    proc = gh(repo, "record", "--from", name, input=before.decode())
    assert (proc.returncode, proc.stdout) == (0, ACK[name]), proc.stderr
    # Gemini CLI's BeforeTool of a writing tool keeps the file it names (agent_prewrite)
    said = (
        "kept the 1 file(s) the " if name == "gemini-cli" else f"{pre} is not {wired}, the event "
    )
    assert proc.stderr.startswith(f"nothing recorded: {said}"), proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert mutations(repo) == []
    apply_writes(filled, repo)
    done = gh(repo, "record", "--from", name, input=post.decode())
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("recorded: pending mutation #1: ")
    assert entries(repo) == [("src/app.py", blob(repo, "src/app.py"), "open")]


@pytest.mark.parametrize("how", ["flag", "env"])
@pytest.mark.parametrize("name", ["codex", "cursor"])
def test_an_effort_that_is_not_a_level_is_unknown_from_a_hook_and_refused_by_hand(
    name: str, how: str, repo: Path, tmp_path: Path
) -> None:
    """A hook entry's effort that no name of the runtime maps is recorded as ``unknown``
    with one warning line naming it: refusing it would lose the write, and the commit
    would pass. A person's ``record`` without ``--from`` is still refused."""
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    flag = ["--effort", "extreme"] if how == "flag" else []
    env = {"GENTLE_WRITER_EFFORT": "extreme"} if how == "env" else {}
    proc = gh(repo, "record", "--from", name, *flag, input=data.decode(), env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("recorded: pending mutation #1: "), proc.stderr
    [warning] = [line for line in proc.stderr.splitlines() if "'extreme'" in line]
    where = "--effort" if how == "flag" else "GENTLE_WRITER_EFFORT"
    assert warning.startswith(f"note: warning: {where} names effort 'extreme', not one of ")
    assert warning.endswith(": recorded as effort unknown")
    [(_, effort, *_)] = mutations(repo)
    assert effort == "unknown"
    by_hand = gh(repo, "record", "--model", "m", *flag, "src/app.py", env=env)
    assert by_hand.returncode == 2, by_hand.stderr
    assert len(by_hand.stderr.strip().splitlines()) == 1
    assert "unknown effort level 'extreme'" in by_hand.stderr
    assert len(mutations(repo)) == 1


@pytest.mark.parametrize(
    ("name", "given", "expect"),
    [
        ("claude-code", "max", "xhigh"),
        ("claude-code", "MAX", "xhigh"),
        ("codex", "none", "off"),
        ("claude-code", "auto", "unknown"),
        ("claude-code", "none", "unknown"),
        ("codex", "medium-high", "unknown"),
        ("cursor", "max", "unknown"),
    ],
)
def test_a_hook_entrys_effort_is_taken_through_the_runtimes_own_names(
    name: str, given: str, expect: str, repo: Path, tmp_path: Path
) -> None:
    """``GENTLE_WRITER_EFFORT`` in a hook entry maps like the runtime's own effort names
    (Claude Code's ``max`` is ``xhigh``, Codex's ``none`` is ``off``); any other name is
    ``unknown``, warned about once; the write is always recorded."""
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    proc = gh(
        repo, "record", "--from", name, input=data.decode(), env={"GENTLE_WRITER_EFFORT": given}
    )
    assert proc.returncode == 0, proc.stderr
    [(_, effort, *_)] = mutations(repo)
    assert effort == expect
    warnings = [line for line in proc.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == (expect == "unknown")


@pytest.mark.parametrize(
    "extra",
    [
        ["--paths", "src/app.py"],
        ["src/app.py"],
        ["--tool-call", "c1"],
        ["--session", "s1"],
        ["--source", "me"],
    ],
)
def test_from_refuses_what_the_runtime_input_names(
    extra: list[str], repo: Path, tmp_path: Path
) -> None:
    data, filled = materialize("claude-code", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", "claude-code", *extra, input=data.decode())
    assert proc.returncode == 1, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "cannot be combined with --from" in proc.stderr
    assert mutations(repo) == []


@pytest.mark.parametrize("target", [".git/config", ".git", "src", "src/"])
def test_a_path_inside_git_or_a_directory_is_never_a_written_file(
    target: str, repo: Path, tmp_path: Path
) -> None:
    (repo / "src").mkdir(exist_ok=True)
    data, _ = materialize(
        "claude-code",
        repo,
        tmp_path / "runtime",
        tool_input={"file_path": str(repo / target), "content": "x"},
    )
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(f"nothing recorded: no written path lies in {repo}")
    assert target.rstrip("/") in proc.stderr
    assert mutations(repo) == []
    by_hand = gh(repo, "record", "--model", "m", "--effort", "low", target)
    assert by_hand.returncode == 2, by_hand.stderr
    assert len(by_hand.stderr.strip().splitlines()) == 1
    assert mutations(repo) == []


@pytest.mark.parametrize("name", RUNTIMES)
def test_a_recorder_that_cannot_record_exits_non_blocking(
    name: str, repo: Path, tmp_path: Path
) -> None:
    """The ledger is unusable: the tool already wrote, so the hook fails with the code its
    runtime reads as a warning (Gemini CLI's AfterTool exit 2 would hide the tool's
    result, docs/hooks/reference.md), and its one line says nothing was recorded."""
    store = repo / ".git" / "gentle-hooks"
    store.mkdir(parents=True, exist_ok=True)
    (store / "ledger.sqlite3").write_bytes(b"this is not a SQLite database" * 100)
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", name, input=data.decode())
    assert proc.returncode == 1, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith("gentle-hook: error:") and "; nothing recorded" in line
    assert line.endswith("; run: gentle-hook doctor"), line  # its way out, runnable as printed


#: Copilot CLI's settings files, github/docs content/copilot/reference/copilot-cli-reference/
#: cli-config-dir-reference.md @ 03b432e6d532db63f40312771e3ba8212d1995c0 ("Configuration
#: file settings": user, then repository, then local; `model`, `effortLevel` low..xhigh; the
#: files are JSON with comments; COPILOT_HOME replaces ~/.copilot).
@pytest.mark.parametrize(
    ("user", "repo_settings", "local", "env", "expect"),
    [
        ('{"model": "gpt-5.2", "effortLevel": "high"}', None, None, {}, ("gpt-5.2", "high")),
        (
            '{\n  // mine\n  "model": "gpt-5.2",\n  "effortLevel": "high"\n}',
            '{"model": "claude-sonnet-4.5"}',
            None,
            {},
            ("claude-sonnet-4.5", "high"),
        ),
        (
            '{"model": "gpt-5.2"}',
            '{"model": "claude-sonnet-4.5", "effortLevel": "low"}',
            '{"effortLevel": "xhigh"}',
            {},
            ("claude-sonnet-4.5", "xhigh"),
        ),
        ('{"model": "auto", "effortLevel": "max"}', None, None, {}, ("unknown", "unknown")),
        (
            '{"model": "gpt-5.2", "effortLevel": "high"}',
            None,
            None,
            {"GENTLE_WRITER_MODEL": "o4-mini", "GENTLE_WRITER_EFFORT": "low"},
            ("o4-mini", "low"),
        ),
        (None, None, None, {}, ("unknown", "unknown")),
        # COPILOT_MODEL, in the environment Copilot runs its hooks in, is the model the
        # session started with and wins over the files (github/copilot-cli issue 24:
        # "Run COPILOT_MODEL=gpt-5 copilot"); the files' effort still holds; "auto" names
        # no model; GENTLE_WRITER_MODEL (the person's word) wins over it
        (
            '{"model": "claude-sonnet-4.5", "effortLevel": "high"}',
            None,
            None,
            {"COPILOT_MODEL": "gpt-5-mini", "COPILOT_CLI": "1"},
            ("gpt-5-mini", "high"),
        ),
        ('{"model": "gpt-5.2"}', None, None, {"COPILOT_MODEL": "auto"}, ("unknown", "unknown")),
        (
            '{"model": "gpt-5.2"}',
            None,
            None,
            {"COPILOT_MODEL": "gpt-5-mini", "GENTLE_WRITER_MODEL": "o4-mini"},
            ("o4-mini", "unknown"),
        ),
        # a number past Python's 4,300-digit limit: that file is passed over, not a crash
        (
            '{"model": "gpt-5.2", "effortLevel": "high"}',
            '{"model": "m", "effortLevel": ' + "9" * 5000 + "}",
            None,
            {},
            ("gpt-5.2", "high"),
        ),
    ],
)
def test_copilot_model_and_effort_come_from_its_settings_files(
    user: str | None,
    repo_settings: str | None,
    local: str | None,
    env: dict[str, str],
    expect: tuple[str, str],
    repo: Path,
    tmp_path: Path,
) -> None:
    copilot_home = tmp_path / "copilot-home"
    copilot_home.mkdir()
    if user is not None:
        (copilot_home / "settings.json").write_text(user)
    for name, body in (("settings.json", repo_settings), ("settings.local.json", local)):
        if body is not None:
            (repo / ".github" / "copilot").mkdir(parents=True, exist_ok=True)
            (repo / ".github" / "copilot" / name).write_text(body)
    data, filled = materialize("copilot", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    run_env = {"COPILOT_HOME": str(copilot_home), "HOME": str(tmp_path), **env}
    run_env.setdefault("GENTLE_WRITER_MODEL", "")
    run_env.setdefault("GENTLE_WRITER_EFFORT", "")
    run_env.setdefault("COPILOT_MODEL", "")
    proc = gh(repo, "record", "--from", "copilot", input=data.decode(), env=run_env)
    assert proc.returncode == 0, proc.stderr
    [(model, effort, *_)] = mutations(repo)
    assert (model, effort) == expect


#: Claude Code's effort when its hook input names none: ``$CLAUDE_EFFORT`` (anthropics/
#: claude-code CHANGELOG.md 2.1.133: "Hooks now receive the active effort level via the
#: `effort.level` JSON input field and the `$CLAUDE_EFFORT` environment variable"), then
#: ``CLAUDE_CODE_EFFORT_LEVEL`` and the ``effortLevel`` setting (code.claude.com/docs/en/
#: model-config, "Adjust effort level"); user, then project, then local settings.
@pytest.mark.parametrize(
    ("payload", "env", "user", "project", "local", "expect"),
    [
        ({"level": "low"}, {"CLAUDE_EFFORT": "max"}, None, None, None, "low"),
        (None, {"CLAUDE_EFFORT": "max"}, None, None, None, "xhigh"),
        (
            None,
            {"CLAUDE_CODE_EFFORT_LEVEL": "medium"},
            '{"effortLevel": "low"}',
            None,
            None,
            "medium",
        ),
        (None, {}, '{"effortLevel": "low"}', '{"effortLevel": "high"}', None, "high"),
        (
            None,
            {},
            '{"effortLevel": "low"}',
            '{"effortLevel": "high"}',
            '{"effortLevel": "xhigh"}',
            "xhigh",
        ),
        (
            None,
            {"CLAUDE_CODE_EFFORT_LEVEL": "auto"},
            '{"effortLevel": "high"}',
            None,
            None,
            "unknown",
        ),
        (None, {}, '{"effortLevel": "turbo"}', None, None, "unknown"),
        (None, {}, "{not json", None, None, "unknown"),
        (None, {"CLAUDE_EFFORT": "high", "GENTLE_WRITER_EFFORT": "low"}, None, None, None, "low"),
    ],
)
def test_claude_code_effort_comes_from_its_input_environment_or_settings(
    payload: object,
    env: dict[str, str],
    user: str | None,
    project: str | None,
    local: str | None,
    expect: str,
    repo: Path,
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    for where, body in ((home, user), (repo, project)):
        if body is not None:
            (where / ".claude").mkdir(parents=True, exist_ok=True)
            (where / ".claude" / "settings.json").write_text(body)
    if local is not None:
        (repo / ".claude").mkdir(exist_ok=True)
        (repo / ".claude" / "settings.local.json").write_text(local)
    data, filled = materialize("claude-code", repo, tmp_path / "runtime", effort=payload)
    apply_writes(filled, repo)
    run_env = {"HOME": str(home), **env}
    for name in ("GENTLE_WRITER_EFFORT", "CLAUDE_EFFORT", "CLAUDE_CODE_EFFORT_LEVEL"):
        run_env.setdefault(name, "")
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode(), env=run_env)
    assert proc.returncode == 0, proc.stderr
    [(model, effort, *_)] = mutations(repo)
    assert effort == expect
    assert model == filled["expect"]["model"]  # the model is the transcript's, never the settings'


@pytest.mark.parametrize("name", RUNTIMES)
def test_a_write_in_another_repository_records_there(name: str, repo: Path, tmp_path: Path) -> None:
    """An agent working in one repository that writes a file of another (Claude Code's
    ``--add-dir``, a second workspace root) records the write in the repository that holds
    the file, never in the session's, and never drops it."""
    session = tmp_path / "session"
    session.mkdir()
    git(session, "init", "-q")
    write(session / "README.md", "# session\n")
    git(session, "add", "README.md")
    git(session, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "one")
    data, filled = materialize(name, repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    payload = json.loads(data)
    if name == "cursor":
        payload["workspace_roots"] = [str(session)]
    else:
        payload["cwd"] = str(session)
    text = json.dumps(payload)
    if name == "codex":  # its patch names the file relative to cwd: name it absolutely
        text = text.replace("Update File: src/app.py", f"Update File: {repo}/src/app.py")
    proc = gh(session, "record", "--from", name, input=text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("recorded: pending mutation #1: "), proc.stderr
    [row] = mutations(repo)
    assert json.loads(str(row[5])) == ["src/app.py"]
    assert entries(repo) == [("src/app.py", blob(repo, "src/app.py"), "open")]
    assert mutations(session) == []


@pytest.mark.parametrize("name", ["codex", "claude-code"])
def test_a_relative_path_from_a_cwd_outside_any_repository_records_in_its_repository(
    name: str, repo: Path, tmp_path: Path
) -> None:
    """An agent started in a plain directory holding repositories (cwd ``/x``, file
    ``repoA/src/a.py``) names its written path relative to that cwd: the path is resolved
    against the cwd and its repository found from the file, as an absolute path's is."""
    assert not (tmp_path / ".git").exists()
    data, filled = materialize(name, repo, tmp_path / "runtime", cwd=str(tmp_path))
    apply_writes(filled, repo)
    text = data.decode()
    if name == "codex":
        text = text.replace("Update File: src/app.py", "Update File: repo/src/app.py")
    else:
        text = text.replace(json.dumps(str(repo / "src" / "app.py"))[1:-1], "repo/src/app.py")
    assert "repo/src/app.py" in text
    proc = gh(tmp_path, "record", "--from", name, input=text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("recorded: pending mutation #1: "), proc.stderr
    [row] = mutations(repo)
    assert json.loads(str(row[5])) == ["src/app.py"]
    assert entries(repo) == [("src/app.py", blob(repo, "src/app.py"), "open")]


#: Copilot runs the hooks of ``.claude/settings.json`` too, handing them its VS Code
#: compatible ``PostToolUse`` input (hook_event_name, session_id, timestamp as ISO 8601, cwd,
#: tool_name, tool_input, tool_result), while its own ``.github/hooks`` entry gets the
#: camelCase ``postToolUse`` input (timestamp in Unix ms, toolName, toolArgs): github/docs
#: content/copilot/reference/hooks-reference.md @ 05da5bc3c1401734f1197ba6a620e2ed4f1b30e1.
#: VS Code's agent hooks name ``sessionId``/``hookEventName`` (microsoft/vscode #301152).
COPILOT_SESSION = "7b1e2c3d-0000-4000-8000-00000000c0de"


def _copilot_inputs(repo: Path) -> tuple[dict[str, object], dict[str, object]]:
    args = {"path": str(repo / "src" / "app.py"), "old_str": "a + b\n", "new_str": "b + a\n"}
    camel = {
        "sessionId": COPILOT_SESSION,
        "timestamp": 1764637200123,
        "cwd": str(repo),
        "toolName": "edit",
        "toolArgs": json.dumps(args),
        "toolResult": {"resultType": "success", "textResultForLlm": "ok"},
    }
    pascal = {
        "hook_event_name": "PostToolUse",
        "session_id": COPILOT_SESSION,
        "timestamp": "2025-12-02T01:00:00.123Z",
        "cwd": str(repo),
        "tool_name": "Edit",
        "tool_input": args,
        "tool_result": {"result_type": "success", "text_result_for_llm": "ok"},
    }
    return camel, pascal


def _claude_effort_everywhere(repo: Path, tmp_path: Path) -> dict[str, str]:
    """Claude Code's effort set in every place it is read, and Copilot's own settings."""
    write(repo / ".claude" / "settings.json", '{"effortLevel": "low"}\n')
    copilot_home = tmp_path / "copilot-home"
    write(copilot_home / "settings.json", '{"model": "gpt-5.2", "effortLevel": "high"}\n')
    return {
        "HOME": str(tmp_path),
        "COPILOT_HOME": str(copilot_home),
        "CLAUDE_EFFORT": "low",
        "CLAUDE_CODE_EFFORT_LEVEL": "low",
        "GENTLE_WRITER_MODEL": "",
        "GENTLE_WRITER_EFFORT": "",
    }


def test_copilot_input_through_the_claude_recorder_is_recorded_as_copilot(
    repo: Path, tmp_path: Path
) -> None:
    env = _claude_effort_everywhere(repo, tmp_path)
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    _, pascal = _copilot_inputs(repo)
    proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(pascal), env=env)
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stderr
    [(model, effort, source, session, _call, paths)] = mutations(repo)
    assert (model, effort, source, session) == ("gpt-5.2", "high", "copilot", COPILOT_SESSION)
    assert json.loads(str(paths)) == ["src/app.py"]


@pytest.mark.parametrize(
    "marker",
    [
        {"sessionId": COPILOT_SESSION, "hookEventName": "PostToolUse", "tool_response": {}},
        {"env": "COPILOT_AGENT_SESSION_ID"},
        {"env": "COPILOT_CLI"},
    ],
    ids=["vscode-shape", "copilot-session-env", "copilot-cli-env"],
)
def test_a_copilot_marker_in_the_claude_recorder_never_records_claude_effort(
    marker: dict[str, object], repo: Path, tmp_path: Path
) -> None:
    env = _claude_effort_everywhere(repo, tmp_path)
    write(repo / ".github" / "copilot" / "settings.json", '{"effortLevel": "medium"}\n')
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    payload = {
        "session_id": COPILOT_SESSION,
        "timestamp": "2025-12-02T01:00:00.123Z",
        "cwd": str(repo),
        "tool_name": "Edit",
        "tool_input": {"file_path": str(repo / "src" / "app.py")},
        "tool_response": {},
    }
    if "env" in marker:
        env[str(marker["env"])] = "1"
    else:
        del payload["session_id"]
        payload.update(marker)
    proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(payload), env=env)
    assert proc.returncode == 0, proc.stderr
    [(model, effort, source, session, *_)] = mutations(repo)
    # VS Code's own input names no writer, and Copilot CLI's settings are not VS Code's
    # (microsoft/vscode-docs docs/agent-customization/hooks.md): unknown, never Claude's
    writer = ("unknown", "unknown") if "env" not in marker else ("gpt-5.2", "medium")
    assert (model, effort, source, session) == (*writer, "copilot", COPILOT_SESSION)


def test_a_claude_code_input_under_copilot_variables_stays_claude_code(
    repo: Path, tmp_path: Path
) -> None:
    """Claude Code's own input (it sends ``permission_mode``) is Claude Code's even when a
    Copilot variable leaked into its environment."""
    env = {**_claude_effort_everywhere(repo, tmp_path), "COPILOT_CLI": "1"}
    data, filled = materialize("claude-code", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    assert "permission_mode" in json.loads(data)
    proc = gh(repo, "record", "--from", "claude-code", input=data.decode(), env=env)
    assert proc.returncode == 0, proc.stderr
    assert mutations(repo)[0][2] == "claude-code"


def test_one_copilot_tool_call_through_both_recorders_is_stored_once(
    repo: Path, tmp_path: Path
) -> None:
    env = _claude_effort_everywhere(repo, tmp_path)
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    camel, pascal = _copilot_inputs(repo)
    first = gh(repo, "record", "--from", "copilot", input=json.dumps(camel), env=env)
    assert first.returncode == 0, first.stderr
    second = gh(repo, "record", "--from", "claude-code", input=json.dumps(pascal), env=env)
    assert second.returncode == 0, second.stderr
    assert "recorded already" in second.stderr
    [(model, effort, source, *_)] = mutations(repo)
    assert (model, effort, source) == ("gpt-5.2", "high", "copilot")
    # a later call of the same tool on the same file is another call, recorded
    later = {**camel, "timestamp": 1764637260000}
    third = gh(repo, "record", "--from", "copilot", input=json.dumps(later), env=env)
    assert third.returncode == 0, third.stderr
    assert len(mutations(repo)) == 2


#: Cursor loads Claude Code's hook files too ("Third Party Hooks", cursor.com/docs/reference/
#: third-party-hooks.md: .claude/settings.local.json, .claude/settings.json,
#: ~/.claude/settings.json), handing them its own input with its common fields
#: (conversation_id, generation_id, model, cursor_version...).
def test_cursor_input_through_the_claude_recorder_is_recorded_as_cursor_once(
    repo: Path, tmp_path: Path
) -> None:
    env = _claude_effort_everywhere(repo, tmp_path)
    data, filled = materialize("cursor", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    via_claude = gh(repo, "record", "--from", "claude-code", input=data.decode(), env=env)
    assert (via_claude.returncode, via_claude.stdout) == (0, ""), via_claude.stderr
    own = gh(repo, "record", "--from", "cursor", input=data.decode(), env=env)
    assert own.returncode == 0 and "recorded already" in own.stderr, own.stderr
    [(model, effort, source, *_)] = mutations(repo)
    assert (model, effort, source) == (
        filled["expect"]["model"] or "unknown",
        "unknown",
        "cursor",
    )


def test_a_cursor_tool_event_through_the_claude_recorder_is_left_to_cursors_hook(
    repo: Path, tmp_path: Path
) -> None:
    env = _claude_effort_everywhere(repo, tmp_path)
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    payload = {
        "conversation_id": "c1",
        "generation_id": "g1",
        "model": "claude-4.5-sonnet",
        "hook_event_name": "postToolUse",
        "cursor_version": "2.3.0",
        "workspace_roots": [str(repo)],
        "tool_name": "Edit",
        "tool_input": {"file_path": str(repo / "src" / "app.py")},
    }
    proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(payload), env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("nothing recorded: postToolUse is not afterFileEdit")
    assert "Cursor ran the hooks of claude-code" in proc.stderr
    assert mutations(repo) == []


def test_the_same_kiro_edit_in_two_sessions_records_twice(repo: Path, tmp_path: Path) -> None:
    data, filled = materialize("kiro", repo, tmp_path / "runtime", session_id="sess_a")
    apply_writes(filled, repo)
    assert gh(repo, "record", "--from", "kiro", input=data.decode()).returncode == 0
    other, _ = materialize("kiro", repo, tmp_path / "runtime", session_id="sess_b")
    again = gh(repo, "record", "--from", "kiro", input=other.decode())
    assert again.returncode == 0, again.stderr
    assert again.stderr.startswith("recorded: pending mutation #2: "), again.stderr
    assert [m[3] for m in mutations(repo)] == ["sess_a", "sess_b"]
