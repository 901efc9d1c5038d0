"""A tool call the runtime reports as failed or denied records nothing (SPEC §3, §7 "Hooks"),
except the files a Codex patch wrote before it failed (it applies file by file).

Such a call wrote nothing: the file holds whatever it held, a person's own edit included.
Recording it would hand that edit to the writer and block the person's own commit. Each row
is the runtime's documented payload (tests/fixtures/agents/) with its documented failure
signal set; the sources are named per row.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.agent_payloads import load, materialize
from tests.conftest import gh, git, write


def _nested(name: str, key: str, **change: Any) -> dict[str, Any]:
    """The fixture's payload member ``key`` with ``change`` applied."""
    member: dict[str, Any] = dict(load(name)["payload"][key])
    member.update(change)
    return member


def _cline_without_success() -> dict[str, Any]:
    """Cline's ``postToolUse`` as ts-proto serialises a thrown failure: ``success`` (false,
    its default) and the empty ``result`` left out."""
    member = _nested("cline", "postToolUse")
    del member["success"], member["result"]
    return member


#: (runtime, payload members replaced, what the one line names). Sources:
#: gemini-cli: google-gemini/gemini-cli packages/core/src/core/coreToolHookTriggers.ts,
#:   fireAfterToolEvent(toolName, toolInput, {llmContent, returnDisplay, error}) after every
#:   call, failed ones too; ToolErrorType "edit_no_occurrence_found" (packages/core/src/tools/
#:   tool-error.ts).
#: copilot: github/docs content/copilot/reference/hooks-configuration.md @ 1912b4fc, "Post-tool
#:   use hook": toolResult.resultType "success", "failure" or "denied"; the VS Code compatible
#:   shape (hooks-reference.md @ 05da5bc3) spells it tool_result.result_type.
#: claude-code / droid / kiro: tool_response as the runtime's PostToolUse input carries it
#:   ({"success": true} in each fixture's documented example), here false.
#: cline: docs.cline.bot hook-reference "PostToolUse": postToolUse.success. Cline serialises
#:   with ts-proto's HookInput.toJSON, which leaves out default values (cline/cline
#:   apps/vscode/src/core/hooks/hook-factory.ts: "Proto3 by default omits ... default values
#:   from toJSON()"), so a thrown failure arrives with no "success" key. A denial or a failed
#:   edit returns normally with success true and the result text of formatResponse.toolDenied
#:   ("The user denied this operation.") or toolError ("The tool execution failed with the
#:   following error:\n<error>\nThe SEARCH block: ...does not match anything in the file.")
#:   (src/core/prompts/responses.ts).
#: pi: earendil-works/pi docs/extensions.md @ 005aeb97, "tool_result": isError.
#: codex: tool_response is any JSON value (post-tool-use.command.input.schema.json); Codex's exec
#:   output reaches it as the model reads it (openai/codex codex-rs/core/src/tools/mod.rs):
#:   format_exec_output_for_model_structured, a JSON string {"output", "metadata":
#:   {"exit_code", "duration_seconds"}} (git-ai-project/git-ai tests/integration codex
#:   preset test carries one as tool_response), or ..._freeform, "Exit code: N\nWall time:
#:   ... seconds\nOutput:\n...". The envelope wrote none of its files (the person's edit of
#:   src/app.py is not its result): nothing recorded; one that wrote some is below.
CODEX_FAILED_TEXT = "Exit code: 2\nWall time: 0.1 seconds\nOutput:\nFailed to find expected lines"
CODEX_FAILED_JSON = json.dumps(
    {"output": "Failed to find expected lines", "metadata": {"exit_code": 1, "duration_seconds": 0}}
)
CODEX_SHELL_PATCH = (
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/app.py\n@@\n"
    "-    return a + b\n+    return a + b  # by codex\n*** End Patch\nEOF\n"
)
FAILED: list[tuple[str, dict[str, Any], str]] = [
    (
        "codex",
        {"tool_response": CODEX_FAILED_JSON},
        "failed (tool_response.metadata.exit_code is 1)",
    ),
    (
        "codex",
        {
            "tool_name": "Bash",
            "tool_input": {"command": CODEX_SHELL_PATCH},
            "tool_response": CODEX_FAILED_TEXT,
        },
        "failed (tool_response says exit code 2)",
    ),
    (
        "gemini-cli",
        {
            "tool_response": {
                "llmContent": "Failed to edit, 0 occurrences found for old_string.",
                "returnDisplay": "Error: could not find the string to replace.",
                "error": {
                    "message": "Failed to edit, 0 occurrences found for old_string.",
                    "type": "edit_no_occurrence_found",
                },
            }
        },
        "failed (tool_response.error: edit_no_occurrence_found)",
    ),
    (
        "copilot",
        {"toolResult": {"resultType": "denied", "textResultForLlm": "Denied by the user."}},
        "was denied (toolResult.resultType denied)",
    ),
    (
        "copilot",
        {"toolResult": {"resultType": "failure", "textResultForLlm": "No match found."}},
        "failed (toolResult.resultType failure)",
    ),
    (
        "claude-code",
        {"tool_response": _nested("claude-code", "tool_response", success=False)},
        "failed (tool_response.success is false)",
    ),
    ("droid", {"tool_response": {"success": False}}, "failed (tool_response.success is false)"),
    ("kiro", {"tool_response": {"success": False}}, "failed (tool_response.success is false)"),
    (
        "cline",
        {"postToolUse": _nested("cline", "postToolUse", success=False)},
        "failed (postToolUse.success is false)",
    ),
    (
        "cline",
        {"postToolUse": _cline_without_success()},
        "failed (postToolUse.success absent: Cline leaves a false one out)",
    ),
    (
        "cline",
        {"postToolUse": _nested("cline", "postToolUse", result="The user denied this operation.")},
        "was denied (postToolUse.result: the user denied this operation)",
    ),
    (
        "cline",
        {
            "postToolUse": _nested(
                "cline",
                "postToolUse",
                result=(
                    "The tool execution failed with the following error:\n<error>\n"
                    "The SEARCH block:\n    return a + b\n...does not match anything in the "
                    "file.\n</error>"
                ),
            )
        },
        "failed (postToolUse.result: the tool execution failed)",
    ),
    ("pi", {"isError": True}, "failed (isError)"),
    ("amp", {"status": "error"}, "failed (status is error)"),
    ("amp", {"status": "cancelled"}, "failed (status is cancelled)"),
]


