"""Settings that open a door: short lines of a settings file that say who wrote it because
they change what a checkout runs, collects, installs or trusts (SPEC §3 "Attribution follows
content", §4 hot matters, §8: a blob id alone does not tell who wrote a file).

Room ``policy`` (pure: bytes in, answers out). A template's settings say nothing of who
wrote them (:mod:`.settingfile`), but a writer's ``.github/workflows/ci.yml`` holding
``on: pull_request_target``, a ``conftest.py`` holding ``collect_ignore = [...]`` or an
``.npmrc`` holding ``registry=...`` decides what runs with the repository's secrets, which
tests are read, where packages come from: no template a person copies says that, so such a
statement is the writer's evidence however short (row S10 of :mod:`.settingfile`, read for
every line, trivial or not; :func:`~gentle_hooks.policy.wholefile.identifies_writer`).

The rows read what a key or a value *selects*, never a file's name: each key below means one
thing in every file that holds it (``addopts`` is pytest's, ``build-backend`` PEP 517's,
``registry`` a package source in npm, yarn, Cargo and Docker configs alike), so no row needs
the path. A key is read by its last part after ``.`` or ``:`` (``@acme:registry``),
lowercased, ``-`` and ``_`` dropped (``install_requires``, ``devDependencies``). A setting
of :data:`JOINED_KEYS` whose value opens a list or mapping it does not close on its line
(``requires = [``), or is empty with lines continuing it below (an ini continuation, a YAML
block), is decided by the statement joined (:func:`statements`, :func:`opens_door`); alone,
such a line opens nothing.

=====  =======================================================================  ===========
row    the statement                                                            e.g.
=====  =======================================================================  ===========
G1     what tests are collected or skipped: ``collect_ignore``,                 ``addopts =
       ``collect_ignore_glob`` (a list not empty), or pytest's ``addopts``        -k "not
       holding an option other than a report or strictness one                  auth"``
       (:data:`REPORT_OPTIONS`: ``--ignore``, ``--deselect``, ``-k``, ``-m``,
       ``-p no:...``, a path)
G2     where packages come from and whom that trusts: a package index,          ``registry=
       registry or link source, a trusted host, a CA file (:data:`SOURCE_KEYS`;  ...``
       any value), or a section of package sources (``[[tool.uv.index]]``)
G3     what a package makes others install and builds with: its dependencies    ``install_
       (:data:`DEPENDENCY_KEYS`, a list not empty), its build requirements      requires =
       other than published build backends (:data:`BUILD_PACKAGES`), a build     evil``
       backend other than theirs (:data:`BUILD_BACKENDS`), a backend path
G4     what runs: entry points and scripts (a key or a section header naming    ``entry:
       them: ``console_scripts``, ``[project.scripts]``), a hook's ``entry``,    ./run.sh``
       pytest's plugins (``pytest_plugins``, a list not empty),
       a hook language running the machine's own programs (``language:
       system``), a local hook repository (``repo: local``), what a package
       manager runs scripts with or loads first (``node-options``,
       ``script-shell``)
G5     a CI workflow run on others' code with the repository's secrets:         ``on: pull_
       ``pull_request_target`` or ``workflow_run``, as a key or a value          request_
                                                                                target``
G6     an import of every name of a module not of the file's own package        ``from evil
       (``from .core import *`` is a package ``__init__``'s idiom)               import *``
=====  =======================================================================  ===========

What a setting trusts by a key naming a security matter (``permissions: write-all``,
``StrictHostKeyChecking no``, ``SELINUX=disabled``) is row S2 of :mod:`.settingfile`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from gentle_hooks.policy.linekeys import LINES_KEPT, LineRow, first_row

_SETTING = re.compile(
    rb"""(?:-\s+)?(?P<key>"[^"]+"|'[^']+'|[@A-Za-z_][\w.@/:-]*?)\s*(?:=|:(?=\s|$))\s*"""
    rb"(?P<value>.*)"
)
_SECTION = re.compile(rb"\[\[?(?P<name>[^\]]+)\]\]?")
_STAR_IMPORT = re.compile(rb"from\s+(?P<module>[\w.]+)\s+import\s+\*\s*(?:#.*)?")
_WORDS = re.compile(rb"[^\s,\[\]{}\"']+")
#: A requirement's name and version bounds only (``setuptools>=61``); extras, a URL or a
#: marker make it something else.
_REQUIREMENT = re.compile(
    rb"(?P<name>[A-Za-z0-9][\w.-]*)\s*(?:(?:[<>=!~]=?|===)\s*[\w.*+]+\s*(?:,\s*)?)*"
)
_EMPTY = (b"", b"[]", b"{}", b'""', b"''")
#: Lines a joined statement reads at most (a list longer than that is read as far).
MAX_JOINED_LINES = 200

