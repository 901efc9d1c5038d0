"""``record --from NAME`` routes a write to the innermost repository holding the file: a
nested repository in an ignored directory of the agent's workspace, or a submodule, is
gated by its own hooks, never recorded into the outer repository's ledger (SPEC §7
"Hooks"). Real repositories, real git; the runtimes' documented payloads
(tests/fixtures/agents/).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, git, write

NAMES = ["claude-code", "codex", "cursor"]


def mutations(top: Path) -> list[tuple[object, ...]]:
    common = Path(git(top, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())
    db = common / "gentle-hooks" / "ledger.sqlite3"
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT source, paths FROM pending_mutation").fetchall()


def commit_all(top: Path, message: str) -> None:
    git(top, "add", "-A")
    git(top, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", message)


def outer_workspace(at: Path, ignored: str) -> Path:
    """A repository at ``at`` whose ``.gitignore`` ignores everything but itself (the
    nested repository lives in an ignored directory of it)."""
    at.mkdir(exist_ok=True)
    git(at, "init", "-q")
    write(at / ".gitignore", ignored)
    commit_all(at, "ws")
    return at


def from_workspace(name: str, inner: Path, outer: Path, scratch: Path) -> str:
    """The runtime's payload for a write of ``inner``'s ``src/app.py``, with the agent
    working in ``outer`` (its cwd, or Cursor's workspace root)."""
    data, filled = materialize(name, inner, scratch)
    apply_writes(filled, inner)
    payload = json.loads(data)
    if name == "cursor":
        payload["workspace_roots"] = [str(outer)]
    else:
        payload["cwd"] = str(outer)
    text = json.dumps(payload)
    rel = inner.relative_to(outer).as_posix()
    # Codex's patch names the file relative to its cwd: the outer workspace
    return text.replace("Update File: src/app.py", f"Update File: {rel}/src/app.py")


@pytest.mark.parametrize("name", NAMES)
def test_a_write_in_a_nested_repository_records_in_it(
    name: str, repo: Path, tmp_path: Path
) -> None:
    outer = outer_workspace(tmp_path, "/*\n!/.gitignore\n")
    text = from_workspace(name, repo, outer, tmp_path / "runtime")
    proc = gh(outer, "record", "--from", name, input=text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("recorded: pending mutation #1: "), proc.stderr
    assert [(s, json.loads(str(p))) for s, p in mutations(repo)] == [(name, ["src/app.py"])]
    assert mutations(outer) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_write_in_a_submodule_records_in_it(name: str, repo: Path, tmp_path: Path) -> None:
    outer = outer_workspace(tmp_path / "super", "")
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(repo), "sub")
    commit_all(outer, "sub")
    sub = outer / "sub"
    assert (sub / ".git").is_file()
    text = from_workspace(name, sub, outer, tmp_path / "runtime")
    proc = gh(outer, "record", "--from", name, input=text)
    assert proc.returncode == 0, proc.stderr
    assert [(s, json.loads(str(p))) for s, p in mutations(sub)] == [(name, ["src/app.py"])]
    assert mutations(outer) == []


def test_the_nested_repositorys_gate_blocks_the_write(repo: Path, tmp_path: Path) -> None:
    """The issue's repro: the agent works in the outer workspace, writes the nested
    repository's file; that repository's own commit is blocked (delegated)."""
    assert gh(repo, "install").returncode == 0
    outer = outer_workspace(tmp_path, "/*\n!/.gitignore\n")
    text = from_workspace("claude-code", repo, outer, tmp_path / "runtime")
    assert gh(outer, "record", "--from", "claude-code", input=text).returncode == 0
    proc = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "x"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0, proc.stderr
    assert "BLOCKED the staged change: delegated" in proc.stderr
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"
