"""What a room's runs cannot import from the work tree: the ``sitecustomize`` of a verify
room's checks (SPEC §9: each criterion "also runs on the base tree", and on the emptied
change; :mod:`gentle_hooks.services.editable`).

Room ``services``. The room puts the places an editable install imports from inside its own
tree first on ``PYTHONPATH``; a module that tree does not hold (a package only the candidate
adds, in the base run; one only the work tree has, in any run) is still found further on,
through the ``.pth`` entry or setuptools finder naming the work tree, and the base run
imports the candidate's package from the work tree. The guard closes that: a directory first
on ``PYTHONPATH`` holding a ``sitecustomize.py`` (run after the ``.pth`` files) that drops
the ``sys.path`` entries in a blocked place (outside the room) and wraps each meta path
finder but Python's own so that a spec located only in a blocked place is not found: such a
module is absent, as in the tree under test (``importlib.util.find_spec`` gives None,
``import`` raises ``ModuleNotFoundError``). It then runs the ``sitecustomize`` it hides, if
any (the interpreter's, or the project's own), as Python would have.

* :func:`write_guard` — write the guard for a room, blocking the given places.

A check's own ``PYTHONPATH=`` word on its command line keeps the room's entries (the guard's
directory first) in front of its value, and a check starting Python with ``-I``, ``-E``,
``-S`` or under ``env -i`` is not run while the work tree holds other importable files than
the room (:func:`~gentle_hooks.services.room_imports.room_argv`).

Not covered: a ``PYTHONPATH`` set, or ``-I``/``-E``/``-S`` passed, where the command line
does not show it (inside a Makefile, ``tox.ini``, a script the check runs, a ``#!`` line, a
word built from variables): that run imports the work tree's code; a finder added after
start-up (the ``sitecustomize`` the guard runs adds one: the room's import probe,
:mod:`~gentle_hooks.services.import_probe`, then finds the name outside the room and no
check runs).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

#: The file Python runs at start-up from the first ``sys.path`` entry holding it.
GUARD_FILE = "sitecustomize.py"

_SOURCE = '''"""Written by gentle-hooks for a verify room: a module found only in the work
tree places _BLOCKED names is not importable in the room's runs (the tree under test does
not hold it)."""

import os as _os
import sys as _sys

_ROOM = @ROOM@
_BLOCKED = @BLOCKED@
_HERE = _os.path.dirname(_os.path.realpath(__file__))


def _blocked(path):
    real = _os.path.realpath(path or ".")
    if real == _ROOM or real.startswith(_ROOM + _os.sep):
        return False
    return any(real == b or real.startswith(b + _os.sep) for b in _BLOCKED)


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
        where += [p for p in (spec.submodule_search_locations or ()) if p]
        return None if where and all(_blocked(p) for p in where) else spec


def _guard():
    _sys.path[:] = [p for p in _sys.path if not _blocked(p)]
    import importlib.machinery as _m

    kept = (_m.BuiltinImporter, _m.FrozenImporter, _m.PathFinder)
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


_guard()
_hidden()
'''


def write_guard(directory: str, room: str, places: Sequence[str]) -> str:
    """Write the guard's :data:`GUARD_FILE` into ``directory`` (made if missing, a file
    already there replaced): a module found only in one of ``places`` (real paths in the
    user's work trees) and not in ``room`` (the room's directory) is not found. Returns
    ``directory``, for ``PYTHONPATH``'s first entry.

    Raises:
        OSError: the file could not be written.
    """
    os.makedirs(directory, exist_ok=True)
    blocked = tuple(dict.fromkeys(os.path.realpath(p) for p in places))
    text = _SOURCE.replace("@ROOM@", repr(os.path.realpath(room))).replace(
        "@BLOCKED@", repr(blocked)
    )
    path = os.path.join(directory, GUARD_FILE)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return directory
