"""The staged delta a commit gate reads: asked of git once per repository object."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from tests.conftest import commit_all, git, write


def test_a_second_staged_delta_asks_git_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit gate reads the staged delta twice (attribution, then expiry when nothing
    is delegated) with no probe answer to share: one ``git diff-index``, same answer."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "a.py", "one\n")
    commit_all(root, "base")
    write(root / "a.py", "two\n")
    write(root / "b.py", "new\n")
    git(root, "add", "-A")
    monkeypatch.chdir(root)
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/index")  # as git hands a hook
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    repo = Repository.open(str(root))  # its environment names the trace
    first = repo.staged_delta()
    second = repo.staged_delta()
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    starts = [json.loads(line) for line in trace.read_text().splitlines()]
    argvs = [e["argv"][1] for e in starts if e.get("event") == "start"]
    argvs = [a for a in argvs if a != "rev-parse"]  # the open's
    assert argvs == ["diff-index"]
    assert first == second
    assert first is not None and sorted(c.path for c in first) == ["a.py", "b.py"]
