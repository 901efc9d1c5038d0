"""The parts of a file that define a check, and whether a change touches them (SPEC §9;
seed 001 "Guardrails"): ``package.json``'s ``scripts``, not its dependencies.

Room ``policy`` (pure: the caller reads the blobs). Used by
:mod:`gentle_hooks.policy.checkdefs`'s rules.
"""

from __future__ import annotations

import configparser
import json
import posixpath
import sys

#: A part of a file that defines a check: ``("json", KEY)`` a top-level key of a JSON
#: object, ``("toml", TABLE, ...)`` a table of a TOML document, ``("ini", SECTION)`` an INI
#: section (a trailing ``*`` matches sections by prefix). The whole file when a rule has none.
Part = tuple[str, ...]


def parts_changed(parts: tuple[Part, ...], path: str, old: bytes | None, new: bytes | None) -> bool:
    """Whether the change from ``old`` to ``new`` (None: the file is absent on that side)
    changes what defines a check in ``path``: those of ``parts`` of that file's kind, or
    the whole file when none is. A side that cannot be parsed counts as changed."""
    if old == new:
        return False
    kind = _kind(path)
    own = tuple(p for p in parts if p[0] == kind)
    if not own:  # no part of this kind of file: all of it defines the check
        return True
    try:
        return any(_part(p, old) != _part(p, new) for p in own)
    except (ValueError, RecursionError, configparser.Error):  # UnicodeDecodeError too
        return True


def _kind(path: str) -> str | None:
    name = posixpath.basename(path)
    if name.endswith(".json"):
        return "json"
    if name.endswith(".toml"):
        return "toml"
    if name.endswith((".ini", ".cfg")):
        return "ini"
    return None


def _part(part: Part, data: bytes | None) -> object:
    """The value of ``part`` in ``data`` (None: absent).

    Raises:
        ValueError / configparser.Error: ``data`` does not parse as ``part``'s kind.
    """
    if data is None:
        return None
    text = data.decode("utf-8")
    if part[0] == "json":
        doc = json.loads(text)
        return doc.get(part[1]) if isinstance(doc, dict) else doc
    if part[0] == "toml":
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib
        value: object = tomllib.loads(text)
        for key in part[1:]:
            value = value.get(key) if isinstance(value, dict) else None
        return value
    ini = configparser.RawConfigParser(strict=False, interpolation=None)
    ini.read_string(text)
    wanted = part[1]
    return sorted(
        (name, sorted(ini.items(name)))
        for name in ini.sections()
        if name == wanted or (wanted.endswith("*") and name.startswith(wanted[:-1]))
    )
