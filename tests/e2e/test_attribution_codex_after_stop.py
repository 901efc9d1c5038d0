"""After Codex's ``Stop``, the window of a process the agent left running is bounded by a
short grace: what changes after it, a person's edit while a watcher still runs, stays the
person's (SPEC §3 "Attribution follows content", §7 "Hooks"; docs/agents/codex.md, "A
command that sent no ``PostToolUse``"). Issue 17, h17d.

The hook inputs are Codex's documented ``PreToolUse`` of ``Bash`` and ``Stop``, the ``Stop``
naming the rollout, as ``tests/e2e/test_attribution_codex_unreported.py`` drives them: a call
whose ``function_call_output`` says ``Process running with session ID N`` and that sent no
``PostToolUse``. The watcher is a real process started by the test in the work tree (``/proc``
sees it at ``Stop``, Linux), which keeps running: it writes ``src/calc.py`` once a flag
appears. ``GENTLE_HOOKS_BACKGROUND_GRACE`` is set on the ``Stop`` hook to a few seconds.

* a person's edit after the grace, while the watcher runs, is not recorded at the session's
  next event: the commit of it passes with no trailer;
* the watcher's own write within the grace is recorded as the agent's at the session's next
  event (its commit is blocked), while a person's edit of another file after the grace,
  recorded at the same event, stays the person's;
* a grace of 0 keeps no window past ``Stop``; a grace that is not seconds is one line, and
  the default is used.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.agent_payloads import codex_rollout
from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    HUMAN,
    MODEL,
    OTHER,
    PATH,
    SED,
    _groups,
    _hook,
    _release,
    _start,
)
from tests.e2e.test_attribution_codex_running import RUNNING_TEXT, WINDOWS, _call, _next, _stop
from tests.e2e.test_attribution_codex_running import based as based  # the fixture

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")

CALL = "call_watch"
#: The grace the Stop hook is given (seconds).
GRACE = 3


def _watcher(flag: Path, work: Path) -> str:
    """A watcher: runs (at most 60 s) in the work tree, and writes ``src/calc.py`` once when
    ``flag`` appears, then keeps running."""
    sed = SED.replace(PATH, f"'{work}/{PATH}'")
    return (
        f"i=0; while [ $i -lt 1200 ]; do "
        f"if [ -e '{flag}' ] && [ ! -e '{flag}.done' ]; then {sed}; touch '{flag}.done'; fi; "
        "sleep 0.05; i=$((i+1)); done"
    )


def _stopped(w: World, tmp_path: Path, grace: str = str(GRACE)) -> tuple[Path, str]:
    """Codex started the watcher (``PreToolUse``, then no ``PostToolUse``: it still runs)
    and the turn ended (``Stop`` with ``grace``); returns (the watcher's flag, what the
    ``Stop`` said)."""
    flag = tmp_path / "go"
    command = _watcher(flag, w.work)
    pre, _ = _call(w, command, RUNNING_TEXT, CALL)
    assert "kept the work tree before" in _hook(w, pre, "codex")
    _start(command, w.work, wait=False)
    time.sleep(0.1)  # Codex's next event comes after the call returned (agent_leftover)
    rollout = codex_rollout(tmp_path / "rollout.jsonl", [(CALL, command, RUNNING_TEXT)])
    env = {**MODEL, "GENTLE_HOOKS_BACKGROUND_GRACE": grace}
    r = w.gh("record", "--from", "codex", input=_stop(w, rollout), env=env)
    assert r.code == 0, r
    return flag, r.err


def _theirs(w: World, path: str) -> None:
    """The person's commit of ``path`` passes, with no writer trailer."""
    w.ok("add", "--", path)
    r = w.git("commit", "-qm", "human: other")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def _paths(w: World) -> list[tuple[str, list[str]]]:
    rows = w.ledger("SELECT tool_call_id, paths FROM pending_mutation ORDER BY id")
    return [(call, json.loads(paths)) for call, paths in rows]


def test_a_persons_edit_after_the_grace_while_the_watcher_runs_stays_theirs(
    based: World, tmp_path: Path
) -> None:
    w = based
    _, said = _stopped(w, tmp_path)
    assert f"({CALL}) sent no post-tool event" in said, said
    assert f"its window stays open past the end of the turn for {GRACE} s" in said, said
    time.sleep(GRACE + 0.5)
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the watcher still runs
    said = _next(w, "call_next")  # the session's next turn
    assert "recorded: pending mutation" not in said, said
    assert not list((w.work / WINDOWS).glob("*.json"))  # closed: its grace is over
    _theirs(w, OTHER)


def test_the_watchers_write_within_the_grace_is_the_agents(based: World, tmp_path: Path) -> None:
    w = based
    flag, _ = _stopped(w, tmp_path)
    _release(flag)  # the watcher writes at once, within the grace
    time.sleep(GRACE + 0.5)
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # a person's edit after the grace
    said = _next(w, "call_next")
    assert "recorded: pending mutation #1" in said, said
    assert f"later than {GRACE} s after the end of the agent's turn" in said, said
    assert _paths(w) == [(f"{CALL}@bg1", [PATH])]
    _theirs(w, OTHER)
    w.ok("add", "--", PATH)
    blocked = w.git("commit", "-m", "codex: discount rules")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def test_a_grace_of_zero_keeps_no_window_past_the_stop(based: World, tmp_path: Path) -> None:
    w = based
    flag, said = _stopped(w, tmp_path, "0")
    assert "later changes are not its" in said, said
    assert not list((w.work / WINDOWS).glob("*.json"))
    _release(flag)
    said = _next(w, "call_next")
    assert "recorded: pending mutation" not in said, said


@pytest.mark.parametrize("grace", ["soon", "-1", "601", "nan"])
def test_a_grace_that_is_not_seconds_says_so_and_the_default_is_used(
    based: World, tmp_path: Path, grace: str
) -> None:
    w = based
    _, said = _stopped(w, tmp_path, grace)
    assert f"GENTLE_HOOKS_BACKGROUND_GRACE: '{grace}' is not" in said, said
    assert "its window stays open past the end of the turn for 10 s" in said, said
