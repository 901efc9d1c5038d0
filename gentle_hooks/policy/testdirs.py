"""Modules a change puts beside the test modules pytest imports, hiding the product's
(SPEC §9; seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
check").

Room ``policy`` (pure: the caller lists the tree). pytest's default import mode
(``prepend``) puts a test module's *base directory* first on ``sys.path`` before importing
it: the module's own directory, or, inside packages (``__init__.py``), the first directory
above them that is none. The test's ``import app`` then finds a ``tests/app.py`` there
before the ``src/app.py`` a ``PYTHONPATH`` names: a module the change adds in a base
directory, named as a module the tree provides elsewhere, is run in the product's place
and defines the pytest check (row ``D-shadow``; :mod:`gentle_hooks.services.defined`
leaves out a module the base already has there: the repository's own).
:func:`basedirs_of_tests` finds the directories, :func:`shadows_beside_tests` the modules;
:func:`shadows_across` the modules a change adds in one ``sys.path`` directory of a run
that the tree has in another (a root ``app.py`` with ``PYTHONPATH=src``: ``python -m``
puts the working directory first).
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Iterable, Sequence

from gentle_hooks.policy.importable import module_name
from gentle_hooks.policy.runnerfiles import TEST_MODULES

#: Modules pytest itself reads from a test directory: never a product module's stand-in.
_OWN = frozenset({"conftest", "__init__", "__main__"})


def _is_test_module(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in TEST_MODULES)


def basedirs_of_tests(paths: Iterable[str]) -> frozenset[str]:
    """The directories (``.`` for the root) pytest puts on ``sys.path`` to import the test
    modules among the tree's file ``paths``: each test module's directory, walked up
    while it holds an ``__init__.py``."""
    files = frozenset(paths)
    found: set[str] = set()
    for path in files:
        if not _is_test_module(posixpath.basename(path)):
            continue
        where = posixpath.dirname(path)
        while where and posixpath.join(where, "__init__.py") in files:
            where = posixpath.dirname(where)
        found.add(where or ".")
    return frozenset(found)


def _module_in(path: str, where: str) -> str | None:
    """The top-level module ``path`` provides from the directory ``where`` (a file of it,
    or a file of a package directory in it), or None when it is not below ``where``."""
    top = "" if where == "." else where + "/"
    if not path.startswith(top):
        return None
    first, slash, _ = path[len(top) :].partition("/")
    return first if slash else module_name(first)


def shadows_beside_tests(
    tree: Sequence[str], added: Iterable[str]
) -> tuple[tuple[str, str, str], ...]:
    """For each of the ``added`` paths that provides, in a test base directory of the
    tree's file paths ``tree`` (:func:`basedirs_of_tests`), a top-level module that a file of
    ``tree`` outside that directory provides too (the product's ``src/app.py``): (the path,
    the directory, the module), in the order of ``added``. A test module, ``conftest`` and
    a package's ``__init__`` name no product module."""
    dirs = basedirs_of_tests(tree)
    found: list[tuple[str, str, str]] = []
    for path in added:
        if _is_test_module(posixpath.basename(path)):
            continue
        for where in sorted(dirs):
            name = _module_in(path, where)
            if name is None or name in _OWN or not name.isidentifier():
                continue
            elsewhere = any(
                _module_in(p, where) != name
                and (module_name(posixpath.basename(p)) == name or f"/{name}/" in f"/{p}")
                for p in tree
            )
            if elsewhere:
                found.append((path, where, name))
                break
    return tuple(found)


def top_module(path: str, where: str) -> str | None:
    """The top-level module the tree's ``path`` provides from the ``sys.path`` directory
    ``where`` (``.`` for the root): its first directory below ``where`` (a package or a
    namespace portion), or the file's module name; None when ``path`` is not below
    ``where`` or names no module."""
    top = "" if where == "." else where + "/"
    if not path.startswith(top):
        return None
    first, slash, _ = path[len(top) :].partition("/")
    name = first if slash else module_name(first)
    return name if name is not None and name.isidentifier() else None


def shadows_across(
    dirs: Iterable[str], tree: Sequence[str], added: Iterable[str]
) -> tuple[tuple[str, str, str], ...]:
    """Row ``D-shadow`` across the ``sys.path`` entries of one run: for each of the
    ``added`` paths (files a change adds) that provides, from one of ``dirs`` (the run's
    ``sys.path`` directories of the tree: the working directory of ``python -m``/``-c``,
    ``PYTHONPATH`` entries, pytest's ``pythonpath`` and the directories it inserts), a
    top-level module that another file of ``tree`` provides from another of ``dirs``
    (a root ``app.py`` and ``src/app.py`` with ``PYTHONPATH=src``): (the added path, the
    directory, the module), in the order of ``added``. Which of the two a test imports
    depends on the order of ``sys.path``, which pytest changes as it collects: either
    defines the check. A test module ,
    ``conftest``, ``__init__`` and ``__main__`` are never a stand-in."""
    where_all = sorted(set(dirs))
    found: list[tuple[str, str, str]] = []
    for path in added:
        base = path.rsplit("/", 1)[-1]
        if module_name(base) is None or _is_test_module(base):
            continue
        for where in where_all:
            name = top_module(path, where)
            if name is None or name in _OWN:
                continue
            elsewhere = any(
                q != path and top_module(q, other) == name and top_module(q, where) != name
                for other in where_all
                if other != where
                for q in tree
            )
            if elsewhere:
                found.append((path, where, name))
                break
    return tuple(found)