#: pytest options that change what a run reports or how strict it is, never which tests
#: it collects, selects or runs (row G1): each word of ``addopts`` fully one of these.
REPORT_OPTIONS = re.compile(
    rb"-q+|-v+|-r[a-zA-Z]+|-l|-x|--showlocals|--strict|--strict-markers|--strict-config"
    rb"|--tb=\w+|--color=\w+|--code-highlight=\w+|--durations=\d+|--durations-min=[\d.]+"
    rb"|--doctest-modules|--import-mode=\w+|--no-header|--no-summary|-n=?(?:auto|\d+)"
    rb"|--numprocesses=(?:auto|\d+)|auto|\d+|--cov(?:=[\w./-]+)?|--cov-report=[\w:./-]+"
    rb"|--cov-branch|--cov-fail-under=\d+"
)
#: Keys of a package source or of whom it trusts (row G2), read as :func:`_key` reads them.
SOURCE_KEYS = frozenset(
    b"""
    indexurl extraindexurl findlinks trustedhost registry cafile indexservers
    pipindexurl pipextraindexurl piptrustedhost npmconfigregistry uvindexurl
    uvextraindexurl uvdefaultindex
    """.split()
)
#: Section names of package sources (row G2), lowercased.
SOURCE_SECTIONS = frozenset(
    b"tool.uv.index tool.poetry.source tool.pdm.source source registries".split()
)
#: Keys of what a package makes others install (row G3), read as :func:`_key` reads them.
DEPENDENCY_KEYS = frozenset(
    b"""
    dependencies optionaldependencies devdependencies peerdependencies
    bundleddependencies installrequires setuprequires testsrequire extrasrequire
    """.split()
)
#: Packages the published PEP 517 build backends ask to build with (row G3: a template's
#: ``[build-system] requires``), PEP 503 names.
BUILD_PACKAGES = frozenset(
    b"""
    setuptools wheel setuptools-scm hatchling hatch-vcs flit-core poetry-core pdm-backend
    maturin scikit-build-core meson-python uv-build
    """.split()
)
#: The published PEP 517 build backends (row G3: a template's ``build-backend``).
BUILD_BACKENDS = frozenset(
    b"""
    setuptools.build_meta setuptools.build_meta:__legacy__ hatchling.build
    flit_core.buildapi poetry.core.masonry.api pdm.backend maturin scikit_build_core.build
    mesonpy uv_build
    """.split()
)
#: Keys and section name parts naming entry points or scripts (row G4).
SCRIPT_KEYS = frozenset(b"consolescripts guiscripts entrypoints scripts".split())
#: Keys naming what a tool runs or loads (row G4, a value not empty): a hook's command,
#: pytest's plugins (as ``-p`` in ``addopts``, row G1).
LOADED_KEYS = frozenset(b"entry pytestplugins".split())
#: Keys of what a package manager runs scripts with or loads into each process (row G4).
RUNNER_KEYS = frozenset(b"scriptshell nodeoptions".split())
#: Hook languages that run the machine's own programs or a file of the repository (G4).
HOOK_LANGUAGES = frozenset(b"system script unsupported unsupportedscript".split())
#: Workflow events that run with the repository's secrets on others' code (row G5).
SECRET_EVENTS = frozenset(b"pull_request_target workflow_run".split())
#: Keys whose value, left open on its line, rows G1, G3, G4 and G5 read joined
#: (:func:`statements`; a package source's key tells alone, row G2).
JOINED_KEYS = frozenset(
    {b"collectignore", b"collectignoreglob", b"addopts", b"pytestaddopts", b"requires"}
    | DEPENDENCY_KEYS
    | SCRIPT_KEYS
    | LOADED_KEYS
    | {b"on"}
)


