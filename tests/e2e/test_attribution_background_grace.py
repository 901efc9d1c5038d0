"""A background call that sent its post-tool event and whose process still runs when the
agent's turn ends keeps its window for a short grace past the end of the turn (SPEC §3
"Attribution follows content", §7 "Hooks"; docs/agents/claude-code.md and docs/agents/codex.md,
"A command that runs in the background"). Issue 17, refuter r17t finding 2: such a call's
write landing after ``Stop`` passed as a person's commit, while ``/proc`` showed its process
still running in the work tree; a call that sent no post-tool event (Codex) had the grace
already (tests/e2e/test_attribution_codex_after_stop.py).

The inputs are Claude Code's documented ``PreToolUse``/``PostToolUse`` of ``Bash`` (with
``run_in_background``, and a foreground ``( ... ) &``) and ``Stop``, and Codex's ``Bash``
pair (exit 0) and ``Stop``, driven as tests/e2e/test_attribution_background.py drives them:
real git, a real process left running in the work tree (``/proc`` sees it: Linux), waiting
for a flag the test makes. ``GENTLE_HOOKS_BACKGROUND_GRACE`` is set on the ``Stop`` hook.

* the process writes after ``Stop``, within the grace: recorded at the session's next hook
  event, the commit of it blocked;
* a person's edit after the grace, while the process still runs: not recorded, the commit
  passes with no trailer (a person's change is never the writer's);
* a grace of 0: the window closes at ``Stop`` as before (test_attribution_background's
  ``test_stop_closes_the_window``);
* one window closed and one kept at the same ``Stop`` (refuter r17u): the line says that what
  changes from now on is recorded for the kept one alone, within its grace;
* Copilot's ``agentStop`` keeps the grace as ``Stop`` does.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.agent_payloads import shell_inputs
from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    HUMAN,
    MODEL,
    OTHER,
    PATH,
    _claude,
    _gated,
    _groups,
    _hook,
    _next_call,
    _release,
    _start,
)
from tests.e2e.test_attribution_background import _stop as _claude_stop
from tests.e2e.test_attribution_background import based as based  # the fixture
from tests.e2e.test_attribution_codex_running import WINDOWS, _call, _next
from tests.e2e.test_attribution_codex_running import _gated as _codex_gated
from tests.e2e.test_attribution_codex_running import _stop as _codex_stop

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")

#: The grace the Stop hook is given (seconds).
GRACE = 3
#: (runtime, how the call leaves its process): Claude Code's run_in_background flag, a
#: foreground ``( ... ) &`` of Claude Code and of Codex.
WAYS = [("claude-code", "flag"), ("claude-code", "amp"), ("codex", "amp")]
TITLE = {"claude-code": "Claude Code", "codex": "Codex CLI"}


def _called(w: World, flag: Path, runtime: str, way: str) -> str:
    """The background call (its pre-tool event, the process started, its post-tool event,
    exit 0); what its post-tool event said."""
    if runtime == "codex":
        command = f"( {_codex_gated(flag, w.work)} ) >/dev/null 2>&1 &"
        pre, post = _call(w, command, "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n")
        _hook(w, pre, "codex")
        _start(command, w.work, wait=True)
        time.sleep(0.1)  # the next event comes after the call returned (agent_leftover)
        return _hook(w, post, "codex")
    more: dict[str, object] = {"run_in_background": True} if way == "flag" else {}
    command = _gated(flag) if way == "flag" else f"( {_gated(flag)} ) >/dev/null 2>&1 &"
    _hook(w, _claude(w, "PreToolUse", command, "toolu_bg", **more))
    _start(command, w.work, wait=way != "flag")
    time.sleep(0.1)
    return _hook(w, _claude(w, "PostToolUse", command, "toolu_bg", **more))


def _stopped(w: World, runtime: str, grace: str = str(GRACE)) -> str:
    """The end of the turn (``Stop``, with ``grace``): what it said."""
    stop = _codex_stop(w) if runtime == "codex" else _claude_stop(w)
    env = {**MODEL, "GENTLE_HOOKS_BACKGROUND_GRACE": grace}
    r = w.gh("record", "--from", runtime, input=stop, env=env)
    assert r.code == 0, r
    return r.err


def _next_event(w: World, runtime: str) -> str:
    """The session's next hook event (a later ``ls`` call): what it said."""
    if runtime == "codex":
        return _next(w, "call_next")
    return "".join(_next_call(w))


@pytest.mark.parametrize(("runtime", "way"), WAYS)
def test_a_write_after_the_stop_within_the_grace_is_the_writers(
    based: World, tmp_path: Path, runtime: str, way: str
) -> None:
    w = based
    flag = tmp_path / "go"
    said = _called(w, flag, runtime, way)
    assert "its window stays open" in said, said
    said = _stopped(w, runtime)
    assert f"the agent's turn in {TITLE[runtime]} ended: 1 background call window(s) kept" in said
    assert "left a process running in the work tree, seen in /proc" in said, said
    assert f"its window stays open past the end of the turn for {GRACE} s" in said, said
    _release(flag)  # the process writes after the Stop, within the grace
    said = _next_event(w, runtime)
    assert "recorded: pending mutation #1" in said, said
    assert [json_paths for (json_paths,) in w.ledger("SELECT paths FROM pending_mutation")] == [
        f'["{PATH}"]'
    ]
    r = w.git("commit", "-qam", "c")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


