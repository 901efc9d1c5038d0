"""What a background shell call's process wrote is the writer's in the commit that carries it,
whoever typed ``git commit`` (SPEC §3 "Attribution follows content", §7 "Hooks";
docs/agents/claude-code.md and docs/agents/codex.md, "A command that runs in the
background"). Issue 17, refuter r17v finding 1: the process wrote, a person ran ``git commit
-a`` during the agent's turn (no hook event of the session between), and at the end of the
turn the recorder said both "left content of its own in commits it made ... recorded as the
writer's" and "no path differs from where the writer started": nothing was attributed, and
the push passed.

Driven as tests/e2e/test_attribution_background.py drives Claude Code's documented
``PreToolUse``/``PostToolUse`` of ``Bash`` and ``Stop``, and as
tests/e2e/test_attribution_codex_running.py and test_attribution_codex_after_stop.py drive
Codex's (a response saying the command still runs; a call that sent no ``PostToolUse``, its
``Stop`` naming the rollout): real git, a real process left running by the call, waiting for
a flag the test makes once the post-tool hook returned. OpenCode's ``session.idle`` row is in
tests/e2e/test_shell_opencode.py.

* the process writes, a person commits it with ``git commit --no-verify -a`` before the end
  of the turn, the turn ends: the end of the turn records the write in that commit as the writer's,
  ``assess --committed-only`` finds the commit delegated and the push of it is blocked;
* a window kept past ``Stop`` (a watcher Codex left running): the watcher writes within the
  grace, a person edits another file after it and commits both with ``--no-verify`` (no
  commit gate settles the window); the session's next event, after the grace, records the
  watcher's write in that commit and leaves the person's later edit out.
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
    _background_call,
    _groups,
    _hook,
    _release,
    _start,
    _stop,
)
from tests.e2e.test_attribution_background import based as based  # the fixture
from tests.e2e.test_attribution_codex_after_stop import GRACE, _stopped, _watcher
from tests.e2e.test_attribution_codex_running import RUNNING_TEXT, _call, _gated, _next
from tests.e2e.test_attribution_codex_running import _stop as _codex_stop

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")

#: The line the end of the turn says of the commit's content.
IN_COMMITS = "left content of its own in commits it made (a branch, tag or stash entry: "


def _person_commits_it(w: World) -> str:
    """A person's ``git commit --no-verify -qam`` of the process's write (no commit gate
    moves the window: tests/e2e/test_attribution_open_window_gates.py has the gate's rows);
    the commit's id."""
    r = w.git("commit", "--no-verify", "-qam", "human: tidy")
    assert r.code == 0, r
    return w.rev("HEAD")


def _gated_at_push(w: World, said: str, commit: str) -> None:
    """The end of the turn (what it ``said``) recorded the write in ``commit``: it is
    delegated, and its push is blocked."""
    assert f"{IN_COMMITS}{PATH}" in said, said
    assert "no content is attributed to the writer" not in said, said
    assert "recorded: pending mutation #1" in said and "nothing recorded" not in said, said
    entries = w.ledger("SELECT path, blob FROM writer_entry")
    assert entries == [(PATH, w.rev(f"{commit}:{PATH}"))], entries
    assessed = json.loads(w.gh("assess", "--json", "--committed-only").out)
    assert assessed["decision"]["applies"] is True, assessed["decision"]
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 1 and f"BLOCKED commit {commit[:12]}" in push.err, push
    assert w.remote_ref("refs/heads/main") != commit


@pytest.mark.parametrize("way", ["flag", "amp"], ids=["run_in_background", "cmd-ampersand"])
def test_claude_codes_stop_records_the_write_a_person_committed(
    based: World, tmp_path: Path, way: str
) -> None:
    w = based
    flag = tmp_path / "go"
    said = _background_call(w, flag, way)
    assert "its window stays open" in said, said
    _release(flag)  # the process writes; no hook event of the session since
    commit = _person_commits_it(w)
    _gated_at_push(w, _hook(w, _stop(w)), commit)


def test_codexs_stop_records_the_write_of_a_still_running_call_a_person_committed(
    based: World, tmp_path: Path
) -> None:
    w = based
    flag, away = tmp_path / "go", tmp_path / "elsewhere"
    away.mkdir()
    command = _gated(flag, w.work)
    pre, post = _call(w, command, RUNNING_TEXT)
    _hook(w, pre, "codex")
    _start(command, away, wait=False)  # unified exec keeps the process and returns
    assert "its window stays open" in _hook(w, post, "codex")
    _release(flag)
    commit = _person_commits_it(w)
    _gated_at_push(w, _hook(w, _codex_stop(w), "codex"), commit)


def test_codexs_stop_records_the_write_of_an_unreported_call_a_person_committed(
    based: World, tmp_path: Path
) -> None:
    """A call that sent no ``PostToolUse`` (:mod:`gentle_hooks.services.agent_unreported`):
    its ``Stop`` compares from the call's pre-tool snapshot, commits made since included."""
    w = based
    flag = tmp_path / "go"
    command = _watcher(flag, w.work)
    pre, _ = _call(w, command, RUNNING_TEXT, "call_watch")
    assert "kept the work tree before" in _hook(w, pre, "codex")
    _start(command, w.work, wait=False)
    time.sleep(0.1)  # Codex's next event comes after the call returned (agent_leftover)
    _release(flag)
    commit = _person_commits_it(w)
    rollout = codex_rollout(tmp_path / "rollout.jsonl", [("call_watch", command, RUNNING_TEXT)])
    env = {**MODEL, "GENTLE_HOOKS_BACKGROUND_GRACE": "0"}
    r = w.gh("record", "--from", "codex", input=_codex_stop(w, rollout), env=env)
    assert r.code == 0, r
    _gated_at_push(w, r.err, commit)


def test_a_window_past_its_grace_keeps_what_a_commit_carries_of_its_grace(
    based: World, tmp_path: Path
) -> None:
    w = based
    flag, said = _stopped(w, tmp_path)
    assert f"its window stays open past the end of the turn for {GRACE} s" in said, said
    _release(flag)  # the watcher writes within the grace
    time.sleep(GRACE + 0.5)
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the person's edit, after the grace
    w.ok("commit", "-q", "--no-verify", "-am", "human: tidy")
    commit = w.rev("HEAD")
    said = _next(w, "call_next")  # the session's next event closes the window
    assert f"later than {GRACE} s after the end of the agent's turn" in said, said
    _gated_at_push(w, said, commit)
