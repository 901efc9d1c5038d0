"""Which files of the checked tree define what a verifier's check runs (SPEC §9; seed 001
"Guardrails": "do not accept a claim whose criteria have no observable check").

Room ``policy`` (pure: the caller reads the trees). A check observes the candidate only
through a definition the candidate does not write: ``sh check.sh`` runs what ``check.sh``
says, ``make test`` what the Makefile says, ``npm test`` what ``package.json``'s scripts
say, ``pytest`` what its configuration selects. When the change adds or changes that
definition, the check's outcome is the writer's own word (``check.sh`` emptied to ``exit
0``, ``test:`` made ``true``, ``"test": "echo 1 passed"``, ``addopts = -k nothing``), on
the candidate and, compared, on the base alike. One table, :data:`DEFINITION_ROWS`, says
which files define a check of which program; :func:`check_sources` reads a check's
command into those places, :func:`is_defining` and :func:`part_changed` say whether a
changed path is one and whether the part that defines the check changed.

Such a check is not run and the verdict is ``blocked``, naming the file (rows C1-own,
S1-own of :mod:`gentle_hooks.artifacts.observation`), rather than the base's definition
being run against the candidate: seed 001 "Guardrails": "do not repair, patch, or re-run
the worker's implementation to make a criterion pass" (the base's file swapped into the
tree judged patches the artifact, and may not fit it: a target renamed, a script the
change needs), and "stop and report ``blocked`` when a required tool, source, or suite is
unavailable instead of inferring the result" (a new ``check.sh`` has no base definition at
all). What unblocks it: the command itself in the brief, or the definition's change
landed on its own first, where it becomes the base's.

pytest's ``conftest.py`` (at any level) is its configuration too (``collect_ignore`` leaves
a test out), and so is a plugin it loads by name (``-p``, ``pytest_plugins``). A file the check
line sources (``. ./env.sh && pytest``), a file a script sources and a file a makefile
includes (``include``, ``-include``, ``sinclude``; :func:`included_files`, followed by
:mod:`gentle_hooks.services.defined` through the candidate's and the base's files) define
the check as the script or makefile does.

``python -m MODULE`` puts the directory it runs in first on ``sys.path``, so a file there
named as the module, as what the runner imports or as a standard-library module is run in
its place (a ``pytest.py`` printing ``2 passed``): such files define the check too (row
``D-shadow``; not with ``-I``/``-P``).

Limits: a module hidden through a brief's ``PYTHONPATH`` (other than Python's start-up
modules) or beside a script ``python3 x.py`` runs; what a program reads once started
beyond those (a script's ``$(cat x)``, a Makefile's ``$(shell ...)``, an include named
through a variable, the tests a suite imports) is the candidate, judged by the checks.
"""

from __future__ import annotations

import configparser
import itertools
import json
import posixpath
import re
import sys

from gentle_hooks.policy.importable import module_name, provides
from gentle_hooks.policy.plugins import plugin_options
from gentle_hooks.policy.shell import Group, ShellList, Simple, parse_line, words_of
from gentle_hooks.policy.wrappers import SHELLS, shell_script, unwrap
from gentle_hooks.values.frozen import frozen

#: A part of a file that defines a check: ``("json", KEY)`` a top-level key of a JSON
#: object, ``("toml", TABLE, ...)`` a table of a TOML document, ``("ini", SECTION)`` an INI
#: section (a trailing ``*`` matches sections by prefix). The whole file when a rule has none.
Part = tuple[str, ...]


@frozen
class FileRule:
    """Files that define a check: by base name anywhere in the tree (``names``, a name
    ending in one of ``suffixes``, or a file Python imports as one of ``modules``:
    :func:`~gentle_hooks.policy.importable.module_name`), and the ``parts`` of them that do
    (empty: all of it)."""

    names: tuple[str, ...]
    suffixes: tuple[str, ...] = ()
    parts: tuple[Part, ...] = ()
    modules: tuple[str, ...] = ()


