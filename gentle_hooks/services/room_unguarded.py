"""What a verify room's check reaches when it starts Python without the room's import guard
(SPEC §9: a verify run checks "the candidate's exact tree"; issue 18: the room imports
nothing from the work tree it does not hold).

Room ``services``. The guard (:mod:`~gentle_hooks.services.import_guard`) is a
``sitecustomize`` first on ``PYTHONPATH``. A check whose Python ignores ``PYTHONPATH``
(``-I``, ``-E``), skips ``site`` (``-S``), or loses the variable (``env -u PYTHONPATH``,
``env -i``, a ``PYTHONPATH=`` the room cannot reach) starts without it, and so does a
console script whose ``#!`` line carries such a flag; its ``.pth`` files still run
(``import`` lines too) and may put a work tree's directory on ``sys.path``.

* :func:`escape` — why a check's Python starts without the guard (its command line, or
  the ``#!`` line of a program it starts), or None.
* :func:`unguarded_reach` — asked once when the room is made: each interpreter started
  as such a check's would be (``-E``, and no flag, with the checks' environment less
  ``PYTHONPATH``), the places outside the room it reaches: a top-level name of the room's
  tree found outside it, a module start-up loaded from a work tree, a ``sys.path`` entry
  in a work tree (outside a virtual environment's own ``site-packages``). ``-I`` and
  ``-S`` start with fewer of them than ``-E``.
* :func:`reach_sources` — for each place reached, the ``.pth`` file (or installed copy)
  putting it there and what to remove.

:func:`~gentle_hooks.services.room_imports.room_argv` runs such a check only when every
place reached is one the room redirected and holds the same files as the room.

Not covered: ``env -i`` is asked as ``-E`` is, with the probe's fresh ``HOME``: a user
site directory under the real home (which ``env -i`` exposes) is not asked about; a name
neither the room's tree nor a work tree's ``sys.path`` entry shows (a finder an ``import``
line installs mapping a name the room lacks) is not found.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence

from gentle_hooks.policy.pythonpath_line import composed_argv, isolating
from gentle_hooks.services.editable import under
from gentle_hooks.services.import_probe import probe
from gentle_hooks.services.room_unheld import venv_site

#: The most bytes of a program read for its ``#!`` line.
_SHEBANG = 512


def escape(argv: tuple[str, ...], programs: Sequence[str] = ()) -> str | None:
    """Why ``argv`` (a check's argument vector) starts a Python without the room's guard:
    its own words (:func:`~gentle_hooks.policy.pythonpath_line.isolating`, or a
    ``PYTHONPATH`` it sets or unsets where the room cannot put its entries), or the
    ``#!`` line of one of ``programs`` (the files it starts, resolved) starting a Python
    with ``-I``, ``-E`` or ``-S``; None when none does."""
    why = isolating(argv)
    if why is not None:
        return why
    _, missed = composed_argv(argv, "-")
    if missed:
        shown = ", ".join(f"`{m}`" for m in missed[:2])
        return f"{shown} sets or unsets PYTHONPATH where the room cannot put its entries first"
    for program in programs:
        words = _shebang(program)
        found = isolating(words) if words else None
        if found is not None:
            return f"{program}'s #! line {found}"
    return None


def _shebang(path: str) -> tuple[str, ...]:
    """The words of ``path``'s ``#!`` line (empty: none, or unreadable)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SHEBANG)
    except OSError:
        return ()
    if not head.startswith(b"#!"):
        return ()
    line = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace")
    try:
        return tuple(shlex.split(line))
    except ValueError:
        return tuple(line.split())


def unguarded_reach(
    pythons: Sequence[str],
    names: Sequence[str],
    env: Mapping[str, str],
    room: str,
    trees: Sequence[str],
    skip: Sequence[str] = (),
) -> tuple[tuple[str, ...], str]:
    """(the places outside ``room`` and ``skip`` that ``pythons`` reach when started
    without the guard — module docstring —, real paths; why the probe failed, or empty).

    A name of ``names`` found outside the room counts wherever it is; a module loaded at
    start-up or a ``sys.path`` entry counts when it is in one of the work trees ``trees``
    and not in a virtual environment's own ``site-packages``."""
    bare = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    inside = [os.path.realpath(p) for p in (room, *skip) if p]
    reals = [os.path.realpath(t) for t in trees if t]
    reached: list[str] = []
    for flags in (("-E",), ()):
        found = probe(pythons, names, bare, room, flags)
        if found.error:
            return (), found.error
        for f in found.outside:
            reached += [r for r in f.locations[1::2] if not _within(r, inside)]
        for f in (*found.loaded, *found.entries):
            real = f.locations[-1]
            if _within(real, inside) or venv_site(real) or not _within(real, reals):
                continue
            reached.append(real)
    return tuple(dict.fromkeys(reached)), ""


def _within(real: str, tops: Sequence[str]) -> bool:
    return any(under(real, t) is not None for t in tops)


def reach_sources(
    places: Sequence[str], sites: Sequence[str], copies: Sequence[tuple[str, str]] = ()
) -> tuple[tuple[str, str], ...]:
    """(place, what puts it there and what to remove) for each of ``places`` (real paths
    :func:`unguarded_reach` found): the ``.pth`` file of ``sites`` naming it (a path line,
    or an ``import`` line holding the path), an installed copy of the work tree
    (``copies``: (place, distribution) —
    :mod:`~gentle_hooks.services.installed_copies`), else the interpreter's start-up."""
    named = dict(copies)
    pths = [p for s in dict.fromkeys(sites) if s for p in _pth_files(s)]
    out = []
    for place in places:
        if place in named:
            dist = named[place]
            out.append((place, f"installed copy `{dist}`: run `pip uninstall {dist}`"))
            continue
        pth = next((p for p, text in pths if _names(text, place, os.path.dirname(p))), None)
        what = f"remove that line from {pth}" if pth else "remove what puts it on sys.path"
        out.append((place, what))
    return tuple(out)


def _pth_files(site: str) -> list[tuple[str, str]]:
    try:
        names = sorted(n for n in os.listdir(site) if n.endswith(".pth"))
    except OSError:
        return []
    out = []
    for n in names:
        try:
            with open(os.path.join(site, n), encoding="utf-8", errors="replace") as fh:
                out.append((os.path.join(site, n), fh.read(1 << 20)))
        except OSError:
            continue
    return out


def _names(text: str, place: str, site: str) -> bool:
    """A ``.pth`` file's ``text`` names ``place``: a line holding it, or a path line
    resolving to it."""
    for line in text.splitlines():
        line = line.strip()
        if place in line:
            return True
        path_line = line and not line.startswith(("#", "import ", "import\t"))
        if path_line and os.path.realpath(os.path.join(site, line)) == place:
            return True
    return False
