"""The temporary linked checkout a spot check re-runs in when the work tree is not exactly
the candidate (SPEC §5 "Spot check"): made, furnished, removed, and swept when a killed run
left one behind.

Room ``services``. Git work goes through :mod:`gentle_hooks.git.checkout`; this module
owns the temporary directory, its lock and the dependency links. The user's index and
work tree are never written: the checkout is a detached linked worktree of the candidate's
exact tree in ``<tmp>/gentle-hooks-spot-XXXXXXXX/<name of the work tree root>``.

Dependency folders: a project's tests often need ignored folders the candidate's tree does
not hold — a virtual environment, ``node_modules``. Each of
:data:`gentle_hooks.config.settings.DEFAULT_DEPENDENCY_DIRS` and of
``verification.dependency_dirs`` that exists in the work tree and not in the checkout is
made available as a symbolic link to the work tree's folder (shared, not copied: a run
that installs into it changes the user's). The links are removed before the checkout.

Cleanup: the directory holds a ``lock`` file the running spot check keeps locked
(``flock``). A checkout whose lock is free (its process died, even by ``SIGKILL``) or
whose directory is gone is stale: the next spot check removes it (:func:`sweep`), and
``gentle-hook doctor`` reports it (:func:`stale_checkouts`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence

from gentle_hooks.config.settings import DEFAULT_DEPENDENCY_DIRS
from gentle_hooks.errors import GitError
from gentle_hooks.git.checkout import (
    add_checkout,
    commit_for_tree,
    linked_trees,
    remove_checkout,
)
from gentle_hooks.git.repository import Repository
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import frozen

#: The prefix of every temporary checkout's directory (how a later run recognises one).
PREFIX = "gentle-hooks-spot-"
#: The lock file in that directory, held while the checkout is in use.
LOCK = "lock"


@frozen
class Checkout:
    """A temporary linked checkout of one candidate.

    Attributes:
        root: its work tree root; commit: the commit checked out (a dangling one for a
            staged or snapshot tree); linked: the dependency folders linked in, relative.
    """

    root: str
    commit: str
    linked: tuple[str, ...]


def is_ours(path: str) -> bool:
    """True when a linked worktree at ``path`` is a spot check's temporary checkout."""
    return os.path.basename(os.path.dirname(path)).startswith(PREFIX)


def _lock_is_free(directory: str) -> bool:
    """True when no process holds the directory's lock (or it has none)."""
    try:
        fd = os.open(os.path.join(directory, LOCK), os.O_RDWR)
    except FileNotFoundError:
        return True
    except OSError:
        return False  # not ours to judge (another user's checkout)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # closing releases a lock this test took
    return True


def stale_checkouts(repo: Repository) -> list[str]:
    """The temporary checkouts of this repository no running spot check holds: their
    process died before removing them, or their directory is gone.

    Raises:
        GitError: ``git worktree list`` failed.
    """
    out = []
    for tree in linked_trees(repo):
        if not is_ours(tree.path):
            continue
        directory = os.path.dirname(tree.path)
        if tree.prunable or not os.path.isdir(directory) or _lock_is_free(directory):
            out.append(tree.path)
    return out


def remove(repo: Repository, path: str, linked: Sequence[str] = ()) -> None:
    """Remove one temporary checkout: its dependency links, the linked worktree, its
    directory. Links are unlinked, never followed.

    Raises:
        GitError: git could not remove the worktree.
    """
    for rel in linked:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(path, rel))
    remove_checkout(repo, path)
    directory = os.path.dirname(path)
    if os.path.basename(directory).startswith(PREFIX):
        shutil.rmtree(directory, ignore_errors=True)


def sweep(repo: Repository) -> list[str]:
    """Remove every stale temporary checkout of this repository; the paths removed.

    Never fails the spot check that calls it: a checkout that cannot be removed now stays
    for ``doctor`` to report.
    """
    removed = []
    try:
        stale = stale_checkouts(repo)
    except GitError:
        return []
    for path in stale:
        try:
            remove(repo, path)
        except GitError:
            continue
        removed.append(path)
    return removed


def checkout_commit(repo: Repository, cand: Candidate) -> str:
    """The commit whose tree is exactly the candidate's: its own commit for a committed
    candidate, else a new dangling commit of the tree (its parent HEAD, when there is one).

    Raises:
        GitError: git failed.
    """
    if (
        cand.projection is Projection.COMMITTED
        and cand.head is not None
        and repo.tree_of(cand.head) == cand.tree
    ):
        return cand.head
    return commit_for_tree(repo, cand.tree, repo.head())


def link_dependencies(work_root: str, checkout: str, extra: Sequence[str]) -> tuple[str, ...]:
    """Link the dependency folders the work tree has and the checkout lacks; the relative
    paths linked (see the module docstring)."""
    linked = []
    for rel in dict.fromkeys((*DEFAULT_DEPENDENCY_DIRS, *extra)):
        source = os.path.join(work_root, rel)
        target = os.path.join(checkout, rel)
        if not os.path.exists(source) or os.path.lexists(target):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.symlink(os.path.realpath(source), target, target_is_directory=os.path.isdir(source))
        linked.append(rel)
    return tuple(linked)


@contextlib.contextmanager
def candidate_checkout(
    repo: Repository, root: str, cand: Candidate, dependency_dirs: Sequence[str]
) -> Iterator[Checkout]:
    """A temporary linked checkout of the candidate's exact tree, removed on exit (also on
    an exception, ``KeyboardInterrupt`` or ``SystemExit``).

    Args:
        repo / root: the repository and its work tree root (where dependency folders are);
        cand: the candidate; dependency_dirs: ``verification.dependency_dirs``.

    Raises:
        GitError: the commit or the checkout could not be made.
        OSError: the temporary directory could not be made.
    """
    sweep(repo)
    directory = tempfile.mkdtemp(prefix=PREFIX)
    lock = os.open(os.path.join(directory, LOCK), os.O_RDWR | os.O_CREAT, 0o600)
    path = os.path.join(directory, os.path.basename(root.rstrip("/")) or "checkout")
    linked: tuple[str, ...] = ()
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        commit = checkout_commit(repo, cand)
        add_checkout(repo, path, commit)
        linked = link_dependencies(root, path, dependency_dirs)
        yield Checkout(path, commit, linked)
    finally:
        try:
            if os.path.isdir(path):
                remove(repo, path, linked)
        finally:
            os.close(lock)
            shutil.rmtree(directory, ignore_errors=True)
