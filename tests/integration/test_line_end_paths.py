"""A repository whose path holds a line end (``/tmp/a<LF>b``) is found, recorded into and
gated like any other: git prints one path per line, so where a path holds a line end the
product asks git for one path per process (SPEC §2 "Git access"). A directory git cannot
run in is named as such, never reported as git missing from PATH. Real repositories, real
git.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import commit_all, gh, git

#: Directory names with a line end in the middle and at the end.
NAMES = ["a\nb", "a\n"]


def _repo(tmp_path: Path, name: str) -> Path:
    top = tmp_path / name
    (top / "src").mkdir(parents=True)
    git(top, "init", "-q")
    (top / "src" / "app.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
    commit_all(top, "init")
    return top


@pytest.mark.parametrize("name", NAMES, ids=["middle", "end"])
def test_a_write_in_a_line_end_repository_is_recorded(name: str, tmp_path: Path) -> None:
    top = _repo(tmp_path, name)
    data, filled = materialize("claude-code", top, tmp_path / "scratch")
    apply_writes(filled, top)
    proc = gh(top, "record", "--from", "claude-code", input=data.decode("utf-8"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("recorded: pending mutation #1: "), proc.stderr
    with sqlite3.connect(top / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        rows = conn.execute("SELECT paths FROM pending_mutation").fetchall()
    assert rows == [('["src/app.py"]',)]


@pytest.mark.parametrize("name", NAMES, ids=["middle", "end"])
def test_install_status_and_the_range_gate_work_in_a_line_end_repository(
    name: str, tmp_path: Path
) -> None:
    top = _repo(tmp_path, name)
    installed = gh(top, "install")
    assert installed.returncode == 0, installed.stderr
    assert (top / ".git" / "hooks" / "pre-commit").is_file()
    status = gh(top, "status")
    assert status.returncode == 0, status.stderr
    (top / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    commit_all(top, "human change")  # through the installed hooks
    gate = gh(top, "gate", "--range", "HEAD~1..HEAD")
    assert gate.returncode == 0, gate.stderr
    assert "not on PATH" not in status.stderr + gate.stderr + installed.stderr


def test_a_directory_git_cannot_run_in_is_not_git_missing(tmp_path: Path) -> None:
    from gentle_hooks.errors import GitError
    from gentle_hooks.git.process import run_git

    gone = tmp_path / "gone"
    with pytest.raises(GitError) as caught:
        run_git(["status"], str(gone), {"PATH": "/usr/bin:/bin"})
    assert str(caught.value) == f"{gone}: No such file or directory; git cannot run there"