def _key(raw: bytes) -> bytes:
    """A setting's key as the rows read it (module docstring)."""
    last = re.split(rb"[.:]", raw.strip(b"\"'"))[-1]
    return last.lower().replace(b"-", b"").replace(b"_", b"")


def _open(value: bytes) -> bool:
    """Whether a value is decided by its statement joined (module docstring)."""
    return not value or _depth(value) > 0


def _collected(key: bytes, value: bytes) -> bool:
    if key in (b"collectignore", b"collectignoreglob"):
        return value not in _EMPTY
    if key in (b"addopts", b"pytestaddopts"):
        words = _WORDS.findall(value)
        return any(REPORT_OPTIONS.fullmatch(w) is None for w in words)
    return False


def _installed(key: bytes, value: bytes) -> bool:
    if key in DEPENDENCY_KEYS:
        return value.replace(b" ", b"") not in _EMPTY
    if key == b"buildbackend":
        return value.strip(b"\"' ,") not in BUILD_BACKENDS
    if key == b"backendpath":
        return True
    if key != b"requires":
        return False
    for item in value.strip(b"[] ,").split(b","):
        item = item.strip().strip(b"\"'")
        m = _REQUIREMENT.fullmatch(item)
        if item and (m is None or _pep503(m.group("name")) not in BUILD_PACKAGES):
            return True
    return False


def _pep503(name: bytes) -> bytes:
    return re.sub(rb"[-_.]+", b"-", name).lower()


def _runs(key: bytes, value: bytes) -> bool:
    word = value.strip(b"\"' ,").lower()
    return (
        ((key in SCRIPT_KEYS or key in LOADED_KEYS) and word not in _EMPTY)
        or key in RUNNER_KEYS
        or (key == b"language" and word.replace(b"_", b"") in HOOK_LANGUAGES)
        or (key == b"repo" and word == b"local")
    )


def _secret_event(raw_key: bytes, value: bytes) -> bool:
    return raw_key.strip(b"\"'") in SECRET_EVENTS or any(
        w.rstrip(b":") in SECRET_EVENTS for w in _WORDS.findall(value)
    )


def _section(stripped: bytes) -> bytes | None:
    m = _SECTION.fullmatch(stripped)
    return m.group("name").strip().strip(b"\"'").lower() if m else None


def _parse(stripped: bytes) -> tuple[bytes, bytes, bytes] | None:
    """(the key as written, the key as the rows read it, the value stripped of a trailing
    comma) of a setting, or None for a line that is no setting."""
    m = _SETTING.fullmatch(stripped)
    if m is None:
        return None
    raw = m.group("key")
    return raw, _key(raw), m.group("value").strip().rstrip(b",").strip()


#: :func:`_parse` of one line, cached (a joined statement is parsed once, uncached).
_parsed = lru_cache(maxsize=LINES_KEPT)(_parse)


def _of_setting(row: str, stripped: bytes, *, joined: bool = False) -> bool:
    """Whether a setting is of ``row`` (G1-G5). ``joined``: ``stripped`` is a statement
    joined (:func:`statements`), read as far as it goes; else a value left open on its
    line opens nothing (rows G1, G3, G4: decided joined)."""
    parsed = _parse(stripped) if joined else _parsed(stripped)
    if parsed is None:
        return False
    raw, key, value = parsed
    if row == "G5":  # an event named as a key needs no value: ``pull_request_target:``
        return _secret_event(raw, value)
    if row == "G2":  # a package source's key alone decides
        return key in SOURCE_KEYS
    if not joined and _open(value):
        return False  # decided by the statement joined (:func:`statements`)
    if row == "G1":
        return _collected(key, value)
    if row == "G3":
        return _installed(key, value)
    return _runs(key, value)


