"""The layout holds (STYLE "Architecture", SPEC §2 "Shape"): one package per room, imports
flowing one way, no cycle, each package ``__init__`` docstring-only.

Every import is read from the source, function-level and ``TYPE_CHECKING`` ones included,
so a lazy import cannot hide a cycle or a layer turned upside down. The order is the one
the package docstring of :mod:`gentle_hooks` writes down.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

import gentle_hooks

PACKAGE = pathlib.Path(gentle_hooks.__file__).parent

#: Bottom to top: a module may import its own room and the rooms before it.
LAYERS = (
    "errors",
    "bounded",
    "values",
    "policy",
    "artifacts",
    "quorum",
    "config",
    "git",
    "ledger",
    "notes",
    "native",
    "agents",
    "services",
    "report",
    "hooks",
    "cli",
    "main",
)
RANK = {"root": -1} | {room: i for i, room in enumerate(LAYERS)}


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, pathlib.Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


#: A lazy-load table's entry, ``"gentle_hooks.cli.gate:gate"`` (``cli/group.py``,
#: ``cli/schema.py``): the module before the colon is imported by name at run time.
_LOAD_ENTRY = re.compile(r"(gentle_hooks(?:\.\w+)*):\w+")


def _known(name: str) -> str | None:
    """``name`` itself when it is a module of the package, else its nearest parent that is."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _relative_base(module: str, is_package: bool, level: int) -> str:
    """The package ``from .`` (level 1), ``from ..`` (level 2), ... names inside ``module``."""
    parts = module.split(".")
    keep = len(parts) - level + (1 if is_package else 0)
    return ".".join(parts[:keep])


def imports_in(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every gentle_hooks module the source of ``module`` imports, anywhere in its body:
    ``import``, ``from ... import`` (absolute and relative: ``from . import x``, ``from ..y
    import z``), ``importlib.import_module("gentle_hooks...")`` with a constant string, and
    the ``"module:attribute"`` strings of a lazy-load table."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = _relative_base(module, is_package, node.level)
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if target.split(".")[0] != "gentle_hooks":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "gentle_hooks"}
        elif isinstance(node, ast.Call) and _is_import_module(node.func) and node.args:
            found |= _constant_names(node.args[0])
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and (match := _LOAD_ENTRY.fullmatch(node.value))
        ):
            found.add(match.group(1))
    return {known for name in found if (known := _known(name))}


def _constant_names(arg: ast.expr) -> set[str]:
    """The gentle_hooks module a constant string argument names, if it is one."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value} if arg.value.split(".")[0] == "gentle_hooks" else set()
    return set()


def _is_import_module(func: ast.expr) -> bool:
    """``importlib.import_module``, ``import_module`` or ``__import__``."""
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id in {"import_module", "__import__"}


def _imports(path: pathlib.Path) -> set[str]:
    """Every gentle_hooks module the file at ``path`` imports (:func:`imports_in`)."""
    return imports_in(
        path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"
    )


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def room_of(module: str) -> str:
    """The room a module belongs to: its package under gentle_hooks, or the root module's
    own name (``errors``, ``main``; ``__main__`` ranks with ``main``). The package root
    itself holds only ``__version__`` and imports nothing: a leaf below every room."""
    parts = module.split(".")
    if len(parts) == 1:
        return "root"
    return "main" if parts[1] == "__main__" else parts[1]


def test_every_module_is_in_a_known_room() -> None:
    unknown = sorted({room_of(m) for m in MODULES} - set(RANK))
    assert unknown == [], f"rooms missing from LAYERS (and from the package docstring): {unknown}"


def test_the_package_docstring_writes_the_order_down() -> None:
    doc = gentle_hooks.__doc__ or ""
    listed = [line.split("``")[1] for line in doc.splitlines() if line.startswith("* ``")]
    assert listed == list(reversed(LAYERS)), "the docstring lists other rooms, or another order"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_flow_one_way(module: str) -> None:
    mine = RANK[room_of(module)]
    upward = sorted(
        target
        for target in GRAPH[module]
        if room_of(target) != room_of(module) and RANK[room_of(target)] > mine
    )
    assert upward == [], f"{module} ({room_of(module)}) imports from a higher layer: {upward}"


@pytest.mark.parametrize(
    ("source", "seen"),
    [
        ("from gentle_hooks.hooks import outcome", "gentle_hooks.hooks.outcome"),
        ("import gentle_hooks.report.text", "gentle_hooks.report.text"),
        ("from . import outcome", "gentle_hooks.hooks.outcome"),
        ("from .outcome import x", "gentle_hooks.hooks.outcome"),
        ("from .. import errors", "gentle_hooks.errors"),
        ("from ..ledger import store", "gentle_hooks.ledger.store"),
        ("from ..cli.gate import gate", "gentle_hooks.cli.gate"),
        ("def f():\n    from . import range", "gentle_hooks.hooks.range"),
        (
            "import importlib\nimportlib.import_module('gentle_hooks.cli.gate')",
            "gentle_hooks.cli.gate",
        ),
        (
            "from importlib import import_module\nimport_module('gentle_hooks.cli')",
            "gentle_hooks.cli",
        ),
        ("__import__('gentle_hooks.report.text')", "gentle_hooks.report.text"),
        ("TABLE = {'gate': 'gentle_hooks.cli.gate:gate'}", "gentle_hooks.cli.gate"),
    ],
)
def test_every_import_form_is_seen(source: str, seen: str) -> None:
    """Each way a module can import a sibling lands in the graph (here as if written in
    ``gentle_hooks.hooks.dispatch``)."""
    assert imports_in(source, "gentle_hooks.hooks.dispatch") == {seen}


def test_a_package_init_resolves_dot_to_itself() -> None:
    assert imports_in("from . import outcome", "gentle_hooks.hooks", is_package=True) == {
        "gentle_hooks.hooks.outcome"
    }


def test_lazy_load_tables_are_in_the_graph() -> None:
    assert "gentle_hooks.cli.gate" in GRAPH["gentle_hooks.cli.group"]
    assert "gentle_hooks.report.models" in GRAPH["gentle_hooks.cli.schema"]


def test_no_relative_import() -> None:
    """Imports are absolute, so a module's imports read the same wherever it moves."""
    relative = sorted(
        f"{name}:{node.lineno}"
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level
    )
    assert relative == []


def test_the_package_root_imports_nothing() -> None:
    assert GRAPH["gentle_hooks"] == set()


def test_no_import_cycle() -> None:
    """Depth-first search over every import; any back edge is a cycle, printed whole."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(GRAPH):
        if node not in state:
            visit(node)
    assert cycles == [], "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize(
    "init", sorted(p for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE), ids=str
)
def test_package_init_is_docstring_only(init: pathlib.Path) -> None:
    body = ast.parse(init.read_text(encoding="utf-8")).body
    assert len(body) == 1, f"{init}: only a docstring belongs here"
    assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    assert isinstance(body[0].value.value, str) and "TODO" not in body[0].value.value


def test_no_module_over_500_lines() -> None:
    long = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}


@pytest.mark.parametrize(
    "init", sorted(p for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE), ids=str
)
def test_package_docstring_names_every_module(init: pathlib.Path) -> None:
    """README "Layout": each package's ``__init__`` says what every module in it does, as
    one bullet per module, ``* :mod:`.name` — its job``."""
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    unnamed = sorted(
        p.stem
        for p in init.parent.glob("*.py")
        if p.name != "__init__.py" and not re.search(rf"^\* :mod:`\.{p.stem}` — \S", doc, re.M)
    )
    assert unnamed == [], f"{init.parent.name}/__init__.py does not name: {unnamed}"
