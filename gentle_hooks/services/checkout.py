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
that installs into it changes the user's). So is every other ignored file or directory of
the work tree (``git ls-files --others --ignored --exclude-standard --directory``: a
``.env`` the tests read, a generated ``_version.py``, build output), linked the same way
(:func:`link_ignored`): never a tracked path (the candidate's own files stay the
candidate's), never a file a test runner loads by name (an ignored ``conftest.py``
would decide the re-run), never a directory holding a ``.git`` (another repository or
worktree), never the repository's git directory or our ledger inside it. The links are
removed before the checkout.

Editable installs: a virtual environment linked in, or one outside the repository that the
run's ``PATH`` or ``VIRTUAL_ENV`` reaches, may hold an editable install of one of the
repository's work trees (a ``.pth`` line naming ``<work tree>/src``, a setuptools
``__editable___*_finder.py`` mapping a package to it, an ``.egg-link``, a ``.pth``
``import`` line installing a finder). Python would import that work tree's copy, not the
candidate's: the checkout gets the verify room's composition
(:mod:`~gentle_hooks.services.checkout_imports`: each such place first on ``PYTHONPATH``
at the same path inside the checkout, behind the import guard, checked by asking the
interpreters; :func:`run_env`); a place the candidate's tree does not hold is
unimportable there and named in :attr:`Checkout.said`; when the composition cannot hold,
no checkout is made (``UsageError``). :func:`editable_redirects` and
:func:`env_redirects` read the install files alone, for the definition rule.

Cleanup: the directory holds a ``lock`` file the running spot check keeps locked
(``flock``) and, once locked, names in it its process id and the repository (common git
directory) it belongs to. A room whose lock is free was left by a spot check that died
(even by ``SIGKILL``): the next spot check removes it (:func:`sweep`) and ``gentle-hook
doctor`` reports it (:func:`stale_rooms`) for ``doctor --fix`` to remove — the linked
worktree registered in this repository (locked or not, its directory there or gone), or the
bare room of a spot check killed before its checkout was made. A room another repository's
lock names is that repository's to sweep; one that names none yet (a spot check killed
between making the directory and locking it) is taken for dead after
:data:`CLAIM_SECONDS`. A room held by a running spot check, or not this user's, is never
touched.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence

from gentle_hooks.config.settings import DEFAULT_DEPENDENCY_DIRS
from gentle_hooks.errors import GitError, UsageError
from gentle_hooks.git.checkout import (
    add_checkout,
    commit_for_tree,
    linked_trees,
    remove_checkout,
)
from gentle_hooks.git.process import scrubbed_env
from gentle_hooks.git.repository import Repository
from gentle_hooks.services.checkout_imports import checkout_imports
from gentle_hooks.services.editable import (
    Redirect,
    import_places,
    in_trees,
    python_path,
    site_dirs,
)
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import frozen

#: The prefix of every temporary checkout's directory (how a later run recognises one).
PREFIX = "gentle-hooks-spot-"
#: The lock file in that directory, held while the checkout is in use.
LOCK = "lock"
#: The directory in that directory Python's bytecode cache of a run goes to
#: (``PYTHONPYCACHEPREFIX``, :func:`run_env`).
PYCACHE = "pycache"


@frozen
class Checkout:
    """A temporary linked checkout of one candidate.

    Attributes:
        root: its work tree root; commit: the commit checked out (a dangling one for a
            staged or snapshot tree); linked: the dependency folders linked in, relative;
            redirected: the places (relative to a work tree's root) an editable install in a
            linked or reached virtual environment imports from, which :func:`run_env` puts
            first on ``PYTHONPATH`` inside the checkout; trees: the repository's work trees
            (an entry of ``PYTHONPATH`` in one is mapped into the checkout); unheld: the
            places of those the candidate's tree does not hold (Python still imports them
            from the work tree); ignored: the other ignored paths of the work tree linked
            in (:func:`link_ignored`), relative, not named in :attr:`said`; first: what
            :func:`run_env` puts first on ``PYTHONPATH`` (the import guard's directory,
            then the checkout's places: :mod:`~gentle_hooks.services.checkout_imports`),
            empty for :attr:`redirected` alone.
    """

    root: str
    commit: str
    linked: tuple[str, ...]
    redirected: tuple[str, ...] = ()
    trees: tuple[str, ...] = ()
    unheld: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    first: str = ""

    @property
    def said(self) -> str:
        """`` (linked in: .venv; its editable install of src imports the checkout's)``, or
        ``""`` when nothing was linked or redirected."""
        parts = [f"linked in: {', '.join(self.linked)}"] if self.linked else []
        if self.redirected:
            whose = "its" if self.linked else "an"
            parts.append(
                f"{whose} editable install of {', '.join(self.redirected)} imports the checkout's"
            )
        if self.unheld:
            parts.append(
                f"an editable install imports {', '.join(self.unheld)} from your work tree: "
                "the candidate's tree does not hold it"
                + (", unimportable there" if self.first else "")
            )
        return f" ({'; '.join(parts)})" if parts else ""


