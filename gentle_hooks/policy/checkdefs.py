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

Python finds a module in the directory ``python -m MODULE`` runs in, beside the script
``python3 DIR/x.py`` runs, and in each ``PYTHONPATH`` entry (the brief's ``env``, ``NAME=value``
before the command, ``env NAME=value``, ``export``) before the installed runner and the
standard library: a file there named as the module, as what the runner imports, as a
standard-library module (a ``pytest.py`` printing ``2 passed``) or, beside a script, as a
module the script imports that the base has not there (``tools/mylib.py`` hiding ``src/mylib``,
``tools/requests.py`` the installed package) is run in its place: such files define the
check too (row ``D-shadow``, :mod:`gentle_hooks.policy.syspath`; not with ``-I``, ``-P``,
``-E``); a file inside a package the base already has there is the repository's own code
(:mod:`gentle_hooks.services.defined` reads the base).

Limits: what a program reads once started beyond those (a script's ``$(cat x)``, a
Makefile's ``$(shell ...)``, an include named through a variable, the tests a suite
imports) is the candidate, judged by the checks.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterable, Mapping

from gentle_hooks.policy.defparts import Part, parts_changed
from gentle_hooks.policy.importable import module_name, provides
from gentle_hooks.policy.plugins import plugin_options
from gentle_hooks.policy.shell import Group, ShellList, Simple, is_name_value, parse_line, words_of
from gentle_hooks.policy.syspath import (
    RUNNER_IMPORTS,
    ignores_env,
    is_safe_path,
    path_dirs,
    shadows,
)
from gentle_hooks.policy.wrappers import SHELLS, shell_script, unwrap
from gentle_hooks.values.frozen import frozen


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
#: The names a Python interpreter goes by (``python``, ``python3``, ``python3.12``).
_PYTHON_NAME = re.compile(r"python(?:3(?:\.\d+)?)?")
#: Python programs that are not an interpreter: each imports its runner's modules
#: (:data:`~gentle_hooks.policy.syspath.RUNNER_IMPORTS`) through ``PYTHONPATH``.
_PYTHON_RUNNERS = {"pytest": "pytest", "py.test": "pytest"}
_SYSTEM_BIN = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/")


@frozen
class Source:
    """A place that defines a check: ``path`` a file of the tree (relative to its root;
    ``tail``: the directory the check ran in was unknown, so any path ending in it), or
    ``rule`` files matched by name anywhere, or (row ``D-shadow``) the Python files in the
    directory ``where`` (None: unknown, any directory) that Python would import as one of
    ``modules`` or a standard-library module (row ``D-plugin``: ``modules`` from any
    directory, :mod:`~gentle_hooks.policy.plugins`); ``script``: the Python script run from
    ``where``, whose imports the base finds in one of the directories ``after`` (further
    along ``sys.path``) are hidden by such a file too (the caller reads the script and the
    base: :func:`with_imports`); ``row``: the :data:`DEFINITION_ROWS` id (or ``D-script``,
    ``D-shadow``, ``D-plugin``)."""

    row: str
    path: str | None = None
    tail: bool = False
    rule: FileRule | None = None
    modules: frozenset[str] | None = None
    where: str | None = None
    script: str | None = None
    after: tuple[str, ...] = ()


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