def _mutations(repo: Path) -> int:
    import sqlite3

    db = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM pending_mutation").fetchone()[0])


def _commit(repo: Path) -> subprocess.CompletedProcess[str]:
    git(repo, "add", "-A")
    return subprocess.run(
        ["git", "commit", "-q", "-m", "human"], cwd=repo, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("name", "change", "phrase"),
    FAILED,
    ids=[f"{n}-{p.split()[-1].strip('()')}" for n, _, p in FAILED],
)
def test_a_failed_or_denied_call_never_turns_a_persons_edit_into_writer_work(
    name: str, change: dict[str, Any], phrase: str, repo: Path, tmp_path: Path
) -> None:
    assert gh(repo, "install").returncode == 0
    # the person edits the very file the failed call named (the tool changed nothing)
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a  # mine\n")
    data, _ = materialize(name, repo, tmp_path / "runtime", **change)
    proc = gh(repo, "record", "--from", name, input=data.decode())
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith("nothing recorded: the "), line
    assert phrase in line and line.endswith(
        "it wrote nothing, so what the file holds is not its work"
    )
    assert _mutations(repo) == 0
    done = _commit(repo)
    assert done.returncode == 0, done.stderr


def test_a_failed_copilot_call_through_the_claude_recorder_records_nothing(repo: Path) -> None:
    """Copilot's VS Code compatible ``PostToolUse`` reaches ``record --from claude-code``
    (.claude/settings.json) and is decoded as Copilot's: its ``tool_result.result_type``
    ``failure`` records nothing either."""
    assert gh(repo, "install").returncode == 0
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a  # mine\n")
    payload = {
        "hook_event_name": "PostToolUse",
        "session_id": "cp-fail",
        "timestamp": "2026-12-02T01:00:00Z",
        "cwd": str(repo),
        "tool_name": "Edit",
        "tool_input": {"path": str(repo / "src" / "app.py")},
        "tool_result": {"result_type": "failure", "text_result_for_llm": "No match found."},
    }
    proc = gh(repo, "record", "--from", "claude-code", input=json.dumps(payload))
    assert proc.returncode == 0, proc.stderr
    assert "failed (tool_result.result_type failure)" in proc.stderr
    assert _mutations(repo) == 0
    assert _commit(repo).returncode == 0


