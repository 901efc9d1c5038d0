"""The work tree before and after a shell call (:mod:`gentle_hooks.services.agent_shell`),
in real repositories: which paths changed and where each is measured from, the bound on
changed paths, and the sweep of snapshots no post-tool event read."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.services import agent_shell
from tests.conftest import git


def _event(call: str = "toolu_b1") -> RuntimeEvent:
    return RuntimeEvent(
        source="claude-code",
        session_id="s1",
        tool_call_id=call,
        cwd=None,
        paths=(),
        writes=False,
        tool="Bash",
        model=None,
        effort=None,
    )


def _blob(repo: Path, rel: str) -> str:
    return git(repo, "hash-object", "--", rel).strip()


def test_changed_created_and_removed_paths_each_from_where_they_were(repo: Path) -> None:
    (repo / "README.md").write_text("# demo\nmine\n")  # a person's, unsaved
    (repo / "notes.txt").write_text("draft\n")  # a person's untracked file
    mine = _blob(repo, "README.md")
    draft = _blob(repo, "notes.txt")
    (repo / "src" / "app.py").write_text("edited = True\n")  # the person's, left alone
    assert agent_shell.take(str(repo), "claude-code", _event()) == 3
    (repo / "README.md").write_text("# demo\nmine\nthe command's\n")
    (repo / "notes.txt").unlink()
    (repo / "gen.py").write_text("x = 1\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert changed.paths == ("README.md", "gen.py", "notes.txt")
    assert changed.starts == (("README.md", mine), ("gen.py", None), ("notes.txt", draft))
    # the snapshot was read once: a replay finds none
    assert agent_shell.compare(str(repo), "claude-code", _event()) is None


def test_a_command_that_only_moves_head_changed_no_path(repo: Path) -> None:
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a\n")
    git(repo, "commit", "-qam", "swap")
    swapped = _blob(repo, "src/app.py")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == (), changed
    # moved, then edited: measured from the blob in the commit HEAD was at, not the new HEAD's
    git(repo, "commit", "-qm", "swap again")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a + 0\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.starts == (("src/app.py", swapped),), changed


def test_a_command_that_changed_nothing_changed_no_path(repo: Path) -> None:
    (repo / "README.md").write_text("# demo\nmine\n")
    agent_shell.take(str(repo), "claude-code", _event())
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == ()


def test_another_call_or_none_has_no_snapshot(repo: Path) -> None:
    agent_shell.take(str(repo), "claude-code", _event("toolu_a"))
    assert agent_shell.compare(str(repo), "claude-code", _event("toolu_b")) is None


def test_more_changed_paths_than_the_bound_keep_no_snapshot(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(agent_shell, "MAX_PATHS", 1)
    (repo / "a.txt").write_text("a\n")
    (repo / "b.txt").write_text("b\n")
    assert agent_shell.take(str(repo), "claude-code", _event()) is None
    assert agent_shell.compare(str(repo), "claude-code", _event()) is None


def test_an_expired_snapshot_is_swept_by_the_next(repo: Path) -> None:
    agent_shell.take(str(repo), "claude-code", _event("toolu_old"))
    where = repo / ".git" / "gentle-hooks" / agent_shell.SHELL_DIR
    [old] = list(where.iterdir())
    past = time.time() - agent_shell.MAX_AGE - 60
    os.utime(old, (past, past))
    agent_shell.take(str(repo), "claude-code", _event("toolu_new"))
    assert not old.exists() and len(list(where.iterdir())) == 1
