"""Where notes are shared (gentle_hooks.notes.where) and the range gate's printed lines for a
repository named by URL (issue 14: a pull request from a fork)."""

from __future__ import annotations

import shlex

import pytest

from gentle_hooks.notes.where import is_location, public_url, repository_key, tracking_ref
from gentle_hooks.report.worktree_text import GIT_SHARE_NOTES, git_share_notes, to_remote


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://gitlab-ci-token:s3cr3t@gitlab.example/g/p.git", "https://gitlab.example/g/p.git"),
        ("http://user@host/p.git", "http://host/p.git"),
        ("ssh://git:pw@host/p.git", "ssh://git@host/p.git"),
        ("ssh://git@host/p.git", "ssh://git@host/p.git"),
        ("git@github.com:o/r.git", "git@github.com:o/r.git"),
        ("/srv/git/base.git", "/srv/git/base.git"),
    ],
)
def test_a_printed_url_carries_no_password_or_token(url: str, shown: str) -> None:
    assert public_url(url) == shown


@pytest.mark.parametrize(
    ("text", "location"),
    [
        ("https://github.com/o/r.git", True),
        ("file:///srv/base.git", True),
        ("git@github.com:o/r.git", True),
        ("/srv/base.git", True),
        ("origin", False),
        ("../base.git", False),
        ("ext::sh -c touch% x", False),
        ("fd::3", False),
        ("-oProxyCommand=x:repo", False),
    ],
)
def test_a_location_is_a_url_or_an_absolute_path_never_a_command(text: str, location: bool) -> None:
    assert is_location(text) is location


def test_a_url_s_notes_are_fetched_under_a_name_of_their_own_no_push_refspec_sends() -> None:
    ref = tracking_ref("https://github.com/o/r.git", named=False)
    assert ref.startswith("refs/notes/remotes/url-") and ref.endswith("/gentle-hooks")
    assert not ref.startswith("refs/notes/gentle-hooks")  # the share push refspec's glob
    assert tracking_ref("origin") == "refs/notes/remotes/origin/gentle-hooks"


def test_the_git_line_names_the_repository_its_sync_push_names() -> None:
    url = "https://github.com/o/r b.git"
    fix = [("run", "gentle-hook sync push"), ("or", GIT_SHARE_NOTES)]
    out = to_remote(fix, url, "words said when no repository is named")
    assert out[0] == ("run", f"gentle-hook sync push {shlex.quote(url)}")
    assert out[1] == ("or", "gentle-hook sync push")  # no login for that URL: the remote
    assert out[2] == ("or", git_share_notes(url, named=False))
    words = shlex.split(out[2][1].replace("&&", ";").replace(";", " ; "))
    assert "origin" not in words and words.count(url) == 3, words
    # a pre-push's remote name: the git line pushes there too, fetched under its name
    named = to_remote(fix, "upstream")
    assert named[1][1].startswith("git ls-remote --exit-code upstream ")
    assert "refs/notes/remotes/upstream/gentle-hooks" in named[1][1]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://github.com/o/r.git", "git@github.com:o/r.git"),
        ("https://github.com/o/r.git", "ssh://git@github.com/o/r"),
        ("https://GitHub.com/o/r/", "ssh://git@github.com:22/o/r.git"),
        ("https://user:token@gitlab.example/g/p.git", "git@gitlab.example:g/p"),
        ("file:///srv/git/base.git", "/srv/git/base.git"),
    ],
)
def test_one_repository_by_any_transport_has_one_key(a: str, b: str) -> None:
    assert repository_key(a) == repository_key(b) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://github.com/o/r.git", "https://github.com/o/fork.git"),
        ("https://github.com/o/r.git", "git@gitlab.com:o/r.git"),
        ("/srv/git/base.git", "/srv/git/other.git"),
    ],
)
def test_other_repositories_have_other_keys(a: str, b: str) -> None:
    assert repository_key(a) != repository_key(b)


@pytest.mark.parametrize("text", ["", "-oProxyCommand=x:r", "ext::sh -c x", "fd::3"])
def test_what_names_no_repository_has_no_key(text: str) -> None:
    assert repository_key(text) is None


def test_a_range_s_sync_push_to_a_url_has_the_plain_one_as_its_alternative() -> None:
    fix = [("run", "gentle-hook sync push"), ("or", GIT_SHARE_NOTES)]
    lines = to_remote(fix, "https://github.com/o/r.git")
    assert lines[:2] == [
        ("run", "gentle-hook sync push https://github.com/o/r.git"),
        ("or", "gentle-hook sync push"),
    ]
    assert to_remote(fix, "upstream")[0] == ("run", "gentle-hook sync push upstream")
    assert ("or", "gentle-hook sync push") not in to_remote(fix, "upstream")
