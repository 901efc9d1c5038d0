"""A Codex shell command still running when the turn moved on sends no ``PostToolUse``: the
``Stop`` hook reads the session's rollout for such calls and records what they wrote since
their ``PreToolUse`` (SPEC §3 "Attribution follows content", §7 "Hooks"; docs/agents/codex.md,
"A command that runs in the background"). Issue 17, h17b.

Current Codex sends the ``PostToolUse`` of a command unified exec returned from only once a
``write_stdin`` poll sees it end (openai/codex pull request #18888). The hook inputs are
Codex's documented ``PreToolUse`` of ``Bash`` and ``Stop`` (``codex-rs/hooks/schema/
generated/``; ``tests/fixtures/agents/shell.json``), the ``Stop`` naming the rollout
(``transcript_path``), written as Codex writes it (``tests/agent_payloads.codex_rollout``:
an ``exec_command`` ``function_call`` whose ``function_call_output`` says ``Process running
with session ID N``). Real git, the real ``gentle-hook record --from codex``, a real process
that writes after its ``PreToolUse``:

* the process wrote and ended before ``Stop``: the write is recorded at ``Stop``, the commit
  is blocked, the printed fix pasted as printed lets it pass;
* then a person's edit after ``Stop``, while nothing runs, stays the person's (no trailer,
  the commit passes);
* the process still runs in the work tree at ``Stop`` (seen in ``/proc``, Linux): its window
  stays open, and what it writes after ``Stop`` is recorded at the session's next event;
* a call whose ``PostToolUse`` came (its snapshot read) is not recorded again at ``Stop``.
"""

from __future__ import annotations

import os
import shlex
import time
from pathlib import Path

import pytest

from tests.agent_payloads import codex_rollout
from tests.e2e.conftest import CHECK, World, paste_first_way
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    HUMAN,
    OTHER,
    PATH,
    _groups,
    _hook,
    _release,
    _start,
)
from tests.e2e.test_attribution_codex_running import (
    RUNNING_TEXT,
    WINDOWS,
    _call,
    _gated,
    _next,
    _stop,
)
from tests.e2e.test_attribution_codex_running import based as based  # the fixture

CALL = "call_bg"


def _unreported(w: World, tmp_path: Path, where: Path) -> tuple[Path, Path]:
    """The PreToolUse of a Bash call (``call_bg``) whose command waits for a flag and then
    writes, started in ``where``; Codex returns it still running and sends no PostToolUse.
    Returns (the flag, the rollout)."""
    flag = tmp_path / "go"
    command = _gated(flag, w.work)
    pre, _ = _call(w, command, RUNNING_TEXT, CALL)
    assert "kept the work tree before" in _hook(w, pre, "codex")
    _start(command, where, wait=False)  # unified exec keeps the process and returns
    # a process started in the clock tick of a later hook is that hook's neighbour, not the
    # call's (agent_leftover): Codex's next event comes after the call returned
    time.sleep(0.1)
    rollout = codex_rollout(tmp_path / "rollout.jsonl", [(CALL, command, RUNNING_TEXT)])
    return flag, rollout


def _written_then_stopped(w: World, tmp_path: Path) -> str:
    """The background command wrote and ended before Stop; what Stop said."""
    away = tmp_path / "elsewhere"
    away.mkdir()
    flag, rollout = _unreported(w, tmp_path, away)
    _release(flag)
    return _hook(w, _stop(w, rollout), "codex")


def test_the_stop_records_the_write_and_the_printed_fix_lets_it_pass(
    based: World, tmp_path: Path
) -> None:
    w = based
    said = _written_then_stopped(w, tmp_path)
    assert "recorded: pending mutation #1" in said, said
    assert f"({CALL}) sent no post-tool event" in said, said
    assert "nothing of it runs any more" in said, said
    assert w.ledger("SELECT source, tool_call_id FROM pending_mutation") == [("codex", CALL)]
    assert not list((w.work / WINDOWS).glob("*.json"))
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "codex: discount rules")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    paste_first_way(w, blocked.said, w.work, shlex.join(CHECK))
    passed = w.git("commit", "-m", "codex: discount rules")
    assert passed.code == 0, passed
    # the same Stop again (a replay) records nothing more
    again = _hook(w, _stop(w, tmp_path / "rollout.jsonl"), "codex")
    assert "recorded: pending mutation" not in again, again


def test_a_persons_edit_after_the_stop_stays_theirs(based: World, tmp_path: Path) -> None:
    w = based
    said = _written_then_stopped(w, tmp_path)
    assert "recorded: pending mutation #1" in said, said
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # after the turn ended, nothing running
    said = _next(w, "call_next")  # the session's next turn
    assert "recorded: pending mutation" not in said, said
    w.ok("add", "--", OTHER)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    assert w.ledger("SELECT tool_call_id FROM pending_mutation") == [(CALL,)]


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")
def test_a_process_still_running_at_the_stop_keeps_its_window_open(
    based: World, tmp_path: Path
) -> None:
    w = based
    flag, rollout = _unreported(w, tmp_path, w.work)  # in the work tree: /proc sees it
    said = _hook(w, _stop(w, rollout), "codex")
    assert f"({CALL}) sent no post-tool event" in said, said
    assert "its window stays open past the end of the turn" in said, said
    assert len(list((w.work / WINDOWS).glob("*.json"))) == 1
    _release(flag)  # it writes after the Stop
    said = _next(w, "call_next")
    assert "recorded: pending mutation #1" in said, said
    assert w.ledger("SELECT tool_call_id FROM pending_mutation") == [(f"{CALL}@bg1",)]
    said = _hook(w, _stop(w, rollout), "codex")  # the next turn's end closes it
    assert "1 background call window(s) closed" in said, said
    assert not list((w.work / WINDOWS).glob("*.json"))


def test_a_call_whose_post_tool_use_came_is_not_recorded_again(
    based: World, tmp_path: Path
) -> None:
    w = based
    command = "sed -i 's/return VALUE/return VALUE + 1/' src/calc.py"
    pre, post = _call(w, command, "Exit code: 0\nOutput:\n", CALL)
    _hook(w, pre, "codex")
    _start(command, w.work, wait=True)
    assert "recorded: pending mutation #1" in _hook(w, post, "codex")
    # a rollout that still says running (its last poll) names it: its snapshot was read
    rollout = codex_rollout(tmp_path / "rollout.jsonl", [(CALL, command, RUNNING_TEXT)])
    said = _hook(w, _stop(w, rollout), "codex")
    assert "recorded: pending mutation" not in said, said
    assert w.ledger("SELECT tool_call_id FROM pending_mutation") == [(CALL,)]
    assert PATH in w.ok("status", "--short")