@frozen
class DefinitionRow:
    """One row of :data:`DEFINITION_ROWS`: a program (by name) and the files that define
    what it runs; ``wraps``: it runs a test runner it does not name (``make test``, ``npm
    test``, ``tox``), so every runner's configuration defines it too."""

    id: str
    when: str
    programs: tuple[str, ...]
    files: tuple[FileRule, ...]
    wraps: bool = False


#: pytest's configuration files (its documented list: pytest.ini, .pytest.ini, pytest.toml,
#: .pytest.toml, pyproject.toml, tox.ini, setup.cfg), conftest.py and Python's start-up
#: modules. pytest.toml's table
#: is ``[pytest]``, pyproject.toml's ``[tool.pytest]`` (``.ini_options`` below it).
_PYTEST = FileRule(
    (
        *("pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "pyproject.toml"),
        *("tox.ini", "setup.cfg", "conftest.py"),
    ),
    parts=(
        *(("toml", "tool", "pytest"), ("toml", "pytest")),
        *(("ini", "pytest"), ("ini", "tool:pytest")),
    ),
    # Python imports these at start-up from any PYTHONPATH entry (a brief's
    # {"PYTHONPATH": "src"}), a sourceless .pyc too: code that runs before pytest
    modules=("sitecustomize", "usercustomize"),
)
_JS_CONFIG = tuple(
    f"{tool}.config.{ext}" for tool in ("jest", "vitest") for ext in ("js", "ts", "mjs", "cjs")
)
_JEST = FileRule(
    (*_JS_CONFIG, "jest.config.json", "package.json"), parts=(("json", "jest"), ("json", "mocha"))
)
_MOCHA = FileRule(tuple(f".mocharc.{e}" for e in ("js", "cjs", "json", "jsonc", "yaml", "yml")))

#: Seed 001 "Guardrails": what defines a check, by the program it runs (first match wins;
#: ``D-script`` is the program or script file itself, :func:`check_sources`).
DEFINITION_ROWS: tuple[DefinitionRow, ...] = (
    DefinitionRow(
        "D-make",
        "make runs its makefile's recipes (Makefile, makefile, GNUmakefile, *.mk anywhere, "
        "-f FILE)",
        ("make", "gmake"),
        (FileRule(("Makefile", "makefile", "GNUmakefile"), suffixes=(".mk",)),),
        wraps=True,
    ),
    DefinitionRow(
        "D-npm",
        "npm, yarn and pnpm run package.json's scripts",
        ("npm", "yarn", "pnpm", "npx"),
        (FileRule(("package.json",), parts=(("json", "scripts"),)),),
        wraps=True,
    ),
    DefinitionRow(
        "D-tox",
        "tox runs tox.ini's environments (or setup.cfg's [tox:*]/[testenv*], "
        "pyproject.toml's [tool.tox])",
        ("tox",),
        (
            FileRule(("tox.ini",)),
            FileRule(("setup.cfg",), parts=(("ini", "tox:*"), ("ini", "testenv*"))),
            FileRule(("pyproject.toml",), parts=(("toml", "tool", "tox"),)),
        ),
        wraps=True,
    ),
    DefinitionRow(
        "D-nox",
        "nox runs noxfile.py's sessions",
        ("nox",),
        (FileRule(("noxfile.py",)),),
        wraps=True,
    ),
    DefinitionRow(
        "D-pytest",
        "pytest selects tests by its configuration (pytest.ini, [tool.pytest] in pyproject.toml, "
        "[pytest] in tox.ini, [tool:pytest] in setup.cfg, conftest.py at any level)",
        ("pytest", "py.test"),
        (_PYTEST,),
    ),
    DefinitionRow(
        "D-jest",
        "jest and vitest select tests by their configuration (jest.config.*, vitest.config.*, "
        'package.json\'s "jest")',
        ("jest", "vitest"),
        (_JEST,),
    ),
    DefinitionRow("D-mocha", "mocha selects tests by .mocharc.*", ("mocha",), (_MOCHA, _JEST)),
)
#: Every test runner's configuration: what a wrapping row (``wraps``) is defined by too.
RUNNER_FILES: tuple[FileRule, ...] = (_PYTEST, _JEST, _MOCHA)
#: Interpreters whose first operand is the script they run; options that take a value.
INTERPRETERS: dict[str, frozenset[str]] = {
    "python": frozenset({"-W", "-X", "-Q"}),
    "python3": frozenset({"-W", "-X", "-Q"}),
    "node": frozenset({"-r", "--require", "--import", "--loader"}),
    "ruby": frozenset({"-r", "-I"}),
    "perl": frozenset({"-I", "-M"}),
}
#: Options after which an interpreter runs code or a runner's module, not a script file.
_INLINE = frozenset({"-c", "-e", "--eval", "-p", "--print"})
#: Modules ``python -m`` runs as test runners (their configuration rows apply instead).
_RUNNER_MODULES = {"pytest": "pytest", "tox": "tox", "nox": "nox", "unittest": ""}
#: What ``python -m pytest`` imports as it starts besides the standard library (its own
#: packages and the distributions it requires).
_RUNNER_IMPORTS = {
    "pytest": ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "exceptiongroup", "tomli"),
}
#: Options that keep the working directory off ``sys.path`` (``-I`` isolates, ``-P`` safe path).
_SAFE_PATH = frozenset("IP")
_SYSTEM_BIN = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/")


