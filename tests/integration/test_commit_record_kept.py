"""A commit that delivered writer work never loses its commit record: a post-commit behind
another process's held write lock spools it (folded in once, by commit id), and one that
recorded nothing (failed, killed) is named by ``doctor`` and recorded by ``doctor --fix``."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from gentle_hooks.ledger.store import Ledger
from tests.conftest import git, write
from tests.integration.test_hostile_inputs import hostile
from tests.integration.test_ledger_spool import _held, _installed, _state


def _rows(repo: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(_state(repo) / "ledger.sqlite3")
    try:
        return [tuple(r) for r in conn.execute(sql).fetchall()]
    finally:
        conn.close()


def _writer_staged(repo: Path) -> None:
    """A writer's change, recorded and staged."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    git(repo, "add", "src/app.py")


def _commit(repo: Path) -> subprocess.CompletedProcess[str]:
    """Commit past the gate (--no-verify): the recorder hooks (prepare-commit-msg,
    post-commit) still run."""
    return subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", "writer"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_post_commit_behind_a_held_lock_spools_the_commit_record(repo: Path) -> None:
    _installed(repo)
    _writer_staged(repo)
    with _held(repo):
        proc = _commit(repo)
        assert proc.returncode == 0, proc.stderr
        assert "spooled the record of" in proc.stderr, proc.stderr
        spooled = (_state(repo) / "spool.jsonl").read_bytes()
        assert b'"commit": {' in spooled
    head = git(repo, "rev-parse", "HEAD").strip()
    assert "Gentle-Writer: m/low" in git(repo, "log", "-1", "--format=%B")

    assert hostile(repo, "status").returncode in (0, 1)  # a reader folds the spool in
    assert not (_state(repo) / "spool.jsonl").exists()
    assert _rows(repo, "SELECT commit_id, hook FROM commit_record") == [(head, "post-commit")]
    assert _rows(repo, "SELECT state FROM writer_entry") == [("taken",)]
    assert _rows(repo, "SELECT consumed_by FROM pending_mutation") == [(head,)]

    # a fold killed after its commit, before it removed the spool: stored once per commit
    write(_state(repo) / "spool.jsonl", spooled)
    assert hostile(repo, "status").returncode in (0, 1)
    assert len(_rows(repo, "SELECT id FROM commit_record")) == 1

    # its hook could not write the note: doctor says so, --fix writes it, CI then sees it
    report = hostile(repo, "doctor").stdout.decode()
    assert "FAIL  notes: 1 recorded commit(s) without a note" in report, report
    fixed = hostile(repo, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert "wrote 1 missing note(s)" in fixed.stdout.decode(), fixed.stdout
    assert git(repo, "notes", "--ref=gentle-hooks", "list", head).strip()
    gate = hostile(repo, "gate", "--range", "HEAD~1..HEAD")
    assert b"no gentle-hooks note" not in gate.stderr + gate.stdout, gate.stderr


@pytest.mark.parametrize("how", ["trailer", "taken"])
def test_doctor_names_a_writer_commit_without_a_record_and_fix_records_it(
    repo: Path, how: str
) -> None:
    """``trailer``: post-commit never ran (failed before it wrote anything: a full disk, a
    SIGKILL); the commit has its Gentle-Writer trailer. ``taken``: it was killed between
    taking the writer's entries and adding the record; no trailer to go by."""
    _installed(repo)
    hooks = repo / ".git" / "hooks"
    (hooks / "post-commit").unlink()
    if how == "taken":
        (hooks / "prepare-commit-msg").unlink()
    _writer_staged(repo)
    assert _commit(repo).returncode == 0
    head = git(repo, "rev-parse", "HEAD").strip()
    if how == "taken":
        assert "Gentle-Writer" not in git(repo, "log", "-1", "--format=%B")
        with Ledger.open(str(_state(repo) / "ledger.sqlite3")) as led:
            ids = [int(r[0]) for r in _rows(repo, "SELECT id FROM writer_entry")]
            led.take_entries(ids, head, "sha256:" + "0" * 64, "post-commit")
    assert _rows(repo, "SELECT id FROM commit_record") == []

    report = hostile(repo, "doctor")
    assert report.returncode == 2
    (line,) = [x for x in report.stdout.decode().splitlines() if x.startswith("FAIL  commits:")]
    assert f"first {head[:12]}" in line and line.endswith("run: gentle-hook doctor --fix"), line

    fixed = hostile(repo, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert f"recorded delivered writer commit {head[:12]}" in fixed.stdout.decode()
    assert _rows(repo, "SELECT commit_id, hook FROM commit_record") == [(head, "doctor")]
    assert git(repo, "notes", "--ref=gentle-hooks", "list", head).strip()
    assert "ok    commits: every delivered writer commit is recorded" in fixed.stdout.decode()


def test_a_post_rewrite_behind_a_held_lock_spools_the_rewritten_commits_record(
    repo: Path,
) -> None:
    """Refuter r16y (issue 16): post-rewrite exited 2 behind another process's held write
    lock and the amended commit's record (carried from the old one) was lost; it is spooled
    as post-commit's is, and folded in by the next command."""
    _installed(repo)
    _writer_staged(repo)
    assert _commit(repo).returncode == 0
    old = git(repo, "rev-parse", "HEAD").strip()
    with _held(repo):
        amend = subprocess.run(
            ["git", "commit", "-q", "--no-verify", "--amend", "-m", "writer, amended"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert amend.returncode == 0, amend.stderr
        assert "spooled the record(s) of 1 rewritten commit(s)" in amend.stderr, amend.stderr
        assert b'"commit": {' in (_state(repo) / "spool.jsonl").read_bytes()
    new = git(repo, "rev-parse", "HEAD").strip()
    assert hostile(repo, "status").returncode in (0, 1)  # a reader folds the spool in
    assert not (_state(repo) / "spool.jsonl").exists()
    rows = _rows(repo, "SELECT commit_id, hook, rewritten_from, stale FROM commit_record")
    assert (new, "post-rewrite", old, 0) in rows, rows
    fixed = hostile(repo, "doctor", "--fix")  # the note the hook could not write
    assert fixed.returncode == 0, fixed.stdout
    assert git(repo, "notes", "--ref=gentle-hooks", "list", new).strip()
