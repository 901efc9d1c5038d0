"""Which remote URL is this repository itself (``gentle_hooks.git.destination``): local
paths resolved as git resolves them, ``.git`` files and linked worktrees followed, and
``url.<base>.insteadOf`` applied. Real repositories made with real git commands."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from gentle_hooks.git.destination import common_dir_at, is_local_host, local_path, rewritten
from gentle_hooks.git.repository import Repository


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_local_path_resolves_relative_file_and_refuses_other_hosts(tmp_path: Path) -> None:
    top = str(tmp_path)
    assert local_path(".", top) == top
    assert local_path("../x", top) == os.path.normpath(os.path.join(top, "../x"))
    assert local_path(f"file://{tmp_path}/a%20b", top) == f"{tmp_path}/a b"
    assert local_path("/abs/r.git", top) == "/abs/r.git"
    assert local_path("./dir:with-colon", top) == f"{tmp_path}/dir:with-colon"
    for remote in ("git@host:r.git", "host:r", "ssh://host/r.git", "https://h/r", "[h]:r"):
        assert local_path(remote, top) is None, remote


def test_local_path_reads_ssh_to_this_machine_and_file_with_a_host_as_git_does(
    tmp_path: Path,
) -> None:
    """``ssh://localhost/<path>``, ``localhost:<path>``, a loopback address and
    ``file://<host>/<path>`` (git ignores a file URL's host) name this machine's paths; a
    relative scp-like path and ``~`` are from the ssh user's home."""
    top, home = str(tmp_path), os.path.expanduser("~")
    for url in (
        f"ssh://localhost{tmp_path}",
        f"ssh://me@LOCALHOST:22{tmp_path}",
        f"git+ssh://127.0.0.1{tmp_path}",
        f"ssh://[::1]{tmp_path}",
        f"localhost:{tmp_path}",
        f"me@127.0.0.2:{tmp_path}",
        f"[::1]:{tmp_path}",
        f"file://localhost{tmp_path}",
        f"file://elsewhere{tmp_path}",
    ):
        assert local_path(url, top) == str(tmp_path), url
    assert local_path("localhost:r.git", top) == os.path.join(home, "r.git")
    assert local_path("ssh://localhost/~/r.git", top) == os.path.join(home, "r.git")
    assert local_path("localhost:~/r.git", top) == os.path.join(home, "r.git")
    assert local_path("file://nopath", top) is None
    assert is_local_host("localhost.") and is_local_host("127.0.0.1")
    assert not is_local_host("127.example.com") and not is_local_host("example.com")


def test_an_ssh_or_scp_remote_to_this_repository_itself_never_counts(tmp_path: Path) -> None:
    """A remote ``ssh://localhost/<this repository>`` (or ``localhost:<path>``) is the
    repository itself: the work goes to the next remote in git's order, not to it."""
    work, other = tmp_path / "work", tmp_path / "other.git"
    work.mkdir()
    _git(work, "init", "-q", "-b", "main")
    _git(tmp_path, "init", "-q", "--bare", str(other))
    for url in (f"ssh://localhost{work}", f"localhost:{work}/.git", f"file://host{work}"):
        _git(work, "remote", "add", "origin", url)
        assert Repository.open(str(work)).work_remote() is None, url
        _git(work, "remote", "add", "up", str(other))
        _git(work, "config", "branch.main.remote", "origin")
        _git(work, "config", "remote.pushDefault", "up")
        assert Repository.open(str(work)).work_remote() == "up", url
        for name in ("origin", "up"):  # git drops the keys naming them too
            _git(work, "remote", "remove", name)


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


def test_the_branch_head_is_on_names_its_remote_in_each_worktree(tmp_path: Path) -> None:
    """``branch.<name>.remote`` of the branch ``HEAD`` is on chooses the work's remote, read
    per worktree (a linked worktree's own ``HEAD``); detached, git's next choice
    (``origin``) stands; a branch name with a slash is read whole."""
    work, one, two = tmp_path / "work", tmp_path / "one.git", tmp_path / "two.git"
    work.mkdir()
    _git(work, "init", "-q", "-b", "main")
    _git(work, "commit", "-q", "--allow-empty", "-m", "one")
    for bare in (one, two):
        _git(tmp_path, "init", "-q", "--bare", str(bare))
    _git(work, "remote", "add", "origin", str(one))
    _git(work, "remote", "add", "up", str(two))
    _git(work, "config", "branch.main.remote", "origin")
    _git(work, "config", "branch.team/fix.remote", "up")
    assert Repository.open(str(work)).work_remote() == "origin"
    _git(work, "switch", "-q", "-c", "team/fix")
    assert Repository.open(str(work)).work_remote() == "up"
    _git(work, "switch", "-q", "--detach")
    assert Repository.open(str(work)).work_remote() == "origin"
    _git(work, "switch", "-q", "main")
    linked = tmp_path / "linked"
    _git(work, "worktree", "add", "-q", str(linked), "team/fix")
    assert Repository.open(str(linked)).work_remote() == "up"
    assert Repository.open(str(work)).work_remote() == "origin"
