"""Codex's ``apply_patch`` run through the shell tool records the files its envelope names
(SPEC §6 "pending mutation", §7 "Hooks"; docs/agents/codex.md "What is recorded").

The model may run its patch as a shell command instead of the ``apply_patch`` tool; Codex
applies it all the same (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec/
exec_command.rs`` intercepts it with ``intercept_apply_patch``; the invocations it accepts:
``codex-rs/apply-patch/src/invocation.rs``, ``maybe_parse_apply_patch``: ``apply_patch``
or ``applypatch`` with a heredoc, optionally after ``cd <path> &&``, as the only statement
of a ``bash -lc`` script, or with the envelope as its one argument). Its ``PostToolUse``
input then names the shell tool ``Bash`` (``codex-rs/core/src/tools/hook_names.rs``,
``HookToolName::bash``) with the command as ``tool_input.command``, and the command's output
as ``tool_response`` (``Exit code: 0\\nWall time: ...``: ``codex-rs/core/src/tools/mod.rs``,
``format_exec_output_for_model_freeform``). Every other field is the documented input of
tests/fixtures/agents/codex.json.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, write

ENVELOPE = (
    "*** Begin Patch\n*** Update File: {path}\n@@\n def add(a, b):\n-    return a + b\n"
    "+    return a + b  # by codex\n*** End Patch\n"
)
OK = "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\n"

#: (test id, tool_input.command, tool_response): each an invocation Codex applies.
COMMANDS = [
    ("heredoc", f"apply_patch <<'EOF'\n{ENVELOPE.format(path='src/app.py')}EOF\n", OK),
    ("applypatch-unquoted", f"applypatch <<EOF\n{ENVELOPE.format(path='src/app.py')}EOF", OK),
    ("cd", f"cd src && apply_patch <<'PATCH'\n{ENVELOPE.format(path='app.py')}PATCH\n", OK),
    (
        "structured-output",
        f"apply_patch <<'EOF'\n{ENVELOPE.format(path='src/app.py')}EOF\n",
        json.dumps({"output": "Success.", "metadata": {"exit_code": 0, "duration_seconds": 0.1}}),
    ),
    ("argument", f"apply_patch '{ENVELOPE.format(path='src/app.py')}'", OK),
]


def _mutations(repo: Path) -> list[tuple[object, ...]]:
    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT model, effort, source, tool_call_id, paths FROM pending_mutation"
        ).fetchall()


def _entries(repo: Path) -> list[str]:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        return [r[0] for r in conn.execute("SELECT path FROM writer_entry")]


@pytest.mark.parametrize(
    ("command", "response"), [c[1:] for c in COMMANDS], ids=[c[0] for c in COMMANDS]
)
def test_a_patch_run_through_the_shell_records_the_files_it_names(
    command: str, response: str, repo: Path, tmp_path: Path
) -> None:
    write(repo / "README.md", "# a person's own edit\n")  # never the writer's
    data, filled = materialize(
        "codex",
        repo,
        tmp_path / "runtime",
        tool_name="Bash",
        tool_input={"command": command},
        tool_response=response,
    )
    apply_writes(filled, repo)
    proc = gh(repo, "record", "--from", "codex", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("recorded: pending mutation #1: "), proc.stderr
    [(model, effort, source, call, paths)] = _mutations(repo)
    assert (model, effort, source, call) == ("gpt-5-codex", "low", "codex", "call_abc123")
    assert json.loads(str(paths)) == ["src/app.py"]
    assert _entries(repo) == ["src/app.py"]
    env = json.loads(gh(repo, "assess", "--json").stdout)
    assert env["writerProfileSource"] == "runtime"


@pytest.mark.parametrize(
    "command",
    [
        "sed -i 's/a + b/b + a/' src/app.py",
        # not an invocation Codex applies: a command after the heredoc, a bare envelope
        f"apply_patch <<'EOF'\n{ENVELOPE.format(path='src/app.py')}EOF\necho done\n",
        ENVELOPE.format(path="src/app.py"),
        f"echo apply_patch <<'EOF'\n{ENVELOPE.format(path='src/app.py')}EOF\n",
    ],
    ids=["sed", "trailing-command", "bare-envelope", "echo"],
)
def test_another_shell_command_records_nothing(command: str, repo: Path, tmp_path: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a  # a person's\n")
    data, _ = materialize(
        "codex",
        repo,
        tmp_path / "runtime",
        tool_name="Bash",
        tool_input={"command": command},
        tool_response=OK,
    )
    proc = gh(repo, "record", "--from", "codex", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    # no PreToolUse snapshot was taken before this call: the line says so and names the
    # hook that takes it (with one, tests/e2e/test_shell_runtimes.py records the writes)
    assert proc.stderr.startswith(
        "nothing recorded: the Bash call of Codex CLI runs no apply_patch envelope: its "
        "input names no file it changed, and no snapshot of the work tree from before it "
        "was kept (the PreToolUse hook of Bash takes it"
    ), proc.stderr
    assert "not a file-writing tool" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert _mutations(repo) == []
