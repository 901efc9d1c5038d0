"""The environment a verify run's checks get in its clean room (SPEC §9; seed 001
"Contract": the verifier gets "the tools needed to re-check them" and nothing else).

Room ``services``. :func:`room_env` keeps the allowlisted part of the caller's environment
(:data:`ROOM_ENV_NAMES`), without what points into the user's work trees;
:func:`dropped_path` and :func:`dropped_note` say which ``PATH`` entries it left out;
:func:`pointing_in` finds a brief's variable pointing there; :func:`env_digest` digests an
environment for the verdict's evidence.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.artifacts.observation import Outcome
from gentle_hooks.git.process import scrubbed_env

#: The variables a room passes on from the caller's environment (seed 001 "Contract": the
#: verifier gets "the tools needed to re-check them" and nothing else): where programs are,
#: language and time zone. Every other variable is dropped, those that change what a test
#: runner runs above all (``PYTEST_ADDOPTS``, ``PYTEST_PLUGINS``, ``PYTHONPATH``,
#: ``PYTHONSTARTUP``, ``NODE_OPTIONS``, ``NODE_PATH``, ``RUBYOPT``, ``PERL5OPT``,
#: ``JAVA_TOOL_OPTIONS``, ``MAKEFLAGS``, ``GOFLAGS``...), and where the user's home and
#: temporary directory are (``HOME``, ``TMPDIR``, ``XDG_*``: ``~/.npmrc``, a user-site
#: ``.pth`` file, XDG config change what runs); the room then sets its own (``PWD``, a
#: fresh ``HOME``, ``TMPDIR`` and XDG directories per run:
#: :func:`~gentle_hooks.services.room_bounds.scratch_env`, :func:`cache_env`).
ROOM_ENV_NAMES: frozenset[str] = frozenset({"PATH", "LANG", "LANGUAGE", "TZ"})
#: Prefixes of passed-on variables: the locale's categories.
ROOM_ENV_PREFIXES: tuple[str, ...] = ("LC_",)


def room_env(env: Mapping[str, str], *pointers: str) -> dict[str, str]:
    """The environment checks run with in a room (seed 001 "Rules": the verifier "never
    gets the implementation context, the worker's plan, or its transcript").

    Only the variables of :data:`ROOM_ENV_NAMES` and :data:`ROOM_ENV_PREFIXES`, and of
    those not one whose value points into one of ``pointers`` (the user's work tree and git
    directory: the ledger, receipts, notes, a virtualenv there), except ``PATH``, which only
    loses its entries there. What the caller's environment would change in a test run
    (``PYTEST_ADDOPTS="--deselect ..."``) does not reach the room.
    """
    places = _places(pointers)

    def points_in(value: str) -> bool:
        return _points_in(value, places)

    out: dict[str, str] = {}
    for name, value in scrubbed_env(env).items():
        if name not in ROOM_ENV_NAMES and not name.startswith(ROOM_ENV_PREFIXES):
            continue
        if name == "PATH":
            value = os.pathsep.join(d for d in value.split(os.pathsep) if not points_in(d))
        elif points_in(value):
            continue
        out[name] = value
    return out


def env_digest(env: Mapping[str, str]) -> str:
    """``sha256:`` of ``env``'s ``NAME=VALUE`` lines, sorted, NUL-separated."""
    import hashlib

    lines = "\0".join(f"{k}={v}" for k, v in sorted(env.items()))
    return "sha256:" + hashlib.sha256(lines.encode("utf-8", "surrogateescape")).hexdigest()


def dropped_path(env: Mapping[str, str], *pointers: str) -> list[str]:
    """The entries of ``env``'s ``PATH`` that :func:`room_env` leaves out: those in one of
    ``pointers`` (a virtualenv in the work tree: its tools, and an editable install's
    link to the work tree, would run the writer's copy, not the candidate's)."""
    places = _places(pointers)
    path = scrubbed_env(env).get("PATH", "")
    return [d for d in path.split(os.pathsep) if d and _points_in(d, places)]


def _places(pointers: Sequence[str]) -> tuple[str, ...]:
    return tuple({*(p for p in pointers if p), *(os.path.realpath(p) for p in pointers if p)})


def _points_in(value: str, places: tuple[str, ...]) -> bool:
    """``value`` names one of ``places`` or a path under one (through symlinks too)."""
    if any(p in value for p in places):
        return True
    real = os.path.realpath(value) if os.path.isabs(value) else ""
    return any(real == p or real.startswith(p + os.sep) for p in places if real)


def dropped_note(dropped: list[str], outcomes: tuple[Outcome, ...]) -> str:
    """Which PATH entries the room left out and, when a check then missed its tool, what
    to do."""
    shown = ", ".join(dropped[:3]) + (f" and {len(dropped) - 3} more" if len(dropped) > 3 else "")
    line = (
        f"PATH: {shown} left out of the room: it is in your repository, where its tools "
        "(and an editable install) would run your copy, not the candidate's"
    )
    if any(not o.ran for o in outcomes):
        line += (
            "; a check missed its tool: install the tools outside the repository (a "
            "virtualenv elsewhere, or the system's) and run verify again with them on PATH"
        )
    return line


def pointing_in(variables: Mapping[str, str], *pointers: str) -> list[tuple[str, str]]:
    """The (name, entry) of each of ``variables`` (a brief's ``env``) whose value, or an
    entry of its ``:``-separated list (``PATH``, ``PYTHONPATH``, ``LD_LIBRARY_PATH``...),
    names one of ``pointers`` (the user's work trees and git directory) or a place under
    one, symlinks resolved: a check given it would run the writer's copy, not the
    candidate's (``PATH=<repo>/bin``: a ``pytest`` there that prints "2 passed")."""
    places = _places(pointers)
    return [
        (name, entry)
        for name in sorted(variables)
        for entry in variables[name].split(os.pathsep)
        if entry and _points_in(entry, places)
    ]
