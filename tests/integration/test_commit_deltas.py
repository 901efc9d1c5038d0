"""The git room's per-commit deltas and blob history (SPEC §3 "Attribution follows
content"): what :mod:`gentle_hooks.hooks.changed_tree` reads of the commits a range or
server gate leaves undelegated, on a real repository.

* :meth:`~gentle_hooks.git.delta.Deltas.commit_deltas`: one list per parent, in parent
  order; a root commit against the empty tree; an empty commit with one empty list; a path
  whose name is an object id read as a path;
* :meth:`~gentle_hooks.git.delta.Deltas.blob_in_history`: a blob added at a path in an
  ancestor (and removed since) is found; the same blob at another path, or a blob only a
  descendant holds, is not.
"""

from __future__ import annotations

from pathlib import Path

from gentle_hooks.git.repository import Repository
from tests.conftest import commit_all, git, write


def test_commit_deltas_of_root_merge_and_empty_commits(repo: Path) -> None:
    root = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "side")
    write(repo / "side.txt", "side\n")
    side = commit_all(repo, "side")
    git(repo, "checkout", "-q", "-")
    oid_name = "a" * 40
    write(repo / oid_name, "named like an id\n")
    main = commit_all(repo, "main")
    git(repo, "merge", "-q", "--no-edit", "side")
    merge = git(repo, "rev-parse", "HEAD").strip()
    empty = commit_all(repo, "empty")
    r = Repository.open(str(repo))

    found = r.commit_deltas([root, main, merge, empty])

    assert sorted(c.path for c in found[root][0]) == [
        ".gitignore",
        "README.md",
        "src/app.py",
        "tests/test_app.py",
    ]
    assert [(c.path, c.old_blob) for c in found[main][0]] == [(oid_name, None)]
    assert [[c.path for c in d] for d in found[merge]] == [["side.txt"], [oid_name]]
    assert found[merge][0][0].new_blob == git(repo, "rev-parse", f"{side}:side.txt").strip()
    assert found[empty] == [[]]


def test_blob_in_history_by_path(repo: Path) -> None:
    write(repo / "src" / "app.py", "writer\n")
    added = commit_all(repo, "writer")
    blob = git(repo, "rev-parse", f"{added}:src/app.py").strip()
    write(repo / "src" / "app.py", "person\n")
    later = commit_all(repo, "person")
    r = Repository.open(str(repo))

    assert r.blob_in_history([later], "src/app.py", blob)
    assert not r.blob_in_history([later], "src/other.py", blob)
    assert not r.blob_in_history([f"{added}~1"], "src/app.py", blob)
    assert not r.blob_in_history([], "src/app.py", blob)