@frozen
class Source:
    """A place that defines a check: ``path`` a file of the tree (relative to its root;
    ``tail``: the directory the check ran in was unknown, so any path ending in it), or
    ``rule`` files matched by name anywhere, or (row ``D-shadow``) the Python files in the
    directory ``where`` (None: unknown, any directory) that Python would import as one of
    ``modules`` (row ``D-plugin``: from any directory, :mod:`~gentle_hooks.policy.plugins`);
    ``row``: the :data:`DEFINITION_ROWS` id (or ``D-script``, ``D-shadow``, ``D-plugin``)."""

    row: str
    path: str | None = None
    tail: bool = False
    rule: FileRule | None = None
    modules: frozenset[str] | None = None
    where: str | None = None


def program_name(word: str) -> str | None:
    """The program's name, or None when ``word`` is a path (a file of the tree)."""
    if "/" not in word:
        return word
    return word.rsplit("/", 1)[1] if word.startswith(_SYSTEM_BIN) else None


def _file(cwd: str | None, word: str) -> Source | None:
    """The tree file ``word`` names from ``cwd`` (None: outside the tree, or not a path)."""
    if not word or word.startswith(("/", "-", "~")) or "$" in word or "`" in word:
        return None
    if cwd is None:
        return Source("D-script", posixpath.normpath(word), tail=True)
    path = posixpath.normpath(posixpath.join(cwd, word))
    return None if path == ".." or path.startswith("../") else Source("D-script", path)


def _script(name: str, words: tuple[str, ...], cwd: str | None) -> list[Source]:
    """The script file a shell or interpreter runs (``sh check.sh``, ``python3 x.py``,
    ``python3 -m pkg.mod``)."""
    valued = frozenset({"-o", "+o"}) if name in SHELLS else INTERPRETERS[name]
    i = 1
    while i < len(words):
        w = words[i]
        if w in _INLINE:
            return []
        if w == "-m" and i + 1 < len(words):
            module = words[i + 1]
            python = name in ("python", "python3")
            shadow = [_shadow(cwd, module)] if python and not _safe_path(words[1:i]) else []
            if module in _RUNNER_MODULES:
                runner = _RUNNER_MODULES[module]
                return [*(_row_sources(runner, words[i + 2 :]) if runner else []), *shadow]
            base = module.replace(".", "/")
            found = (_file(cwd, f"{base}.py"), _file(cwd, f"{base}/__main__.py"))
            return [*(s for s in found if s), *shadow]
        if w in valued:
            i += 2
        elif w.startswith(("-", "+")):
            i += 1
        else:
            return [s for s in [_file(cwd, w)] if s]
    return []


def _safe_path(options: tuple[str, ...]) -> bool:
    """Whether the interpreter's ``options`` keep the working directory off ``sys.path``."""
    return any(
        o.startswith("-") and not o.startswith("--") and not _SAFE_PATH.isdisjoint(o[1:])
        for o in options
        if o not in ("-W", "-X") and not o.startswith(("-W", "-X"))
    )