def _script(
    name: str, words: tuple[str, ...], cwd: str | None, env: Mapping[str, str]
) -> list[Source]:
    """The script file a shell or interpreter runs (``sh check.sh``, ``python3 x.py``,
    ``python3 -m pkg.mod``), and for Python the directories ahead of the standard library
    it imports from (row ``D-shadow``: :func:`_python_shadows`)."""
    python = name in ("python", "python3")
    valued = frozenset({"-o", "+o"}) if name in SHELLS else INTERPRETERS[name]
    i = 1
    while i < len(words):
        w = words[i]
        if w in _INLINE:  # ``python -c CODE`` puts its working directory first too
            return _python_shadows(words[1:i], cwd, env, (), cwd) if python else []
        if w == "-m" and i + 1 < len(words):
            module = words[i + 1]
            own = (module.split(".")[0], *RUNNER_IMPORTS.get(module, ()))
            shadow = _python_shadows(words[1:i], cwd, env, own, cwd) if python else []
            if module in _RUNNER_MODULES:
                runner = _RUNNER_MODULES[module]
                return [*(_row_sources(runner, words[i + 2 :]) if runner else []), *shadow]
            # the module run, from the working directory or a PYTHONPATH entry
            base = module.replace(".", "/")
            later = () if ignores_env(words[1:i]) else path_dirs(env.get("PYTHONPATH", ""), cwd)
            found = [
                _file(d, f"{base}{end}")
                for d in dict.fromkeys((cwd, *(d for d in later if d is not None)))
                for end in (".py", "/__main__.py")
            ]
            return [*(s for s in found if s), *shadow]
        if w in valued:
            i += 2
        elif w.startswith(("-", "+")):
            i += 1
        else:
            script = _file(cwd, w)
            if not python or script is None:
                return [script] if script else []
            first = None if script.tail else posixpath.dirname(script.path or "") or "."
            shadow = _python_shadows(words[1:i], cwd, env, (), first, script=script.path)
            return [script, *shadow]
    return []


def _python_shadows(
    options: tuple[str, ...],
    cwd: str | None,
    env: Mapping[str, str],
    modules: tuple[str, ...],
    first: str | None,
    *,
    script: str | None = None,
) -> list[Source]:
    """Row ``D-shadow`` for a Python program run in ``cwd`` with ``options`` and ``env``:
    the directory Python puts first on ``sys.path`` (``first``: the working directory for
    ``-m`` and ``-c``, the script's for a script; None: unknown) unless ``-I``/``-P``, then
    each ``PYTHONPATH`` entry unless ``-I``/``-E``; a file in them named as one of
    ``modules`` or a standard-library module, or beside ``script`` as one of its imports
    the base finds in a ``PYTHONPATH`` entry, is imported in their place."""
    own = frozenset(modules)
    later = () if ignores_env(options) else path_dirs(env.get("PYTHONPATH", ""), cwd)
    after = tuple(d for d in later if d is not None)
    found = [
        Source("D-shadow", modules=own, where=d, script=script if d == first else None, after=after)
        for d in (*(() if is_safe_path(options) else (first,)), *later)
    ]
    return list(dict.fromkeys(found))


def _row_sources(program: str, args: tuple[str, ...] = ()) -> list[Source]:
    row = next((r for r in DEFINITION_ROWS if program in r.programs), None)
    if row is None:
        return []
    rules = (*row.files, *(RUNNER_FILES if row.wraps else ()))
    plugins = plugin_options(args) if row.id == "D-pytest" else ()  # pytest -p NAME
    found = [Source(row.id, rule=rule) for rule in rules]
    return found + [Source("D-plugin", modules=frozenset({p})) for p in plugins]


def _simple(
    words: tuple[str, ...], cwd: str | None, depth: int, env: Mapping[str, str]
) -> tuple[list[Source], str | None]:
    """The sources of one simple command run with the variables ``env``, and the directory
    after it (``cd``)."""
    inner = unwrap(words) if depth < 8 else None
    if inner is not None:
        if program_name(words[0]) == "env":  # ``env NAME=value cmd``: cmd gets NAME
            env = {**env, **_assigned(w for w in words[1 : len(words) - len(inner)])}
        return _simple(inner, cwd, depth + 1, env)
    name = program_name(words[0])
    if name is None:
        path = [s for s in [_file(cwd, words[0])] if s]
        # a virtual environment's interpreter (``.venv/bin/python``, an absolute path):
        # Python all the same, with the same sys.path
        python = _PYTHON_NAME.fullmatch(posixpath.basename(words[0]))
        return [*path, *(_script("python3", words, cwd, env) if python else [])], cwd
    if _PYTHON_NAME.fullmatch(name):  # ``python3.12`` is Python as ``python3`` is
        name = "python3"
    if name == "cd":
        target = words[1] if len(words) > 1 else ""
        if not target or target.startswith(("/", "-", "~")) or "$" in target or cwd is None:
            return [], None
        return [], posixpath.normpath(posixpath.join(cwd, target))
    if name in SHELLS:
        script, _ = shell_script(words)
        if script is not None and depth < 8:
            return _line(script, cwd, depth + 1, env), cwd
    if name in SHELLS or name in INTERPRETERS:
        return _script(name, words, cwd, env), cwd
    if name in (".", "source"):  # the line runs the sourced file's commands
        return [s for s in [_file(cwd, words[1] if len(words) > 1 else "")] if s], cwd
    found = _row_sources(name, words[1:])
    if name in _PYTHON_RUNNERS:  # its console script imports the runner through PYTHONPATH
        own = (_PYTHON_RUNNERS[name], *RUNNER_IMPORTS[_PYTHON_RUNNERS[name]])
        found += _python_shadows(("-P",), cwd, env, own, None)
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


