"""What a clean room's checks can reach beyond its tree, bounded (SPEC §9; seed 001 "Workflow"
4, "Hand over a clean room").

Room ``services``. Tools read configuration from places the candidate does not hold: the
user's home (``~/.npmrc`` with a ``script-shell``, a user-site ``.pth`` file, XDG config),
the temporary directory, and the directories above the one they run in (a ``pytest.ini``,
``conftest.py`` or ``node_modules`` above the room's tree is read as if it were the
project's when the tree has none). So:

* :func:`scratch_env` — each run of a check gets a fresh, empty ``HOME``, ``TMPDIR``, XDG
  directories and tool cache directory inside the room (``scratch/``, made anew before
  every run, so nothing carries over from one run to the next); nothing of the caller's
  home reaches it;
* :func:`check_room_parents` — the room is made (or used) only under directories that hold
  none of :data:`PARENT_CONFIGS`: otherwise the run is refused (exit 2), naming the file,
  before anything runs.
"""

from __future__ import annotations

import os
import shutil

from gentle_hooks.errors import UsageError
from gentle_hooks.services.room_dirs import require_real_dirs

#: The room's part that holds each run's home, temporary and XDG directories.
SCRATCH = "scratch"
#: The directory in :data:`SCRATCH` that holds one run's tool caches (pytest's).
SCRATCH_CACHE = "cache"
#: The directory in :data:`SCRATCH` kept from one run to the next: Python's bytecode cache
#: (``PYTHONPYCACHEPREFIX``) of the sources outside the room the runs import (the standard
#: library, the interpreter's site-packages), each compiled once per room instead of once
#: per run; the part of it that mirrors the room (its tree, base and scratch sources) is
#: emptied before every run (:func:`scratch_env`).
SCRATCH_BYTECODE = "bytecode"

#: Names tools look up in the directories above the one they run in (first found wins, or
#: all are merged), by the tools that read them: a room under a directory holding one
#: would run its checks with configuration the candidate does not hold.
PARENT_CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "pytest, tox and other Python tools",
        (
            *("pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "pyproject.toml"),
            *("tox.ini", "tox.toml", "setup.cfg"),
        ),
    ),
    ("pytest (a plugin loaded from a parent directory)", ("conftest.py",)),
    (
        "node, npm, yarn, pnpm, deno",
        (
            "package.json",
            "node_modules",
            ".npmrc",
            ".yarnrc",
            ".yarnrc.yml",
            "pnpm-workspace.yaml",
            "deno.json",
            "deno.jsonc",
        ),
    ),
    ("cargo", (".cargo", "Cargo.toml")),
    ("go", ("go.mod", "go.work")),
    ("bundler", ("Gemfile", ".bundle")),
    ("maven and gradle", (".mvn", "settings.gradle", "settings.gradle.kts")),
    (
        "version managers (pyenv, asdf, mise, uv)",
        (".python-version", ".tool-versions", ".mise.toml", "mise.toml", "uv.toml"),
    ),
)


def parent_configs(directory: str) -> tuple[str, ...]:
    """The :data:`PARENT_CONFIGS` entries in ``directory`` and every directory above it
    (nearest first), as paths; empty when there are none."""
    names = {n for _, group in PARENT_CONFIGS for n in group}
    found: list[str] = []
    here = os.path.realpath(directory)
    while True:
        try:
            entries = sorted(set(os.listdir(here)) & names)
        except OSError:
            entries = []
        found += [os.path.join(here, n) for n in entries]
        parent = os.path.dirname(here)
        if parent == here:
            return tuple(found)
        here = parent


def check_room_parents(directory: str) -> None:
    """Refuse a room in ``directory`` (or under it) when ``directory`` or a directory above
    it holds a configuration its checks' tools would read (:data:`PARENT_CONFIGS`).

    Raises:
        UsageError: one is there (the first found is named, with the tools that read it).
    """
    found = parent_configs(directory)
    if not found:
        return
    name = os.path.basename(found[0])
    tools = next(t for t, group in PARENT_CONFIGS if name in group)
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    raise UsageError(
        f"{found[0]}{more}: the clean room would be under it, and {tools} read it as the "
        "project's when the candidate has none; remove it, or point TMPDIR at a directory "
        "with no such file above it"
    )


def scratch_env(room_path: str) -> dict[str, str]:
    """Fresh, empty ``HOME``, ``TMPDIR`` and XDG directories for one run of a check, under
    the room's :data:`SCRATCH` part (emptied first: a run finds nothing an earlier one
    left), and the variables naming them; the run's empty :data:`SCRATCH_CACHE` directory
    is made beside them. The :data:`SCRATCH_BYTECODE` directory is kept, without the part
    that mirrors the room (:func:`_forget_room_bytecode`). A :data:`SCRATCH` that is not
    the room's own directory (a link to another folder) is refused before anything in it
    is removed (UsageError, :func:`~gentle_hooks.services.room_dirs.require_real_dirs`);
    links in it are unlinked, never followed."""
    require_real_dirs(room_path, SCRATCH)
    scratch = os.path.join(room_path, SCRATCH)
    os.makedirs(scratch, mode=0o700, exist_ok=True)
    for name in os.listdir(scratch):
        full = os.path.join(scratch, name)
        if name == SCRATCH_BYTECODE and os.path.isdir(full) and not os.path.islink(full):
            _forget_room_bytecode(full, room_path)
        elif os.path.isdir(full) and not os.path.islink(full):
            shutil.rmtree(full, ignore_errors=True)
        else:
            os.unlink(full)
    os.makedirs(os.path.join(scratch, SCRATCH_BYTECODE), mode=0o700, exist_ok=True)
    home, tmp, run, cache = (
        os.path.join(scratch, p) for p in ("home", "tmp", "run", SCRATCH_CACHE)
    )
    for path in (home, tmp, run, cache):
        os.makedirs(path, mode=0o700)
    return {
        "HOME": home,
        "TMPDIR": tmp,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_RUNTIME_DIR": run,
    }


def _forget_room_bytecode(prefix: str, room_path: str) -> None:
    """Remove from the bytecode cache ``prefix`` every file compiled from a source inside
    the room at ``room_path``: Python puts the bytecode of ``/a/b.py`` at
    ``prefix/a/b.cpython-XY.pyc`` (``PYTHONPYCACHEPREFIX``), and the room's sources change
    from one run to the next at the same paths (every checkout is swapped into ``tree/``),
    where a cached file with the same size and modification second would run in place of
    its source. The room's path is taken as given and resolved (a run's working directory
    is its resolved path). Links are unlinked, never followed."""
    for root in {os.path.abspath(room_path), os.path.realpath(room_path)}:
        at = prefix
        for part in root.lstrip(os.sep).split(os.sep):
            at = os.path.join(at, part)
            if os.path.islink(at):  # a link a run put there would lead the removal elsewhere
                os.unlink(at)
                break
            if not os.path.isdir(at):
                break
        else:
            shutil.rmtree(at, ignore_errors=True)