#: An envelope of three files: Codex applies it hunk by hunk and keeps what it wrote before a
#: failure (openai/codex codex-rs/apply-patch/src/lib.rs, apply_hunks_to_files: each AddFile,
#: DeleteFile and UpdateFile is written in turn; an error returns with the earlier writes in
#: place). Here src/new.py was added and src/app.py updated; the hunk of src/other.py did not
#: match ("Failed to find expected lines"), so that file holds what it held.
PART_WAY = (
    "*** Begin Patch\n"
    "*** Add File: src/new.py\n+def sub(a, b):\n+    return a - b\n"
    "*** Update File: src/app.py\n@@\n def add(a, b):\n-    return a + b\n"
    "+    return a + b  # by codex\n"
    "*** Update File: src/other.py\n@@\n-x = 2\n+x = 3\n"
    "*** End Patch\n"
)


@pytest.mark.parametrize("other", ["at-head", "a-persons-edit"])
@pytest.mark.parametrize(
    ("how", "response"),
    [("apply_patch", CODEX_FAILED_JSON), ("shell", CODEX_FAILED_TEXT)],
    ids=["apply_patch", "shell"],
)
def test_a_codex_patch_that_failed_part_way_records_the_files_it_wrote(
    how: str, response: str, other: str, repo: Path, tmp_path: Path
) -> None:
    """The content decides, not the exit status: the files that hold what the patch writes
    there and differ from HEAD are recorded; the one it never reached is not, whether it
    holds HEAD's content or a person's own edit."""
    write(repo / "src" / "other.py", "x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "other")
    assert gh(repo, "install").returncode == 0
    if other == "a-persons-edit":
        write(repo / "src" / "other.py", "x = 1  # mine\n")
    write(repo / "src" / "new.py", "def sub(a, b):\n    return a - b\n")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # by codex\n")
    tool = (
        {"tool_name": "apply_patch", "tool_input": {"command": PART_WAY}}
        if how == "apply_patch"
        else {
            "tool_name": "Bash",
            "tool_input": {"command": f"apply_patch <<'EOF'\n{PART_WAY}EOF\n"},
        }
    )
    data, _ = materialize("codex", repo, tmp_path / "runtime", tool_response=response, **tool)
    proc = gh(repo, "record", "--from", "codex", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    first, note = proc.stderr.strip().splitlines()
    assert first.startswith("recorded: pending mutation #1: "), first
    assert note.startswith(f"note: the {tool['tool_name']} call of Codex CLI failed ("), note
    assert note.endswith(
        "part way: only the files it names that hold what the patch writes there and differ "
        "from HEAD are recorded (the content decides, not the exit status)"
    )
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        paths = sorted(r[0] for r in conn.execute("SELECT path FROM writer_entry"))
    assert paths == ["src/app.py", "src/new.py"]
    blocked = _commit(repo)  # the writer's files are not committed unverified
    assert blocked.returncode == 1, blocked.stderr


def test_a_codex_patch_that_failed_before_writing_records_nothing(
    repo: Path, tmp_path: Path
) -> None:
    """No file the envelope names holds what the patch writes there: nothing is recorded,
    and a person's own edit of a named file stays the person's."""
    assert gh(repo, "install").returncode == 0
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a  # mine\n")
    data, _ = materialize(
        "codex",
        repo,
        tmp_path / "runtime",
        tool_input={"command": PART_WAY},
        tool_response=CODEX_FAILED_JSON,
    )
    proc = gh(repo, "record", "--from", "codex", input=data.decode())
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith("nothing recorded: the apply_patch call of Codex CLI failed ("), line
    assert "no file it names holds what the patch writes there and differs from HEAD" in line
    assert _mutations(repo) == 0
    assert _commit(repo).returncode == 0