def _source_section(stripped: bytes) -> bool:
    name = _section(stripped)
    return name is not None and name in SOURCE_SECTIONS


def _script_section(stripped: bytes) -> bool:
    name = _section(stripped)
    parts = {_key(p) for p in name.split(b".")} if name is not None else set()
    return bool(parts & SCRIPT_KEYS)


def _star_import(stripped: bytes) -> bool:
    m = _STAR_IMPORT.fullmatch(stripped)
    return m is not None and not m.group("module").startswith(b".")


DOOR_ROWS: tuple[LineRow, ...] = (
    LineRow("G1", "what tests are collected or skipped", lambda s: _of_setting("G1", s)),
    LineRow(
        "G2",
        "where packages come from and whom that trusts",
        lambda s: _of_setting("G2", s) or _source_section(s),
    ),
    LineRow("G3", "what a package installs and builds with", lambda s: _of_setting("G3", s)),
    LineRow("G4", "what runs", lambda s: _of_setting("G4", s) or _script_section(s)),
    LineRow("G5", "a workflow run with secrets on others' code", lambda s: _of_setting("G5", s)),
    LineRow("G6", "an import of every name of a module", _star_import),
)


#: The rows :func:`_of_setting` reads (a joined statement is read by these alone).
_SETTING_ROWS = ("G1", "G2", "G3", "G4", "G5")


def door_row(stripped: bytes) -> str | None:
    """The id of the first row of :data:`DOOR_ROWS` a stripped statement is of, or None
    (no door; a statement whose value is left open on its line: module docstring)."""
    return first_row(DOOR_ROWS, stripped)


def statements(data: bytes) -> Iterator[tuple[bytes, bool]]:
    """(statement, joined) for each non-blank line of ``data`` stripped (joined False), and
    after a setting of :data:`JOINED_KEYS` whose value is open (module docstring) that
    setting joined with the lines that continue it (joined True): up to its closing
    bracket, or, below an empty value, the more-indented lines and the YAML items (``- x``)
    at its own indentation; at most :data:`MAX_JOINED_LINES` lines, joined by a space. A
    setting among the lines another joined is read within that one only (each line is
    joined once: linear in the lines)."""
    lines = data.splitlines()
    until = 0  # lines before this index were joined to an earlier setting
    for i, line in enumerate(lines):
        s = line.strip()
        if not s:
            continue
        yield s, False
        if i < until:
            continue
        parsed = _parsed(s)
        if parsed is None or parsed[1] not in JOINED_KEYS or not _open(parsed[2]):
            continue
        value = parsed[2]
        indent = len(line) - len(line.lstrip())
        joined = [s]
        depth = _depth(value)
        for more in lines[i + 1 : i + 1 + MAX_JOINED_LINES]:
            t = more.strip()
            at = len(more) - len(more.lstrip())
            if depth <= 0 and (not t or at < indent or (at == indent and t[:1] != b"-")):
                break  # an empty value's block ends where the indentation does
            joined.append(t)
            depth += _depth(t)
            if value and depth <= 0:
                break  # the list or mapping closed
        until = i + len(joined)
        yield b" ".join(joined), True


def _depth(text: bytes) -> int:
    """Brackets ``text`` opens less those it closes."""
    return text.count(b"[") + text.count(b"{") - text.count(b"]") - text.count(b"}")


def opens_door(data: bytes) -> bool:
    """Whether one statement of ``data`` (:func:`statements`) is of a row of
    :data:`DOOR_ROWS`: a line as :func:`door_row` reads it, a joined statement as far as
    it goes (rows G1-G5)."""
    return any(
        any(_of_setting(r, s, joined=True) for r in _SETTING_ROWS)
        if joined
        else door_row(s) is not None
        for s, joined in statements(data)
    )
