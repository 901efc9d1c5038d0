"""Whether Codex's ``tool_response`` of a shell call says its command still runs
(:func:`gentle_hooks.agents.codex.still_running`; issue 17). Shapes: openai/codex
``codex-rs/core/src/tools/handlers/unified_exec.rs`` (``format_response``) and
``codex-rs/core/src/tools/handlers/shell_spec.rs`` (``unified_exec_output_schema``)."""

from __future__ import annotations

import json

import pytest

from gentle_hooks.agents.codex import decode, still_running

HEAD = "Chunk ID: 1f3a2b\nWall time: 10.0021 seconds\n"
ROWS = [
    # (id, tool_response, still running)
    ("text-session", HEAD + "Process running with session ID 27299\nOutput:\nx\n", True),
    ("text-command-id", HEAD + "Process running with command ID 4\nOutput:\n", True),
    ("text-no-output-line", "Wall time: 1.0 seconds\nProcess running with session ID 3\n", True),
    ("text-exited", HEAD + "Process exited with code 0\nOutput:\nok\n", False),
    ("text-quoted-in-output", HEAD + "Output:\nProcess running with session ID 5\n", False),
    ("text-freeform-exit", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n", False),
    ("object-session", {"wall_time_seconds": 1.0, "session_id": 7, "output": ""}, True),
    ("object-string-id", {"session_id": "7", "output": ""}, True),
    ("object-as-text", json.dumps({"session_id": 7, "output": ""}), True),
    ("object-exited", {"session_id": 7, "exit_code": 0, "output": ""}, False),
    ("object-no-id", {"wall_time_seconds": 1.0, "exit_code": 0, "output": ""}, False),
    ("object-null-id", {"session_id": None, "output": ""}, False),
    ("object-boolean-id", {"session_id": True, "output": ""}, False),
    ("none", None, False),
    ("list", ["Process running with session ID 1"], False),
]


@pytest.mark.parametrize(("response", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_rows(response: object, expected: bool) -> None:
    assert still_running(response) is expected


def _post(response: object, command: str = "npm run watch") -> bytes:
    return json.dumps(
        {
            "session_id": "s",
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_response": response,
            "tool_use_id": "c",
        }
    ).encode()


def test_a_running_response_makes_the_call_a_background_one() -> None:
    assert decode(_post(ROWS[0][1])).background is True


def test_a_finished_response_leaves_a_foreground_call_foreground() -> None:
    assert decode(_post(ROWS[3][1])).background is False