def _assigned(words: Iterable[str]) -> dict[str, str]:
    """The ``NAME=value`` words of ``words`` as variables."""
    return dict(w.split("=", 1) for w in words if is_name_value(w))


def _walk(
    line: ShellList, cwd: str | None, depth: int, env: dict[str, str]
) -> tuple[list[Source], str | None]:
    """The sources of ``line``, and the directory after it; ``env`` (the variables in
    effect) takes what the line exports or assigns (an assignment of a variable the caller
    did not export counts too: whether it was is not known here)."""
    found: list[Source] = []
    for and_or, _ in line.items:
        for pipeline in (and_or.first, *(p for _, p in and_or.rest)):
            for cmd in pipeline.commands:
                if isinstance(cmd, Group):
                    inner, after = _walk(
                        cmd.body, cwd, depth + 1, dict(env) if cmd.subshell else env
                    )
                    found += inner
                    cwd = cwd if cmd.subshell else after
                elif isinstance(cmd, Simple) and not cmd.words:
                    env.update(_assigned(cmd.assignments))
                elif isinstance(cmd, Simple) and cmd.words[0] == "export":
                    env.update(_assigned(cmd.words[1:]))
                elif isinstance(cmd, Simple):
                    more, cwd = _simple(
                        cmd.words, cwd, depth, {**env, **_assigned(cmd.assignments)}
                    )
                    found += more
    return found, cwd


def _line(text: str, cwd: str | None, depth: int, env: Mapping[str, str]) -> list[Source]:
    line = parse_line(text)
    if line is not None:
        return _walk(line, cwd, depth, dict(env))[0]
    # a line this reader does not evaluate (if, for, a here-document): each run of words
    # between operators and reserved words is read as a simple command, in no directory
    tokens = words_of(text) or ()
    found: list[Source] = []
    run: list[str] = []
    for text_, op in (*tokens, (";", True)):
        if op or text_ in ("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!"):
            lead = len(list(itertools.takewhile(is_name_value, run)))
            if run[lead:]:
                assigned = {**env, **_assigned(run[:lead])}
                found += _simple(tuple(run[lead:]), None, depth, assigned)[0]
            run = []
        else:
            run.append(text_)
    return found


def check_sources(
    argv: tuple[str, ...], env: Mapping[str, str] | None = None, cwd: str = "."
) -> tuple[Source, ...]:
    """The places that define what a check runs, from its argument vector (``("sh", "-c",
    LINE)`` for a shell line), run in the tree's directory ``cwd`` (relative to its root)
    with the variables ``env`` (a brief's ``env``; its ``PYTHONPATH`` entries relative to
    ``cwd``): the script files it runs (row ``D-script``: the program when it is a path,
    or the script a shell or interpreter runs, followed through ``cd``, ``env``/``timeout``
    wrappers and ``sh -c``), the files of :data:`DEFINITION_ROWS` of each program it runs,
    and where Python would import a module in place of the one meant (row ``D-shadow``)."""
    if not argv:
        return ()
    return tuple(dict.fromkeys(_simple(argv, cwd, 0, dict(env or {}))[0]))


def with_imports(source: Source, imports: frozenset[str]) -> Source:
    """``source`` (row ``D-shadow`` with a ``script``) also hiding ``imports``: the modules
    its script imports that the base finds further along ``sys.path``."""
    own = source.modules or frozenset()
    return Source(
        source.row,
        modules=own | imports,
        where=source.where,
        script=source.script,
        after=source.after,
    )


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
        return shadows(source.modules, source.where, path)
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
    (:func:`~gentle_hooks.policy.defparts.parts_changed`)."""
    return parts_changed(source.rule.parts if source.rule is not None else (), path, old, new)
