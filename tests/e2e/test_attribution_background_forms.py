"""The forms of a background shell write issue 17's refuter (r17p) found missed: a ``&``
inside a ``sh -c``/``bash -c`` script, a detacher after a wrapper (``nice setsid -f sh -c
...``), a process an interpreter's ``-c`` code starts, each through Claude Code's ``Bash``
and Gemini CLI's ``run_shell_command`` with no background flag; and a plain ``( ... ) &``
from Codex's ``Bash`` and Cursor's shell hooks, which never set one (SPEC §7 "Hooks";
docs/agents/*.md, "A command that runs in the background";
:mod:`gentle_hooks.agents.background`).

Real git, a real process left running by the call, released by a flag file once the
post-tool hook returned (as :mod:`tests.e2e.test_attribution_background` does): its write
is recorded at the session's next hook event, and the runtime's end-of-turn input (Codex's
``Stop``: openai/codex ``codex-rs/hooks/schema/generated/stop.command.input.schema.json``;
Cursor's ``stop``: cursor.com/docs/agent/hooks, the common fields and ``status``) closes
the window. Copilot wires no end-of-turn event: its window closes at the session's next
hook event.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.agent_payloads import codex_stop, shell_inputs
from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (
    BASE,
    HUMAN,
    OTHER,
    PATH,
    SED,
    _claude,
    _hook,
    _next_call,
    _release,
    _start,
)

WINDOWS = Path(".git") / "gentle-hooks" / "shell" / "windows"


def _gated(flag: Path) -> str:
    """A write that waits for ``flag`` (at most 60 s: a process in a session of its own is
    not in the test's process group, so it must end by itself)."""
    return (
        f"i=0; while [ ! -e '{flag}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; "
        f"{SED}; touch '{flag}.done'"
    )


def _forms(flag: Path) -> dict[str, str]:
    gated = _gated(flag)
    popen = (
        "import subprocess; subprocess.Popen(['sh', '-c', "
        f"{gated!r}], start_new_session=True, stdout=subprocess.DEVNULL)"
    )
    return {
        "bash-c-amp": f"bash -c {shlex.quote(f'({gated}) >/dev/null 2>&1 &')}",
        "wrapped-setsid": f"nice setsid -f sh -c {shlex.quote(gated)} >/dev/null 2>&1",
        "python-popen": f"python3 -c {shlex.quote(popen)}",
    }


@pytest.fixture
def based(native: World) -> World:
    native.write(PATH, BASE)
    native.write(OTHER, "OTHER = 2\n")
    native.ok("add", "--", PATH, OTHER)
    native.ok("commit", "-qm", "human: base")
    return native


def _blocked(w: World) -> None:
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


@pytest.mark.parametrize("form", ["bash-c-amp", "wrapped-setsid", "python-popen"])
def test_a_claude_code_background_form_is_recorded(based: World, tmp_path: Path, form: str) -> None:
    w = based
    flag = tmp_path / "go"
    command = _forms(flag)[form]
    _hook(w, _claude(w, "PreToolUse", command, "toolu_bg"))
    _start(command, w.work, wait=True)
    said = _hook(w, _claude(w, "PostToolUse", command, "toolu_bg"))
    assert "changed no file" in said and "its window stays open" in said, said
    _release(flag)
    before, _ = _next_call(w)
    assert "recorded: pending mutation #1" in before, before
    assert "left a process running" in before, before
    _blocked(w)


def _gemini(w: World, event: str, command: str) -> bytes:
    data: dict[str, object] = {
        "session_id": "g1",
        "transcript_path": "",
        "cwd": str(w.work),
        "hook_event_name": event,
        "timestamp": f"2026-01-01T00:00:0{len(event)}Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command},
    }
    if event == "AfterTool":
        data["tool_response"] = {"llmContent": "", "returnDisplay": ""}
    return json.dumps(data).encode()


def test_a_gemini_bash_c_ampersand_is_recorded(based: World, tmp_path: Path) -> None:
    """No ``is_background``: the ``&`` inside the ``bash -c`` script says it."""
    w = based
    flag = tmp_path / "go"
    command = _forms(flag)["bash-c-amp"]
    _hook(w, _gemini(w, "BeforeTool", command), "gemini-cli")
    _start(command, w.work, wait=True)
    said = _hook(w, _gemini(w, "AfterTool", command), "gemini-cli")
    assert "its window stays open" in said, said
    _release(flag)
    said = _hook(w, _gemini(w, "BeforeTool", "ls"), "gemini-cli")
    assert "recorded: pending mutation #1" in said, said
    _blocked(w)


def _amp(flag: Path) -> str:
    return f"( {_gated(flag)} ) >/dev/null 2>&1 &"


def test_a_codex_background_command_is_recorded_and_stop_closes(
    based: World, tmp_path: Path
) -> None:
    w = based
    flag = tmp_path / "go"
    command = _amp(flag)
    before, after, _ = shell_inputs("codex", w.work, command)
    _hook(w, before, "codex")
    _start(command, w.work, wait=True)
    said = _hook(w, after, "codex")
    assert "its window stays open" in said and "until the agent's turn ends" in said, said
    _release(flag)
    nxt = json.loads(shell_inputs("codex", w.work, "ls")[0])
    nxt["tool_use_id"] = "call_sh2"
    said = _hook(w, json.dumps(nxt).encode(), "codex")
    assert "recorded: pending mutation #1" in said, said
    stop = codex_stop(None, w.work, session_id=nxt["session_id"])
    said = _hook(w, json.dumps(stop).encode(), "codex")
    assert "the agent's turn in Codex CLI ended: 1 background call window(s) closed" in said
    assert not list((w.work / WINDOWS).glob("*.json"))
    _blocked(w)


def test_a_cursor_background_command_is_recorded_and_stop_closes(
    based: World, tmp_path: Path
) -> None:
    w = based
    flag = tmp_path / "go"
    command = _amp(flag)
    before, after, _ = shell_inputs("cursor", w.work, command)
    _hook(w, before, "cursor")
    _start(command, w.work, wait=True)
    said = _hook(w, after, "cursor")
    assert "its window stays open" in said and "until the agent's turn ends" in said, said
    _release(flag)
    nxt = json.loads(shell_inputs("cursor", w.work, "ls")[0])
    nxt["generation_id"] = "gen-2"
    said = _hook(w, json.dumps(nxt).encode(), "cursor")
    assert "recorded: pending mutation #1" in said, said
    stop = {k: v for k, v in nxt.items() if k not in ("command", "cwd")}
    stop |= {"hook_event_name": "stop", "status": "completed"}
    said = _hook(w, json.dumps(stop).encode(), "cursor")
    assert "the agent's turn in Cursor ended: 1 background call window(s) closed" in said
    assert not list((w.work / WINDOWS).glob("*.json"))
    _blocked(w)


def test_a_copilot_window_is_recorded_and_agent_stop_closes_it(
    based: World, tmp_path: Path
) -> None:
    """Copilot's agentStop (wired; github/docs hooks-reference.md @ 05da5bc3, "agentStop /
    Stop") ends the turn: the session's next event records the write, agentStop closes the
    window; a person's edit after it is theirs."""
    w = based
    flag = tmp_path / "go"
    command = _amp(flag)
    before, after, _ = shell_inputs("copilot", w.work, command)
    _hook(w, before, "copilot")
    _start(command, w.work, wait=True)
    said = _hook(w, after, "copilot")
    assert "its window stays open" in said and "until the agent's turn ends" in said, said
    _release(flag)
    nxt = json.loads(shell_inputs("copilot", w.work, "ls")[0])
    said = _hook(w, json.dumps(nxt).encode(), "copilot")
    assert "recorded: pending mutation #1" in said, said
    stop = {
        "sessionId": nxt["sessionId"],
        "timestamp": 1704614700000,
        "cwd": str(w.work),
        "transcriptPath": "",
        "stopReason": "end_turn",
        "stop_hook_active": False,
    }
    said = _hook(w, json.dumps(stop).encode(), "copilot")
    assert (
        "the agent's turn in GitHub Copilot (CLI and cloud agent) ended: 1 background call "
        "window(s) closed" in said
    ), said
    assert not list((w.work / WINDOWS).glob("*.json"))
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    said = _hook(w, json.dumps(nxt | {"timestamp": 1704614800000}).encode(), "copilot")
    assert "recorded: pending mutation" not in said, said
    rows = w.ledger("SELECT tool_call_id FROM pending_mutation")
    assert len(rows) == 1 and rows[0][0].endswith("@bg1"), rows
