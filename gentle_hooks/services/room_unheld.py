"""The places an editable install imports from in a work tree that a room's tree does not
hold, and what the room does with each (issue 18: the room fails closed on places it does
not hold; SPEC §9: a verify run checks "the candidate's exact tree").

Room ``services``. A ``.pth`` line, ``.egg-link`` or setuptools finder may name an ignored
folder of a work tree (``build/lib``, ``vendor``): the room's tree (exported from the
candidate's tree) does not hold it, so putting the room's copy first on ``PYTHONPATH``
changes nothing, and a module only that folder holds (one the candidate lacks) would be
imported from the work tree. Each such place is one of:

* hidden — the import guard (:mod:`~gentle_hooks.services.import_guard`) blocks it: in the
  room's runs a module found only there is absent, as in the candidate's tree;
* installed — it is in a site directory the interpreters read, or in a virtual
  environment's own ``site-packages`` (``lib/pythonX.Y/site-packages`` or
  ``Lib/site-packages`` of a directory holding ``pyvenv.cfg``) named by an install file in
  that same ``site-packages`` (a ``.pth`` of a virtual environment kept in the work tree
  naming a folder of its own): installed packages, which the room's runs use as every run
  does; named only. A folder merely named ``site-packages`` (``pip install -t
  vendor/site-packages``) is no installation, and a work tree's virtual environment named
  by another interpreter's ``.pth`` is not that interpreter's: hidden;
* fenced — it is ``/`` or holds a ``site-packages`` directory the interpreters read:
  blocking it would hide the installed packages, so no check runs (:func:`unguarded`).

* :func:`unheld_kinds` — the three kinds of a room's unheld places.
* :func:`unheld_note` — the line naming hidden or installed places.
* :func:`unguarded` — the line refusing every check, with the way out, or empty.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gentle_hooks.services.editable import Redirect, under

#: The directory names of a virtual environment's own site directory.
_SITE_NAMES = frozenset({"site-packages", "dist-packages"})
#: The first directory of a virtual environment's site directory, under its root.
_SITE_TOPS = frozenset({"lib", "lib64", "Lib"})


def unheld_kinds(
    missing: Sequence[Redirect], sites: Sequence[str]
) -> tuple[list[Redirect], list[Redirect], list[Redirect]]:
    """(hidden, installed, fenced): ``missing`` (places in a work tree the room's tree does
    not hold: :func:`~gentle_hooks.services.editable.unheld`) split by what the room can
    do with each (module docstring); ``sites``: the ``site-packages`` directories the
    interpreters read (real paths)."""
    reals = [os.path.realpath(s) for s in sites if s]
    hidden: list[Redirect] = []
    installed: list[Redirect] = []
    fenced: list[Redirect] = []
    for m in missing:
        place = os.path.realpath(m.place)
        if place == os.sep or any(under(s, place) is not None for s in reals):
            fenced.append(m)
        elif _own_venv(place, m.source) or any(under(place, s) is not None for s in reals):
            installed.append(m)
        else:
            hidden.append(m)
    return hidden, installed, fenced


def venv_site(real: str) -> bool:
    """``real`` (a real path) is in a virtual environment's own ``site-packages``: the
    nearest directory above it holding ``pyvenv.cfg`` has it in ``lib/pythonX.Y/`` or
    ``Lib/``."""
    return venv_site_dir(real) is not None


def venv_site_dir(real: str) -> str | None:
    """The virtual environment's ``site-packages`` directory ``real`` (a real path) is in
    (:func:`venv_site`), or None."""
    parts = real.split(os.sep)
    for i in range(len(parts) - 1, 0, -1):
        top = os.sep.join(parts[:i]) or os.sep
        if os.path.isfile(os.path.join(top, "pyvenv.cfg")):
            rel = parts[i:]
            n = next((n for n, part in enumerate(rel[:3]) if part in _SITE_NAMES), 0)
            if n >= 1 and rel[0] in _SITE_TOPS:
                return os.sep.join([top, *rel[: n + 1]])
            return None
    return None


def _own_venv(place: str, source: str) -> bool:
    """``place`` is in a virtual environment's ``site-packages`` and ``source`` (the
    install file naming it) is in that same ``site-packages``: only that environment's
    own interpreter reads it. Named by another interpreter's ``.pth``, it is a work-tree
    place like any other (refuter r18n MED V)."""
    site = venv_site_dir(place)
    return site is not None and under(os.path.realpath(source), site) is not None


def unheld_note(missing: Sequence[Redirect], *, guarded: bool) -> str:
    """One line naming the places of ``missing`` and what that means: ``guarded``, made
    unimportable in the room's runs (hidden); else still imported from the work tree
    (installed packages)."""
    shown = ", ".join(f"{r.place} ({r.source})" for r in missing[:3])
    more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
    if guarded:
        return (
            f"editable install: {shown}{more} is in your work tree but not in the candidate's "
            "tree: unimportable in the room's runs, as in the candidate's tree"
        )
    return (
        f"editable install: {shown}{more} is in your work tree but not in the candidate's "
        "tree, in an installation: a check importing from it tests your copy there"
    )


def unguarded(places: Sequence[Redirect]) -> str:
    """The line refusing every check of a room (:attr:`RoomImports.unresolved
    <gentle_hooks.services.room_imports.RoomImports.unresolved>`) because ``places`` (in
    a work tree, not in the candidate's tree) cannot be hidden, with the way out; empty
    when there are none."""
    if not places:
        return ""
    first = places[0]
    more = f" and {len(places) - 1} more" if len(places) > 1 else ""
    return (
        f"editable install: {first.place}{more} is on sys.path from your work tree "
        f"({first.source}), the candidate's tree does not hold it and the room cannot hide "
        "it without hiding installed packages: its checks would import your copy there; "
        f"no check ran: remove that line from {first.source}, or commit what the checks "
        "need into the candidate's tree"
    )
