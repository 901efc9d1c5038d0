"""Hostile input to sync, the index and the echo of user input: one line and exit 2 that
names what is wrong, never an option smuggled into git, never a misleading reason
(SPEC §7 "Exit codes"; docs/robustness.md).

Each case is driven through the real CLI in a real repository with real git commands.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import git
from tests.integration.test_hostile_inputs import hostile

# --- sync: a remote that git would read as an option ----------------------------------------


def test_sync_refuses_a_remote_that_is_an_option(repo: Path, tmp_path: Path) -> None:
    planted = tmp_path / "PWN"
    for direction in ("fetch", "push"):
        proc = hostile(repo, "sync", direction, "--", f"--upload-pack=touch {planted}")
        assert proc.returncode == 2
        assert not planted.exists(), direction
        err = proc.stderr.decode()
        assert "no remote named '--upload-pack=touch" in err and "git remote -v" in err


def test_sync_fetch_refuses_a_remote_that_is_not_configured(repo: Path) -> None:
    proc = hostile(repo, "sync", "fetch", "nowhere")
    assert proc.returncode == 2
    assert "no remote named 'nowhere' (see: git remote -v)" in proc.stderr.decode()


def test_sync_fetch_from_a_configured_remote_still_works(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    proc = hostile(repo, "sync", "fetch")
    assert proc.returncode == 0, proc.stderr
    assert b"origin has no gentle-hooks notes yet" in proc.stdout
