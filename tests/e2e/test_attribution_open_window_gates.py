"""The commit and push gates move the session's open windows before they judge: what an
agent's call wrote during its turn, committed and pushed by a person before the session's
next hook event, is the writer's (SPEC §3 "Attribution follows content", §7 "Hooks";
docs/agents/claude-code.md, "A command that runs in the background").

Driven as tests/e2e/test_attribution_background.py drives Claude Code's documented
``PreToolUse``/``PostToolUse`` of ``Bash`` (code.claude.com/docs/en/hooks): real git, a
bare remote, a real process left running by a ``run_in_background`` call, waiting for a
flag the test makes once the post-tool hook returned. No hook event of the session comes
between the write and the person's commit and push:

* the person's ``git commit -am``: the commit gate records the write first and blocks it;
* the person's ``git commit --no-verify`` and ``git push``: the push gate records the write
  in the pushed commit first and blocks the push;
* control: the person commits and pushes only their own file, changed before the window
  opened, while the window is open over another path: both pass, with no trailer;
* a long foreground call (its ``PreToolUse`` came, its ``PostToolUse`` not yet) whose
  command wrote :data:`PATH`: the person's ``git commit -am`` is blocked; committed with
  ``--no-verify`` and pushed, the push is blocked; the call's ``PostToolUse`` then records
  nothing again; a person's own file committed meanwhile passes (control);
* a call whose ``PostToolUse`` never came (denied), then ``Stop``: the person's later edit
  is theirs, its commit passes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    BASE,
    HUMAN,
    OTHER,
    PATH,
    SED,
    _background_call,
    _claude,
    _groups,
    _hook,
    _release,
    _stop,
)
from tests.e2e.test_attribution_background import based as based  # the fixture

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")


def _written(w: World, tmp_path: Path) -> None:
    """A background Bash call whose process writes :data:`PATH` after its PostToolUse; its
    window is open (the turn has not ended)."""
    flag = tmp_path / "go"
    said = _background_call(w, flag, "flag")
    assert "its window stays open" in said, said
    _release(flag)


def test_the_commit_gate_records_an_open_windows_write_first(based: World, tmp_path: Path) -> None:
    w = based
    _written(w, tmp_path)
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert [p for (p,) in w.ledger("SELECT paths FROM pending_mutation")] == [f'["{PATH}"]']


def test_the_push_gate_records_an_open_windows_write_first(based: World, tmp_path: Path) -> None:
    w = based
    _written(w, tmp_path)
    _pushed_without_a_commit_gate_is_blocked(w)


def test_a_persons_own_file_committed_while_a_window_is_open_passes(
    based: World, tmp_path: Path
) -> None:
    w = based
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the person's edit, before the window opened
    _written(w, tmp_path)
    r = w.git("commit", "-qm", "human: formatter", "--", OTHER)
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push
    assert w.remote_ref("refs/heads/main") == w.rev("HEAD")


#: What the long foreground call's command leaves in :data:`PATH`.
WRITTEN = BASE.replace("return VALUE", "return apply_discount_rules(VALUE, region_table)")


def _running(w: World) -> None:
    """A foreground Bash call (``toolu_fg``) whose ``PreToolUse`` came and whose command
    wrote :data:`PATH` (as ``sed -i`` would); its ``PostToolUse`` has not come."""
    said = _hook(w, _claude(w, "PreToolUse", f"{SED}; sleep 600", "toolu_fg"))
    assert "kept the work tree before the Bash call" in said, said
    w.write(PATH, WRITTEN)


def test_the_commit_gate_records_a_running_calls_write_first(based: World) -> None:
    w = based
    _running(w)
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r
    assert [p for (p,) in w.ledger("SELECT paths FROM pending_mutation")] == [f'["{PATH}"]']


def test_the_push_gate_records_a_running_calls_write_first(based: World) -> None:
    w = based
    _running(w)
    _pushed_without_a_commit_gate_is_blocked(w)
    post = _hook(w, _claude(w, "PostToolUse", f"{SED}; sleep 600", "toolu_fg"))
    assert "recorded: pending mutation" not in post, post  # the gate recorded it


def test_a_persons_own_file_committed_while_a_call_runs_passes(based: World) -> None:
    w = based
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the person's edit, before the call started
    _running(w)
    r = w.git("commit", "-qm", "human: formatter", "--", OTHER)
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 0, push


def test_a_call_that_never_ended_before_stop_is_not_moved_after_it(based: World) -> None:
    w = based
    said = _hook(w, _claude(w, "PreToolUse", SED, "toolu_denied"))  # no PostToolUse comes
    assert "kept the work tree before the Bash call" in said, said
    _hook(w, _stop(w))
    w.write(OTHER, "OTHER = 2\n" + HUMAN)  # the person's edit, after the turn
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


def _pushed_without_a_commit_gate_is_blocked(w: World) -> None:
    """A person commits everything with ``--no-verify`` (no commit gate runs) and pushes: the
    push is blocked, the remote keeps its ref, and the ledger holds the writer's entry for
    the committed blob of :data:`PATH`."""
    w.ok("commit", "-q", "--no-verify", "-am", "human: tidy")
    commit = w.rev("HEAD")
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 1 and f"BLOCKED commit {commit[:12]}" in push.err, push
    assert w.remote_ref("refs/heads/main") != commit
    entries = w.ledger("SELECT path, blob FROM writer_entry")
    assert entries == [(PATH, w.rev(f"{commit}:{PATH}"))], entries
