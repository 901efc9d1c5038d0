"""Distributions installed (not editably) from a work tree: a copy of its files, untracked
ones too, in a ``site-packages`` the room's checks read (issue 18: the room imports nothing
from the work tree it does not hold; SPEC §9: a verify run checks "the candidate's exact
tree").

Room ``services``. ``pip install ./w`` (no ``-e``) builds the work tree as it is on disk
and copies what the build holds into ``site-packages``: a module the candidate's tree lacks
(a file never added to git) is then imported from there, and a check passes on it. pip
records the source in the distribution's ``direct_url.json`` (PEP 610: a ``file://`` URL,
``dir_info`` without ``editable: true``) and the files in its ``RECORD`` (PEP 376/627).

* :func:`work_copies` — each such distribution whose source is in a work tree, with the
  top-level modules and packages its ``RECORD`` installs into the ``site-packages``.
* :func:`copies_line` — the line naming them, what the room did, and the ``pip uninstall``
  that ends it; or the line refusing every check when one's ``RECORD`` cannot be read.

The room makes every one of those places unimportable in its runs (the import guard's
blocked places: :func:`~gentle_hooks.services.import_guard.write_guard`), as it does a
name of its tree found there, and counts them among the places a Python started without
the guard reaches (:mod:`~gentle_hooks.services.room_unguarded`). Not read: an ``.egg``
or ``.egg-info`` installation (no ``direct_url.json``), a wheel built from the work tree
and installed by file name (its URL is the wheel's, which may lie anywhere).
"""

from __future__ import annotations

import csv
import glob
import json
import os
from collections.abc import Sequence
from urllib.parse import unquote, urlparse

from gentle_hooks.services.editable import under
from gentle_hooks.values.frozen import frozen

#: The most distributions of one ``site-packages`` read.
_DISTRIBUTIONS = 2000
#: The most bytes of a ``direct_url.json`` or ``RECORD`` read.
_BYTES = 4 << 20


@frozen
class Copy:
    """One distribution installed from a work tree.

    Attributes:
        name: the distribution (from its ``.dist-info`` directory name);
        source: the directory its ``direct_url.json`` names (real path);
        site: the ``site-packages`` holding it; places: the top-level modules and package
            directories its ``RECORD`` lists there (paths); error: why its ``RECORD``
            could not be read (empty when it was).
    """

    name: str
    source: str
    site: str
    places: tuple[str, ...] = ()
    error: str = ""


def work_copies(sites: Sequence[str], trees: Sequence[str]) -> tuple[Copy, ...]:
    """The distributions of ``sites`` (``site-packages`` directories) whose
    ``direct_url.json`` is a non-editable ``file://`` URL in one of the work trees
    ``trees`` (module docstring), in order, each once."""
    tops = [os.path.realpath(t) for t in trees if t]
    out: dict[str, Copy] = {}
    for site in dict.fromkeys(os.path.realpath(s) for s in sites if s):
        infos = sorted(glob.glob(os.path.join(glob.escape(site), "*.dist-info")))
        for info in infos[:_DISTRIBUTIONS]:
            source = _source(os.path.join(info, "direct_url.json"))
            if source is None or not any(under(source, t) is not None for t in tops):
                continue
            name = os.path.basename(info)[: -len(".dist-info")].split("-")[0]
            places, error = _recorded(info, site)
            out.setdefault(info, Copy(name, source, site, places, error))
    return tuple(out.values())


def _source(path: str) -> str | None:
    """The real path a non-editable ``file://`` ``direct_url.json`` names, or None."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read(_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return None
    info = data.get("dir_info")
    if isinstance(info, dict) and info.get("editable") is True:
        return None  # an editable install: :mod:`gentle_hooks.services.editable`
    url = urlparse(data["url"])
    if url.scheme != "file" or url.netloc not in ("", "localhost"):
        return None
    return os.path.realpath(unquote(url.path))


def _recorded(info: str, site: str) -> tuple[tuple[str, ...], str]:
    """(the top-level modules and package directories ``info``'s ``RECORD`` installs into
    ``site``, not its own metadata; why it could not be read, or empty)."""
    places: dict[str, None] = {}
    try:
        with open(os.path.join(info, "RECORD"), encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f.read(_BYTES).splitlines()))
    except (OSError, ValueError, csv.Error) as exc:
        return (), f"its RECORD could not be read ({type(exc).__name__})"
    meta = os.path.basename(info)
    for row in rows:
        rel = os.path.normpath(row[0]) if row and row[0] else ""
        if not rel or rel.startswith("..") or os.path.isabs(rel):
            continue  # a console script, data outside the site: not importable from it
        top = rel.split(os.sep, 1)[0]
        if top in (meta, "__pycache__") or (top.endswith(".data") and os.sep in rel):
            continue
        places.setdefault(os.path.join(site, top), None)
    return tuple(places), ""


def copy_places(copies: Sequence[Copy]) -> tuple[str, ...]:
    """Every place of ``copies``, each once."""
    return tuple(dict.fromkeys(p for c in copies for p in c.places))


def copies_line(copies: Sequence[Copy], *, guarded: bool = True) -> tuple[str, str]:
    """(the note naming ``copies`` and what the room did; the line refusing every check
    when one's ``RECORD`` could not be read, or the room has no import guard (not
    ``guarded``) to hide them, or empty). Both empty without copies."""
    if not copies:
        return "", ""
    broken = next((c for c in copies if c.error or not guarded), None)
    if broken is not None:
        why = broken.error or "the room has no import guard to hide it"
        return "", (
            f"`{broken.name}` in {broken.site} is a copy of your work tree "
            f"({broken.source}, installed without -e) and {why}: its checks would import "
            f"that copy; no check ran: run `pip uninstall {broken.name}` in that environment"
        )
    shown = []
    for c in copies[:3]:
        tops = ", ".join(_module(p) for p in c.places[:6]) or "nothing importable"
        shown.append(f"`{c.name}` ({tops}) from {c.source}")
    more = f" and {len(copies) - 3} more" if len(copies) > 3 else ""
    names = " ".join(dict.fromkeys(c.name for c in copies))
    return (
        f"installed copy of your work tree: {'; '.join(shown)}{more} in {copies[0].site}, "
        "installed without -e: unimportable in the room's runs (the candidate's tree is "
        f"what they import); run `pip uninstall {names}` to drop the copy"
    ), ""


def _module(place: str) -> str:
    base = os.path.basename(place)
    return base.split(".", 1)[0] if os.path.isfile(place) else base
