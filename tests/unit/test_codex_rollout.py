"""Codex's rollout read for the shell calls that may still run with no ``PostToolUse`` sent
(:func:`gentle_hooks.agents.codex_rollout.unreported`; issue 17, h17b), and the ``Stop``
input that carries them (:func:`gentle_hooks.agents.codex.decode`).

``tests/fixtures/agents/codex-rollout.jsonl`` is a rollout of one session built from
openai/codex's own shapes: each line ``{"timestamp", "type", "payload"}``
(``codex-rs/protocol/src/protocol.rs``, ``RolloutLine``/``RolloutItem``); ``response_item``
``function_call`` (``name``, ``arguments`` as JSON text, ``call_id``) and
``function_call_output`` (``call_id``, ``output`` as text: ``codex-rs/protocol/src/
models.rs``, ``FunctionCallOutputPayload`` serialises text as a string); the outputs are
unified exec's (``codex-rs/core/src/tools/handlers/unified_exec.rs`` @ 010d3e62,
``format_response``); ``write_stdin`` takes ``session_id``; an ``event_msg``
``exec_command_end`` (``call_id``, ``exit_code``) as versions that persist it write it. One
line is cut in the middle (a malformed line is skipped).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents import codex_rollout
from gentle_hooks.agents.codex import decode
from gentle_hooks.agents.codex_output import exec_status
from gentle_hooks.agents.codex_rollout import Unreported, unreported
from gentle_hooks.agents.event import SHELL_END
from tests.agent_payloads import FIXTURES, codex_stop

ROLLOUT = FIXTURES / "codex-rollout.jsonl"


def test_the_calls_that_may_still_run() -> None:
    """call_watch: a poll says it still runs; call_fresh: no output yet. Not: call_done
    (exited in its call), call_gen (a poll saw it exit), call_serve (exec_command_end),
    call_quoted (only its printed output says "running"), call_plan (not a shell call)."""
    assert unreported(str(ROLLOUT)) == (
        Unreported(call_id="call_watch", running=True),
        Unreported(call_id="call_fresh", running=False),
    )


@pytest.mark.parametrize("path", [None, "", "/nonexistent/rollout.jsonl"])
def test_no_rollout_names_no_call(path: str | None) -> None:
    assert unreported(path) == ()


def test_the_read_is_bounded_to_the_tail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call whose line lies before the last TAIL bytes is not seen; a long file is never
    read whole."""
    lines = ROLLOUT.read_bytes()
    padding = b'{"type": "event_msg", "payload": {"type": "token_count"}}\n' * 200
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(lines + padding)
    monkeypatch.setattr(codex_rollout, "TAIL", len(padding) + 10)
    assert unreported(str(path)) == ()
    monkeypatch.setattr(codex_rollout, "TAIL", len(padding) + len(lines))
    assert [c.call_id for c in unreported(str(path))] == ["call_watch", "call_fresh"]


def test_garbage_gives_nothing_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(b"\xff\xfe not json\n[1, 2]\n" + b"{" * 5000 + b"\n")
    assert unreported(str(path)) == ()
    assert unreported(str(tmp_path)) == ()  # a directory


HEAD = "Chunk ID: 1f3a2b\nWall time: 10.0021 seconds\n"
STATUS_ROWS = [
    ("running", HEAD + "Process running with session ID 27299\nOutput:\nx\n", ("27299", None)),
    ("exited", HEAD + "Process exited with code 3\nOutput:\n", (None, 3)),
    ("freeform", "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n", (None, 1)),
    ("printed-only", HEAD + "Output:\nProcess exited with code 3\n", (None, None)),
    ("nothing", "Success. Updated the following files:\nM a.py\n", (None, None)),
    # the structured output (codex-rs/core/src/tools/handlers/shell_spec.rs,
    # unified_exec_output_schema): session_id while it runs, exit_code once it ended
    ("structured-running", json.dumps({"session_id": 7, "output": ""}), ("7", None)),
    ("structured-exited", json.dumps({"session_id": 7, "exit_code": 2}), (None, 2)),
    ("structured-garbage", "{not json", (None, None)),
]


@pytest.mark.parametrize(
    ("output", "expected"), [r[1:] for r in STATUS_ROWS], ids=[r[0] for r in STATUS_ROWS]
)
def test_exec_status(output: str, expected: tuple[str | None, int | None]) -> None:
    assert exec_status(output) == expected


def _stop(transcript: str | None) -> bytes:
    """Codex's Stop input (codex-rs/hooks/schema/generated/stop.command.input.schema.json)."""
    return json.dumps(codex_stop(transcript, "/work/app")).encode()


def test_the_stop_input_names_the_calls_of_its_rollout() -> None:
    event = decode(_stop(str(ROLLOUT)))
    assert event.shell == SHELL_END
    assert event.unreported == (("call_watch", "Bash", True), ("call_fresh", "Bash", False))
    assert (event.model, event.effort) == ("gpt-5-codex", "high")


def test_a_stop_with_no_rollout_names_none() -> None:
    assert decode(_stop(None)).unreported == ()
