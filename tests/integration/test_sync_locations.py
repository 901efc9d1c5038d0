"""``sync fetch|push`` take a repository's URL or path as well as a remote's name (issue 14:
a pull request from a fork is judged in a repository the writer's clone has no remote
for); anything else is one line and exit 2, never an option or a command handed to git.

Real repositories, real git: a bare repository the notes go to, another clone that reads
them back.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import gh, git
from tests.integration.test_hostile_inputs import hostile

NOTES = "refs/notes/gentle-hooks"


@pytest.fixture
def noted(repo: Path) -> Path:
    """``repo`` with a note on HEAD and no remote at all."""
    git(repo, "notes", "--ref=gentle-hooks", "add", "-m", "the writer's note", "HEAD")
    return repo


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    path = tmp_path / "judged in.git"  # a space: the path is one word however it is given
    git(tmp_path, "init", "-q", "--bare", str(path))
    return path


def _pushed(bare: Path) -> str:
    return git(bare, "notes", "--ref=gentle-hooks", "show", "main").strip()


def test_sync_push_to_a_path_reaches_that_repository(noted: Path, bare: Path) -> None:
    git(noted, "push", "-q", str(bare), "main")
    proc = gh(noted, "sync", "push", str(bare))
    assert proc.returncode == 0, proc.stderr
    assert f"pushed {NOTES} to {bare}" in proc.stdout
    assert _pushed(bare) == "the writer's note"
    assert git(noted, "remote").strip() == ""  # no remote was added


def test_sync_push_to_a_relative_path_from_a_subdirectory(noted: Path, bare: Path) -> None:
    git(noted, "push", "-q", str(bare), "main")
    sub = noted / "src"
    proc = gh(sub, "sync", "push", os.path.relpath(bare, sub))
    assert proc.returncode == 0, proc.stderr
    assert _pushed(bare) == "the writer's note"


def test_sync_push_to_a_file_url_merges_the_notes_it_holds(
    noted: Path, bare: Path, tmp_path: Path
) -> None:
    url = f"file://{bare}"
    git(noted, "push", "-q", str(bare), "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(bare), str(other))
    git(other, "notes", "--ref=gentle-hooks", "add", "-m", "another clone's note", "HEAD")
    git(other, "push", "-q", "origin", NOTES)
    proc = gh(noted, "sync", "push", url)
    assert proc.returncode == 0, proc.stderr
    assert sorted(_pushed(bare).splitlines()) == ["another clone's note", "the writer's note"]
    # fetched again from the URL into another clone
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(bare), str(fresh))
    fetched = gh(fresh, "sync", "fetch", url)
    assert fetched.returncode == 0, fetched.stderr
    # the clone's origin is that repository: fetched through it, under its name
    assert "took origin's notes" in fetched.stdout, fetched.stdout
    assert "another clone's note" in git(fresh, "notes", "--ref=gentle-hooks", "show", "HEAD")


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("nowhere", "no remote named 'nowhere' (see: git remote -v), nor a repository URL"),
        ("./no/such/dir", "nor an existing path"),
        ("ext::sh -c touch% PWNED", "runs a command (a remote helper)"),
        ("--upload-pack=touch PWNED", "no remote named '--upload-pack=touch PWNED'"),
        ("file:///a\nb", "no control character"),
    ],
)
def test_sync_refuses_what_names_no_repository(noted: Path, given: str, said: str) -> None:
    for direction in ("fetch", "push"):
        proc = hostile(noted, "sync", direction, "--", given)
        err = proc.stderr.decode()
        assert proc.returncode == 2 and said in err, (direction, err)
        assert not (noted / "PWNED").exists()


def test_sync_push_to_a_url_of_a_configured_remote_pushes_through_that_remote(
    noted: Path, bare: Path
) -> None:
    """``file://`` of the path ``origin`` names is the same repository: the push goes
    through ``origin`` (its transport and login) and its notes are fetched where a
    remote's are, not under a URL's own name."""
    git(noted, "remote", "add", "origin", str(bare))
    git(noted, "push", "-q", "origin", "main")
    proc = gh(noted, "sync", "push", f"file://{bare}")
    assert proc.returncode == 0, proc.stderr
    assert "origin" in proc.stdout, proc.stdout
    assert _pushed(bare) == "the writer's note"
    refs = git(noted, "for-each-ref", "--format=%(refname)", "refs/notes/remotes/")
    assert "refs/notes/remotes/url-" not in refs, refs
