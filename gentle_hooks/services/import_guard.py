"""What a room's runs cannot import from the work tree: the ``sitecustomize`` of a verify
room's checks (SPEC §9: each criterion "also runs on the base tree", and on the emptied
change; issue 18: the room imports nothing from the work tree it does not hold;
:mod:`gentle_hooks.services.editable`).

Room ``services``. The room puts the places an editable install imports from inside its own
tree first on ``PYTHONPATH``; a module that tree does not hold (a package only the candidate
adds, in the base run; one only the work tree has, in any run) is still found further on,
through the ``.pth`` entry or setuptools finder naming the work tree, and the base run
imports the candidate's package from the work tree. The guard closes that: a directory first
on ``PYTHONPATH`` holding a ``sitecustomize.py`` (run after the ``.pth`` files, ``import``
lines too) that blocks

* the places it is given (:func:`write_guard`'s ``places``), and
* every place in a fenced work tree (its ``fences``), whatever put it on ``sys.path`` (a
  ``.pth`` ``import`` line, ``site.addsitedir``, an interpreter's ``sitecustomize``),
  except the running interpreter's standard library and ``site-packages`` (``sysconfig``:
  a virtual environment kept in the work tree is its own interpreter's installation, and
  a work-tree place to any other interpreter whose ``.pth`` names it) and the ``allowed``
  places;

nothing inside the room (its directory) is blocked; places are compared with symbolic links
followed. It drops the ``sys.path`` entries in a blocked place and wraps every meta path
finder but the built-in and frozen importers (Python's path finder too: an entry added
later) so that a spec located only in a blocked place is not found: such a module is
absent, as in the tree under test (``importlib.util.find_spec`` gives None, ``import``
raises ``ModuleNotFoundError``); a namespace package (PEP 420) keeps only its portions
outside the blocked places. It then runs the ``sitecustomize`` it hides, if any (the
interpreter's, or the project's own), and the ``usercustomize`` when the user site is on,
as Python would have, and blocks again what they added.

* :func:`write_guard` — write the guard for a room, blocking the given places and trees.

A check's own ``PYTHONPATH=`` word on its command line keeps the room's entries (the guard's
directory first) in front of its value, and a check starting Python with ``-I``, ``-E``,
``-S`` or under ``env -i`` is not run while the work tree holds other importable files than
the room (:func:`~gentle_hooks.services.room_imports.room_argv`).

A check that starts Python without the guard where the command line (or a started
program's ``#!`` line) shows it runs only when what that start reaches outside the room is
the room's own copy (:mod:`~gentle_hooks.services.room_unguarded`). Where neither shows
it (a Makefile, ``tox.ini``, a script the check runs, a word built from variables), a
verify room whose interpreters reach a work tree without the guard runs only checks it
can prove start every Python under it (:mod:`~gentle_hooks.services.room_proven`).
A module an interpreter's ``sitecustomize`` (or a ``.pth`` ``import`` line) loads from the
work tree by path and leaves in ``sys.modules`` is out of the guard's reach: the room's
import probe finds it and no check runs
(:func:`~gentle_hooks.services.room_imports.for_room`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

#: The file Python runs at start-up from the first ``sys.path`` entry holding it.
GUARD_FILE = "sitecustomize.py"

_SOURCE = '''"""Written by gentle-hooks for a verify room: a module found only in the places
_BLOCKED names, or in the work trees _FENCES names (but the running interpreter's own
library and site-packages), is not importable in the room's runs (the tree under test
does not hold it)."""

import os as _os
import sys as _sys

_ROOM = @ROOM@
_BLOCKED = @BLOCKED@
_FENCES = @FENCES@
_ALLOWED = @ALLOWED@
_HERE = _os.path.dirname(_os.path.realpath(__file__))


def _in(real, tops):
    return any(real == t or real.startswith(t.rstrip(_os.sep) + _os.sep) for t in tops)


def _own():
    import sysconfig

    paths = sysconfig.get_paths()
    keys = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple(_os.path.realpath(paths[k]) for k in keys if paths.get(k))


_OWN = _own()


def _blocked(path):
    real = _os.path.realpath(path or ".")
    if _in(real, (_ROOM,)) or _in(real, _ALLOWED):
        return False
    if _in(real, _BLOCKED):
        return True
    return _in(real, _FENCES) and not _in(real, _OWN)


class _Filtered:
    """A meta path finder whose specs located only in a blocked place are not found."""

    def __init__(self, finder):
        self.finder = finder

    def __eq__(self, other):
        return other is self or other == self.finder

    def __hash__(self):
        return hash(self.finder)

    def __getattr__(self, name):
        return getattr(self.finder, name)

    def find_spec(self, fullname, path=None, target=None):
        spec = self.finder.find_spec(fullname, path, target)
        if spec is None:
            return None
        where = [spec.origin] if spec.has_location and spec.origin else []
        where += [p for p in (spec.submodule_search_locations or ()) if isinstance(p, str)]
        if where and all(_blocked(p) for p in where):
            return None
        locations = spec.submodule_search_locations
        if locations is not None and not spec.has_location:
            # a namespace package: its portions in a blocked place are not part of it
            kept = [p for p in locations if not isinstance(p, str) or not _blocked(p)]
            if len(kept) != len(list(locations)):
                spec.submodule_search_locations = kept
        return spec


def _guard():
    _sys.path[:] = [p for p in _sys.path if not isinstance(p, str) or not _blocked(p)]
    import importlib.machinery as _m

    kept = (_m.BuiltinImporter, _m.FrozenImporter)
    _sys.meta_path[:] = [
        f if f in kept or isinstance(f, _Filtered) or not hasattr(f, "find_spec") else _Filtered(f)
        for f in _sys.meta_path
    ]


def _hidden():
    from importlib.machinery import PathFinder
    from importlib.util import module_from_spec

    rest = [p for p in _sys.path if _os.path.realpath(p or ".") != _HERE]
    spec = PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = module_from_spec(spec)
    _sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


def _user():
    import site

    if not getattr(site, "ENABLE_USER_SITE", False) or "usercustomize" in _sys.modules:
        return
    try:
        import usercustomize  # noqa: F401
    except ImportError as exc:
        if exc.name != "usercustomize":
            raise


_guard()
try:
    _hidden()
    _guard()
    _user()
finally:
    _guard()
'''


def write_guard(
    directory: str,
    room: str,
    places: Sequence[str],
    fences: Sequence[str] = (),
    allowed: Sequence[str] = (),
) -> str:
    """Write the guard's :data:`GUARD_FILE` into ``directory`` (made if missing, a file
    already there replaced): a module found only in one of ``places`` (paths in the user's
    work trees) or in one of ``fences`` (the work trees: every place in them but the
    running interpreter's own library and ``site-packages`` and ``allowed``),
    and not in ``room`` (the room's directory), is not found (module docstring). Returns
    ``directory``, for ``PYTHONPATH``'s first entry.

    Raises:
        OSError: the file could not be written.
    """
    os.makedirs(directory, exist_ok=True)
    text = _SOURCE.replace("@ROOM@", repr(os.path.realpath(room)))
    for key, paths in (("@BLOCKED@", places), ("@FENCES@", fences), ("@ALLOWED@", allowed)):
        reals = tuple(dict.fromkeys(os.path.realpath(p) for p in paths if p))
        text = text.replace(key, repr(reals))
    path = os.path.join(directory, GUARD_FILE)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return directory