def is_ours(path: str) -> bool:
    """True when a linked worktree at ``path`` is a spot check's temporary checkout."""
    return os.path.basename(os.path.dirname(path)).startswith(PREFIX)


#: Seconds a room may name no owner (made, not yet locked) before a sweep takes it for dead.
CLAIM_SECONDS = 60.0
#: The most bytes read from a room's lock file (a process id and a directory).
_LOCK_LIMIT = 8192


@frozen
class _Room:
    """What a room's lock says.

    Attributes:
        held: a running spot check holds the lock, or the room cannot be judged (not this
            user's, a lock that is not a regular file); such a room is never touched.
        repository: the common git directory the lock names (real path, bytes), or None
            when it names none yet; age: seconds since the room last changed.
    """

    held: bool
    repository: bytes | None
    age: float


def _room(directory: str) -> _Room:
    """Read the lock of the room ``directory`` without blocking or following a link."""
    import stat
    import time

    try:
        info = os.lstat(directory)
    except OSError:
        return _Room(False, None, CLAIM_SECONDS + 1)  # gone: nothing holds it
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return _Room(True, None, 0.0)
    age = time.time() - info.st_mtime
    flags = os.O_RDWR | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(os.path.join(directory, LOCK), flags)
    except FileNotFoundError:
        return _Room(False, None, age)
    except OSError:
        return _Room(True, None, age)  # not ours to judge
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return _Room(True, None, age)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return _Room(True, None, age)
        lines = os.read(fd, _LOCK_LIMIT).split(b"\n")
    except OSError:
        return _Room(True, None, age)
    finally:
        os.close(fd)  # closing releases a lock this test took
    named = lines[1] if len(lines) > 2 and lines[0].strip().isdigit() and lines[1] else None
    return _Room(False, named, age)


def _is_dead(room: _Room) -> bool:
    """A room no spot check holds that names its repository, or that named none for
    longer than :data:`CLAIM_SECONDS`."""
    return not room.held and (room.repository is not None or room.age > CLAIM_SECONDS)


def _common_dir(repo: Repository) -> bytes:
    return os.fsencode(os.path.realpath(repo.paths.common_dir))


def stale_checkouts(repo: Repository) -> list[str]:
    """The temporary checkouts registered in this repository no running spot check holds:
    their process died before removing them, or their directory is gone.

    Raises:
        GitError: ``git worktree list`` failed.
    """
    out = []
    for tree in linked_trees(repo):
        if not is_ours(tree.path):
            continue
        directory = os.path.dirname(tree.path)
        if tree.prunable or not os.path.isdir(directory) or _is_dead(_room(directory)):
            out.append(tree.path)
    return out


