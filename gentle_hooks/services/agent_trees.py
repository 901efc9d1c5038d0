"""Which work tree an agent runtime's hook event belongs to, and which work tree holds each
path it wrote (SPEC §6 "pending mutation", §7 "Hooks"; :mod:`.agent_record` records there).

Room ``services``: ``lstat`` walks, and git asked once per repository found.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.event import RuntimeEvent, relative_paths
from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository


def work_tree(event: RuntimeEvent, cwd: str | None) -> str | None:
    """The work tree root the event's writes belong to: from ``cwd``, else the runtime's
    ``cwd``, else the nearest existing directory of each written path (a relative one taken
    from ``cwd`` or the runtime's: an agent started in a plain directory that holds
    repositories names ``repoA/src/a.py``), else the hook's own working directory (the
    runtime starts it in its project: a ``cwd`` field that is not usable text must not lose
    the record); None outside any work tree."""
    base = cwd or event.cwd
    candidates = [cwd, event.cwd]
    candidates += [nearest_dir(full) for p in event.paths if (full := full_path(p, base))]
    candidates.append(os.getcwd())
    for where in candidates:
        if not where or not os.path.isdir(where):
            continue
        try:
            repo = Repository.open(where)
        except GitError:
            continue
        return repo.paths.toplevel
    return None


def full_path(path: str, base: str | None) -> str | None:
    """``path`` made absolute and real: a relative one is taken from ``base`` (None: it
    cannot be placed); None when no file can have it (a NUL)."""
    if not os.path.isabs(path) and not base:
        return None
    try:
        return os.path.realpath(path if os.path.isabs(path) else os.path.join(base or "", path))
    except ValueError:  # an embedded NUL: no file has that path
        return None


def nearest_dir(full: str) -> str:
    """The nearest existing directory holding the absolute path ``full`` (a file the tool
    created may sit in directories that exist, or its own may have been removed since)."""
    where = os.path.dirname(full)
    while where and not os.path.isdir(where) and os.path.dirname(where) != where:
        where = os.path.dirname(where)
    return where


def by_work_tree(
    root: str, paths: tuple[str, ...], base: str | None
) -> list[tuple[str, tuple[str, ...]]]:
    """The written ``paths`` grouped by the work tree that holds each, the session's
    ``root`` first. Each path belongs to the innermost repository holding it: the nearest
    directory at or above its nearest existing directory that has a ``.git`` (a directory,
    or the file of a submodule or linked worktree), so a write in a nested repository or a
    submodule inside ``root`` is that repository's, as is one outside ``root`` (an agent
    given a second directory). The walk is stats only; git is asked once per repository
    other than ``root``. A path in no work tree is left out. Relative paths are taken from
    ``base`` (default ``root``)."""
    real_root = os.path.realpath(root)
    out: dict[str, list[str]] = {root: []}
    tops: dict[str, str | None] = {}
    for p in paths:
        full = full_path(p, base or root)
        if full is None:
            continue
        where = nearest_dir(full)
        key = dot_git_dir(where) or where
        if os.path.realpath(key) == real_root:
            top: str | None = root
        else:
            if key not in tops:
                tops[key] = toplevel(key, real_root, root)
            # a ``.git`` git cannot open: the path stays in the session's tree, if in it
            top = tops[key] or (root if relative_paths(root, (full,), None) else None)
        if top is not None:
            out.setdefault(top, []).extend(relative_paths(top, (full,), None))
    return [(top, tuple(dict.fromkeys(rels))) for top, rels in out.items()]


def toplevel(where: str, real_root: str, root: str) -> str | None:
    """The work tree root of the repository at ``where`` (``root`` itself when that is it,
    so one tree is one group), None when git opens none there."""
    try:
        top = Repository.open(where).paths.toplevel
    except GitError:
        return None
    return root if top is not None and os.path.realpath(top) == real_root else top


def dot_git_dir(where: str) -> str | None:
    """The nearest directory at or above the absolute directory ``where`` that holds a
    ``.git`` entry (directory or file), or None: the innermost repository's work tree root
    as the file system shows it (one ``lstat`` per level, no process)."""
    while True:
        if os.path.lexists(os.path.join(where, ".git")):
            return where
        parent = os.path.dirname(where)
        if parent == where:
            return None
        where = parent
