"""A shell tool's hook inputs, before and after the command, for each runtime that documents
both (tests/fixtures/agents/shell.json names the sources): the pre-tool input is a snapshot
event, the post-tool input records what changed since, and the two share the key that pairs
them (the tool call id, or :attr:`RuntimeEvent.shell_key` where the runtime names none both
carry) while a different command does not (SPEC §7 "Hooks"; docs/agents/*.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents.event import SHELL_AFTER, SHELL_BEFORE, RuntimeEvent
from gentle_hooks.agents.runtimes import runtime
from tests.agent_payloads import SHELL_RUNTIMES, shell_inputs

ROOT = Path("/work/tree")
SED = "sed -i 's/a/b/' src/calc.py"


def _decode(name: str, data: bytes) -> RuntimeEvent:
    decode = runtime(name).decode
    assert decode is not None
    return decode(data)


def _pair(event: RuntimeEvent) -> tuple[str | None, str | None]:
    return event.session_id, event.shell_key or event.tool_call_id


@pytest.mark.parametrize("name", SHELL_RUNTIMES)
def test_the_pre_tool_input_keeps_and_the_post_tool_input_records(name: str) -> None:
    before, after, expect = shell_inputs(name, ROOT, SED)
    pre, post = _decode(name, before), _decode(name, after)
    assert (pre.shell, post.shell) == (SHELL_BEFORE, SHELL_AFTER)
    assert (pre.hook_event, post.hook_event) == (expect["before"], expect["after"])
    assert not pre.writes and not post.writes and post.not_written
    assert post.session_id == expect["session_id"]
    assert (post.model, post.tool) == (expect["model"], expect["tool"])
    assert post.cwd == str(ROOT)
    assert _pair(pre) == _pair(post)  # the snapshot the pre-tool input keeps is found


@pytest.mark.parametrize("name", SHELL_RUNTIMES)
def test_another_command_is_another_call(name: str) -> None:
    """Gemini CLI's and Cursor's inputs name no call id: the pair is keyed by the command
    (Codex's by its tool_use_id, which another call does not share)."""
    first, _, _ = shell_inputs(name, ROOT, SED)
    other, _, _ = shell_inputs(name, ROOT, "python gen.py")
    doc = json.loads(other)
    for key in ("tool_use_id", "callID"):  # Codex's, OpenCode's (our plugin's) call id
        if key in doc:
            doc[key] = "call_sh2"
    assert _pair(_decode(name, first)) != _pair(_decode(name, json.dumps(doc).encode()))


def test_a_codex_patch_run_through_the_shell_still_names_its_files() -> None:
    patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: gen.py\n+x = 1\n*** End Patch\nEOF"
    _, after, _ = shell_inputs("codex", ROOT, patch)
    got = _decode("codex", after)
    assert (got.writes, got.shell, got.paths) == (True, None, ("gen.py",))


def test_a_gemini_replay_of_one_command_is_told_apart_by_its_timestamp() -> None:
    """Two runs of one command in a session share the pairing key (run one after the
    other, each finds its own snapshot) but not the replay id, so both record."""
    _, after, _ = shell_inputs("gemini-cli", ROOT, SED)
    doc = json.loads(after)
    doc["timestamp"] = "2026-03-01T10:05:00.000Z"
    first, second = _decode("gemini-cli", after), _decode("gemini-cli", json.dumps(doc).encode())
    assert first.shell_key == second.shell_key
    assert first.tool_call_id != second.tool_call_id
