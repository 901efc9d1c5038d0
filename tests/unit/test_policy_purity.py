"""The policy core imports no click, pygit2, pydantic, os, clock or file access (STYLE)."""

from __future__ import annotations

import ast
import pathlib

import pytest

import gentle_hooks.policy

POLICY = pathlib.Path(gentle_hooks.policy.__file__).parent
FORBIDDEN_MODULES = {
    "click",
    "pygit2",
    "pydantic",
    "os",
    "time",
    "datetime",
    "subprocess",
    "sqlite3",
    "pathlib",
    "io",
    "shutil",
    "tempfile",
    "random",
}
#: ``gentle_hooks.values.frozen`` (frozen value types) is held to the same rule: checked below.
ALLOWED_INTERNAL = {"gentle_hooks.errors", "gentle_hooks.policy", "gentle_hooks.values"}
VALUES = sorted((POLICY.parent / "values").glob("*.py"))


@pytest.mark.parametrize("module", [*sorted(POLICY.glob("*.py")), *VALUES], ids=lambda p: p.name)
def test_policy_module_is_pure(module: pathlib.Path) -> None:
    tree = ast.parse(module.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "print", "input"}, f"{module.name} does I/O"
            continue
        for name in names:
            top = name.split(".")[0]
            assert top not in FORBIDDEN_MODULES, f"{module.name} imports {name}"
            if top == "gentle_hooks":
                assert any(name == a or name.startswith(a + ".") for a in ALLOWED_INTERNAL), (
                    f"{module.name} imports {name}"
                )
