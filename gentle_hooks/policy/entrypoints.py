"""Installed-package metadata in the checked tree that makes Python or pytest load code by
itself (SPEC §9; seed 001 "Guardrails": "do not accept a claim whose criteria have no
observable check").

Room ``policy`` (pure: the caller reads the files). ``importlib.metadata`` finds a
distribution in every directory on ``sys.path``: a ``NAME-1.0.dist-info/`` or
``NAME.egg-info/`` at the tree's root (``python3 -m pytest`` puts it first) or in a
``PYTHONPATH`` entry is installed as far as pytest is concerned, and pytest imports each
module its ``entry_points.txt`` names under ``[pytest11]`` as a plugin before it runs a
test, unasked. An ``*.egg-link`` and a ``*.pth`` point Python's ``site`` at more code.
Such a file the change adds or changes defines a Python check (row ``D-entrypoints``
of :mod:`gentle_hooks.services.defined`), and so does a module an ``entry_points.txt``
of the tree names under ``[pytest11]`` (row ``D-plugin``): :func:`is_metadata` names
the files, :func:`pytest_entry_modules` reads the modules.
"""

from __future__ import annotations

import configparser

#: The file of a ``*.dist-info`` or ``*.egg-info`` directory naming its entry points.
ENTRY_POINTS = "entry_points.txt"
#: The entry-point group pytest loads plugins from (``pytest11``).
PYTEST_GROUP = "pytest11"
#: Files Python's ``site`` follows to more code.
SITE_POINTERS = (".pth", ".egg-link")


def is_metadata(path: str) -> bool:
    """Whether the tree's ``path`` (``/`` separated) is an ``entry_points.txt`` of a
    ``*.dist-info`` or ``*.egg-info`` directory, an ``*.egg-link`` or a ``*.pth``."""
    parts = path.split("/")
    if parts[-1].endswith(SITE_POINTERS):
        return True
    return (
        parts[-1] == ENTRY_POINTS
        and len(parts) > 1
        and parts[-2].endswith((".dist-info", ".egg-info"))
    )


def pytest_entry_modules(data: bytes) -> tuple[str, ...]:
    """The modules the ``entry_points.txt`` content ``data`` names under ``[pytest11]``
    (``helpers = helpers_plugin:hooks`` → ``helpers_plugin``), in order; empty when it
    names none or does not parse (``importlib.metadata`` reads no entry point from it
    either)."""
    ini = configparser.RawConfigParser(strict=False, interpolation=None, delimiters=("=",))
    try:
        ini.read_string(data.decode("utf-8"))
    except (ValueError, configparser.Error):  # UnicodeDecodeError too
        return ()
    if not ini.has_section(PYTEST_GROUP):
        return ()
    found = [
        value.split(":", 1)[0].split("[", 1)[0].strip() for _, value in ini.items(PYTEST_GROUP)
    ]
    return tuple(dict.fromkeys(m for m in found if m))