def stale_rooms(repo: Repository, registered: Sequence[str] = ()) -> list[str]:
    """The rooms (``<tmp>/gentle-hooks-spot-*``) of spot checks of this repository that
    died before their checkout was registered or after it was removed, besides the
    directories of ``registered`` checkouts: this user's, no running spot check holding
    them, their lock naming this repository, or none for longer than
    :data:`CLAIM_SECONDS`."""
    import tempfile

    base = tempfile.gettempdir()
    try:
        names = sorted(n for n in os.listdir(base) if n.startswith(PREFIX))
    except OSError:
        return []
    skip = {os.path.realpath(os.path.dirname(p)) for p in registered}
    mine = _common_dir(repo)
    out = []
    for name in names:
        directory = os.path.join(base, name)
        if os.path.realpath(directory) in skip:
            continue
        room = _room(directory)
        if _is_dead(room) and room.repository in (None, mine):
            out.append(directory)
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
    """Remove every stale temporary checkout of this repository (:func:`stale_checkouts`)
    and every dead room of it (:func:`stale_rooms`); the paths removed.

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
    for directory in stale_rooms(repo, stale):
        shutil.rmtree(directory, ignore_errors=True)  # links inside removed, not followed
        if not os.path.lexists(directory):
            removed.append(directory)
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


#: The most ignored paths of the work tree linked into one checkout.
IGNORED_LIMIT = 10000


def link_ignored(repo: Repository, work_root: str, checkout: str) -> tuple[str, ...]:
    """Link every ignored file or directory of the work tree (``repo``'s, rooted at
    ``work_root``) the checkout lacks, as a symbolic link to the work tree's; the relative
    paths linked, at most :data:`IGNORED_LIMIT`. Skipped: a path the checkout already has
    (tracked there, or linked as a dependency folder), a file a test runner or the
    interpreter loads by its name alone (an ignored ``conftest.py``, ``pytest.ini``,
    ``*.pth``: :func:`~gentle_hooks.policy.runnerfiles.is_runner_loaded`; it would decide the
    re-run, SPEC §5), a directory holding a ``.git``,
    anything in or holding the repository's git directories (the ledger is there), a path
    that is no longer there. A listing git cannot give links nothing (the run then sees
    only the dependency folders, as before).
    """
    try:
        listed = repo.ignored_files()
    except GitError:
        return ()
    # imported here: its tables (ast, configparser) are off the gates' import path
    from gentle_hooks.policy.runnerfiles import is_runner_loaded

    gits = {os.path.realpath(d) for d in (repo.paths.git_dir, repo.paths.common_dir)}
    linked = []
    for entry in listed[:IGNORED_LIMIT]:
        rel = entry.rstrip("/")
        if not rel or ".." in rel.split("/"):
            continue
        if not entry.endswith("/") and is_runner_loaded(rel):
            continue  # it would decide the re-run as much as the candidate's own files
        source = os.path.join(work_root, rel)
        target = os.path.join(checkout, rel)
        if not os.path.lexists(source) or os.path.lexists(target):
            continue
        real = os.path.realpath(source)
        if os.path.lexists(os.path.join(source, ".git")) or any(
            _under(g, real) is not None or _under(real, g) is not None for g in gits
        ):
            continue
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(real, target, target_is_directory=os.path.isdir(source))
        except OSError:
            continue
        linked.append(rel)
    return tuple(linked)


def _under(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` (both real paths) when it is ``root`` or under it."""
    if path == root:
        return "."
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else None


def editable_redirects(work_root: str, linked: Sequence[str]) -> tuple[str, ...]:
    """The places in the work tree (relative to ``work_root``; ``.`` for the root itself)
    that an editable install in one of the ``linked`` virtual environments (a folder with
    ``pyvenv.cfg``) puts on ``sys.path``, outside the linked folders themselves; in the
    order found, each once."""
    venvs = [os.path.join(work_root, rel) for rel in linked]
    venvs = [v for v in venvs if os.path.isfile(os.path.join(v, "pyvenv.cfg"))]
    sites = site_dirs({"PATH": os.pathsep.join(os.path.join(v, "bin") for v in venvs)})
    places = import_places(sites)
    return tuple(r.rel for r in in_trees(places, [work_root], venvs))


def env_redirects(
    trees: Sequence[str], root: str, linked: Sequence[str], env: Mapping[str, str]
) -> tuple[Redirect, ...]:
    """The places of the work trees ``trees`` that the interpreters ``env`` reaches
    (``PATH``, ``VIRTUAL_ENV``, the user's site directory:
    :func:`~gentle_hooks.services.editable.site_dirs`) import from editably, outside the
    folders ``linked`` into the checkout from the work tree ``root``."""
    skip = [os.path.join(root, rel) for rel in linked]
    return in_trees(import_places(site_dirs(env)), trees, skip)


