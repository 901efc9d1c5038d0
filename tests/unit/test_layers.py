"""The layout holds (STYLE "Architecture", SPEC §2 "Shape"): one package per room, imports
flowing one way, no cycle, each package ``__init__`` docstring-only.

Every import is read from the source, function-level and ``TYPE_CHECKING`` ones included,
so a lazy import cannot hide a cycle or a layer turned upside down. The order is the one
the package docstring of :mod:`gentle_hooks` writes down.
"""

from __future__ import annotations

import ast
import pathlib

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


def _imports(path: pathlib.Path) -> set[str]:
    """Every gentle_hooks module ``path`` imports, anywhere in its body."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}: relative import"
            if node.module.split(".")[0] != "gentle_hooks":
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "gentle_hooks"}
    return found


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
