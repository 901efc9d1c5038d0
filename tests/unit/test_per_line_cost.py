"""The modules that read every line of a delegated change test for a byte string with
``find``, never with ``in`` (issue 20: the commit gate's cost per file).

On bytes, CPython's ``x in line`` first tries ``x`` as an integer and formats the TypeError
it then catches: about ten times the search itself on a short line. The commit gate keys
every line of every changed file several ways, so a ``b"#" in line`` there was a fifth of
what each file of a 10-file delegated commit cost. Answers are unchanged: ``find`` finds the
same byte strings.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

import gentle_hooks.policy

POLICY = pathlib.Path(gentle_hooks.policy.__file__).parent
#: Read once per line of every changed file (and of each side of it) by the commit gate.
PER_LINE = ("linekeys.py", "keyform.py", "importpairs.py", "spans.py")


def _bytes_in_bytes(tree: ast.AST) -> list[int]:
    """Lines of ``b"..." in x`` / ``b"..." not in x`` and ``x in b"..."``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            if not isinstance(op, ast.In | ast.NotIn):
                continue
            left, right = sides[i], sides[i + 1]
            if any(
                isinstance(s, ast.Constant) and isinstance(s.value, bytes) for s in (left, right)
            ):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize("name", PER_LINE)
def test_per_line_modules_find_byte_strings_without_in(name: str) -> None:
    path = POLICY / name
    assert _bytes_in_bytes(ast.parse(path.read_text())) == [], name
