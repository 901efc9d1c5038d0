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
from hypothesis import given
from hypothesis import strategies as st

import gentle_hooks.policy

POLICY = pathlib.Path(gentle_hooks.policy.__file__).parent
#: Read once per line of every changed file (and of each side of it) by the commit gate.
PER_LINE = (
    "linekeys.py",
    "keyform.py",
    "formatcall.py",
    "fixforms.py",
    "comparisons.py",
    "linetokens.py",
    "importpairs.py",
    "spans.py",
)


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


def test_writer_spans_reads_no_span_form_when_no_run_can_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run of the writer's lines spans two lines at least, so an edit that adds only the
    file's last line starts none: the span forms of the file's lines are not read."""
    from gentle_hooks.policy import spans
    from gentle_hooks.policy.linekeys import any_line_keys, line_keys

    before = b"def total(items):\n    return sum(item.price for item in items)\n"
    after = before + b"# reviewed against the invoice export format\n"
    added = line_keys(after) - line_keys(before)
    expected = spans.writer_spans(after, added, any_line_keys(before))

    def unread(lines: object) -> list[bytes]:
        raise AssertionError("span forms read for a run that cannot start")

    monkeypatch.setattr(spans, "span_forms", unread)
    assert spans.writer_spans(after, added, any_line_keys(before)) == expected
    assert expected  # the added line itself still has its span


def _depth_by_counting(stripped: bytes) -> int:
    """The bracket depth of a line without quotes as six counts read it."""
    opened = stripped.count(b"(") + stripped.count(b"[") + stripped.count(b"{")
    return opened - stripped.count(b")") - stripped.count(b"]") - stripped.count(b"}")


@given(st.binary(max_size=60) | st.text(alphabet="([{}]) x=,:;#", max_size=30).map(str.encode))
def test_bracket_depth_of_a_line_without_quotes_is_its_counts(line: bytes) -> None:
    from gentle_hooks.policy.linekeys import _depth

    stripped = line.strip()
    if b'"' not in stripped and b"'" not in stripped:
        assert _depth(stripped) == _depth_by_counting(stripped)
