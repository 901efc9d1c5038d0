"""Some changes' sides written as two trees of their own (gentle_hooks.git.pairtrees): git
reads the pack, and the diff of the two trees is the diff of the whole trees limited to
those paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.git.pairtrees import borrowing_env, write_pair_trees
from gentle_hooks.git.parse import listing, parse_raw_numstat
from gentle_hooks.git.repository import Repository
from tests.conftest import commit_all, git, write


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_pair_trees_diff_as_the_limited_diff(tmp_path: Path, object_format: str) -> None:
    root = tmp_path / "r"
    git(tmp_path, "init", "-q", f"--object-format={object_format}", str(root))
    for i in range(40):
        write(root / f"d{i % 3}" / "sub" / f"f{i}.py", f"a = {i}\n")
    write(root / "top.py", "x\n")
    write(root / "gone.py", "bye\n")
    write(root / "tool", "#!/bin/sh\n", mode=0o755)
    commit_all(root, "base")
    for i in range(0, 40, 2):
        write(root / f"d{i % 3}" / "sub" / f"f{i}.py", f"a = {i}\nb = {i}\n")
    write(root / "d1" / "new file.py", "new\n")
    (root / "gone.py").unlink()
    (root / "tool").chmod(0o644)
    commit_all(root)
    base = git(root, "rev-parse", "HEAD~1^{tree}").strip()
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    flags = ["--no-renames", "--raw", "--numstat", "-z", "--no-abbrev"]
    changes = parse_raw_numstat(git(root, "diff", *flags, base, tree).encode())
    chosen = [c for i, c in enumerate(changes) if i % 2 == 0 or c.status != "M"]
    dest = tmp_path / "objects"
    dest.mkdir()
    old, new = write_pair_trees([(c.path, listing(c)[3]) for c in chosen], str(dest), object_format)
    repo = Repository.open(str(root))
    env = borrowing_env(str(dest), repo.env, repo.paths.common_dir)
    assert env is not None
    (pack,) = (dest / "pack").glob("*.idx")
    git(root, "verify-pack", str(pack))
    both = {**os.environ, **env}
    paths = [c.path for c in chosen]
    limited = git(root, "diff", "-p", *flags, base, tree, "--", *paths)
    assert git(root, "diff", "-p", *flags, old, new, env=both) == limited
    assert limited.count("\0:") + limited.startswith(":") == len(chosen)


def test_object_directories_that_cannot_be_named_are_not_borrowed(tmp_path: Path) -> None:
    dest = str(tmp_path / "objects")
    assert borrowing_env(dest, {}, "/a/.git") == {
        "GIT_OBJECT_DIRECTORY": dest,
        "GIT_ALTERNATE_OBJECT_DIRECTORIES": "/a/.git/objects",
    }
    quarantine = {"GIT_OBJECT_DIRECTORY": "/q", "GIT_ALTERNATE_OBJECT_DIRECTORIES": "/a/objects"}
    env = borrowing_env(dest, quarantine, "/a")
    assert env is not None and env["GIT_ALTERNATE_OBJECT_DIRECTORIES"] == "/q:/a/objects"
    assert borrowing_env(dest, {}, "/a:b/.git") is None
    assert borrowing_env(dest, {"GIT_OBJECT_DIRECTORY": "rel"}, "/a") is None
