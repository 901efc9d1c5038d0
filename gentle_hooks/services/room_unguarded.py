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
  tree found outside it; in a work tree, a name the room's files import
  (:func:`imported_names`) found there, a module start-up loaded from there, a
  ``sys.path`` entry there (not the interpreter's own ``site-packages``), a symbolic link
  at the top of a ``sys.path`` directory pointing there, a path held by a meta path
  finder other than Python's own (an editables-style finder). ``-I`` and ``-S`` start
  with fewer of them than ``-E``.
* :func:`imported_names` — the top-level names the room's Python files import.
* :func:`reach_sources` — for each place reached, the ``.pth`` file (or installed copy)
  putting it there and what to remove.

:func:`~gentle_hooks.services.room_imports.room_argv` runs such a check only when every
place reached is one the room redirected and holds the same files as the room.

Not covered: ``env -i`` is asked as ``-E`` is, with the probe's fresh ``HOME``: a user
site directory under the real home (which ``env -i`` exposes) is not asked about; a link
below the top of a ``sys.path`` directory (``site-packages/pkg/mod.py`` linked into a
work tree) whose package no imported name shows; a finder computing a work tree's path
only when asked (no absolute path in its state) for a name no file of the room imports
by an ``import`` line (``importlib.import_module`` of a built name); a hard link (the
same file as the work tree's, indistinguishable from an installed copy).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping, Sequence

from gentle_hooks.policy.pythonpath_line import composed_argv, isolating
from gentle_hooks.services.editable import under
from gentle_hooks.services.import_probe import MAX_NAMES, probe

#: The most bytes of a program read for its ``#!`` line.
_SHEBANG = 512
#: The most Python files, and bytes of each, :func:`imported_names` reads.
_FILES = 5000
_FILE_BYTES = 1 << 18
#: Directories :func:`imported_names` does not read.
_SKIPPED = frozenset({".git", "__pycache__", "node_modules", ".tox", ".nox"})
#: An absolute ``from NAME`` or ``import NAME, ...`` statement (group 1, group 2).
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([\w., \t]+))", re.M
)


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
) -> tuple[tuple[str, ...], str, tuple[tuple[str, str], ...]]:
    """(the places outside ``room`` and ``skip`` that ``pythons`` reach when started
    without the guard — module docstring —, real paths; why the probe failed, or empty;
    (place, what puts it there and what to remove) for the places a symbolic link or a
    finder puts there).

    A name of ``names`` found outside the room counts wherever it is. In one of the work
    trees ``trees`` count: a name the room's Python files import (:func:`imported_names`)
    found there; a module loaded at start-up or a ``sys.path`` entry there, unless the
    interpreter's own ``site-packages`` (a work tree's virtual environment read through
    another interpreter's ``.pth`` counts); a symbolic link at the top of a ``sys.path``
    directory resolving there; a path there held by a meta path finder other than
    Python's own (an editables-style finder a ``.pth`` ``import`` line installs). A finder
    the probe cannot read fails it (:func:`~gentle_hooks.services.import_probe.probe`)."""
    bare = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    inside = [os.path.realpath(p) for p in (room, *skip) if p]
    reals = [os.path.realpath(t) for t in trees if t]
    own = set(names)
    extra = [n for n in imported_names(room) if n not in own][:MAX_NAMES]
    reached: list[str] = []
    told: dict[str, str] = {}

    def count(real: str, what: str = "") -> None:
        if not _within(real, inside) and _within(real, reals):
            reached.append(real)
            if what:
                told.setdefault(real, what)

    for flags in (("-E",), ()):
        found = probe(pythons, [*names, *extra], bare, room, flags, reach=True)
        if found.error:
            return (), found.error, ()
        for f in found.outside:
            if f.name in own:
                reached += [r for r in f.locations[1::2] if not _within(r, inside)]
        for f in (*found.loaded, *found.entries):
            count(f.locations[-1])
        for f in found.links:
            link, real = f.locations
            count(real, f"the symbolic link {link} points there: remove it")
        for f in found.mapped:
            count(f.locations[-1], f"the import finder `{f.name}` maps a name there: uninstall it")
        # last: a name found through one of the above is named by what put it there
        for f in found.outside:
            if f.name not in own:
                for r in f.locations[1::2]:
                    count(r, f"`{f.name}` imports from there ({f.locations[0]})")
    places = tuple(dict.fromkeys(reached))
    return places, "", tuple((p, told[p]) for p in places if p in told)


def imported_names(room: str) -> tuple[str, ...]:
    """The top-level names the Python files of ``room`` (the room's tree; a virtual
    environment, ``.git`` and caches not read) name in an absolute ``import`` or ``from
    ... import`` line, each once, at most :data:`~.import_probe.MAX_NAMES`; at most
    :data:`_FILES` files and :data:`_FILE_BYTES` of each read. A name a string holds is
    asked too (harmless: it resolves nowhere or where it would)."""
    out: dict[str, None] = {}
    seen = 0
    for dirpath, dirs, files in os.walk(room):
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in _SKIPPED and not os.path.isfile(os.path.join(dirpath, d, "pyvenv.cfg"))
        )
        for name in sorted(f for f in files if f.endswith(".py")):
            seen += 1
            if seen > _FILES or len(out) >= MAX_NAMES:
                return tuple(out)[:MAX_NAMES]
            try:
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as fh:
                    text = fh.read(_FILE_BYTES)
            except OSError:
                continue
            for m in _IMPORT.finditer(text):
                words = [m.group(1)] if m.group(1) else m.group(2).split(",")
                for word in words:
                    top = word.strip().split(" ", 1)[0].split(".", 1)[0]
                    if top.isidentifier():
                        out.setdefault(top, None)
    return tuple(out)[:MAX_NAMES]


def _within(real: str, tops: Sequence[str]) -> bool:
    return any(under(real, t) is not None for t in tops)


def reach_sources(
    places: Sequence[str],
    sites: Sequence[str],
    copies: Sequence[tuple[str, str]] = (),
    told: Sequence[tuple[str, str]] = (),
) -> tuple[tuple[str, str], ...]:
    """(place, what puts it there and what to remove) for each of ``places`` (real paths
    :func:`unguarded_reach` found): what ``told`` says (a symbolic link, a finder), the
    ``.pth`` file of ``sites`` naming it (a path line, or an ``import`` line holding the
    path), an installed copy of the work tree (``copies``: (place, distribution) —
    :mod:`~gentle_hooks.services.installed_copies`), else the interpreter's start-up."""
    named = dict(copies)
    said = dict(told)
    pths = [p for s in dict.fromkeys(sites) if s for p in _pth_files(s)]
    out = []
    for place in places:
        if place in said:
            out.append((place, said[place]))
            continue
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
