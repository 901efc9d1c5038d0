"""Temporary linked checkouts of a candidate's tree (SPEC §5 "Spot check"): a commit object
for a tree, a detached linked worktree of it, and the list of linked worktrees.

Room ``git``. Nothing here touches a ref, the user's index or the user's work tree: the
commit for a staged or snapshot tree is a dangling object (``git commit-tree``, no ref
updated; ``git gc`` prunes it in time); the checkout is ``git worktree add --detach`` into
a directory the caller chose, with its own index under ``<git-dir>/worktrees/``. Hooks are
off while git checks it out (``core.hooksPath=/dev/null``: a user's ``post-checkout`` must
not run for it), and every git process here runs without the repository variables a hook
inherits (a ``GIT_INDEX_FILE`` would make ``worktree add`` write the user's index).
"""

from __future__ import annotations

import os

from gentle_hooks.errors import GitError
from gentle_hooks.git.core import RepositoryCore
from gentle_hooks.git.location import probe_paths
from gentle_hooks.git.process import run_git, scrubbed_env
from gentle_hooks.git.repository import Repository
from gentle_hooks.values.frozen import frozen

#: Who a checkout's commit object says made it (any ident works: no ref points at it).
_IDENT = {
    "GIT_AUTHOR_NAME": "gentle-hooks",
    "GIT_AUTHOR_EMAIL": "gentle-hooks@localhost",
    "GIT_COMMITTER_NAME": "gentle-hooks",
    "GIT_COMMITTER_EMAIL": "gentle-hooks@localhost",
    "GIT_AUTHOR_DATE": "@0 +0000",
    "GIT_COMMITTER_DATE": "@0 +0000",
}


@frozen
class LinkedTree:
    """One linked worktree as ``git worktree list --porcelain`` shows it.

    Attributes:
        path: its root; head: its HEAD commit (None when unborn or unknown);
        prunable: git reports its directory gone.
    """

    path: str
    head: str | None
    prunable: bool


def _run(repo: RepositoryCore, args: list[str], ok: tuple[int, ...] = (0,)) -> bytes:
    """``git <args>`` in the work tree root, without the hook's repository variables."""
    cwd = repo.paths.toplevel
    if cwd is None:
        raise GitError("a bare repository has no work tree to check a candidate out from")
    proc = run_git(args, cwd, scrubbed_env(repo.env))
    if proc.returncode not in ok:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {args[0]} failed: {err[-1] if err else proc.returncode}")
    return proc.stdout


def commit_for_tree(repo: RepositoryCore, tree: str, parent: str | None) -> str:
    """A commit object holding ``tree`` (with ``parent``, so tools reading history see
    the branch), made without updating any ref; its id.

    Raises:
        GitError: git refused (an unknown tree or parent).
    """
    args = ["commit-tree", tree, "-m", "gentle-hooks: temporary checkout of a candidate"]
    if parent is not None:
        args[2:2] = ["-p", parent]
    return repo.out(args, env=_IDENT)


def add_checkout(repo: RepositoryCore, path: str, commit: str) -> None:
    """Check ``commit`` out, detached, as a new linked worktree at ``path`` (which must not
    exist yet, or be empty).

    Raises:
        GitError: git refused (the path is taken, the commit is unknown).
    """
    _run(
        repo,
        ["-c", "core.hooksPath=/dev/null", "worktree", "add", "--quiet", "--detach", path, commit],
    )


def remove_checkout(repo: RepositoryCore, path: str) -> None:
    """Remove the linked worktree at ``path`` and its administrative files, whatever it
    holds now (``--force``: files the re-run created go too; twice: also when it is still
    locked, as ``git worktree add`` leaves it when killed, or its directory is gone); a
    path that is no linked worktree any more is not an error. Symbolic links in it are
    removed, never followed.

    Raises:
        GitError: git failed otherwise.
    """
    _run(repo, ["worktree", "remove", "--force", "--force", path], ok=(0, 128))


def linked_trees(repo: RepositoryCore) -> list[LinkedTree]:
    """Every worktree of the repository but the main one, from ``git worktree list
    --porcelain``."""
    out = _run(repo, ["worktree", "list", "--porcelain", "-z"])
    return parse_worktree_list(out)[1:]


def parse_worktree_list(data: bytes) -> list[LinkedTree]:
    """Parse ``git worktree list --porcelain -z`` (attribute lines ended by NUL, records
    by an empty one), main worktree first."""
    trees: list[LinkedTree] = []
    path: str | None = None
    head: str | None = None
    prunable = False
    for field in [*data.split(b"\0"), b""]:
        text = field.decode("utf-8", "surrogateescape")
        if text.startswith("worktree "):
            path, head, prunable = text[len("worktree ") :], None, False
        elif text.startswith("HEAD "):
            head = text[len("HEAD ") :]
        elif text == "prunable" or text.startswith("prunable "):
            prunable = True
        elif not text and path is not None:
            trees.append(LinkedTree(path, head, prunable))
            path = None
    return trees


def open_checkout(path: str) -> Repository:
    """The linked checkout at ``path`` as a :class:`Repository` of its own work tree,
    opened without the hook's repository variables.

    Raises:
        GitError: ``path`` is not a git work tree.
    """
    env = scrubbed_env()
    paths = probe_paths(path, env)
    if paths is None or paths.toplevel is None:
        raise GitError(f"{path}: the temporary checkout is not a git work tree")
    return Repository(paths, env)


def other_worktrees(repo: RepositoryCore) -> list[Repository]:
    """Every other worktree of the repository whose directory is there, each as a
    :class:`Repository` of its own work tree and index (opened without the hook's
    repository variables), from ``git worktree list``.

    Raises:
        GitError: ``git worktree list`` failed.
    """
    here = os.path.realpath(repo.paths.toplevel or "")
    out = []
    for path in repo.worktree_paths():
        if os.path.realpath(path) == here or not os.path.isdir(path):
            continue
        env = scrubbed_env()
        paths = probe_paths(path, env)
        if paths is not None and paths.toplevel is not None:
            out.append(Repository(paths, env))
    return out
