"""Another copy of the project an editable install imports from: a clone outside the
repository's work trees (SPEC §9: a verify run checks "the candidate's exact tree").

Room ``services``. :mod:`~gentle_hooks.services.editable` redirects the places in this
repository's work trees that an editable install imports from; ``pip install -e`` of
another clone of the project (``/tmp/other-clone``: another directory, not a work tree of
this repository) names a place none of them holds, and a room's check then imports that
clone's package, not the candidate's: a candidate whose test fails there passes.

* :func:`other_copies` — the import places outside the work trees that provide a
  top-level package or module the room's tree provides too, each as a
  :class:`~gentle_hooks.services.editable.Redirect` to the room's directory holding it
  (put first on ``PYTHONPATH``, the place blocked by the room's import guard).
* :func:`copies_note` — the line saying so.
* :func:`top_names` — the top-level modules and packages a directory holds.

A place provides a name when it holds ``NAME.py`` or ``NAME/__init__.py`` (a ``.pth``
line's or ``.egg-link``'s directory), or when a setuptools finder maps ``NAME`` (a
top-level name, no dot) to a path in it. Names every project may have (``tests``,
``docs``, ``conftest``, ``setup``...: :data:`COMMON_NAMES`) do not make a place a copy of
the project: another project's editable install may hold them too. The room's directory
holding the name is looked for, in order, at the place's path inside its own project (the
nearest directory above it, at most :data:`_UP` levels, holding ``.git``,
``pyproject.toml``, ``setup.py`` or ``setup.cfg``: ``src`` for ``/tmp/other/src``), at the
tree's root and at ``src``. A place inside, or above, a ``site-packages`` directory the
interpreters read, the room or a work tree is never a copy (blocking it would hide the
installed packages, or the tree itself).

Not covered: a non-editable install of the project (``pip install .``: its copy is in
``site-packages``, which is never blocked), and a copy whose package sits elsewhere in
the room than the three places above.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from gentle_hooks.services.editable import Redirect, finder_mapped, under

#: Top-level names many projects hold that are no distribution's package.
COMMON_NAMES: frozenset[str] = frozenset(
    {"tests", "test", "testing", "docs", "doc", "examples", "example", "scripts", "tools"}
    | {"benchmarks", "bench", "build", "dist", "conftest", "setup", "noxfile", "tasks"}
    | {"fabfile", "manage", "__pycache__", "site-packages", "dist-packages", "__main__"}
)
#: How many levels above a place its project's root is looked for.
_UP = 4
#: How many entries of one place are read.
_ENTRIES = 500
#: Files and directories that make a directory a project's root.
_ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")


def other_copies(
    places: Iterable[tuple[str, str]],
    room: str,
    trees: Sequence[str],
    sites: Sequence[str],
    skip: Sequence[str] = (),
) -> tuple[Redirect, ...]:
    """The ``places`` (from :func:`~gentle_hooks.services.editable.import_places`) that
    hold another copy of the project the room's tree ``room`` holds (see the module
    docstring), each once, in the order found, as a Redirect whose ``tree`` is the copy's
    project root (the place itself when none is found) and whose ``rel`` is the room's
    directory that holds the same name(s). None in, or above, one of ``trees`` (the work
    trees: :func:`~gentle_hooks.services.editable.in_trees`' part), ``skip``, ``room`` or
    ``sites`` (the ``site-packages`` directories read)."""
    fenced = [os.path.realpath(p) for p in (*trees, *skip, room, *sites) if p]
    room_real = os.path.realpath(room)
    out: dict[str, Redirect] = {}
    for place, source in places:
        real = os.path.realpath(place)
        if real in out or real == "/" or not os.path.isdir(real):
            continue
        if any(under(real, f) is not None or under(f, real) is not None for f in fenced):
            continue
        names = [n for n in _provided(real, source) if n not in COMMON_NAMES]
        if not names:
            continue
        top, own = _project_rel(real)
        for rel in dict.fromkeys((own, ".", "src")):
            if any(_holds(os.path.join(room_real, rel), n) for n in names):
                out[real] = Redirect(real, top, rel, source)
                break
    return tuple(out.values())


def _provided(place: str, source: str) -> list[str]:
    """The top-level names ``place`` provides (module docstring), as ``source`` (the file
    naming it) makes Python import them."""
    if os.path.basename(source).startswith("__editable__") and source.endswith("finder.py"):
        return list(
            dict.fromkeys(
                name
                for name, path in finder_mapped(source)
                if "." not in name and os.path.dirname(os.path.realpath(path)) == place
            )
        )
    return top_names(place)


def top_names(place: str, *, namespaces: bool = False) -> list[str]:
    """The top-level modules (``NAME.py``) and packages (``NAME/__init__.py``) directory
    ``place`` holds, ``NAME`` an identifier, in name order; at most :data:`_ENTRIES`
    entries read. ``namespaces``: also each directory ``NAME`` without ``__init__.py``
    holding Python code (a PEP 420 namespace package: :func:`holds_code`)."""
    try:
        entries = sorted(os.listdir(place))[:_ENTRIES]
    except OSError:
        return []
    names = []
    for entry in entries:
        stem, ext = os.path.splitext(entry)
        if ext == ".py" and stem.isidentifier():
            names.append(stem)
        elif entry.isidentifier() and _package(os.path.join(place, entry), namespaces):
            names.append(entry)
    return names


def _package(directory: str, namespaces: bool) -> bool:
    """``directory`` is a package (``__init__.py``), or (``namespaces``) a namespace
    package holding code."""
    if os.path.isfile(os.path.join(directory, "__init__.py")):
        return True
    return namespaces and holds_code(directory)


def holds_code(directory: str, depth: int = 3) -> bool:
    """``directory`` (no symbolic link) holds a ``.py`` file, directly or in a directory
    below it named as an identifier, at most ``depth`` levels down and
    :data:`_ENTRIES` entries per directory read."""
    if depth < 0 or os.path.islink(directory):
        return False
    try:
        entries = sorted(os.listdir(directory))[:_ENTRIES]
    except OSError:
        return False
    if any(e.endswith(".py") for e in entries):
        return True
    return any(
        e.isidentifier() and holds_code(os.path.join(directory, e), depth - 1) for e in entries
    )


def _holds(directory: str, name: str) -> bool:
    """``directory`` holds ``name`` as a module or a package (a directory)."""
    return os.path.isfile(os.path.join(directory, name + ".py")) or os.path.isdir(
        os.path.join(directory, name)
    )


def _project_rel(place: str) -> tuple[str, str]:
    """(root, ``place`` relative to it): the nearest directory at or above ``place`` (at
    most :data:`_UP` levels up) holding one of :data:`_ROOT_MARKERS`; (``place``, ``.``)
    when none does."""
    here = place
    for _ in range(_UP + 1):
        if any(os.path.lexists(os.path.join(here, m)) for m in _ROOT_MARKERS):
            return here, os.path.relpath(place, here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return place, "."


def copies_note(copies: Sequence[Redirect]) -> str:
    """One line naming ``copies`` (:func:`other_copies`) and what the room did."""
    shown = ", ".join(f"{c.place} ({c.source})" for c in copies[:3])
    more = f" and {len(copies) - 3} more" if len(copies) > 3 else ""
    rels = ", ".join(dict.fromkeys(c.rel for c in copies))
    return (
        f"editable install: {shown}{more} is another copy of the project outside this "
        f"repository: the room's {rels} first on PYTHONPATH and that copy unimportable in "
        "its runs"
    )
