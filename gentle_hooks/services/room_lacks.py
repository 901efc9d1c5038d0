"""Which file of the user's work tree that git ignores a failed check needed (SPEC §9: the
clean room holds the candidate's exact tree, none of the clone's ignored files; issue 14,
refuter r14u: a suite needing an ignored ``localcfg.py`` was called the brief's fault).

Room ``services``. :func:`ignored_lack` reads a failed run's output for a Python module it
could not import (``No module named 'localcfg'``) or a file it could not open
(:func:`~gentle_hooks.policy.toolmissing.missing_files`) and names the one the user's work
tree holds and git ignores: no brief can fix that, and no option passes such a file into
the room. :func:`lacked_here` does the same for a ``receipt run`` in a work tree that
lacks the file another work tree of the repository holds (git shares no ignored file
between worktrees), :func:`holder_of` finds that work tree again for a block, and
:func:`copy_line` is the copy they print; :func:`room_lack` is the line a spot check refuses
with instead of recording a re-run such a lack failed. ``gate --reverify`` says the same of a CI
clone in the same words (:func:`gentle_hooks.services.reverify._ignored_absent`).
"""

from __future__ import annotations

import os
import posixpath
import re

from gentle_hooks.errors import GitError
from gentle_hooks.git.checkout import other_worktrees
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.toolmissing import missing_files
from gentle_hooks.services.runner import Observation

#: A module an interpreter could not import, as its error names it.
_NO_MODULE = re.compile(r"No module named '?([\w.]+)'?")


def ignored_lack(repo: Repository, root: str, output: str) -> str | None:
    """The words naming the first file the failed run's ``output`` says it lacked that the
    work tree ``root`` of ``repo`` holds and git ignores (``the file localcfg.py, which git
    ignores``), or None when there is none (or git cannot say)."""
    rel = _ignored_path(repo, root, output)
    return None if rel is None else f"the file {rel}, which git ignores"


def _ignored_path(repo: Repository, root: str, output: str) -> str | None:
    """:func:`ignored_lack`'s file, as a path relative to the top."""
    try:
        for name in _NO_MODULE.findall(output):
            found = _module_file(repo.ignored_files(), name)
            if found is not None:
                return found
        for named in missing_files(output):
            rel = _inside(named)
            if rel is None or not os.path.lexists(os.path.join(root, rel)):
                continue
            if repo.is_ignored(rel):
                return rel
    except GitError:
        return None
    return None


def lacked_here(repo: Repository, root: str, output: str) -> tuple[str, str] | None:
    """For a run in the work tree ``root`` of ``repo`` that failed with ``output``: the
    first file it says it lacked (a module it could not import, a file it could not open)
    that ``root`` does not hold and another work tree of the repository holds and ignores,
    as (its path relative to the top, that work tree's root); None when there is none (or
    git cannot say)."""
    try:
        for other in other_worktrees(repo):
            top = other.paths.toplevel or ""
            rel = _ignored_path(other, top, output)
            if rel and not os.path.lexists(os.path.join(root, rel)):
                return rel, top
    except GitError:
        return None
    return None


def room_lack(repo: Repository, root: str, obs: Observation) -> str | None:
    """For a spot check's re-run that failed (``obs``) in the work tree ``root`` of ``repo``,
    or in a checkout with ``root``'s ignored files linked in: the one line saying it lacked
    a file git ignores that ``root`` lacks and another work tree holds
    (:func:`lacked_here`), so the failure is the place's, not the change's, nothing is
    recorded, and the copy to run before the spot check again; None otherwise."""
    found = lacked_here(repo, root, obs.tail)
    if found is None:
        return None
    rel, other = found
    return (
        f"spot check: the re-run failed (exit {obs.exit_code}) lacking the file {rel}, which "
        f"git ignores: the work tree {other} holds it, {root} does not, so the failure is "
        "where it ran, not the change's; nothing was recorded (the change is not refuted): "
        f"copy it, then run the same spot check again; to copy it, run: "
        f"{copy_line(other, root, rel)}"
    )


def holder_of(root: str, rel: str) -> str | None:
    """The root of another work tree of the repository at ``root`` that holds ``rel``
    (relative to the top) and ignores it, while ``root`` does not hold it; None when there
    is none (or git cannot say). What a block re-reads of a report whose run lacked ``rel``
    (:data:`~gentle_hooks.policy.toolmissing.LACKED_IGNORED`): the holder is not recorded,
    a note shared with a remote names no local path."""
    if os.path.lexists(os.path.join(root, rel)):
        return None
    try:
        for other in other_worktrees(Repository.open(root)):
            top = other.paths.toplevel or ""
            if os.path.lexists(os.path.join(top, rel)) and other.is_ignored(rel):
                return top
    except GitError:
        return None
    return None


def copy_line(other: str, root: str, rel: str) -> str:
    """The shell line that copies ``rel`` from the work tree ``other`` into ``root``,
    runnable as printed from anywhere: its directory made first when ``root`` lacks it
    (``cp`` makes none); ``rel`` a directory (an ignored package) is copied whole."""
    from gentle_hooks.policy.shellwords import join

    dest, source = os.path.join(root, rel), os.path.join(other, rel)
    # -R only for a directory: on a file it would copy a symbolic link as a link
    copy = join(("cp", *(("-R",) if os.path.isdir(source) else ()), "--", source, dest))
    folder = os.path.dirname(dest)
    return copy if os.path.isdir(folder) else f"{join(('mkdir', '-p', '--', folder))} && {copy}"


def _module_file(ignored: list[str], module: str) -> str | None:
    """The ignored entry (a file, or a directory ending in ``/``) that defines ``module``
    (``a.b``: ``a/b.py`` or ``a/b/``, at the top or below a folder such as ``src/``)."""
    tail = module.replace(".", "/")
    for entry in ignored:
        for form in (f"{tail}.py", f"{tail}/"):
            if entry == form or entry.endswith("/" + form):
                return entry.rstrip("/")
    return None


def _inside(named: str) -> str | None:
    """``named`` as a path relative to the top, or None: absolute, or leading out of it."""
    if not named or named.startswith("/"):
        return None
    path = posixpath.normpath(named)
    return None if path in (".", "..") or path.startswith("../") else path
