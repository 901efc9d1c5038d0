"""Which remote URL is this repository itself (``gentle_hooks.git.destination``): local
paths resolved as git resolves them, ``.git`` files and linked worktrees followed, and
``url.<base>.insteadOf`` applied. Real repositories made with real git commands."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from gentle_hooks.git.destination import common_dir_at, local_path, rewritten


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_local_path_resolves_relative_file_and_refuses_other_hosts(tmp_path: Path) -> None:
    top = str(tmp_path)
    assert local_path(".", top) == top
    assert local_path("../x", top) == os.path.normpath(os.path.join(top, "../x"))
    assert local_path(f"file://{tmp_path}/a%20b", top) == f"{tmp_path}/a b"
    assert local_path("/abs/r.git", top) == "/abs/r.git"
    assert local_path("./dir:with-colon", top) == f"{tmp_path}/dir:with-colon"
    for remote in ("git@host:r.git", "host:r", "ssh://host/r.git", "https://h/r"):
        assert local_path(remote, top) is None, remote


def test_common_dir_at_finds_the_repository_from_each_of_its_paths(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init", "-q")
    _git(
        work,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "x",
    )
    _git(work, "worktree", "add", "-q", "--detach", str(tmp_path / "linked"))
    _git(tmp_path, "init", "-q", "--bare", "other.git")
    mine = os.path.realpath(work / ".git")
    for path in (work, work / ".git", tmp_path / "linked"):
        assert common_dir_at(str(path)) == mine, path
    assert common_dir_at(str(tmp_path / "other")) == os.path.realpath(tmp_path / "other.git")
    assert common_dir_at(str(tmp_path / "nothing")) is None


def test_rewritten_applies_the_longest_instead_of_prefix() -> None:
    pairs = [("/srv/a/", "gh:"), ("/srv/b/", "gh:team/"), ("x", "")]
    assert rewritten("gh:team/r.git", pairs) == "/srv/b/r.git"
    assert rewritten("gh:r.git", pairs) == "/srv/a/r.git"
    assert rewritten("other:r.git", pairs) == "other:r.git"
