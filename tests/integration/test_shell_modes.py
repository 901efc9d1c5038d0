"""The mode a shell call changed (:mod:`gentle_hooks.services.shell_modes`), in real
repositories: ``chmod +x`` of a clean or a dirty file, or of one listed past the hashed
bound, is written as the blob it held; a person's ``chmod`` before the call is not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.services import agent_shell
from tests.conftest import git


def _event() -> RuntimeEvent:
    return RuntimeEvent(
        source="claude-code",
        session_id="s1",
        tool_call_id="toolu_m1",
        cwd=None,
        paths=(),
        writes=False,
        tool="Bash",
        model=None,
        effort=None,
    )


@pytest.mark.parametrize("dirty", ["clean", "edited", "listed"])
def test_a_chmod_in_the_call_is_the_writers(
    repo: Path, dirty: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``listed``: past the hashed bound, the person's ``chmod +x`` before the call is
    kept by ``lstat`` only, and the call's ``chmod -x`` is read from it."""
    app = repo / "src" / "app.py"
    if dirty == "edited":
        app.write_text("def add(a, b):\n    return b + a  # the person's\n")
    if dirty == "listed":
        monkeypatch.setattr(agent_shell, "MAX_PATHS", 0)
        os.chmod(app, 0o755)
    blob = git(repo, "hash-object", "--", "src/app.py").strip()
    agent_shell.take(str(repo), "claude-code", _event())
    os.chmod(app, 0o644 if dirty == "listed" else 0o755)
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == (), changed
    assert changed.flipped == ("src/app.py",), changed
    assert changed.committed == (("src/app.py", blob, blob),), changed


def test_a_persons_chmod_before_the_call_is_not(repo: Path) -> None:
    os.chmod(repo / "src" / "app.py", 0o755)
    agent_shell.take(str(repo), "claude-code", _event())
    (repo / "README.md").write_text("# demo\nby the call\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.flipped == () and changed.committed == (), changed
    assert changed.paths == ("README.md",), changed


@pytest.mark.parametrize("whose", ["agent", "person"])
def test_a_chmod_the_call_commits_is_the_writers_a_persons_is_not(repo: Path, whose: str) -> None:
    """``chmod +x f && git commit`` leaves the work tree clean: the commit the call made
    is read for it. A person's ``chmod +x`` before the call, committed by the agent,
    stays theirs (the snapshot held that mode)."""
    app = repo / "src" / "app.py"
    blob = git(repo, "hash-object", "--", "src/app.py").strip()
    if whose == "person":
        os.chmod(app, 0o755)
    agent_shell.take(str(repo), "claude-code", _event())
    os.chmod(app, 0o755)
    git(repo, "commit", "-qam", "runnable", "--no-verify")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == (), changed
    if whose == "agent":
        assert changed.flipped == ("src/app.py",), changed
        assert changed.committed == (("src/app.py", blob, blob),), changed
    else:
        assert changed.flipped == () and changed.committed == (), changed
