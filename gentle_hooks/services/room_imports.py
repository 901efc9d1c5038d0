"""What a verify room's checks import: the room's copy of what an editable install names,
whatever the check's command does (SPEC §9: a verify run checks "the candidate's exact
tree", and each criterion also on the base tree and on the emptied change).

Room ``services``.

* :func:`for_room` — the checks' environment with the room's copies of the places an
  editable install imports from first on ``PYTHONPATH`` (in this repository's work trees:
  :func:`~gentle_hooks.services.editable.in_trees`; another clone of the project:
  :func:`~gentle_hooks.services.editable_copies.other_copies`), the import guard
  (:mod:`~gentle_hooks.services.import_guard`) blocking those places, and a
  :class:`RoomImports` saying what the room put there.
* :func:`room_argv` — what a check runs: its own ``PYTHONPATH=`` assignments with the
  room's entries in front (:func:`~gentle_hooks.policy.pythonpath_line.composed_argv`), or
  why it is refused: it starts a Python that ignores them (``-I``, ``-E``, ``-S``, ``env
  -i``: :func:`~gentle_hooks.policy.pythonpath_line.isolating`), or unsets or sets
  ``PYTHONPATH`` where the room cannot reach, while the places redirected hold other
  importable files than the room (:func:`same_importable`).
"""

from __future__ import annotations

import filecmp
import os
from collections.abc import Mapping, Sequence

from gentle_hooks.policy.pythonpath_line import composed_argv, isolating
from gentle_hooks.services.editable import (
    import_places,
    in_trees,
    python_path,
    site_dirs,
    unheld,
    unheld_note,
)
from gentle_hooks.services.editable_copies import copies_note, other_copies
from gentle_hooks.services.import_guard import write_guard
from gentle_hooks.values.frozen import frozen

#: The most files of one side :func:`same_importable` compares.
_FILES = 20000
#: What Python imports from a directory (``.pyc``: a sourceless module).
_IMPORTABLE = (".py", ".pyc", ".so", ".pyd", ".pth")
#: Directories :func:`same_importable` does not read: a repository's, caches.
_SKIPPED = frozenset({".git", "__pycache__", "node_modules", ".tox", ".nox"})


@frozen
class RoomImports:
    """What a room put first on its checks' ``PYTHONPATH``.

    Attributes:
        first: the room's own entries (the guard's directory, then the room's copies),
            ``:``-separated; empty when it put none.
        places: (a redirected place outside the room, the room's directory that stands for
            it) for each place the room's tree holds.
    """

    first: str = ""
    places: tuple[tuple[str, str], ...] = ()


def for_room(
    env: Mapping[str, str],
    programs: Sequence[str],
    trees: Sequence[str],
    room: str,
    skip: Sequence[str] = (),
    guard: str | None = None,
) -> tuple[dict[str, str], tuple[str, ...], RoomImports]:
    """A verify room's checks' environment ``env`` (a fresh ``HOME``: no user site) with
    the places that the interpreters of ``env`` and ``programs`` import from editably —
    in the work trees ``trees``, or another copy of the project outside them — first on
    ``PYTHONPATH`` as the same places inside the room's tree ``room`` (the same path for
    the candidate, base and emptied runs), the lines for the user (what was mapped, what
    the room's tree does not hold: :func:`~gentle_hooks.services.editable.unheld_note`),
    and the :class:`RoomImports`.

    ``guard``: a directory outside ``room`` (the same for every run) where
    :func:`~gentle_hooks.services.import_guard.write_guard` writes the ``sitecustomize``
    that makes a module found only in a mapped place unimportable (a package only the
    candidate adds, in the base run); it comes first on ``PYTHONPATH``.

    Raises:
        OSError: the guard could not be written.
    """
    sites = site_dirs(env, programs, user_site=False, cwd=room)
    places = import_places(sites)
    redirects = in_trees(places, trees, skip)
    copies = other_copies(places, room, trees, sites, skip)
    if not redirects and not copies:
        return dict(env), (), RoomImports()
    rels = list(dict.fromkeys(r.rel for r in (*redirects, *copies)))
    missing = unheld(room, redirects)
    kept = env.get("PYTHONPATH", "")
    value = python_path(room, rels, kept, trees)
    own = python_path(room, rels, "", trees)
    held = [r for r in (*redirects, *copies) if r not in missing]
    if guard is not None and held:
        written = write_guard(guard, os.path.dirname(room), [r.place for r in held])
        value, own = os.pathsep.join([written, value]), os.pathsep.join([written, own])
    out = {**env, "PYTHONPATH": value}
    notes = []
    if redirects:
        first = redirects[0]
        notes.append(
            f"editable install: {', '.join(dict.fromkeys(r.rel for r in redirects))} of the "
            f"room's tree first on PYTHONPATH ({first.source} imports from your work tree "
            f"{first.tree})"
        )
    if copies:
        notes.append(copies_note(copies))
    if missing:
        notes.append(unheld_note(missing))
    stands = tuple((r.place, os.path.normpath(os.path.join(room, r.rel))) for r in held)
    return out, tuple(notes), RoomImports(own, stands)


def room_argv(argv: tuple[str, ...], imports: RoomImports) -> tuple[tuple[str, ...], str | None]:
    """(what to run for a check whose argument vector is ``argv``, why it is refused or
    None). With no room entries (``imports.first`` empty) ``argv`` itself. Else its own
    ``PYTHONPATH=`` assignments with the room's entries in front; refused when it starts a
    Python that ignores them or the guard, or sets or unsets ``PYTHONPATH`` where the room
    cannot reach, unless every redirected place holds the same importable files as the
    room's directory standing for it (then what it imports from there is the room's)."""
    if not imports.first:
        return argv, None
    composed, missed = composed_argv(argv, imports.first)
    why = isolating(argv)
    if why is None and missed:
        shown = ", ".join(f"`{m}`" for m in missed[:2])
        why = f"{shown} sets or unsets PYTHONPATH where the room cannot put its entries first"
    if why is None:
        return composed, None
    if all(same_importable(place, mine) for place, mine in imports.places):
        return composed, None
    return composed, (
        f"{why}: the room cannot keep your work tree's code (or another copy's) out of that "
        "interpreter, and it holds other importable files than the candidate's tree; run "
        "the check without it (a PYTHONPATH=... word of the line itself is kept, after the "
        "room's entries)"
    )


def same_importable(place: str, mine: str) -> bool:
    """``place`` and ``mine`` hold the same importable files (:data:`_IMPORTABLE`), byte
    for byte, at the same relative paths; a virtual environment (``pyvenv.cfg``) and
    :data:`_SKIPPED` directories in either are not read; False past :data:`_FILES` files."""
    theirs, ours = _importable(place), _importable(mine)
    if theirs is None or ours is None or set(theirs) != set(ours):
        return False
    return all(filecmp.cmp(theirs[rel], ours[rel], shallow=False) for rel in theirs)


def _importable(top: str) -> dict[str, str] | None:
    if not os.path.isdir(top):
        return None
    found: dict[str, str] = {}
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = [
            d
            for d in dirs
            if d not in _SKIPPED and not os.path.isfile(os.path.join(dirpath, d, "pyvenv.cfg"))
        ]
        for name in files:
            if name.endswith(_IMPORTABLE):
                full = os.path.join(dirpath, name)
                found[os.path.relpath(full, top)] = full
        if len(found) > _FILES:
            return None
    return found