def _shadow(cwd: str | None, module: str) -> Source:
    """``python -m module`` run in ``cwd`` puts ``cwd`` first on ``sys.path``: a Python file
    there named as the module, as what its runner imports, or as a standard-library module
    is imported in its place (a ``pytest.py`` that prints ``2 passed`` and exits 0 is then
    the suite). Those files define the check (row ``D-shadow``)."""
    own = {module.split(".")[0], *_RUNNER_IMPORTS.get(module, ())}
    return Source("D-shadow", modules=frozenset(own), where=cwd)


def shadows(source: Source, path: str) -> bool:
    """Whether the tree's ``path`` is a file Python would import, from the directory
    ``source.where`` (None: any), as one of ``source.modules``: ``NAME.py``, ``NAME.pyc``,
    ``NAME.*.so``... there (:func:`~gentle_hooks.policy.importable.module_name`), or such a
    file below a ``NAME/`` directory there (a package, or a namespace portion: counted
    too); for a standard-library name only ``NAME.*``, ``NAME/__init__.*`` and
    ``NAME/__main__.*`` (a directory without ``__init__`` never hides a module found
    further along ``sys.path``, and ``code/``, ``types/`` are common directories)."""
    assert source.modules is not None
    if module_name(path.rsplit("/", 1)[-1]) is None:
        return False
    parts = path.split("/")
    if source.where is None:
        starts = range(len(parts))
    else:
        where = [] if source.where == "." else source.where.split("/")
        if parts[: len(where)] != where:
            return False
        starts = range(len(where), len(where) + 1)
    for start in starts:
        rest = parts[start:]
        name = rest[0] if len(rest) > 1 else module_name(rest[0])
        if name in source.modules:
            return True
        inner = [module_name(rest[1])] if len(rest) == 2 else rest[1:]
        if name in sys.stdlib_module_names and inner in ([], ["__init__"], ["__main__"]):
            return True
    return False


def _row_sources(program: str, args: tuple[str, ...] = ()) -> list[Source]:
    row = next((r for r in DEFINITION_ROWS if program in r.programs), None)
    if row is None:
        return []
    rules = (*row.files, *(RUNNER_FILES if row.wraps else ()))
    plugins = plugin_options(args) if row.id == "D-pytest" else ()  # pytest -p NAME
    found = [Source(row.id, rule=rule) for rule in rules]
    return found + [Source("D-plugin", modules=frozenset({p})) for p in plugins]


def _simple(words: tuple[str, ...], cwd: str | None, depth: int) -> tuple[list[Source], str | None]:
    """The sources of one simple command, and the directory after it (``cd``)."""
    inner = unwrap(words) if depth < 8 else None
    if inner is not None:
        return _simple(inner, cwd, depth + 1)
    name = program_name(words[0])
    if name is None:
        return [s for s in [_file(cwd, words[0])] if s], cwd
    if name == "cd":
        target = words[1] if len(words) > 1 else ""
        if not target or target.startswith(("/", "-", "~")) or "$" in target or cwd is None:
            return [], None
        return [], posixpath.normpath(posixpath.join(cwd, target))
    if name in SHELLS:
        script, _ = shell_script(words)
        if script is not None and depth < 8:
            return _line(script, cwd, depth + 1), cwd
    if name in SHELLS or name in INTERPRETERS:
        return _script(name, words, cwd), cwd
    if name in (".", "source"):  # the line runs the sourced file's commands
        return [s for s in [_file(cwd, words[1] if len(words) > 1 else "")] if s], cwd
    found = _row_sources(name, words[1:])
    if name in ("make", "gmake"):
        found += _makefiles(words, cwd)
    return found, cwd


def _makefiles(words: tuple[str, ...], cwd: str | None) -> list[Source]:
    """``make -C DIR -f FILE``'s makefiles (read after changing to DIR)."""
    where, files = cwd, []
    for flag, value in itertools.pairwise(words):
        if flag in ("-C", "--directory") and where is not None:
            where = posixpath.normpath(posixpath.join(where, value))
        elif flag in ("-f", "--file", "--makefile"):
            files.append(value)
    return [s for s in (_file(where, f) for f in files) if s]


