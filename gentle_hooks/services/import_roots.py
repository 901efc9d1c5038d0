"""Where a verify room's tree keeps its importable code: the directories Python (a build
backend's install, pytest's ``pythonpath``) imports the candidate's packages from (SPEC §9:
a verify run checks "the candidate's exact tree"; issue 18, r18o finding 1).

Room ``services``. The room's import probe
(:func:`~gentle_hooks.services.import_probe.room_names`) asks the interpreters only about
the names these directories hold: a package kept in ``lib/PKG`` or ``pkgs/core/PKG`` that
no one asked about imported a wheel-installed copy from ``site-packages`` instead.

* :func:`import_roots` — the room's directories (relative to it, ``/``-separated, no
  ``..``) holding top-level packages, read from

  - ``pyproject.toml``: ``[tool.setuptools] package-dir`` (its ``""`` key, and the parent
    of each package's directory), ``[tool.setuptools.packages.find] where`` (also the
    inline ``packages = {find = {where = [...]}}``), hatch's ``packages``/``sources``/
    ``only-include`` of ``[tool.hatch.build]`` and its wheel target, poetry's ``packages``
    ``from`` (and the parent of each ``include``), pdm's ``package-dir``, maturin's
    ``python-source``, flit's ``[tool.flit.module] name``'s directory, and pytest's
    ``[tool.pytest.ini_options] pythonpath``;
  - ``setup.cfg``: ``[options] package_dir``, ``[options.packages.find] where``, and
    ``[tool:pytest] pythonpath``; ``pytest.ini`` / ``tox.ini`` ``[pytest] pythonpath``;
  - the tree itself: each directory (at most :data:`DEPTH` levels down, not hidden, no
    virtual environment, ``node_modules`` or :data:`SKIPPED` directory) holding a package
    named as the project (``[project] name``, poetry's or ``setup.cfg``'s ``name``, ``-``
    and ``.`` read as ``_``).

A file that does not parse gives nothing (the root and ``src`` are always asked). A value
pointing outside the tree, absolute, or at no directory is dropped.
"""

from __future__ import annotations

import configparser
import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

from gentle_hooks.config.load import parse_toml
from gentle_hooks.errors import ConfigError

#: How many directory levels below the room's root the project's package is looked for.
DEPTH = 4
#: The most directories the look-up reads.
_DIRS = 4000
#: The largest configuration file read, in bytes.
_BYTES = 1 << 20
#: Directories never looked into.
SKIPPED = frozenset(
    {"node_modules", "__pycache__", "site-packages", "dist-packages", "build", "dist"}
    | {"venv", "env", "tests", "test", "docs", "examples"}
)


def import_roots(room: str) -> list[str]:
    """The directories of ``room`` (module docstring) that hold its top-level packages,
    relative to it, in the order found, each once; ``.`` and ``src`` first."""
    found: list[str] = [".", "src"]
    project = _toml(os.path.join(room, "pyproject.toml"))
    found += _from_pyproject(project)
    found += _from_ini(room)
    names = _project_names(room, project)
    if names:
        declared = {os.path.normpath(r) for r in found if r and not os.path.isabs(r)}
        found += _holding(room, names, declared - {"."})
    out: dict[str, None] = {}
    for rel in found:
        clean = _clean(room, rel)
        if clean is not None:
            out.setdefault(clean, None)
    return list(out)


def renamed_packages(room: str) -> dict[str, str]:
    """Each top-level package ``room``'s setuptools ``package-dir`` (``pyproject.toml``, or
    ``setup.cfg``'s ``[options] package_dir``) maps to a directory of another name
    (``calc = "src/impl"``), to that directory: no ``sys.path`` entry makes the name import
    it, so the room cannot put the candidate's copy first (a copy found elsewhere then
    refuses the checks: :func:`~gentle_hooks.services.room_imports.for_room`)."""
    mapping = dict(_table(_toml(os.path.join(room, "pyproject.toml")), "tool", "setuptools"))
    table = _table(mapping, "package-dir")
    parser = _ini(os.path.join(room, "setup.cfg"))
    raw = parser.get("options", "package_dir", fallback="") if parser is not None else ""
    for line in re.split(r"[\n;]", raw):
        key, eq, value = line.partition("=")
        if eq and key.strip():
            table.setdefault(key.strip(), value.strip())
    return {
        key: os.path.normpath(value)
        for key, value in table.items()
        if isinstance(value, str)
        and key.isidentifier()
        and os.path.basename(os.path.normpath(value)) != key
        and _clean(room, value) is not None
    }


def project_names(room: str) -> set[str]:
    """The project's name(s) ``room``'s ``pyproject.toml`` and ``setup.cfg`` give, as a
    package would be named (``-`` and ``.`` read as ``_``, lower case)."""
    return _project_names(room, _toml(os.path.join(room, "pyproject.toml")))


