"""Copilot's failure and end-of-turn inputs decoded, and our guarded hook command read as
ours (github/docs ``content/copilot/reference/hooks-reference.md`` @ 05da5bc3,
"postToolUseFailure / PostToolUseFailure", "agentStop / Stop", "sessionEnd / SessionEnd",
"preToolUse / PreToolUse"). Row by row."""

from __future__ import annotations

import json

import pytest

from gentle_hooks.agents import command_words, copilot
from gentle_hooks.agents.event import SHELL_AFTER, SHELL_END
from gentle_hooks.agents.runtimes import record_command, runtime

HEAD = {"sessionId": "c1", "timestamp": 1764637200123, "cwd": "/w"}
GUARDED = "command -v gentle-hook >/dev/null 2>&1 && gentle-hook record --from copilot || true"


def _decode(**fields: object) -> copilot.RuntimeEvent:
    return copilot.decode(json.dumps({**HEAD, **fields}).encode())


def test_a_failed_shell_call_records_what_it_changed() -> None:
    e = _decode(toolName="bash", toolArgs={"command": "sed -i x f && false"}, error="exit 1")
    assert (e.shell, e.failed) == (SHELL_AFTER, "failed (postToolUseFailure: exit 1)")


def test_a_failed_edit_records_nothing() -> None:
    e = _decode(toolName="edit", toolArgs={"path": "f", "old_str": "a", "new_str": "b"}, error="x")
    assert e.failed == "failed (postToolUseFailure: x)"


def test_the_vs_code_compatible_failure_shape_is_a_failure_too() -> None:
    e = copilot.decode(
        json.dumps(
            {
                "hook_event_name": "PostToolUseFailure",
                "session_id": "c1",
                "timestamp": "2025-12-02T01:00:00.123Z",
                "cwd": "/w",
                "tool_name": "edit",
                "tool_input": {"path": "f"},
                "error": "no such file",
            }
        ).encode()
    )
    assert e.failed == "failed (postToolUseFailure: no such file)"


@pytest.mark.parametrize(
    "fields",
    [
        {"transcriptPath": "/t", "stopReason": "end_turn", "stop_hook_active": False},  # agentStop
        {"reason": "complete"},  # sessionEnd
        {"hook_event_name": "Stop", "session_id": "c1", "stop_reason": "end_turn"},
        {"hook_event_name": "SessionEnd", "session_id": "c1", "reason": "complete"},
    ],
)
def test_the_end_of_a_turn_or_session_closes_the_windows(fields: dict[str, object]) -> None:
    assert _decode(**fields).shell == SHELL_END


@pytest.mark.parametrize(
    "fields",
    [
        {"agentName": "reviewer", "agentId": "a1", "stopReason": "end_turn"},  # subagentStop
        {"toolName": "bash", "toolArgs": {"command": "ls"}, "reason": "x"},  # a tool's input
        {"source": "new"},  # sessionStart: not wired, ends nothing
    ],
)
def test_other_inputs_end_no_turn(fields: dict[str, object]) -> None:
    assert _decode(**fields).shell != SHELL_END


def test_install_writes_the_guarded_command_for_copilot_only() -> None:
    assert record_command("copilot", guarded=True) == GUARDED
    assert runtime("copilot").wiring.guarded  # type: ignore[union-attr]
    assert not any(
        runtime(n).wiring.guarded  # type: ignore[union-attr]
        for n in ("claude-code", "codex", "gemini-cli", "cursor")
    )


@pytest.mark.parametrize(
    ("command", "ours", "program"),
    [
        (GUARDED, True, "gentle-hook"),
        ("gentle-hook record --from copilot", True, "gentle-hook"),  # the older form
        (
            "command -v /o/gentle-hook >/dev/null 2>&1 && GENTLE_WRITER_MODEL=m "
            "/o/gentle-hook record --from copilot --effort high || true",
            True,
            "/o/gentle-hook",
        ),
        # another command after ours: not ours
        (GUARDED.replace("|| true", "|| rm -rf x"), False, None),
        (GUARDED.replace("&& gentle-hook", "&& ./x.sh; gentle-hook"), False, None),
    ],
)
def test_the_guard_is_read_around_our_call(command: str, ours: bool, program: str | None) -> None:
    assert command_words.is_ours(command, "copilot") is ours
    assert command_words.program_of(command) == program


def test_retarget_changes_the_guards_word_with_the_calls() -> None:
    assert command_words.retarget(GUARDED, "/v/bin/gentle-hook") == (
        "command -v /v/bin/gentle-hook >/dev/null 2>&1 && /v/bin/gentle-hook record --from "
        "copilot || true"
    )
    assert command_words.unguarded(GUARDED) == "gentle-hook record --from copilot"