def _walk(line: ShellList, cwd: str | None, depth: int) -> tuple[list[Source], str | None]:
    found: list[Source] = []
    for and_or, _ in line.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in pipeline.commands:
                if isinstance(cmd, Group):
                    inner, after = _walk(cmd.body, cwd, depth + 1)
                    found += inner
                    cwd = cwd if cmd.subshell else after
                elif isinstance(cmd, Simple) and cmd.words:
                    more, cwd = _simple(cmd.words, cwd, depth)
                    found += more
    return found, cwd


def _line(text: str, cwd: str | None, depth: int) -> list[Source]:
    line = parse_line(text)
    if line is not None:
        return _walk(line, cwd, depth)[0]
    # a line this reader does not evaluate (if, for, a here-document): each run of words
    # between operators and reserved words is read as a simple command, in no directory
    tokens = words_of(text) or ()
    found: list[Source] = []
    run: list[str] = []
    for text_, op in (*tokens, (";", True)):
        if op or text_ in ("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!"):
            if run:
                found += _simple(tuple(run), None, depth)[0]
            run = []
        else:
            run.append(text_)
    return found


def check_sources(argv: tuple[str, ...]) -> tuple[Source, ...]:
    """The places that define what a check runs, from its argument vector (``("sh", "-c",
    LINE)`` for a shell line), run at the tree's root: the script files it runs (row
    ``D-script``: the program when it is a path, or the script a shell or interpreter runs,
    followed through ``cd``, ``env``/``timeout`` wrappers and ``sh -c``), and the files of
    :data:`DEFINITION_ROWS` of each program it runs."""
    if not argv:
        return ()
    return tuple(dict.fromkeys(_simple(argv, ".", 0)[0]))


#: A line that sources a file (``. ./lib.sh``, ``source lib.sh``) or includes a makefile
#: (``include a.make b``, ``-include x``, ``sinclude x``).
_SOURCED = re.compile(r"^\s*(?:\.|source)\s+(\S+)")
_INCLUDED = re.compile(r"^\s*(?:-include|sinclude|include)\s+(.+?)\s*(?:#.*)?$")


def included_files(path: str, data: bytes) -> tuple[str, ...]:
    """The tree paths the content ``data`` of ``path`` (a script or a makefile) sources
    (``. FILE``, ``source FILE``, a recipe's too) or includes (``include``, ``-include``,
    ``sinclude``), relative to the tree's root (the directory the check runs in); a name
    with a variable, a glob, or outside the tree is left out."""
    found: list[str] = []
    for line in data.decode("utf-8", "replace").splitlines():
        names: list[str] = []
        m = _INCLUDED.match(line)
        if m:
            names = m.group(1).split()
        m = _SOURCED.match(line)
        if m:
            names.append(m.group(1).strip("'\""))
        for name in names:
            if any(c in name for c in "$`*?[(") or name.startswith(("/", "~")):
                continue
            norm = posixpath.normpath(name)
            if norm != ".." and not norm.startswith("../") and norm != path:
                found.append(norm)
    return tuple(dict.fromkeys(found))


def is_defining(source: Source, path: str) -> bool:
    """Whether the tree's ``path`` is a file ``source`` names."""
    if source.row == "D-plugin":
        return any(provides(m, path) for m in source.modules or ())
    if source.modules is not None:
        return shadows(source, path)
    if source.path is not None:
        if source.tail:
            return path == source.path or path.endswith("/" + source.path)
        return path == source.path
    rule = source.rule
    assert rule is not None
    name = posixpath.basename(path)
    if name in rule.names or module_name(name) in rule.modules:
        return True
    return bool(rule.suffixes) and name.endswith(rule.suffixes)


def part_changed(source: Source, path: str, old: bytes | None, new: bytes | None) -> bool:
    """Whether the change from ``old`` to ``new`` (None: the file is absent on that side)
    changes what ``source`` defines in ``path``: the whole file, or the parts of its rule
    for that file's kind. A side that cannot be parsed counts as changed."""
    if old == new:
        return False
    parts = source.rule.parts if source.rule is not None else ()
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
