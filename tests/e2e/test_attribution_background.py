"""What a background shell call writes after its post-tool event is the writer's: its window
stays open in the session until the agent's turn ends (SPEC §3 "Attribution follows
content", §7 "Hooks"; docs/agents/claude-code.md, "A command that runs in the background").

Real git, a real process left running by the call, Claude Code's documented inputs
(code.claude.com/docs/en/hooks: "PreToolUse input"/"PostToolUse input" of ``Bash``, with
``tool_input.run_in_background``; "Stop input": ``session_id``, ``transcript_path``,
``cwd``, ``permission_mode``, ``hook_event_name``, ``stop_hook_active``) and Gemini CLI's
(``BeforeTool``/``AfterTool`` of ``run_shell_command``). The process waits for a flag file
the test makes once the post-tool hook returned, so it always writes after it:

* a ``run_in_background`` call, a foreground ``cmd &``, a Gemini ``is_background`` call:
  the write is recorded at the session's next hook event, and the person's commit of it is
  blocked;
* ``Stop`` closes the window: a write after it is not recorded, nor is the person's later
  edit;
* a replayed event records once;
* a compound line (issue 17): a foreground ``for`` loop opens no window, so a person's edit
  during the turn stays the person's; a ``for ... & done`` opens one.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.claude_bash import bash_call, bash_input
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
HUMAN = (
    "\n\ndef human_special_formatter(report_rows):\n"
    "    return format_rows_for_display(report_rows)\n"
)
PATH = "src/calc.py"
OTHER = "src/other.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"


def _claude(w: World, event: str, command: str, call: str, **more: object) -> bytes:
    return bash_input(event, command, w.work, call, **more)


def _stop(w: World) -> bytes:
    return json.dumps(
        {
            "session_id": "s1",
            "transcript_path": "",
            "cwd": str(w.work),
            "permission_mode": "default",
            "hook_event_name": "Stop",
            "stop_hook_active": False,
        }
    ).encode()


def _hook(w: World, data: bytes, runtime: str = "claude-code") -> str:
    r = w.gh("record", "--from", runtime, input=data, env=MODEL)
    assert r.code == 0, r
    return r.err


def _gated(flag: Path) -> str:
    """The shell text of a write that waits for ``flag`` (made by the test once the
    post-tool hook returned)."""
    return f"while [ ! -e '{flag}' ]; do sleep 0.05; done; {SED}; touch '{flag}.done'"


def _release(flag: Path) -> None:
    """Let the left-behind process write, and wait until it did."""
    flag.touch()
    done = Path(f"{flag}.done")
    for _ in range(400):
        if done.exists():
            return
        time.sleep(0.05)
    raise AssertionError("the background process did not write")


#: The process groups the tests left running, killed at teardown (:func:`_groups`).
GROUPS: list[int] = []


@pytest.fixture(autouse=True)
def _groups() -> Iterator[None]:
    yield
    while GROUPS:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(GROUPS.pop(), signal.SIGKILL)


def _start(command: str, cwd: Path, *, wait: bool) -> None:
    """Run ``command`` in a process group of its own (killed at teardown): to its end
    (``wait``: a foreground call, whose ``&`` leaves its subshell running), or not (a call
    the runtime runs in the background)."""
    proc = subprocess.Popen(["sh", "-c", command], cwd=cwd, start_new_session=True)
    GROUPS.append(proc.pid)
    if wait:
        assert proc.wait() == 0


def _background_call(w: World, flag: Path, way: str) -> str:
    """A Bash call (``toolu_bg``) that leaves a process behind, as ``way`` says
    (``flag``: Claude Code's ``run_in_background``; ``amp``: a foreground ``cmd &``); what
    its PostToolUse said."""
    if way == "flag":
        command, more = _gated(flag), {"run_in_background": True}
        _hook(w, _claude(w, "PreToolUse", command, "toolu_bg", **more))
        # Claude Code starts the command and returns at once
        _start(command, w.work, wait=False)
    else:
        command, more = f"( {_gated(flag)} ) >/dev/null 2>&1 &", {}
        _hook(w, _claude(w, "PreToolUse", command, "toolu_bg", **more))
        _start(command, w.work, wait=True)
    return _hook(w, _claude(w, "PostToolUse", command, "toolu_bg", **more))


def _next_call(w: World, call: str = "toolu_2") -> tuple[str, str]:
    """A later Bash call that changes nothing: what its PreToolUse and PostToolUse said."""
    before = _hook(w, _claude(w, "PreToolUse", "ls", call))
    return before, _hook(w, _claude(w, "PostToolUse", "ls", call))


@pytest.fixture
def based(native: World) -> World:
    native.write(PATH, BASE)
    native.write(OTHER, "OTHER = 2\n")
    native.ok("add", "--", PATH, OTHER)
    native.ok("commit", "-qm", "human: base")
    return native


@pytest.mark.parametrize("way", ["flag", "amp"], ids=["run_in_background", "cmd-ampersand"])
def test_a_background_write_is_recorded_at_the_next_event(
    based: World, tmp_path: Path, way: str
) -> None:
    w = based
    flag = tmp_path / "go"
    said = _background_call(w, flag, way)
    assert "changed no file" in said and "its window stays open" in said, said
    _release(flag)
    before, after = _next_call(w)
    assert "recorded: pending mutation #1" in before, before
    assert "left a process running" in before, before
    assert "recorded: pending mutation" not in after, after
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_persons_edit_in_the_open_window_is_the_writers(based: World, tmp_path: Path) -> None:
    """While the window is open, the person's edit counts as the writer's (as during a long
    foreground call). The block offers no ``human:`` discard for it: the staged content is
    the writer's recorded blob, which a discard would not make the person's (``discard``
    refuses and says so); its ways are the writer's own (a re-run, the spot check) or the
    recorded ``GENTLE_HOOKS_SKIP``."""
    w = based
    _background_call(w, tmp_path / "go", "flag")
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    before, _ = _next_call(w)
    assert "recorded: pending mutation #1" in before, before
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert "spot-check --staged" in r.err and "GENTLE_HOOKS_SKIP" in r.err, r
    d = w.gh("discard", "--reason", "a human change, not the writer work", "--", OTHER)
    assert d.code == 2 and "a discard would not make it yours" in d.err, d


def test_stop_closes_the_window(based: World, tmp_path: Path) -> None:
    """After ``Stop`` with a grace of 0 (``GENTLE_HOOKS_BACKGROUND_GRACE``), neither the
    process's write nor the person's edit is recorded (a process still running at ``Stop``
    otherwise keeps its window for the grace: test_attribution_background_grace)."""
    w = based
    flag = tmp_path / "go"
    _background_call(w, flag, "flag")
    r = w.gh(
        "record",
        "--from",
        "claude-code",
        input=_stop(w),
        env={**MODEL, "GENTLE_HOOKS_BACKGROUND_GRACE": "0"},
    )
    said = r.err
    assert said.startswith("nothing recorded: the agent's turn in Claude Code ended: 1 "), said
    _release(flag)
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    before, after = _next_call(w)
    assert "recorded: pending mutation" not in before + after, (before, after)
    r = w.git("commit", "-qam", "human: formatter and the late write")
    assert r.code == 0, r
    assert not list((w.work / ".git" / "gentle-hooks" / "shell" / "windows").glob("*.json"))


def test_stop_records_what_the_process_wrote_before_it(based: World, tmp_path: Path) -> None:
    w = based
    flag = tmp_path / "go"
    _background_call(w, flag, "amp")
    _release(flag)
    said = _hook(w, _stop(w))
    assert "recorded: pending mutation #1" in said, said
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_replayed_event_records_once(based: World, tmp_path: Path) -> None:
    w = based
    flag = tmp_path / "go"
    command = _gated(flag)
    post = _claude(w, "PostToolUse", command, "toolu_bg", run_in_background=True)
    _background_call(w, flag, "flag")
    again = _hook(w, post)  # the background call's PostToolUse replayed
    assert "was read already" in again and "window" not in again, again
    windows = w.work / ".git" / "gentle-hooks" / "shell" / "windows"
    assert len(list(windows.glob("*.json"))) == 1
    _release(flag)
    pre = _claude(w, "PreToolUse", "ls", "toolu_2")
    first = _hook(w, pre)
    assert "recorded: pending mutation #1" in first, first
    replay = _hook(w, pre)  # the later event replayed
    assert "recorded: pending mutation" not in replay, replay
    # the replayed PostToolUse moved the window once (nothing had changed): the write is
    # the second move's, recorded once
    rows = w.ledger("SELECT tool_call_id FROM pending_mutation")
    assert rows == [("toolu_bg@bg2",)], rows


def test_a_gemini_background_call_is_recorded(based: World, tmp_path: Path) -> None:
    w = based
    flag = tmp_path / "go"
    command = _gated(flag)

    def gemini(event: str, command: str, **more: object) -> bytes:
        data: dict[str, object] = {
            "session_id": "g1",
            "transcript_path": "",
            "cwd": str(w.work),
            "hook_event_name": event,
            "timestamp": f"2026-01-01T00:00:0{len(event)}Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, **more},
        }
        if event == "AfterTool":
            data["tool_response"] = {"llmContent": "", "returnDisplay": ""}
        return json.dumps(data).encode()

    _hook(w, gemini("BeforeTool", command, is_background=True), "gemini-cli")
    _start(command, w.work, wait=False)
    said = _hook(w, gemini("AfterTool", command, is_background=True), "gemini-cli")
    assert "its window stays open" in said, said
    _release(flag)
    said = _hook(w, gemini("BeforeTool", "ls"), "gemini-cli")
    assert "recorded: pending mutation #1" in said, said
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    # AfterAgent ("Agent events": prompt, prompt_response, stop_hook_active) ends the turn
    end = {
        "session_id": "g1",
        "transcript_path": "",
        "cwd": str(w.work),
        "hook_event_name": "AfterAgent",
        "timestamp": "2026-01-01T00:00:09Z",
        "prompt": "tidy up",
        "prompt_response": "done",
        "stop_hook_active": False,
    }
    said = _hook(w, json.dumps(end).encode(), "gemini-cli")
    assert "the agent's turn in Gemini CLI ended: 1 background call window(s) closed" in said
    assert not list((w.work / ".git" / "gentle-hooks" / "shell" / "windows").glob("*.json"))


def test_a_persons_edit_after_a_foreground_for_loop_stays_the_persons(based: World) -> None:
    """A foreground compound line opens no window: its own write is recorded at its
    PostToolUse, and the person's edit made after it is not the writer's."""
    w = based
    loop = f'for f in {PATH}; do {SED.removesuffix(PATH)}"$f"; done'
    said = bash_call(w, loop, "toolu_loop", MODEL)
    assert "recorded: pending mutation #1" in said, said
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    before, after = _next_call(w)
    assert "recorded: pending mutation" not in before + after, (before, after)
    w.ok("add", "--", OTHER)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "window" not in said, said


def test_a_background_for_loop_write_is_the_writers(based: World, tmp_path: Path) -> None:
    """``for ... & done``: the ``&`` inside the loop leaves a process behind; its later write
    is recorded at the session's next event."""
    w = based
    flag = tmp_path / "go"
    loop = f"for f in {PATH}; do ( {_gated(flag)} ) >/dev/null 2>&1 & done"
    _hook(w, _claude(w, "PreToolUse", loop, "toolu_bg"))
    _start(loop, w.work, wait=True)
    said = _hook(w, _claude(w, "PostToolUse", loop, "toolu_bg"))
    assert "its window stays open" in said, said
    _release(flag)
    before, _ = _next_call(w)
    assert "recorded: pending mutation #1" in before, before
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
