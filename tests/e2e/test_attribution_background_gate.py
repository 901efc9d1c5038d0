"""The commit gate, ``status`` and ``assess`` settle the background windows the end of a turn
kept open before they judge (SPEC §3 "Attribution follows content", §7 "Hooks";
docs/agents/claude-code.md, "A command that runs in the background"). Issue 17, refuter
r17t finding 2: ``(sleep 3; sed -i ...) &`` run, its ``PostToolUse``, ``Stop`` while it ran,
its write within the grace, then ``git commit -qam c`` with no later hook event of the
session: the commit passed as a person's.

Driven as tests/e2e/test_attribution_background_grace.py drives Claude Code's documented
``PreToolUse``/``PostToolUse`` of ``Bash`` and ``Stop``: real git, a real process left
running in the work tree (``/proc`` sees it: Linux), waiting for a flag the test makes.

* the process writes after ``Stop``, within the grace, and a person commits at once: the
  commit gate records the write first and blocks the commit; ``status`` does the same;
* a person's edit after the grace, while the window is still on disk: the gate closes the
  window, records nothing of the person's, and the commit passes with no trailer.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    HUMAN,
    OTHER,
    PATH,
    _groups,
    _release,
)
from tests.e2e.test_attribution_background import based as based  # the fixture
from tests.e2e.test_attribution_background_grace import GRACE, _called, _stopped
from tests.e2e.test_attribution_codex_running import WINDOWS

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")


def test_a_write_within_the_grace_blocks_the_next_commit_with_no_event_between(
    based: World, tmp_path: Path
) -> None:
    w = based
    flag = tmp_path / "go"
    _called(w, flag, "claude-code", "amp")
    said = _stopped(w, "claude-code")
    assert "window(s) kept open past it" in said, said
    _release(flag)  # the process writes after the Stop, within the grace
    r = w.git("commit", "-qam", "c")  # no hook event of the session since
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert [p for (p,) in w.ledger("SELECT paths FROM pending_mutation")] == [f'["{PATH}"]']


def test_status_settles_the_window_too(based: World, tmp_path: Path) -> None:
    w = based
    flag = tmp_path / "go"
    _called(w, flag, "claude-code", "amp")
    _stopped(w, "claude-code")
    _release(flag)
    w.gh("status")
    assert [p for (p,) in w.ledger("SELECT paths FROM pending_mutation")] == [f'["{PATH}"]']


def test_a_persons_edit_after_the_grace_is_committed_as_theirs(
    based: World, tmp_path: Path
) -> None:
    w = based
    _called(w, tmp_path / "go", "claude-code", "amp")
    _stopped(w, "claude-code")
    time.sleep(GRACE + 0.5)
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the process still runs, never released
    assert list((w.work / WINDOWS).glob("*.json"))  # still on disk: no event since
    w.ok("add", "--", OTHER)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    assert not list((w.work / WINDOWS).glob("*.json"))  # the gate closed it
