"""The checks of a verify run whose own definition the candidate adds or changes (SPEC §9;
seed 001 "Guardrails").

Room ``services``. Reads the candidate's change (its paths and blobs, from git) and asks
:mod:`gentle_hooks.policy.checkdefs` which of those paths define what each check runs, and
whether the part that defines it changed (``package.json``'s ``scripts``, not its
dependencies). :func:`~gentle_hooks.services.room_run.observe_all` does not run such a check,
the parent's spot check does not re-run such a receipt and ``gate --range --reverify``
such a claim (:mod:`~gentle_hooks.services.defined_command`: a reported command's check).
A pytest check is defined too by the plugins the ``pytest_plugins`` of a Python file names
(:func:`~gentle_hooks.policy.plugins.named_plugins`: pytest loads them as it collects that
test module; row ``D-plugin``): of a file the change adds or changes, and of any other file
of the tree naming a plugin the change writes; and by the plugins a pytest configuration
file's ``addopts`` loads with ``-p`` (:func:`~gentle_hooks.policy.plugins.config_plugins`),
the file changed or not. A row ``D-shadow`` match counts only where
the change puts the module: a file inside a package the base already has in that directory
is the repository's own code (:func:`_is_new_shadow`). A program the check starts by name
from a ``PATH`` entry in the tree (``PATH=bin:$PATH pytest``) is defined by that file
(:func:`_path_programs`); a Python check by a module the change adds in one of its
``sys.path`` directories that the tree has in another (:mod:`.path_shadows`). A Python
check is defined by a ``__pycache__/*.pyc`` the change writes compiled with
``UNCHECKED_HASH`` (row ``D-bytecode``: Python runs it, not the source beside it; a
timestamp or checked-hash pyc runs only while it matches its source), and by the
installed-package metadata it writes (row ``D-entrypoints``: a ``*.dist-info``
``entry_points.txt`` whose ``[pytest11]`` plugins pytest loads unasked, a ``*.pth``, an
``*.egg-link``; :mod:`gentle_hooks.policy.entrypoints`); a pytest check by the modules an
``entry_points.txt`` of the tree names under ``[pytest11]`` (row ``D-plugin``).
:func:`discovery_steered` names the files of the change that steer ``python -m unittest``'s
discovery (:func:`~gentle_hooks.policy.selection.steers_discovery`): a full suite run with
them is not the full suite. :func:`added_skip_marks` names the skip and expected-failure
markers the change adds (:mod:`gentle_hooks.policy.skipmarks`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from gentle_hooks.artifacts.observation import Check
from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.repository import Repository
from gentle_hooks.policy.checkdefs import (
    FileRule,
    Source,
    check_sources,
    included_files,
    is_defining,
    part_changed,
    with_imports,
)
from gentle_hooks.policy.entrypoints import (
    ENTRY_POINTS,
    PYTEST_GROUP,
    SITE_POINTERS,
    is_metadata,
    pytest_entry_modules,
)
from gentle_hooks.policy.importable import module_name, provides, runs_unchecked
from gentle_hooks.policy.plugins import (
    ADDOPTS,
    CONFIG_PLACES,
    PLUGINS_VARIABLE,
    config_plugins,
    named_plugins,
)
from gentle_hooks.policy.programs import started_programs
from gentle_hooks.policy.selection import steers_discovery
from gentle_hooks.policy.skipmarks import SKIP_MARK_ERE, SkipMark, skip_marks
from gentle_hooks.policy.syspath import imported_names, module_files, path_dirs, shadowed
from gentle_hooks.policy.testdirs import shadows_beside_tests
from gentle_hooks.services.path_shadows import path_shadows
from gentle_hooks.services.record import Bound
from gentle_hooks.values.candidate import Candidate

#: The makefiles ``make`` reads when no ``-f`` names one (at the tree's root).
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
#: At most this many files are read following sourced and included files, per check.
_MAX_FOLLOWED = 32
#: The files that may name a pytest plugin: Python files (``pytest_plugins``) and pytest's
#: configuration files (``addopts = -p NAME``), at any depth.
_PLUGIN_GLOBS = ("*.py", *(f"*{name}" for name in CONFIG_PLACES), f"*{ENTRY_POINTS}")
#: Row ``D-bytecode``: a ``__pycache__/*.pyc`` of the tree compiled with ``UNCHECKED_HASH``
#: (:func:`~gentle_hooks.policy.importable.runs_unchecked`) defines a Python check: Python
#: runs it in place of the ``NAME.py`` beside it, never comparing the two (a sourceless
#: ``NAME.pyc`` is a module by its name: row D-shadow).
_BYTECODE = Source("D-bytecode", rule=FileRule((), suffixes=(".pyc",)))
#: Row ``D-entrypoints``: a ``*.dist-info``/``*.egg-info`` ``entry_points.txt``, a
#: ``*.pth``, an ``*.egg-link`` (:func:`~gentle_hooks.policy.entrypoints.is_metadata`)
#: defines a Python check: pytest loads the ``[pytest11]`` plugins of any distribution
#: on ``sys.path`` unasked.
_METADATA = Source("D-entrypoints", rule=FileRule((ENTRY_POINTS,), suffixes=SITE_POINTERS))


def defined_by_change(
    bound: Bound,
    checks: Sequence[Check],
    env: Mapping[str, str] | None = None,
    cwd: str = ".",
) -> tuple[tuple[str, ...], ...]:
    """For each check, in order: the paths the candidate adds, changes or removes that
    define what it runs (:func:`~gentle_hooks.policy.checkdefs.check_sources`, run in the
    tree's directory ``cwd`` with the variables ``env``), sorted; empty when the candidate
    leaves its definition as the base has it.

    Raises:
        GitError: reading the trees failed.
    """
    return checks_defined(bound.repo, bound.candidate, checks, env, cwd)


def checks_defined(
    repo: Repository,
    cand: Candidate,
    checks: Sequence[Check],
    env: Mapping[str, str] | None = None,
    cwd: str = ".",
) -> tuple[tuple[str, ...], ...]:
    """:func:`defined_by_change` for the candidate ``cand`` of ``repo``.

    Raises:
        GitError: reading the trees failed.
    """
    if cand.is_empty:
        return tuple(() for _ in checks)
    changes = repo.tree_delta(cand.base.tree, cand.tree)
    changed = frozenset(c.path for c in changes)
    sources = [_sources(repo, cand, check, env or {}, cwd, changed) for check in checks]
    if any(_runs_pytest(s) for s in sources):
        loaded = (*_plugin_sources(repo, cand, changes), *_test_dir_shadows(repo, cand, changes))
        sources = [(*s, *loaded) if _runs_pytest(s) else s for s in sources]
    sources = [(*s, _BYTECODE, _METADATA) if _runs_python(s) else s for s in sources]
    shadows = path_shadows(repo, cand, changes, sources, [_runs_pytest(s) for s in sources])
    sources = [(*s, *more) for s, more in zip(sources, shadows, strict=True)]
    matched = [
        [
            (s, c)
            for s in found
            for c in changes
            if is_defining(s, c.path)
            and (s.row != _METADATA.row or is_metadata(c.path))
            and (s.row != _BYTECODE.row or "__pycache__/" in f"/{c.path}")
            and _is_new_shadow(repo, cand, s, c.path)
        ]
        for found in sources
    ]
    oids = {o for pairs in matched for _, c in pairs for o in (c.old_blob, c.new_blob) if o}
    blobs = repo.read_blobs(sorted(oids)) if oids else {}

    def data(oid: str | None) -> bytes | None:
        return None if oid is None else blobs.get(oid)

    return tuple(
        tuple(
            sorted(
                {
                    c.path
                    for s, c in pairs
                    if part_changed(s, c.path, data(c.old_blob), data(c.new_blob))
                    and (s.row != _BYTECODE.row or runs_unchecked(data(c.new_blob)))
                }
            )
        )
        for pairs in matched
    )


def _runs_python(sources: Sequence[Source]) -> bool:
    """Whether a check with ``sources`` may run Python: pytest, or a program whose
    ``sys.path`` row ``D-shadow`` reads (``python3``, ``pytest``)."""
    return _runs_pytest(sources) or any(s.row == "D-shadow" for s in sources)


def _runs_pytest(sources: Sequence[Source]) -> bool:
    """Whether a check with ``sources`` may run pytest (its configuration defines it: a
    rule naming ``conftest.py``)."""
    return any(s.rule is not None and "conftest.py" in s.rule.names for s in sources)


def _plugin_sources(
    repo: Repository, cand: Candidate, changes: Sequence[BlobChange]
) -> tuple[Source, ...]:
    """Row ``D-plugin``: the modules the ``pytest_plugins`` of each Python file of
    ``changes`` names, on either side, and of each other Python file of the candidate's
    tree, and each ``addopts = -p NAME`` of a pytest configuration file, that names one a
    changed file provides (:func:`_unchanged_namers`: an unchanged test module or
    ``pytest.ini`` loading the plugin the change rewrites); a file that sets it in a way
    not read
    (:func:`~gentle_hooks.policy.plugins.named_plugins` None) defines the check itself."""
    py = [c for c in changes if c.path.endswith(".py")]
    oids = sorted({o for c in py for o in (c.old_blob, c.new_blob) if o})
    blobs = repo.read_blobs(oids) if oids else {}
    found: list[Source] = []
    for change in py:
        for oid in (change.old_blob, change.new_blob):
            names = named_plugins(blobs.get(oid, b"")) if oid else ()
            if names is None:
                found.append(Source("D-script", change.path))
            else:
                found += [Source("D-plugin", modules=frozenset({n})) for n in names]
    changed = {c.path for c in changes}
    if any(module_name(p.rsplit("/", 1)[-1]) for p in changed):
        found += _unchanged_namers(repo, cand, changed)
    return tuple(dict.fromkeys(found))


def _test_dir_shadows(
    repo: Repository, cand: Candidate, changes: Sequence[BlobChange]
) -> list[Source]:
    """Row ``D-shadow`` for each module the change adds beside the test modules pytest
    imports, named as a module the tree provides elsewhere
    (:func:`~gentle_hooks.policy.testdirs.shadows_beside_tests`: ``tests/app.py`` run in
    ``src/app.py``'s place), unless the base has that module there (the repository's own).
    The tree is listed only when the change adds a file Python imports."""
    added = [c.path for c in changes if c.old_blob is None and c.new_blob is not None]
    if not any(module_name(p.rsplit("/", 1)[-1]) for p in added):
        return []
    tree = [path for *_, path in repo.tree_entries(cand.tree)]
    return [
        Source("D-shadow", path=path)
        for path, where, name in shadows_beside_tests(tree, added)
        if not _base_has(repo, cand, where, name)
    ]


def _unchanged_namers(repo: Repository, cand: Candidate, changed: set[str]) -> list[Source]:
    """Row ``D-plugin`` from the files of the candidate's tree that name a plugin a
    ``changed`` path provides (:func:`~gentle_hooks.policy.importable.provides`): the
    ``pytest_plugins`` of a Python file the change leaves as it is, and the ``addopts``
    ``-p NAME`` of a pytest configuration file
    (:func:`~gentle_hooks.policy.plugins.config_plugins`; an unchanged ``pytest.ini``
    loading the module the change rewrites). One ``git grep`` over the tree finds the
    files that may name one (an ``entry_points.txt``'s ``[pytest11]`` too:
    :func:`~gentle_hooks.policy.entrypoints.pytest_entry_modules`), asked once per tree by
    the repository object
    (:meth:`~gentle_hooks.git.repository.Repository.grep_tree`); only those are read."""
    found: list[Source] = []
    holding = [
        p
        for p in repo.grep_tree(cand.tree, (PLUGINS_VARIABLE, ADDOPTS, PYTEST_GROUP), _PLUGIN_GLOBS)
        if (p.endswith(".py") and p not in changed)
        or p.rsplit("/", 1)[-1] in CONFIG_PLACES
        or is_metadata(p)
    ]
    oids = repo.blobs_in(cand.tree, holding) if holding else {}
    blobs = repo.read_blobs(sorted(set(oids.values()))) if oids else {}
    for path, oid in sorted(oids.items()):
        data = blobs.get(oid, b"")
        if is_metadata(path):
            names = pytest_entry_modules(data) if path.endswith(ENTRY_POINTS) else ()
        elif path.endswith(".py"):
            names = named_plugins(data) or ()
        else:
            names = config_plugins(path, data)
        for name in names:
            if any(provides(name, p) for p in changed):
                found.append(Source("D-plugin", modules=frozenset({name})))
    return found


def _is_new_shadow(repo: Repository, cand: Candidate, source: Source, path: str) -> bool:
    """Whether the changed ``path`` that ``source`` names counts: always, unless it is row
    ``D-shadow`` matching a file inside a package the base already has in that directory
    (``src/test/`` with its ``__init__.py``: the repository's own package, which the
    change edits, not a module it puts in another's place); the package's entry files
    (``__init__``, ``__main__``) count whenever the change writes them."""
    if source.row != "D-shadow" or source.modules is None:
        return True
    found = shadowed(source.modules, source.where, path)
    if found is None or found[2]:
        return True
    where, name, _ = found
    return not _base_has(repo, cand, where, name)


def _base_has(repo: Repository, cand: Candidate, where: str, name: str) -> bool:
    """Whether the candidate's base tree holds the module ``name`` in the directory
    ``where`` (a module file or a package's ``__init__.py``)."""
    return any(repo.read_path(cand.base.tree, p) is not None for p in module_files(where, name))


def _sources(
    repo: Repository,
    cand: Candidate,
    check: Check,
    env: Mapping[str, str],
    cwd: str,
    changed: frozenset[str],
) -> tuple[Source, ...]:
    """:func:`~gentle_hooks.policy.checkdefs.check_sources` of ``check``, with the files
    its scripts source and its makefiles include
    (:func:`~gentle_hooks.policy.checkdefs.included_files`), followed through the
    candidate's and the base's versions of each (a change that adds an ``include`` and the
    file it names writes both), and the imports of a Python script that the change puts
    beside it (:func:`_script_imports`)."""
    sources = [
        *(_script_imports(repo, cand, s, changed) for s in check_sources(check.argv, env, cwd)),
        *_path_programs(repo, cand, check, env, cwd),
    ]
    todo = [s.path for s in sources if s.path is not None and not s.tail]
    if any(s.row == "D-make" for s in sources):
        todo += _MAKEFILES
    seen: set[str] = set()
    trees = (cand.tree, cand.base.tree)
    while todo and len(seen) < _MAX_FOLLOWED:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        for tree in trees:
            data = repo.read_path(tree, path)
            for name in included_files(path, data) if data is not None else ():
                if not any(s.path == name for s in sources):
                    sources.append(Source("D-script", name))
                    todo.append(name)
    return tuple(sources)


def _path_programs(
    repo: Repository, cand: Candidate, check: Check, env: Mapping[str, str], cwd: str
) -> list[Source]:
    """Row ``D-script`` for each program the check starts by name that a ``PATH`` with an
    entry in the tree finds there (``PATH=bin:$PATH pytest``, ``env PATH=bin pytest``, an
    ``export`` earlier on the line, the variables ``env``:
    :func:`~gentle_hooks.policy.programs.started_programs`): ``bin/pytest`` is run in the
    installed one's place, so a change writing it defines the check. Only the entries the
    shell searches count: those up to and including the first that holds the program (an
    executable file or a symbolic link of the candidate's tree, for an entry in the tree;
    an executable file of this machine, for an absolute one); an entry whose place is not
    known (``~``, a variable, the directory unknown) holds nothing."""
    found: list[Source] = []
    for started in started_programs(check.argv, env.get("PATH") or os.defpath):
        if "/" in started.name:
            continue
        entries: list[tuple[str, str | None]] = []  # (the entry, its place in the tree)
        for entry in started.path.split(os.pathsep):
            inside = path_dirs(entry or ".", cwd)
            entries.append((entry, inside[0] if inside else None))
        at = {e: f"{'' if d in (None, '.') else d + '/'}{started.name}" for e, d in entries}
        modes = repo.modes_in(cand.tree, [at[e] for e, d in entries if d is not None])
        for entry, where in entries:
            if where is not None:
                found.append(Source("D-script", at[entry]))
                if modes.get(at[entry]) in ("100755", "120000"):
                    break
            elif os.path.isabs(entry) and _executable(os.path.join(entry, started.name)):
                break
    return found


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _script_imports(
    repo: Repository, cand: Candidate, source: Source, changed: frozenset[str]
) -> Source:
    """``source``, when it is row ``D-shadow`` beside a Python script, also hiding the
    modules the script imports (either side's version) that the change puts beside it
    where the base has none: whatever the base's script imported under that name — a
    module further along ``sys.path`` (``tools/mylib.py`` beside ``tools/check.py``
    hiding the base's ``src/mylib``), an installed package (``tools/requests.py``), or
    nothing — the change's file is imported in its place. Only the names of ``changed``
    paths beside the script are looked up."""
    if source.script is None or source.where is None:
        return source
    top = "" if source.where == "." else source.where + "/"
    beside = {_module_of(p[len(top) :]) for p in changed if p.startswith(top)}
    names: frozenset[str] = frozenset()
    for tree in (cand.tree, cand.base.tree) if beside else ():
        data = repo.read_path(tree, source.script)
        names |= imported_names(data) if data is not None else frozenset()
    held = frozenset(
        name for name in sorted(names & beside) if not _base_has(repo, cand, source.where, name)
    )
    return with_imports(source, held) if held else source


def _module_of(rest: str) -> str:
    """The module name a path relative to a ``sys.path`` directory provides: its first
    directory (a package), or the file's module name (``x.py``, ``x.pyc``: ``x``)."""
    first, slash, _ = rest.partition("/")
    return first if slash else (module_name(first) or first)


def discovery_steered(bound: Bound) -> tuple[str, ...]:
    """The Python paths the candidate adds, changes or removes that steer ``python -m
    unittest``'s discovery (:func:`~gentle_hooks.policy.selection.steers_discovery`: a
    ``load_tests`` on either side, a test package's ``__init__.py``), sorted; a file
    identical on the base is not among them.

    Raises:
        GitError: reading the trees failed.
    """
    cand = bound.candidate
    if cand.is_empty:
        return ()
    changes = [
        c for c in bound.repo.tree_delta(cand.base.tree, cand.tree) if c.path.endswith(".py")
    ]
    oids = sorted({o for c in changes for o in (c.old_blob, c.new_blob) if o})
    blobs = bound.repo.read_blobs(oids) if oids else {}

    def data(oid: str | None) -> bytes | None:
        return None if oid is None else blobs.get(oid)

    return tuple(
        sorted(
            {
                c.path
                for c in changes
                if steers_discovery(c.path, data(c.old_blob), data(c.new_blob))
            }
        )
    )


def added_skip_marks(bound: Bound) -> tuple[SkipMark, ...]:
    """Every skip or expected-failure marker among the lines the candidate adds
    (:func:`~gentle_hooks.policy.skipmarks.skip_marks`), in diff order; empty for an empty
    candidate.

    Raises:
        GitError: reading the diff failed.
    """
    cand = bound.candidate
    if cand.is_empty:
        return ()
    added = bound.repo.added_lines_matching(cand.base.tree, cand.tree, SKIP_MARK_ERE)
    return skip_marks((a.path, a.line, a.text) for a in added)
