"""An agent session opened in a directory above the repository (its ``cwd`` the parent of the
work tree; the agent writes ``work/src/calc.py`` by a relative path): each written path is
recorded in the repository that holds it, found from the path's own directory, and a path in
no repository is ignored (SPEC §3 "Attribution follows content", §7 "Hooks"). Issue 17, h17f.

Claude Code's documented hook inputs (code.claude.com/docs/en/hooks, "PreToolUse input",
"PostToolUse input": ``Write`` with ``tool_input.file_path``, ``Bash`` with
``tool_input.command``; built by :mod:`tests.e2e.claude_bash`) with ``cwd`` the parent
directory, and Codex's ``PreToolUse``/``PostToolUse`` of ``Bash``
(openai/codex ``codex-rs/hooks/schema/generated/``); the hook runs in that parent directory,
as a runtime starts it in its project. Real git, the real ``gentle-hook record``:

* a ``Write`` of ``work/src/calc.py``: recorded in the work tree's ledger, the commit blocked;
* a ``Bash`` ``sed -i`` of ``work/src/calc.py`` (Claude Code, Codex): its ``PreToolUse``
  keeps the work tree its command names, its ``PostToolUse`` records the change there, the
  commit blocked;
* a ``Bash`` write of a file in no repository: nothing recorded, and a person's own edit in
  the work tree, made meanwhile, stays theirs (the commit passes with no trailer).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.claude_bash import bash_input
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
PATH = "src/calc.py"
PATCHED = BASE.replace("return VALUE", "return apply_discount_rules(VALUE, region_table)")
HUMAN = (
    "\n\ndef human_special_formatter(report_rows):\n"
    "    return format_rows_for_display(report_rows)\n"
)
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' work/src/calc.py"


@pytest.fixture
def based(native: World) -> World:
    return native.human_base({PATH: BASE})


def _record(w: World, runtime: str, data: bytes) -> str:
    """``record --from runtime`` run in the parent directory; its stderr."""
    r = w.gh("record", "--from", runtime, input=data, env=MODEL, cwd=w.base)
    assert r.code == 0, r
    return r.err


def _codex_bash(event: str, command: str, cwd: Path, call: str) -> bytes:
    """Codex's ``PreToolUse``/``PostToolUse`` of its shell tool (``Bash``)."""
    data: dict[str, object] = {
        "session_id": "019c4b43-1451-7af3-be4c-5576369bf1ba",
        "turn_id": "turn-1",
        "transcript_path": None,
        "cwd": str(cwd),
        "hook_event_name": event,
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": call,
    }
    if event == "PostToolUse":
        data["tool_response"] = "Exit code: 0\nWall time: 0 seconds\nOutput:\n"
    return json.dumps(data).encode()


def _shell(w: World, runtime: str, command: str, call: str) -> tuple[str, str]:
    """A shell call of ``command`` from the parent directory: its pre-tool hook, the command
    run there, its post-tool hook; what each hook said."""
    build = bash_input if runtime == "claude-code" else _codex_bash
    before = _record(w, runtime, build("PreToolUse", command, w.base, call))
    subprocess.run(["sh", "-c", command], cwd=w.base, check=True)
    after = _record(w, runtime, build("PostToolUse", command, w.base, call))
    return before, after


def _blocked(w: World) -> None:
    w.ok("add", "--", PATH)
    r = w.git("commit", "-m", "person: discount rules")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_write_from_the_parent_directory_is_recorded_in_the_repository(based: World) -> None:
    w = based
    w.write(PATH, PATCHED)
    full = str(w.work / PATH)
    data = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(w.base),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "work/" + PATH, "content": PATCHED},
        "tool_response": {"type": "update", "filePath": full, "content": PATCHED},
        "tool_use_id": "toolu_w1",
    }
    said = _record(w, "claude-code", json.dumps(data).encode())
    assert "recorded: pending mutation #1" in said, said
    assert w.ledger("SELECT tool_call_id, paths FROM pending_mutation") == [
        ("toolu_w1", json.dumps([PATH]))
    ]
    _blocked(w)


@pytest.mark.parametrize("runtime", ["claude-code", "codex"])
def test_a_shell_write_from_the_parent_directory_is_recorded_in_the_repository(
    based: World, runtime: str
) -> None:
    w = based
    before, after = _shell(w, runtime, SED, "call_sed")
    assert "kept the work tree before the Bash call" in before, before
    assert "recorded: pending mutation #1" in after, after
    assert w.ledger("SELECT tool_call_id, paths FROM pending_mutation") == [
        ("call_sed", json.dumps([PATH]))
    ]
    assert w.work.joinpath(PATH).read_text(encoding="utf-8") == PATCHED
    _blocked(w)


@pytest.mark.parametrize("runtime", ["claude-code", "codex"])
def test_a_shell_write_outside_any_repository_records_nothing(based: World, runtime: str) -> None:
    w = based
    w.write(PATH, BASE + HUMAN)  # a person's own edit, unsaved in the work tree
    _, after = _shell(w, runtime, "echo notes > scratch.txt", "call_notes")
    assert "recorded: pending mutation" not in after, after
    assert (w.base / "scratch.txt").exists()
    w.ok("add", "--", PATH)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize("runtime", ["claude-code", "codex"])
def test_a_persons_edit_before_a_call_that_names_the_repository_stays_theirs(
    based: World, runtime: str
) -> None:
    w = based
    w.write(PATH, BASE + HUMAN)  # the person's unsaved edit, before the call
    before, after = _shell(w, runtime, "wc -l work/src/calc.py > /dev/null", "call_wc")
    assert "kept the work tree before the Bash call" in before, before
    assert "recorded: pending mutation" not in after, after
    w.ok("add", "--", PATH)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
