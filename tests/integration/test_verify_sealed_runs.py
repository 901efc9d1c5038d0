"""A ``verify run`` row counts as an observation only in the ledger that sealed it (SPEC §6,
§9; seed 001 "Rules": the verdict is written from what was observed).

Refuter finding r10 of issue 18 (MED): another clone's ``verify_run`` row, inserted into this
clone's ledger with the verdict its run wrote, made that replayed verdict "observed" under
``verification.require_observed``. Rows now carry an HMAC keyed by a per-ledger secret
(``.git/gentle-hooks/ledger.key``, 0600); another clone's does not verify here.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
from pathlib import Path

from tests.conftest import git, write
from tests.integration.test_verify import Env, _require_observed, _run, make_env

LEDGER = Path(".git") / "gentle-hooks" / "ledger.sqlite3"
KEY = Path(".git") / "gentle-hooks" / "ledger.key"


def _other_clone(env: Env, tmp_path: Path) -> Env:
    """A clone of ``env``'s repository holding the same candidate (the same change, the
    same untracked file), with its own ledger."""
    other = tmp_path / "other"
    subprocess.run(["git", "clone", "-q", str(env.repo), str(other)], check=True)
    for name in ("src/app.py", "notes.txt", ".secrets"):
        write(other / name, (env.repo / name).read_text())
    e = Env(other, tmp_path / "o")
    e.brief_path = env.brief_path
    return e


def _copy_runs(src: Path, dst: Path) -> None:
    """Insert every ``verify_run`` row of ``src``'s ledger into ``dst``'s (new ids)."""
    with sqlite3.connect(src / LEDGER) as conn:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(verify_run)") if r[1] != "id"]
        rows = list(conn.execute(f"SELECT {', '.join(cols)} FROM verify_run"))
    with sqlite3.connect(dst / LEDGER) as conn:
        marks = ", ".join("?" for _ in cols)
        conn.executemany(f"INSERT INTO verify_run ({', '.join(cols)}) VALUES ({marks})", rows)


def test_another_clones_run_row_does_not_make_its_verdict_observed(
    repo: Path, tmp_path: Path
) -> None:
    """r10: the other clone's run row and verdict, replayed here: not observed (one line
    naming the seal); this clone's own run of the same brief is."""
    (tmp_path / "mine").mkdir()
    env = make_env(repo, tmp_path / "mine")
    _require_observed(env)
    (tmp_path / "o").mkdir()
    other = _other_clone(env, tmp_path)
    assert other.identity() == env.identity()
    theirs = _run(other)
    assert theirs["status"] == "pass"
    _copy_runs(other.repo, env.repo)
    proc = env.gh("verdict", "add", theirs["json_path"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "not accepted: not observed: verify run #2, which wrote it, does not carry this " in (
        proc.stdout
    ), proc.stdout
    assert "verify it again in this clone (verification.require_observed)" in proc.stdout
    mine = _run(env)
    added = env.gh("verdict", "add", mine["json_path"])
    assert added.returncode == 0, added.stdout + added.stderr


def test_the_ledger_key_is_made_private_beside_the_store(repo: Path, tmp_path: Path) -> None:
    """The secret is made on the first sealed write, 0600, under the git directory (never
    in the work tree); an edited row's seal no longer verifies."""
    env = make_env(repo, tmp_path)
    assert not (env.repo / KEY).exists()
    out = _run(env)
    mode = os.stat(env.repo / KEY).st_mode
    assert stat.S_IMODE(mode) == 0o600 and (env.repo / KEY).stat().st_size == 32
    assert git(env.repo, "status", "--porcelain", "--ignored").count("ledger.key") == 0
    _require_observed(env)
    with sqlite3.connect(env.repo / LEDGER) as conn:
        conn.execute("UPDATE verify_run SET caller = 'Mallory <m@x>' WHERE id = ?", (out["run"],))
    proc = env.gh("verdict", "add", out["json_path"])
    assert proc.returncode == 1 and "does not carry this ledger's seal" in proc.stdout, proc.stdout
