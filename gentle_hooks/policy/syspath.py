"""Where a Python program finds a module ahead of the one a check means (SPEC §9; seed 001
"Guardrails": "do not accept a claim whose criteria have no observable check").

Room ``policy`` (pure: the caller reads the trees). Python searches ``sys.path`` in order:
first the directory ``python -m MODULE`` runs in, or the directory of the script ``python
DIR/x.py`` runs, then each entry of ``PYTHONPATH`` (for every Python program: ``pytest``'s
own console script too), then the standard library and the installed packages. A file of
the tree in one of those first directories, named as the module run, as what its runner
imports or as a standard-library module, is imported in their place (a ``pytest.py``
printing ``2 passed``, a ``json.py`` beside ``check.py``): it defines the check, as the
check's own script does (row ``D-shadow`` of :mod:`gentle_hooks.policy.checkdefs`).
``-I`` keeps both kinds of directory off ``sys.path``, ``-P`` the first, ``-E`` the second.
"""

from __future__ import annotations

import ast
import posixpath
import sys

from gentle_hooks.policy.importable import module_name

#: What ``python -m pytest`` (or ``pytest``) imports as it starts besides the standard
#: library (its own packages and the distributions it requires).
RUNNER_IMPORTS: dict[str, tuple[str, ...]] = {
    "pytest": ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "exceptiongroup", "tomli"),
}
#: Options that keep the working directory or the script's off ``sys.path`` (``-I``
#: isolates, ``-P`` safe path), and those that keep ``PYTHONPATH`` off it (``-E``, ``-I``).
_SAFE_PATH = frozenset("IP")
_NO_ENV = frozenset("EI")


def _has_flag(options: tuple[str, ...], flags: frozenset[str]) -> bool:
    return any(
        o.startswith("-") and not o.startswith("--") and not flags.isdisjoint(o[1:])
        for o in options
        if not o.startswith(("-W", "-X"))
    )


def is_safe_path(options: tuple[str, ...]) -> bool:
    """Whether the interpreter's ``options`` keep the working directory (``-m``) or the
    script's directory off ``sys.path``."""
    return _has_flag(options, _SAFE_PATH)


def ignores_env(options: tuple[str, ...]) -> bool:
    """Whether the interpreter's ``options`` make it ignore ``PYTHONPATH``."""
    return _has_flag(options, _NO_ENV)


def path_dirs(value: str, cwd: str | None) -> tuple[str | None, ...]:
    """The tree's directories a ``PYTHONPATH`` of ``value`` puts on ``sys.path`` for a
    program run in ``cwd`` (None: unknown; then so is each directory), relative to the
    tree's root (none for an empty value); an empty entry is the working directory; an
    absolute entry, or one
    leading out of the tree, is left out (not the tree's)."""
    found: list[str | None] = []
    for entry in value.split(":") if value else ():
        if entry.startswith(("/", "~")) or "$" in entry:
            continue
        if cwd is None:
            found.append(None)
            continue
        path = posixpath.normpath(posixpath.join(cwd, entry or "."))
        if path != ".." and not path.startswith("../"):
            found.append(path)
    return tuple(dict.fromkeys(found))


def shadows(modules: frozenset[str], where: str | None, path: str) -> bool:
    """Whether the tree's ``path`` is a file Python would import, from the directory
    ``where`` (None: any), as one of ``modules``: ``NAME.py``, ``NAME.pyc``, ``NAME.*.so``...
    there (:func:`~gentle_hooks.policy.importable.module_name`), or such a file below a
    ``NAME/`` directory there (a package, or a namespace portion: counted too); for a
    standard-library name only ``NAME.*``, ``NAME/__init__.*`` and ``NAME/__main__.*`` (a
    directory without ``__init__`` never hides a module found further along ``sys.path``,
    and ``code/``, ``types/`` are common directories)."""
    return shadowed(modules, where, path) is not None


def shadowed(modules: frozenset[str], where: str | None, path: str) -> tuple[str, str, bool] | None:
    """How :func:`shadows` matched ``path``: (the directory, relative to the tree's root,
    ``.`` for the root; the module's name; whether ``path`` is the module's entry file —
    ``NAME.*``, ``NAME/__init__.*`` or ``NAME/__main__.*`` — rather than a file further
    inside its package), or None when it does not."""
    if module_name(path.rsplit("/", 1)[-1]) is None:
        return None
    parts = path.split("/")
    if where is None:
        starts = range(len(parts))
    else:
        top = [] if where == "." else where.split("/")
        if parts[: len(top)] != top:
            return None
        starts = range(len(top), len(top) + 1)
    for start in starts:
        rest = parts[start:]
        name = rest[0] if len(rest) > 1 else module_name(rest[0])
        inner = [module_name(rest[1])] if len(rest) == 2 else rest[1:]
        entry = inner in ([], ["__init__"], ["__main__"])
        if name in modules or (name in sys.stdlib_module_names and entry):
            assert name is not None
            return "/".join(parts[:start]) or ".", name, entry
    return None


def imported_names(data: bytes) -> frozenset[str]:
    """The top-level names of the modules the Python source ``data`` imports absolutely
    (``import a.b`` and ``from a.b import c``: ``a``), anywhere in it; empty when it does
    not parse."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return frozenset(found)


def module_files(where: str, name: str) -> tuple[str, str]:
    """The tree paths a module ``name`` found in the directory ``where`` is imported from
    (a module file, a package's ``__init__.py``)."""
    top = "" if where == "." else where + "/"
    return f"{top}{name}.py", f"{top}{name}/__init__.py"
