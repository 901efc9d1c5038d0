"""Codex's rollout read for the ``apply_patch`` calls it shows applied
(:func:`gentle_hooks.agents.codex_rollout.patches`), and the ``Stop`` input that carries
them as the ``PostToolUse`` events they would have sent
(:func:`gentle_hooks.agents.codex.decode`). Issue 17, h17d.

``tests/fixtures/agents/codex-rollout-patch.jsonl`` is built from openai/codex's own
shapes: ``response_item`` ``custom_tool_call`` (``status``, ``call_id``, ``name``,
``input``: the freeform ``apply_patch`` tool's envelope as text) and
``custom_tool_call_output`` (``call_id``, ``output``): ``codex-rs/protocol/src/models.rs``,
``ResponseItem::CustomToolCall``/``CustomToolCallOutput`` (openai/codex @ 001cb8e2); the
outputs are the freeform exec output (``Exit code: N``, ``Wall time``, ``Output:``:
``codex-rs/core/src/tools/mod.rs``, ``format_exec_output_for_model_freeform``), the
structured one (``{"output", "metadata": {"exit_code", "duration_seconds"}}``:
``format_exec_output_for_model_structured``), and the tool's own text alone
(``Success. Updated the following files:``, ``codex-rs/apply-patch``, ``print_summary``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents.codex import decode
from gentle_hooks.agents.codex_output import patch_applied
from gentle_hooks.agents.codex_rollout import patches, unreported
from gentle_hooks.agents.event import SHELL_END
from tests.agent_payloads import FIXTURES, codex_stop

ROLLOUT = FIXTURES / "codex-rollout-patch.jsonl"
#: The apply_patch tool's own text of a patch that applied.
OK = "Success. Updated the following files:\n"
#: The freeform exec header before it.
HEAD = "Exit code: {}\nWall time: 0 seconds\nOutput:\n"


def test_the_patches_that_applied() -> None:
    """Not: call_patch_bad (verification failed), call_patch_exit (exit code 1),
    call_patch_other (another custom tool), call_patch_pending (no output yet)."""
    got = patches(str(ROLLOUT))
    assert [p.call_id for p in got] == ["call_patch_ok", "call_patch_plain", "call_patch_json"]
    assert got[0].envelope.startswith("*** Begin Patch\n*** Update File: src/calc.py\n")
    assert "Success. Updated the following files:" in got[0].output


def test_the_shell_calls_are_read_as_before() -> None:
    assert [c.call_id for c in unreported(str(ROLLOUT))] == ["call_watch"]


@pytest.mark.parametrize(
    ("output", "applied"),
    [
        (
            "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n",
            True,
        ),
        ("Success. Updated the following files:\nM a.py\n", True),
        (json.dumps({"output": "Success. Updated the following files:\n"}), True),
        (json.dumps({"output": "done", "metadata": {"exit_code": 0}}), True),
        (json.dumps({"output": "Success. Updated the following files:\n", "exit_code": 0}), True),
        (
            "Exit code: 1\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n",
            False,
        ),
        (
            json.dumps(
                {"output": "Success. Updated the following files:", "metadata": {"exit_code": 2}}
            ),
            False,
        ),
        (json.dumps({"output": "x", "metadata": {"exit_code": True}}), False),
        ("apply_patch verification failed: Failed to find expected lines in a.py", False),
        ("Process exited with code 0\nOutput:\n", True),
        ("", False),
        ("{not json", False),
    ],
)
def test_patch_applied(output: str, applied: bool) -> None:
    assert patch_applied(output) is applied


def test_the_stop_input_carries_the_patches_as_post_tool_events(tmp_path: Path) -> None:
    stop = codex_stop(ROLLOUT, tmp_path)
    event = decode(json.dumps(stop).encode())
    assert event.shell == SHELL_END
    assert [p.tool_call_id for p in event.patches] == [
        "call_patch_ok",
        "call_patch_plain",
        "call_patch_json",
    ]
    first = event.patches[0]
    assert first.tool == "apply_patch" and first.writes and first.failed is None
    assert first.paths == ("src/calc.py",)
    assert first.session_id == stop["session_id"] and first.model == "gpt-5-codex"
    assert first.replacements  # measured from the file with its hunks undone
    assert event.patches[1].paths == ("src/rules.py",)


@pytest.mark.parametrize("role", ["default", "reviewer"])
def test_a_subagents_stop_carries_its_patches_as_the_childs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    """A subagent's ``Stop`` (``agent_id``, ``agent_type``: openai/codex pull request
    #22882) names its own rollout: its patches are the child's, read as its ``PostToolUse``
    would be (issue 17, r17t finding 1): a role that sets no model is unknown, a role file
    naming one gives that model."""
    home = tmp_path / "codex-home"
    (home / "agents").mkdir(parents=True)
    (home / "agents" / "reviewer.toml").write_text(
        'name = "reviewer"\nmodel = "gpt-5.1-codex-mini"\nmodel_reasoning_effort = "low"\n'
    )
    monkeypatch.setenv("CODEX_HOME", str(home))
    stop = codex_stop(ROLLOUT, tmp_path, agent_id="child-1", agent_type=role)
    event = decode(json.dumps(stop).encode())
    first = event.patches[0]
    assert first.agent == "child-1"
    if role == "default":
        assert (first.model, first.effort) == (None, "unknown")
        assert "its model is recorded as unknown" in first.notes[0]
    else:
        assert (first.model, first.effort) == ("gpt-5.1-codex-mini", "low")


def test_a_stop_with_no_rollout_carries_none() -> None:
    stop = {"session_id": "s", "hook_event_name": "Stop", "transcript_path": None, "cwd": "/"}
    assert decode(json.dumps(stop).encode()).patches == ()