def run_env(co: Checkout, env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with ``co``'s editable-install places first on ``PYTHONPATH`` (inside the
    checkout), an entry ``env``'s ``PYTHONPATH`` has in one of the repository's work trees
    mapped to the same place in the checkout, and ``PYTHONPYCACHEPREFIX`` a directory of
    the checkout's own temporary directory, outside its tree: Python then reads no
    ``__pycache__/*.pyc`` of the tree (a stale one compiled with ``UNCHECKED_HASH`` would
    run in place of its source)."""
    out = dict(env)
    out["PYTHONPYCACHEPREFIX"] = os.path.join(os.path.dirname(co.root), PYCACHE)
    kept = out.get("PYTHONPATH", "")
    if co.first:
        rest = python_path(co.root, (), kept, co.trees)
        out["PYTHONPATH"] = os.pathsep.join(p for p in (co.first, rest) if p)
    elif co.redirected or kept:
        out["PYTHONPATH"] = python_path(co.root, co.redirected, kept, co.trees)
    return out


def _way_out(cand: Candidate) -> str:
    """What gets past a checkout whose imports cannot be kept in the candidate's tree: a
    work tree that is the candidate's tree runs in place (no checkout), or an install that
    does not import the work tree's code, by this run's own interpreter
    (``sys.executable``, shell-quoted: the pasted command repairs the environment the run
    used, not whatever ``python`` a shell finds first)."""
    staged = cand.projection is Projection.STAGED
    aside = "stage them (`git add -A`) or set them aside" if staged else "commit or set them aside"
    pip = f"{shlex.quote(sys.executable)} -m pip install --no-deps --force-reinstall ."
    return (
        f"install the project into that interpreter without -e (from the repository's top: "
        f"`{pip}`), or make the work tree the "
        f"candidate's tree so the run needs no checkout (its other changes: {aside})"
    )


@contextlib.contextmanager
def candidate_checkout(
    repo: Repository,
    root: str,
    cand: Candidate,
    dependency_dirs: Sequence[str],
    env: Mapping[str, str] | None = None,
) -> Iterator[Checkout]:
    """A temporary linked checkout of the candidate's exact tree, removed on exit (also on
    an exception, ``KeyboardInterrupt`` or ``SystemExit``).

    Args:
        repo / root: the repository and its work tree root (where dependency folders are);
        cand: the candidate; dependency_dirs: ``verification.dependency_dirs``; env: the
        environment commands will run with there (default: this process's, scrubbed),
        whose interpreters' editable installs of a work tree import the checkout's copy
        (:func:`env_redirects`, :func:`run_env`).

    Raises:
        GitError: the commit or the checkout could not be made.
        OSError: the temporary directory could not be made.
        UsageError: the checkout cannot keep its runs' imports in the candidate's tree
            (:attr:`~gentle_hooks.services.room_imports.RoomImports.unresolved`), with the
            way out.
    """
    sweep(repo)
    directory = tempfile.mkdtemp(prefix=PREFIX)
    lock = os.open(os.path.join(directory, LOCK), os.O_RDWR | os.O_CREAT, 0o600)
    path = os.path.join(directory, os.path.basename(root.rstrip("/")) or "checkout")
    linked_all: tuple[str, ...] = ()
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # claimed: a sweep finding the lock free now knows this spot check is gone, and
        # which repository's room it was
        os.write(lock, f"{os.getpid()}\n".encode() + _common_dir(repo) + b"\n")
        commit = checkout_commit(repo, cand)
        add_checkout(repo, path, commit)
        linked = link_dependencies(root, path, dependency_dirs)
        ignored = link_ignored(repo, root, path)
        try:
            trees = tuple(repo.worktree_paths())
        except GitError:
            trees = (root,)
        imports, _ = checkout_imports(
            scrubbed_env() if env is None else env, trees, path, (*linked, *ignored)
        )
        if imports.unresolved:
            raise UsageError(f"the temporary checkout: {imports.unresolved}; {_way_out(cand)}")
        held = [(p, m) for p, m in imports.places if os.path.isdir(m)]
        redirected = tuple(dict.fromkeys(os.path.relpath(m, path) for _, m in held))
        missing = tuple(p for p, m in imports.places if not os.path.isdir(m))
        yield Checkout(path, commit, linked, redirected, trees, missing, ignored, imports.first)
    finally:
        try:
            if os.path.isdir(path):
                remove(repo, path, linked_all)
        finally:
            os.close(lock)
            shutil.rmtree(directory, ignore_errors=True)
