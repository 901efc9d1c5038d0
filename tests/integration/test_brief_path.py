"""The brief file a block names is the candidate's own (issue 18, refuter h18c LOW).

Every block printed the same ``write: .git/gentle-hooks/brief.json`` even when that file
held a previous change's brief: ``brief check`` then said "brief ok" of it, and that old
brief's failing negative test left a correct change blocked with "fix the change and re-run
brief 'brief-…'". The path now names the candidate (``brief-<first 12 hex digits of its
identity>.json``), so the file a block names for a new candidate holds no earlier brief.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    return make_env(repo, tmp_path)


def _named(env: Env) -> tuple[str, Path]:
    """The candidate's identity (its first 12 hex digits) and the brief file ``status``
    names for it."""
    lines = env.gh("status").stdout.splitlines()
    identity = next(ln for ln in lines if ln.startswith("candidate: sha256:"))[18:30]
    written = [
        ln.strip().removeprefix("write: ") for ln in lines if ln.strip().startswith("write: ")
    ]
    assert len(written) == 1, "\n".join(lines)
    return identity, Path(written[0])


def _run(env: Env, line: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", line], cwd=env.repo, capture_output=True, text=True, check=False
    )


def test_each_candidate_is_named_its_own_brief_file(env: Env) -> None:
    """The first candidate's brief, written where its block said, is not the file the next
    candidate's block names; that one does not exist until its own brief is written."""
    first_id, first = _named(env)
    assert first == env.repo / ".git" / "gentle-hooks" / f"brief-{first_id}.json"
    first.parent.mkdir(parents=True, exist_ok=True)
    first.write_text(json.dumps(BRIEF), encoding="utf-8")
    write(env.repo / "src" / "app.py", "def add(a, b):\n    return b + a  # checked again\n")
    assert env.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert env.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    second_id, second = _named(env)
    assert second_id != first_id
    assert second == env.repo / ".git" / "gentle-hooks" / f"brief-{second_id}.json"
    assert second != first and not second.exists()
    lines = env.gh("status").stdout.splitlines()
    check = next(ln.strip().removeprefix("run: ") for ln in lines if " brief check " in ln)
    assert shlex.split(check)[-1] == str(second)
    assert _run(env, check).returncode != 0  # no earlier brief is "brief ok" for it


def test_verify_prepare_prunes_old_brief_files_but_the_candidates_own(env: Env) -> None:
    """Issue 18, task h18e item 4: one brief file per candidate accumulated under the git
    dir. ``verify prepare`` removes those beyond the newest 16 written more than a day
    ago; never the file the block names for this candidate (old as it may be), never the
    brief it was given, never a young one, never a file not named as a block names it."""
    import os
    import time

    identity, current = _named(env)
    folder = current.parent
    folder.mkdir(parents=True, exist_ok=True)
    current.write_text(json.dumps(BRIEF), encoding="utf-8")
    given = folder / "brief-0123456789ab.json"  # another candidate's, given to prepare
    given.write_text(json.dumps(BRIEF), encoding="utf-8")
    old = time.time() - 3 * 24 * 60 * 60
    stale = [folder / f"brief-{i:012x}.json" for i in range(1, 25)]
    for i, path in enumerate(stale):
        path.write_text("{}", encoding="utf-8")
        os.utime(path, (old + i, old + i))  # stale[-1] is the newest
    for path in (current, given):
        os.utime(path, (old - 60, old - 60))  # older than every stale one
    young = folder / "brief-fedcba987654.json"
    young.write_text("{}", encoding="utf-8")
    other = folder / "brief-notes.json"
    other.write_text("{}", encoding="utf-8")
    os.utime(other, (old, old))

    proc = env.gh("verify", "prepare", "--brief", str(given))
    assert proc.returncode == 0, proc.stderr
    left = sorted(p.name for p in folder.glob("brief-*.json"))
    # the newest 16: young and the 15 newest stale ones; then current and given, kept
    expected = {young, *stale[-15:], current, given, other}
    assert left == sorted(p.name for p in expected), left
    assert current.read_text(encoding="utf-8") == json.dumps(BRIEF) and identity in current.name
