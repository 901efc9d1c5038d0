"""Which files a verify run's checks start, and whether they may run (SPEC §9; seed 001).

Room ``services``. The room keeps the caller's ``PATH`` (tools must be reachable), so the
``pytest`` a check runs is whichever file comes first there: a wrapper adding
``--ignore-glob`` passes whatever the tree holds. :func:`resolve_programs` finds, before
anything runs, the file each program of each check resolves to on the room's ``PATH``, or
the one its command line sets (``PATH=bin:/usr/bin pytest``), relative entries in the
room's tree (:func:`~gentle_hooks.policy.programs.started_programs`), and its SHA-256, for
the verdict's
``observed.programs``; :func:`refuse_programs` refuses a run whose program is in the
user's repository (a work tree, the git directory), in the room, or, unless the caller
allows it, on a shared path (:func:`shared_reason`): the file or a directory above it is
writable by its group or by others without the sticky bit, or owned by someone other than
the user and root — the secure-path check of sudo and ssh's ``StrictModes``. ``/tmp``
itself (sticky) is no reason: a clone under ``/tmp`` in a directory only the user may
write runs its own virtual environment's tools.

What this proves: which file each named program was when the run started, and that it
was not in the places above. Not: that the program is honest, nor what it runs in turn
(a module ``python3 -m`` imports, a pytest plugin, a script a program starts).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from collections.abc import Sequence

from gentle_hooks.artifacts.outcome import Check
from gentle_hooks.artifacts.verdict import Program
from gentle_hooks.errors import UsageError
from gentle_hooks.policy.programs import started_programs
from gentle_hooks.services.editable import shebang

#: The flag that lets a program on a shared path run.
ALLOW_FLAG = "--allow-shared-programs"


def _digest(path: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return "sha256:" + h.hexdigest()


def resolve_programs(
    checks: Sequence[Check], path: str, cwd: str
) -> tuple[tuple[Program, ...], ...]:
    """For each check, in order: the programs it starts, each resolved to a file on
    ``path`` (the room's ``PATH``) or on the ``PATH`` its line sets, an empty or relative
    entry taken in ``cwd`` (the room's tree, where checks run: ``PATH=bin`` is the
    candidate's ``bin/``), symlinks resolved, with that file's digest. A name that resolves
    to nothing, or to a file that cannot be read, is left out."""
    found: dict[tuple[str, str], Program | None] = {}
    out = []
    for check in checks:
        programs = []
        for started in started_programs(check.argv, path):
            name, key = started.name, (started.name, started.path)
            if key not in found:
                where = (
                    name
                    if name.startswith("/")
                    else shutil.which(name, path=_in(started.path, cwd))
                )
                real = os.path.realpath(where) if where else None
                digest = _digest(real) if real and os.path.isfile(real) else None
                found[key] = (
                    Program(name=name, path=real, sha256=digest) if real and digest else None
                )
            seen = found[key]
            if seen is not None and seen not in programs:
                programs.append(seen)
        out.append(tuple(programs))
    return tuple(out)


def python_of(argv: Sequence[str], path: str, cwd: str) -> str | None:
    """The Python interpreter ``argv`` starts when its programs are looked up on ``path``
    (relative entries in ``cwd``): the first program whose real path is named
    ``python*``, or whose ``#!`` line names such an interpreter (a ``pytest`` script);
    None when none does."""
    for started in started_programs(tuple(argv), path):
        name = started.name
        where = name if name.startswith("/") else shutil.which(name, path=_in(started.path, cwd))
        if not where:
            continue
        if os.path.basename(os.path.realpath(where)).startswith("python"):
            return where
        named = shebang(where)
        if named and os.path.basename(named).startswith("python"):
            return named
    return None


def _in(path: str, cwd: str) -> str:
    """``path`` with its empty and relative entries made absolute in ``cwd`` (the shell
    looks a program up there relative to the directory it runs in)."""
    return os.pathsep.join(os.path.join(cwd, entry) for entry in path.split(os.pathsep))


def _under(path: str, places: Sequence[str]) -> str | None:
    for place in places:
        if place and (path == place or path.startswith(place.rstrip(os.sep) + os.sep)):
            return place
    return None


def shared_reason(path: str) -> str | None:
    """Why ``path`` (absolute, symlinks resolved) is on a shared path, or None: the first
    of it and its directories up to ``/`` that its group or others may write (a directory
    with the sticky bit excepted: there, others cannot replace what is not theirs) or that
    someone other than the user and root owns; one that cannot be read is a reason too."""
    mine = {os.getuid(), 0}
    current = path
    while True:
        try:
            st = os.stat(current)
        except OSError:
            return f"{current} cannot be read"
        if st.st_uid not in mine:
            return f"{current} is owned by uid {st.st_uid}"
        sticky = stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not sticky:
            return f"{current} may be written by its group or others"
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def refuse_programs(
    resolved: Sequence[tuple[Program, ...]],
    checks: Sequence[Check],
    pointers: Sequence[str],
    room: str,
    *,
    allow_shared: bool,
) -> tuple[str, ...]:
    """Raises UsageError (exit 2, one line) for the first program of a check that resolved
    into one of ``pointers`` (the user's work trees and git directory) or ``room``, or —
    unless ``allow_shared`` — to a file on a shared path (:func:`shared_reason`).

    Returns:
        The paths of the programs only ``allow_shared`` let run, sorted (the verdict says
        so).
    """
    mine = [os.path.realpath(p) for p in (*pointers, room) if p]
    allowed: set[str] = set()
    for check, programs in zip(checks, resolved, strict=True):
        for program in programs:
            where = f"`{program.name}` of `{check.command}` resolves to {program.path}"
            if _under(program.path, mine):
                raise UsageError(
                    f"{where}, inside your repository or the room: the check would run the "
                    "writer's copy; put the tool outside the repository, on PATH"
                )
            reason = shared_reason(program.path)
            if reason is None:
                continue
            if not allow_shared:
                raise UsageError(
                    f"{where}, on a path others may change ({reason}): anyone could have "
                    f"put it there; install it elsewhere, or pass {ALLOW_FLAG}"
                )
            allowed.add(program.path)
    return tuple(sorted(allowed))
