"""GitHub Copilot's hooks end to end through the very commands ``install --agent copilot``
writes, each run with ``sh -c`` as Copilot's ``bash`` entries are: a shell command that
fails after writing reaches ``postToolUseFailure`` and blocks the commit until the printed
fix ran; a command whose ``gentle-hook`` is not on ``PATH`` exits 0, so Copilot never
denies a tool call for it (a command ``preToolUse`` hook that exits non-zero denies it:
github/docs ``content/copilot/reference/hooks-reference.md`` @ 05da5bc3, "preToolUse /
PreToolUse").

Hooks are the native ones (``gentle-hook install``); git, the shell and the CLI are real.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents.runtimes import runtime
from tests.agent_payloads import shell_inputs
from tests.e2e.claude_bash import bash_input
from tests.e2e.conftest import CHECK, PREFIX, World

BIN = str(Path(sys.executable).parent)
PATH = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
#: A PATH with the shell and coreutils but no gentle-hook (a teammate, the cloud agent).
BARE = {"PATH": "/usr/bin:/bin"}
#: The failing command: it writes, then exits non-zero.
FAILS = "sed -i 's/return a + b/return a + b  # sum/' src/app.py && false"


def _installed(w: World) -> dict[str, str]:
    """``install --agent copilot`` in ``w``, committed by the person: event -> its command."""
    done = w.gh("install", "--agent", "copilot", env=PATH)
    assert done.code == 0, done
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "wire copilot")
    rt = runtime("copilot")
    assert rt.wiring is not None
    hooks = json.loads((w.work / rt.wiring.project).read_text())["hooks"]
    out = {}
    for event, entries in hooks.items():
        [entry] = entries
        out[event] = entry[rt.wiring.command_key]
    return out


def _input(w: World, **more: object) -> bytes:
    """Copilot's camelCase input of the bash call of :data:`FAILS` ("preToolUse /
    PreToolUse", "postToolUseFailure / PostToolUseFailure")."""
    data = {
        "sessionId": "c1",
        "timestamp": 1764637200123,
        "cwd": str(w.work),
        "toolName": "bash",
        "toolArgs": {"command": FAILS, "description": "edit and fail"},
        **more,
    }
    return json.dumps(data).encode()


def _sh(
    w: World, command: str, data: bytes, env: dict[str, str]
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["sh", "-c", command],
        cwd=w.work,
        input=data,
        capture_output=True,
        env={**os.environ, **env, "GENTLE_WRITER_MODEL": "gpt-5", "GENTLE_WRITER_EFFORT": "high"},
        check=False,
        timeout=120,
    )


def _printed(said: list[str], key: str) -> str:
    line = next(s for s in said if s.startswith(f"{PREFIX}  {key}: "))
    return line.split(f"{key}: ", 1)[1].split("  (")[0]


def test_a_failed_shell_command_that_wrote_blocks_the_commit_until_the_printed_fix(
    native: World,
) -> None:
    w = native
    hooks = _installed(w)
    before = _sh(w, hooks["preToolUse"], _input(w), PATH)
    assert before.returncode == 0 and before.stdout == b"", before
    assert "kept the work tree before the bash call" in before.stderr.decode(), before
    ran = subprocess.run(["sh", "-c", FAILS], cwd=w.work, check=False)
    assert ran.returncode == 1  # it wrote, then failed: Copilot sends postToolUseFailure
    after = _sh(w, hooks["postToolUseFailure"], _input(w, error="exit code 1"), PATH)
    assert after.returncode == 0, after
    assert after.stderr.decode().startswith("recorded: pending mutation #1: "), after
    assert w.ledger("SELECT source, model, effort FROM pending_mutation") == [
        ("copilot", "gpt-5", "high")
    ]
    # the turn ends: agentStop closes the session's windows, records nothing
    stop = {"sessionId": "c1", "timestamp": 1, "cwd": str(w.work), "stopReason": "end_turn"}
    ended = _sh(w, hooks["agentStop"], json.dumps(stop).encode(), PATH)
    assert ended.returncode == 0 and "the agent's turn in" in ended.stderr.decode(), ended

    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "copilot: comment")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (writer content (gpt-5/high) in src/app.py)"
    )
    prefix = _printed(blocked.said, "prefix")
    report = w.run(["sh", "-c", f"{prefix} {shlex.join(CHECK)}"], env=PATH)
    assert report.code == 0, report
    fix = _printed(blocked.said, "run")
    assert w.run(["sh", "-c", fix], env=PATH).code == 0
    assert w.git("commit", "-m", "copilot: comment").code == 0


def test_every_hook_command_exits_0_where_gentle_hook_is_not_installed(native: World) -> None:
    w = native
    hooks = _installed(w)
    assert set(hooks) == {
        "postToolUse",
        "postToolUseFailure",
        "preToolUse",
        "subagentStart",
        "subagentStop",
        "agentStop",
        "sessionEnd",
    }
    missing = subprocess.run(["sh", "-c", "command -v gentle-hook"], env=BARE, check=False)
    assert missing.returncode != 0  # the shell finds no gentle-hook there
    for event, command in hooks.items():
        done = _sh(w, command, _input(w), BARE)
        assert (done.returncode, done.stdout) == (0, b""), (event, done)
    # the form written before: the shell's 127 would deny every Copilot tool call
    old = _sh(w, "gentle-hook record --from copilot", _input(w), BARE)
    assert old.returncode == 127


def test_a_pre_tool_hook_that_cannot_keep_its_snapshot_lets_the_call_run(native: World) -> None:
    w = native
    hooks = _installed(w)
    state = w.work / ".git" / "gentle-hooks"
    state.mkdir(exist_ok=True)
    elsewhere = w.work.parent / "elsewhere"
    elsewhere.mkdir()
    (state / "shell").symlink_to(elsewhere)  # a link: the snapshot is never written through it
    for command in (hooks["preToolUse"], "gentle-hook record --from copilot"):
        done = _sh(w, command, _input(w), PATH)
        said = done.stderr.decode()
        assert done.returncode == 0, done
        assert said.startswith("gentle-hook: error: cannot keep the work tree's snapshot"), said
        assert said.endswith(
            "nothing recorded, and the tool call goes ahead (a pre-tool hook never denies it)\n"
        ), said


@pytest.mark.parametrize(
    ("name", "ack"),
    [("claude-code", b""), ("codex", b""), ("gemini-cli", b"{}\n"), ("cursor", b"{}\n")],
)
def test_every_runtimes_pre_tool_failure_exits_0(name: str, ack: bytes, native: World) -> None:
    """Claude Code, Codex, Gemini CLI and Cursor block a tool call on a pre-tool hook's exit
    2 (each runtime's page): the recorder's failure there exits 0, with what the runtime
    reads on standard output."""
    w = native
    state = w.work / ".git" / "gentle-hooks"
    state.mkdir(exist_ok=True)
    (w.work.parent / "elsewhere").mkdir()
    (state / "shell").symlink_to(w.work.parent / "elsewhere")
    if name == "claude-code":
        before = bash_input("PreToolUse", "true", w.work, "toolu_1")
    else:
        before, _, _ = shell_inputs(name, w.work, "true")
    done = _sh(w, f"gentle-hook record --from {name}", before, PATH)
    assert (done.returncode, done.stdout) == (0, ack), done
    assert "the tool call goes ahead" in done.stderr.decode(), done
