"""A Codex shell call whose result says its command is still running is a background one: its
window stays open, so what the process writes after the hook is the writer's (SPEC §3
"Attribution follows content", §7 "Hooks"; docs/agents/codex.md, "A command that runs in the
background"). Issue 17, refuter finding: such a call was not treated as background.

Codex's unified exec (``exec_command``) returns after ``yield_time_ms`` while the command
goes on, and says so: as text, a ``Process running with session ID N`` line in the header
before ``Output:`` (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``,
``format_response``); structured, a ``session_id`` "to pass to write_stdin when the process
is still running" and no ``exit_code`` (``codex-rs/core/src/tools/handlers/shell_spec.rs``,
``unified_exec_output_schema``). The hook input is Codex's documented ``PreToolUse``/
``PostToolUse`` of ``Bash`` (``codex-rs/hooks/schema/generated/``, as
``tests/fixtures/agents/shell.json`` names them) carrying such a ``tool_response``; the
end of the turn is its ``Stop`` (``stop.command.input.schema.json``). Current Codex sends the
``PostToolUse`` of a yielded command only once a ``write_stdin`` poll sees it end
(openai/codex pull request #18888): a response that still says "running" is read wherever
it comes from, never ignored.

Real git, the real ``gentle-hook record --from codex``, and a real process left running by
the call, in a directory outside the work tree (so ``/proc`` does not tell, only the
response), released once the post-tool hook returned:

* a text and a structured "still running" response: the window stays open, the later write
  is recorded at the session's next event and blocks the person's commit, ``Stop`` closes
  the window;
* a finished call (``Process exited with code 0``), or one whose printed output merely
  quotes the running line: no window, and the person's edit after it stays the person's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agent_payloads import codex_stop, shell_inputs
from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    BASE,
    HUMAN,
    OTHER,
    PATH,
    SED,
    _groups,
    _hook,
    _release,
    _start,
)

WINDOWS = Path(".git") / "gentle-hooks" / "shell" / "windows"
#: Codex's model-facing unified exec output of a command still running (format_response).
RUNNING_TEXT = (
    "Chunk ID: 1f3a2b\nWall time: 10.0021 seconds\nProcess running with session ID 27299\n"
    "Original token count: 3\nOutput:\nwatching for changes...\n"
)
#: The same as the structured unified exec output (unified_exec_output_schema).
RUNNING_JSON = json.dumps(
    {
        "chunk_id": "1f3a2b",
        "wall_time_seconds": 10.0021,
        "session_id": 27299,
        "original_token_count": 3,
        "output": "watching for changes...\n",
    }
)
FINISHED_TEXT = (
    "Chunk ID: 9c8d7e\nWall time: 0.2140 seconds\nProcess exited with code 0\n"
    "Original token count: 2\nOutput:\nbuilt in 0.2s\n"
)
#: A finished call whose printed output quotes the running line (a log it showed).
QUOTED_TEXT = (
    "Chunk ID: 9c8d7e\nWall time: 0.2140 seconds\nProcess exited with code 0\n"
    "Original token count: 9\nOutput:\nlast run: Process running with session ID 5\n"
)


def _gated(flag: Path, work: Path) -> str:
    """A write into the work tree (by its absolute path) that waits for ``flag`` (at most
    60 s: the process is in a session of its own)."""
    sed = SED.replace(PATH, f"'{work}/{PATH}'")
    return (
        f"i=0; while [ ! -e '{flag}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; "
        f"{sed}; touch '{flag}.done'"
    )


def _call(w: World, command: str, response: str, call: str = "call_sh1") -> tuple[bytes, bytes]:
    """Codex's PreToolUse and PostToolUse inputs of a ``Bash`` call with ``response``."""
    before, after, _ = shell_inputs("codex", w.work, command)
    pre, post = json.loads(before), json.loads(after)
    pre["tool_use_id"] = post["tool_use_id"] = call
    post["tool_response"] = response
    return json.dumps(pre).encode(), json.dumps(post).encode()


def _next(w: World, call: str) -> str:
    """A later ``ls`` call of the session: what its PreToolUse said."""
    pre, _ = _call(w, "ls", "Exit code: 0\nOutput:\n", call)
    return _hook(w, pre, "codex")


def _stop(w: World, transcript: Path | None = None) -> bytes:
    """Codex's Stop input, naming the session's rollout ``transcript`` (None: null)."""
    stop = codex_stop(transcript or None, w.work, last_assistant_message="the watcher is running")
    return json.dumps(stop).encode()


@pytest.fixture
def based(native: World) -> World:
    native.write(PATH, BASE)
    native.write(OTHER, "OTHER = 2\n")
    native.ok("add", "--", PATH, OTHER)
    native.ok("commit", "-qm", "human: base")
    return native


@pytest.mark.parametrize("response", [RUNNING_TEXT, RUNNING_JSON], ids=["text", "structured"])
def test_a_still_running_command_keeps_its_window_open(
    based: World, tmp_path: Path, response: str
) -> None:
    w = based
    flag, away = tmp_path / "go", tmp_path / "elsewhere"
    away.mkdir()
    command = _gated(flag, w.work)
    pre, post = _call(w, command, response)
    _hook(w, pre, "codex")
    _start(command, away, wait=False)  # unified exec keeps the process and returns
    said = _hook(w, post, "codex")
    assert "changed no file" in said and "its window stays open" in said, said
    assert "until the agent's turn ends" in said, said
    _release(flag)
    said = _next(w, "call_sh2")
    assert "recorded: pending mutation #1" in said, said
    said = _hook(w, _stop(w), "codex")
    assert "the agent's turn in Codex CLI ended: 1 background call window(s) closed" in said
    assert not list((w.work / WINDOWS).glob("*.json"))
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


@pytest.mark.parametrize("response", [FINISHED_TEXT, QUOTED_TEXT], ids=["finished", "quoted"])
def test_a_finished_command_opens_no_window(based: World, response: str) -> None:
    """The person's edit after a finished call is the person's: no window was opened."""
    w = based
    pre, post = _call(w, "npm run build", response)
    _hook(w, pre, "codex")
    said = _hook(w, post, "codex")
    assert "changed no file" in said and "window" not in said, said
    assert not list((w.work / WINDOWS).glob("*.json"))
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    said = _next(w, "call_sh2")
    assert "recorded: pending mutation" not in said, said
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