@pytest.mark.parametrize(("runtime", "way"), WAYS)
def test_a_persons_edit_after_the_grace_while_the_process_runs_stays_theirs(
    based: World, tmp_path: Path, runtime: str, way: str
) -> None:
    w = based
    _called(w, tmp_path / "go", runtime, way)
    said = _stopped(w, runtime)
    assert "window(s) kept open past it" in said, said
    time.sleep(GRACE + 0.5)
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the process still runs
    said = _next_event(w, runtime)
    assert "recorded: pending mutation" not in said, said
    assert not list((w.work / WINDOWS).glob("*.json"))  # closed: its grace is over
    w.ok("add", "--", OTHER)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize("runtime", ["claude-code", "codex"])
def test_a_grace_of_zero_closes_the_window_at_the_stop(
    based: World, tmp_path: Path, runtime: str
) -> None:
    w = based
    flag = tmp_path / "go"
    _called(w, flag, runtime, "amp")
    said = _stopped(w, runtime, "0")
    assert "1 background call window(s) closed" in said, said
    assert not list((w.work / WINDOWS).glob("*.json"))
    _release(flag)
    said = _next_event(w, runtime)
    assert "recorded: pending mutation" not in said, said


def test_the_stop_line_says_which_windows_closed_and_which_stay_open(
    based: World, tmp_path: Path
) -> None:
    """Issue 17, refuter r17u: one window closed and one kept at the same ``Stop``. The line
    said in one breath "1 background call window(s) closed; what changes from now on is not
    recorded as theirs" and, of the kept one, "its window stays open past the end of the turn
    for 3 s": it now says that what changes from now on is recorded for the kept one alone,
    within its grace."""
    w = based
    done, running = tmp_path / "done", tmp_path / "running"
    # the process still running is the older call's: a later call's /proc look does not
    # count a process started before its own pre-tool event
    for flag, call in ((running, "toolu_bg1"), (done, "toolu_bg2")):
        command = f"( {_gated(flag)} ) >/dev/null 2>&1 &"
        _hook(w, _claude(w, "PreToolUse", command, call))
        _start(command, w.work, wait=True)
        time.sleep(0.1)
        said = _hook(w, _claude(w, "PostToolUse", command, call))
        assert "its window stays open" in said, said
    _release(done)  # the second call's process wrote and ended before the Stop
    said = _stopped(w, "claude-code")
    assert (
        "ended: 1 background call window(s) closed, 1 kept open past it: what changes from now "
        "on is recorded only as the kept ones' write, within their grace; "
    ) in said, said
    assert "what changes from now on is not recorded as theirs" not in said, said
    assert f"its window stays open past the end of the turn for {GRACE} s" in said, said


def test_copilots_agent_stop_keeps_the_grace(based: World, tmp_path: Path) -> None:
    """Copilot's ``agentStop`` (github/docs hooks-reference.md @ 05da5bc3, "agentStop /
    Stop") ends the turn as Claude Code's ``Stop`` does, grace included: what a process still
    running writes within it is the writer's (docs/agents/copilot.md said it was not
    recorded; issue 17, refuter r17u)."""
    w = based
    flag = tmp_path / "go"
    command = f"( {_gated(flag)} ) >/dev/null 2>&1 &"
    before, after, _ = shell_inputs("copilot", w.work, command)
    _hook(w, before, "copilot")
    _start(command, w.work, wait=True)
    time.sleep(0.1)
    assert "its window stays open" in _hook(w, after, "copilot")
    nxt = json.loads(shell_inputs("copilot", w.work, "ls")[0])
    stop = {
        "sessionId": nxt["sessionId"],
        "timestamp": 1704614700000,
        "cwd": str(w.work),
        "transcriptPath": "",
        "stopReason": "end_turn",
        "stop_hook_active": False,
    }
    env = {**MODEL, "GENTLE_HOOKS_BACKGROUND_GRACE": str(GRACE)}
    r = w.gh("record", "--from", "copilot", input=json.dumps(stop).encode(), env=env)
    assert r.code == 0 and "ended: 1 background call window(s) kept open past it" in r.err, r
    assert f"its window stays open past the end of the turn for {GRACE} s" in r.err, r
    _release(flag)  # the process writes after agentStop, within the grace
    said = _hook(w, json.dumps(nxt | {"timestamp": 1704614800000}).encode(), "copilot")
    assert "recorded: pending mutation #1" in said, said
    r = w.git("commit", "-qam", "c")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
