"""Which pytest plugins a check loads by name (SPEC §9; seed 001 "Guardrails": "do not
accept a claim whose criteria have no observable check").

Room ``policy`` (pure: the caller reads the files). pytest imports as a plugin every module
named by ``-p NAME`` on its command line and by ``pytest_plugins`` in a test module it
collects (``pytest_plugins = ["helpers"]``), before it runs a test: a hook there
(``pytest_runtest_makereport`` turning a failure into a pass) decides the outcome, as a
``conftest.py`` would. Such a module the change adds or changes defines the check (row
``D-plugin`` of :mod:`gentle_hooks.policy.checkdefs`; the files that provide it:
:func:`~gentle_hooks.policy.importable.provides`). :func:`plugin_options` reads a pytest
command's ``-p``, :func:`config_plugins` the ``-p`` of a configuration file's ``addopts``
(pytest puts them on every command line it runs, the file unchanged or not),
:func:`named_plugins` a Python file's ``pytest_plugins``.
"""

from __future__ import annotations

import ast
import configparser
import shlex
import sys
from collections.abc import Sequence

#: The variable a test module or conftest.py names its plugins in.
PLUGINS_VARIABLE = "pytest_plugins"
#: The key of pytest's configuration whose options it adds to every command line.
ADDOPTS = "addopts"
#: The key of pytest's configuration whose directories it puts first on ``sys.path``.
PYTHONPATH_KEY = "pythonpath"
#: pytest's configuration files, by base name, and where in each its options are: an INI
#: section, or a TOML table's path.
CONFIG_PLACES: dict[str, tuple[tuple[str, ...], ...]] = {
    "pytest.ini": (("pytest",),),
    ".pytest.ini": (("pytest",),),
    "tox.ini": (("pytest",),),
    "setup.cfg": (("tool:pytest",),),
    "pyproject.toml": (("tool", "pytest", "ini_options"), ("tool", "pytest")),
    "pytest.toml": (("pytest",),),
    ".pytest.toml": (("pytest",),),
}


def plugin_options(args: Sequence[str]) -> tuple[str, ...]:
    """The plugins pytest's arguments ``args`` load: each ``-p NAME`` and ``-pNAME``, not
    ``-p no:NAME`` (that one keeps a plugin out)."""
    found: list[str] = []
    for i, word in enumerate(args):
        if word == "-p" and i + 1 < len(args):
            name = args[i + 1]
        elif word.startswith("-p") and len(word) > 2:
            name = word[2:]
        else:
            continue
        if name and not name.startswith("no:"):
            found.append(name)
    return tuple(dict.fromkeys(found))


def _names(value: ast.expr) -> list[str] | None:
    """The module names of one ``pytest_plugins`` value: a string (pytest splits it at
    commas) or a list or tuple of strings; None for anything else."""
    items = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
    found: list[str] = []
    for item in items:
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            return None
        found += [n.strip() for n in item.value.split(",") if n.strip()]
    return found


def named_plugins(data: bytes) -> tuple[str, ...] | None:
    """The modules the Python source ``data`` names in ``pytest_plugins``, in order: empty
    when it names none or does not parse (pytest cannot import it either); None when it
    sets or uses the variable in a way this reader does not evaluate
    (``pytest_plugins = PLUGINS``, ``pytest_plugins.append(...)``)."""
    if PLUGINS_VARIABLE.encode() not in data:
        return ()
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found: list[str] = []
    read: set[int] = set()  # the ids of the Name nodes whose assignment was read
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == PLUGINS_VARIABLE:
                    names = _names(node.value) if node.value is not None else []
                    if names is None:
                        return None
                    found += names
                    read.add(id(target))
    for node in ast.walk(tree):
        mentioned = (
            (isinstance(node, ast.Name) and node.id == PLUGINS_VARIABLE and id(node) not in read)
            or (isinstance(node, ast.Attribute) and node.attr == PLUGINS_VARIABLE)
            or (isinstance(node, ast.Constant) and node.value == PLUGINS_VARIABLE)
        )
        if mentioned:  # used some other way: which plugins it ends up naming is unknown
            return None
    return tuple(dict.fromkeys(found))


def config_plugins(path: str, data: bytes) -> tuple[str, ...]:
    """The plugins the ``addopts`` of the pytest configuration file ``path`` (one of
    :data:`CONFIG_PLACES`, by base name) with the content ``data`` loads
    (:func:`plugin_options` of its words: ``addopts = -p helpers``); empty for any other
    file, one without ``addopts``, or one that does not parse (pytest refuses it too)."""
    places = CONFIG_PLACES.get(path.rsplit("/", 1)[-1], ())
    try:
        text = data.decode("utf-8")
        words: list[str] = []
        for place in places:
            value = _toml_value(text, place) if path.endswith(".toml") else _ini_value(text, place)
            if isinstance(value, str):
                words += shlex.split(value)
            elif isinstance(value, list):
                words += [w for w in value if isinstance(w, str)]
    except (ValueError, RecursionError, configparser.Error):  # UnicodeDecodeError too
        return ()
    return plugin_options(words)


def config_pythonpath(path: str, data: bytes) -> tuple[str, ...]:
    """The directories the ``pythonpath`` key of the pytest configuration file ``path``
    (one of :data:`CONFIG_PLACES`, by base name) with the content ``data`` puts first on
    ``sys.path``, as written (relative to the file's directory); empty for any other file,
    one without the key, or one that does not parse (pytest refuses it too)."""
    places = CONFIG_PLACES.get(path.rsplit("/", 1)[-1], ())
    found: list[str] = []
    try:
        text = data.decode("utf-8")
        for place in places:
            if path.endswith(".toml"):
                value = _toml_value(text, place, PYTHONPATH_KEY)
            else:
                value = _ini_value(text, place, PYTHONPATH_KEY)
            if isinstance(value, str):
                found += value.split()
            elif isinstance(value, list):
                found += [w for w in value if isinstance(w, str)]
    except (ValueError, RecursionError, configparser.Error):
        return ()
    return tuple(dict.fromkeys(found))


def _ini_value(text: str, place: tuple[str, ...], key: str = ADDOPTS) -> object:
    ini = configparser.RawConfigParser(strict=False, interpolation=None)
    ini.read_string(text)
    return ini.get(place[0], key, fallback=None)


def _toml_value(text: str, place: tuple[str, ...], key: str = ADDOPTS) -> object:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    value: object = tomllib.loads(text)
    for step in (*place, key):
        value = value.get(step) if isinstance(value, dict) else None
    return value
