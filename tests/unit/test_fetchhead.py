"""``FETCH_HEAD`` lines read as git's ``fetch.c`` writes them (:mod:`gentle_hooks.git.fetchhead`):
the source of each line, and which lines name another repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.git.fetchhead import fetched_ids, source_of

A, B, C, D, E = ("a" * 40, "b" * 40, "c" * 40, "d" * 64, "e" * 40)


@pytest.mark.parametrize(
    ("note", "source"),
    [
        ("branch 'main' of https://example.com/x", "https://example.com/x"),
        ("remote-tracking branch 'origin/main' of ../o", "../o"),
        ("tag 'v1' of /srv/x of y", "/srv/x of y"),
        ("'refs/pull/1/head' of git@host:x/y", "git@host:x/y"),
        (".", "."),
        ("/abs/path", "/abs/path"),
    ],
)
def test_the_source_follows_the_quoted_name(note: str, source: str) -> None:
    assert source_of(note) == source


def test_lines_from_this_repository_are_not_fetched(tmp_path: Path) -> None:
    top = tmp_path / "r"
    common = top / ".git"
    linked = common / "worktrees" / "b"
    linked.mkdir(parents=True)
    (tmp_path / "b").mkdir()
    (linked / "gitdir").write_text(f"{tmp_path / 'b' / '.git'}\n")
    (common / "FETCH_HEAD").write_text(
        f"{A}\t\tbranch 'main' of {tmp_path / 'origin'}\n"  # another repository
        f"{B}\t\t.\n"  # this one
        f"{C}\tnot-for-merge\tbranch 'x' of file://{top}/\n"  # this one, as a URL
        f"{D}\t\tbranch 'y' of ssh://host/x\n"
        "garbage line\n"
    )
    (linked / "FETCH_HEAD").write_text(
        f"{E}\t\tbranch 'main' of ../r\n"  # the main worktree, relative to b
        f"{C}\t\t'HEAD' of {tmp_path / 'b'}\n"
    )
    assert fetched_ids(str(common)) == [A, D]
