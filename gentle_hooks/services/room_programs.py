"""Which files a verify run's checks start, and whether they may run (SPEC §9; seed 001).

Room ``services``. The room keeps the caller's ``PATH`` (tools must be reachable), so the
``pytest`` a check runs is whichever file comes first there: a wrapper adding
``--ignore-glob`` passes whatever the tree holds. :func:`resolve_programs` finds, before
anything runs, the file each program of each check resolves to on the room's ``PATH``
(:func:`~gentle_hooks.policy.programs.check_programs`) and its SHA-256, for the verdict's
``observed.programs``; :func:`refuse_programs` refuses a run whose program is in the
user's repository (a work tree, the git directory), in the room, or, unless the caller
allows it, under a temporary directory or in a directory others may write. A program in
the virtual environment of the interpreter running gentle-hook (:func:`active_venv`) is
the verifier's own tool wherever that environment is (a clone under ``/tmp``), when it
and every directory up to the environment's root are the user's and no one else may
write them.

What this proves: which file each named program was when the run started, and that it
was not in the places above. Not: that the program is honest, nor what it runs in turn
(a module ``python3 -m`` imports, a pytest plugin, a script a program starts).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Sequence

from gentle_hooks.artifacts.outcome import Check
from gentle_hooks.artifacts.verdict import Program
from gentle_hooks.errors import UsageError
from gentle_hooks.policy.programs import check_programs

#: Temporary directories anyone may write: a program there is not the verifier's tool.
TEMP_ROOTS: tuple[str, ...] = ("/tmp", "/var/tmp", "/dev/shm")
#: The flag that lets a program in a temporary or shared directory run.
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


def resolve_programs(checks: Sequence[Check], path: str) -> tuple[tuple[Program, ...], ...]:
    """For each check, in order: the programs it starts, each resolved on ``path`` (the
    room's ``PATH``) to a file, symlinks resolved, with that file's digest. A name that
    resolves to nothing, or to a file that cannot be read, is left out."""
    found: dict[str, Program | None] = {}
    out = []
    for check in checks:
        programs = []
        for name in check_programs(check.argv):
            if name not in found:
                where = name if name.startswith("/") else shutil.which(name, path=path)
                real = os.path.realpath(where) if where else None
                digest = _digest(real) if real and os.path.isfile(real) else None
                found[name] = (
                    Program(name=name, path=real, sha256=digest) if real and digest else None
                )
            seen = found[name]
            if seen is not None:
                programs.append(seen)
        out.append(tuple(programs))
    return tuple(out)


def _under(path: str, places: Sequence[str]) -> str | None:
    for place in places:
        if place and (path == place or path.startswith(place.rstrip(os.sep) + os.sep)):
            return place
    return None


def _others_write(path: str) -> bool:
    """The file or its directory is writable by others (a sticky directory too)."""
    for p in (path, os.path.dirname(path)):
        try:
            if os.stat(p).st_mode & stat.S_IWOTH:
                return True
        except OSError:
            return True
    return False


def active_venv() -> str | None:
    """The virtual environment of the interpreter running this (``sys.prefix`` when it is
    not ``sys.base_prefix``), symlinks resolved; None outside one."""
    return os.path.realpath(sys.prefix) if sys.prefix != sys.base_prefix else None


def _private(path: str, top: str) -> bool:
    """``path`` (under ``top``) and each directory from its own up to ``top`` are the
    user's, and neither its group nor others may write them."""
    uid = os.getuid()
    while True:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_uid != uid or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return False
        if path == top or os.path.dirname(path) == path:
            return path == top
        path = os.path.dirname(path)


def refuse_programs(
    resolved: Sequence[tuple[Program, ...]],
    checks: Sequence[Check],
    pointers: Sequence[str],
    room: str,
    *,
    allow_shared: bool,
    venv: str | None = None,
) -> tuple[str, ...]:
    """Raises UsageError (exit 2, one line) for the first program of a check that resolved
    into one of ``pointers`` (the user's work trees and git directory) or ``room``, or —
    unless ``allow_shared`` — under a temporary directory (:data:`TEMP_ROOTS`, the
    system's temporary directory) or to a file or directory others may write. A program
    in ``venv`` (default: :func:`active_venv`; ``""``: none) is trusted there when it and
    its directories up to ``venv`` are the user's and writable by no one else.

    Returns:
        The paths of the programs only ``allow_shared`` let run, sorted (the verdict says
        so).
    """
    mine = [os.path.realpath(p) for p in (*pointers, room) if p]
    temps = {os.path.realpath(t) for t in (*TEMP_ROOTS, tempfile.gettempdir())}
    own = active_venv() if venv is None else (os.path.realpath(venv) if venv else None)
    allowed: set[str] = set()
    for check, programs in zip(checks, resolved, strict=True):
        for program in programs:
            where = f"`{program.name}` of `{check.command}` resolves to {program.path}"
            if _under(program.path, mine):
                raise UsageError(
                    f"{where}, inside your repository or the room: the check would run the "
                    "writer's copy; put the tool outside the repository, on PATH"
                )
            if own and _under(program.path, [own]) and _private(program.path, own):
                continue  # the verifier's own interpreter's environment
            if not _under(program.path, sorted(temps)) and not _others_write(program.path):
                continue
            if not allow_shared:
                raise UsageError(
                    f"{where}, in a temporary directory or one others may write: anyone "
                    f"could have put it there; install it elsewhere, or pass {ALLOW_FLAG}"
                )
            allowed.add(program.path)
    return tuple(sorted(allowed))