def _toml(path: str) -> dict[str, Any]:
    """The TOML file at ``path`` as a table; empty when absent, too large or broken."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_BYTES + 1)
    except OSError:
        return {}
    if len(data) > _BYTES:
        return {}
    try:
        return dict(parse_toml(data, path))
    except ConfigError:
        return {}


def _table(data: Any, *keys: str) -> dict[str, Any]:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _from_pyproject(project: dict[str, Any]) -> Iterator[str]:
    """The directories ``pyproject.toml``'s tables name (module docstring)."""
    tool = _table(project, "tool")
    setuptools = _table(tool, "setuptools")
    yield from _package_dir(_table(setuptools, "package-dir"))
    packages = setuptools.get("packages")
    find = _table(setuptools, "packages", "find") or _table(packages, "find")
    yield from _strings(find.get("where"))
    hatch = _table(tool, "hatch", "build")
    for table in (hatch, _table(hatch, "targets", "wheel"), _table(hatch, "targets", "sdist")):
        for key in ("packages", "only-include"):
            yield from (_parent(p) for p in _strings(table.get(key)))
        sources = table.get("sources")
        yield from _strings(sources) if isinstance(sources, list) else _table(table, "sources")
    poetry = _table(tool, "poetry")
    for row in poetry.get("packages") or []:
        if isinstance(row, dict):
            base = row.get("from") if isinstance(row.get("from"), str) else "."
            include = row.get("include")
            if isinstance(base, str):
                yield base
                if isinstance(include, str) and "*" not in include:
                    yield os.path.join(base, _parent(include))
    yield from _strings(_table(tool, "pdm", "build").get("package-dir"))
    yield from _strings(_table(tool, "maturin").get("python-source"))
    flit = _table(tool, "flit", "module").get("name")
    if isinstance(flit, str):
        yield _parent(flit.replace(".", "/"))
    yield from _strings(_table(tool, "pytest", "ini_options").get("pythonpath"))


def _package_dir(mapping: dict[str, Any]) -> Iterator[str]:
    """setuptools' ``package-dir``: its ``""`` key's directory, and the parent of each
    top-level package's (a dotted key names a subpackage: skipped)."""
    for key, value in mapping.items():
        if not isinstance(value, str):
            continue
        if key == "":
            yield value
        elif "." not in key and os.path.basename(os.path.normpath(value)) == key:
            yield _parent(value)


def _parent(path: str) -> str:
    """The directory holding ``path`` (``.`` for a top-level one)."""
    return os.path.dirname(os.path.normpath(path)) or "."


def _from_ini(room: str) -> Iterator[str]:
    """``setup.cfg``'s package directories and pytest's ``pythonpath`` in ``setup.cfg``,
    ``pytest.ini`` and ``tox.ini``."""
    for name, sections in (
        ("setup.cfg", ("tool:pytest",)),
        ("pytest.ini", ("pytest",)),
        ("tox.ini", ("pytest",)),
    ):
        parser = _ini(os.path.join(room, name))
        if parser is None:
            continue
        for section in sections:
            if parser.has_section(section):
                yield from parser.get(section, "pythonpath", fallback="").split()
        if name == "setup.cfg":
            raw = parser.get("options", "package_dir", fallback="")
            for line in re.split(r"[\n;]", raw):
                key, eq, value = line.partition("=")
                if eq and value.strip():
                    yield from _package_dir({key.strip(): value.strip()})
            yield from parser.get("options.packages.find", "where", fallback="").split()


def _ini(path: str) -> configparser.RawConfigParser | None:
    """The INI file at ``path``, or None when absent, too large or broken."""
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        if os.path.getsize(path) > _BYTES:
            return None
        with open(path, encoding="utf-8") as fh:
            parser.read_file(fh)
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    return parser


def _project_names(room: str, project: dict[str, Any]) -> set[str]:
    """The project's name(s) as a package would be named (``-`` and ``.`` as ``_``)."""
    raw = _strings(_table(project, "project").get("name"))
    raw += _strings(_table(project, "tool", "poetry").get("name"))
    parser = _ini(os.path.join(room, "setup.cfg"))
    if parser is not None:
        raw += [parser.get("metadata", "name", fallback="")]
    return {n for n in (re.sub(r"[-.]+", "_", r.strip()).lower() for r in raw) if n.isidentifier()}


def _holding(room: str, names: set[str], declared: set[str]) -> Iterable[str]:
    """The directories (relative to ``room``, at most :data:`DEPTH` levels down) holding a
    package or module named one of ``names``; the ``declared`` roots (their names are
    read there already) and packages (a directory with ``__init__.py``: what it holds is
    a subpackage) are not looked into."""
    seen = 0
    todo = [(".", 0)]
    while todo:
        rel, depth = todo.pop(0)
        seen += 1
        if seen > _DIRS:
            return
        try:
            entries = sorted(os.scandir(os.path.join(room, rel)), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                continue
            stem, ext = os.path.splitext(entry.name)
            if ext == ".py" and stem.lower() in names:
                yield rel
            if not entry.is_dir():
                continue
            if entry.name.lower() in names:
                yield rel
            elif (
                depth < DEPTH
                and not entry.name.startswith(".")
                and entry.name not in SKIPPED
                and os.path.normpath(os.path.join(rel, entry.name)) not in declared
                and not os.path.isfile(os.path.join(entry.path, "__init__.py"))
                and not os.path.isfile(os.path.join(entry.path, "pyvenv.cfg"))
            ):
                todo.append((os.path.join(rel, entry.name), depth + 1))


def _clean(room: str, rel: str) -> str | None:
    """``rel`` normalised (``/``-separated), or None when it is absolute, leaves the room
    or is no directory."""
    if not rel or os.path.isabs(rel) or "\0" in rel:
        return None
    norm = os.path.normpath(rel)
    if norm == ".." or norm.startswith(".." + os.sep):
        return None
    full = os.path.join(room, norm)
    real, top = os.path.realpath(full), os.path.realpath(room)
    if real != top and not real.startswith(top.rstrip(os.sep) + os.sep):
        return None
    return norm.replace(os.sep, "/") if os.path.isdir(full) else None
