"""Every column of every ledger table is checked where a row is read (SPEC §6 "Records",
§7 "Exit codes"): a value of the wrong type or outside the column's domain is a
:class:`~gentle_hooks.ledger.rows.RowError` naming the table, the row id and the column,
never a record built from it.

Table-driven over the real schema: the columns come from ``PRAGMA table_info`` of a store
migrated to the current version, so a column added to the schema is tested here without
editing this file. Rows are real :class:`sqlite3.Row` objects whose values keep their exact
types (selected as parameters, which have no column affinity).
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gentle_hooks.ledger.records import Receipt, Record
from gentle_hooks.ledger.rows import (
    DOMAINS,
    ID_COLUMNS,
    JSON_COLUMNS,
    LINK_TABLE,
    TABLES,
    RowError,
    _column,
    column_kinds,
    from_row,
    plain_strings,
    row_ids,
)
from gentle_hooks.ledger.schema import MIGRATIONS
from gentle_hooks.ledger.sqlite_file import migration_statements
from gentle_hooks.values.frozen import fields


def _schema() -> dict[str, list[str]]:
    """Every table of a store at the current version: its columns, in order."""
    conn = sqlite3.connect(":memory:")
    for script in MIGRATIONS:
        for statement in migration_statements(script):
            conn.execute(statement)
    names = [
        str(r[0])
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {t: [str(r[1]) for r in conn.execute(f"PRAGMA table_info({t})")] for t in names}


SCHEMA = _schema()
CLASS_OF = {table: cls for cls, table in TABLES.items()}


def _good(table: str, column: str, kind: str) -> object:
    """A value the column holds in a healthy store."""
    domain = DOMAINS.get((table, column))
    if domain is not None:
        return sorted(domain, key=str)[0]
    if (table, column) in JSON_COLUMNS:
        return "{}" if JSON_COLUMNS[(table, column)] is dict else "[]"
    return {"text": "x", "int": 1, "real": 1.5, "bool": 1, "texts": '["a"]', "ints": "[1]"}[kind]


def _wrong_type(kind: str) -> list[object]:
    return {
        "text": [5, 2.5, b"x"],  # a BLOB of UTF-8: never what the store writes
        "texts": [5, "x", b"\xff\x00", b'["a"]'],
        "ints": [5, "x"],
        "int": ["x", 2.5, b"\xff\x00", '["a", null]'],
        "bool": ["x", 0.5, b"\xff"],
        "real": ["x", b"\xff\x00", '{"a": 1}'],
    }[kind]


def _out_of_domain(table: str, column: str, kind: str) -> list[object]:
    """Values of the right type the column never holds (none for free text and plain
    integers such as an exit status)."""
    if (table, column) in DOMAINS:
        return [7 if kind == "int" else "zzz", 0 if kind == "int" else ""]
    if (table, column) in JSON_COLUMNS:
        return [
            "[" * 5000 + "]" * 5000,
            "not json",
            "{}" if JSON_COLUMNS[(table, column)] is list else "[]",
        ]
    if kind == "bool":
        return [2, -1]
    if kind == "real":
        return [float("inf"), float("nan"), -1.0]
    if kind == "texts":
        return ['["a", 1]', '["a", null]', '{"a": 1}', "[" * 5000 + "]" * 5000]
    if kind == "ints":
        return ['["a"]', "[true]", "[[1]]"]
    if kind == "int" and column in ID_COLUMNS:
        return [0, -1]
    if column == "duration_ms":
        return [-1]
    return []


def _cases() -> list[tuple[str, str, object, bool]]:
    cases = []
    for table, columns in SCHEMA.items():
        if table == LINK_TABLE[0]:
            kinds = {c: ("int", False) for c in columns}
        else:
            kinds = column_kinds(CLASS_OF[table])
        assert set(kinds) == set(columns), f"{table}: decoder and schema disagree"
        for column in columns:
            kind, nullable = kinds[column]
            bad = _wrong_type(kind) + _out_of_domain(table, column, kind)
            if nullable:  # SQLite stores a NaN as NULL, which a nullable column holds
                bad = [v for v in bad if not (isinstance(v, float) and v != v)]
            if not nullable:
                bad.append(None)
            cases.extend((table, column, value, False) for value in bad)
            cases.append((table, column, _good(table, column, kind), True))
    return cases


def _row(table: str, column: str, value: object) -> sqlite3.Row:
    """A real row of ``table``: every column healthy except ``column``, which is ``value``."""
    if table == LINK_TABLE[0]:
        kinds = {c: ("int", False) for c in SCHEMA[table]}
    else:
        kinds = column_kinds(CLASS_OF[table])
    values = [value if c == column else _good(table, c, kinds[c][0]) for c in SCHEMA[table]]
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    select = ", ".join(f"? AS {c}" for c in SCHEMA[table])
    row = conn.execute(f"SELECT {select}", values).fetchone()
    assert isinstance(row, sqlite3.Row)
    return row


def _read(table: str, row: sqlite3.Row) -> object:
    if table == LINK_TABLE[0]:
        return row_ids(table, LINK_TABLE[1], row)
    record: Record = from_row(CLASS_OF[table], row)
    return record


CASES = _cases()


def test_every_table_and_column_is_covered() -> None:
    covered = {(t, c) for t, c, _, ok in CASES if not ok}
    assert covered == {(t, c) for t, cols in SCHEMA.items() for c in cols}
    assert set(SCHEMA) == set(TABLES.values()) | {LINK_TABLE[0]}


@pytest.mark.parametrize(
    ("table", "column", "value", "ok"),
    CASES,
    ids=[f"{t}.{c}={v!r:.20}" for t, c, v, _ in CASES],
)
def test_a_bad_value_in_any_column_is_refused_naming_it(
    table: str, column: str, value: object, ok: bool
) -> None:
    row = _row(table, column, value)
    if ok:
        _read(table, row)
        return
    with pytest.raises(RowError) as caught:
        _read(table, row)
    assert caught.value.table == table and caught.value.column == column
    assert f"{table} row " in str(caught.value) and f"column {column}:" in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("data", [b"\xffa", b"caf\xe9", "\udcff".encode("utf-8", "surrogatepass")])
def test_a_blob_of_text_that_is_not_utf8_reads_as_that_text(data: bytes) -> None:
    record = from_row(Receipt, _row("receipt", "command", data))
    assert record.command == data.decode("utf-8", "surrogateescape")


@given(st.lists(st.text()))
@example(["pkg/a.py", "b c.py"])
@example([""])
@example([])
def test_a_plain_list_reads_without_json_exactly_as_json_reads_it(items: list[str]) -> None:
    """A list as the ledger writes it reads without :mod:`json` when it is plain (no
    quote, backslash or control character in an item) and as ``json.loads`` reads it."""
    text = json.dumps(items, ensure_ascii=False)
    plain = all(not ({'"', "\\"} & set(i)) and all(c >= " " for c in i) for i in items)
    assert plain_strings(text) == (items if plain else None)


@given(st.text(alphabet='[]", \\ab\x00\x1f'))
@example('["a","b"]')
@example('["a", "b]')
@example('["a\\"b"]')
def test_any_other_text_is_left_to_json(text: str) -> None:
    """Whatever else a column holds, the plain reading is either None (``json.loads``
    decides) or exactly what ``json.loads`` reads."""
    got = plain_strings(text)
    if got is not None:
        assert got == json.loads(text)


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [
        ("writer_entry", "path", "a\x00b"),
        ("receipt", "argv", '["python3", "-m", "unittest\\u0000"]'),
        ("receipt", "cwd", "/tmp\x00/x"),
    ],
)
def test_a_nul_in_a_column_given_to_the_os_is_refused(table: str, column: str, value: str) -> None:
    """Refuter r16y (issue 16): a NUL in a path or argument vector of the ledger reached
    subprocess (``ValueError: embedded null byte``, exit 3) while doctor said healthy; the
    row decoder refuses it (RowError: doctor's rows check names it, --fix quarantines it)."""
    with pytest.raises(RowError, match="NUL") as caught:
        _read(table, _row(table, column, value))
    assert caught.value.column == column
    _read(table, _row(table, column, value.replace("\x00", "").replace("\\u0000", "")))


@pytest.mark.parametrize(
    ("value", "why"),
    [("", "empty"), ("/etc/passwd", "absolute"), ("../x", "a '..'"), ("a/../../b", "a '..'")],
)
def test_a_writer_entry_path_outside_the_tree_is_refused(value: str, why: str) -> None:
    """Refuter r16y (issue 16): git refused such a path as a pathspec in the gates (exit 2,
    "outside repository") while doctor said healthy; the row decoder refuses it (doctor's
    rows check names it, --fix quarantines it)."""
    with pytest.raises(RowError, match=f"not a path in the work tree: {why}") as caught:
        _read("writer_entry", _row("writer_entry", "path", value))
    assert caught.value.column == "path"
    for fine in ("a..b/c", "src/.x", "..a"):
        _read("writer_entry", _row("writer_entry", "path", fine))


#: Values of every type SQLite hands back, at and around each shortcut's edges.
EDGES: list[object] = [
    *(None, 0, 1, 2, -1, 7, 2**62, 0.0, -0.0, 1.5, -1.0, float("inf"), float("nan")),
    *("", "x", "a\x00b", "run", "on", "[]", '["a"]', "{}", "/abs", "../x", "caf\udcff"),
    *(b"x", b"\xff\x00"),
]


@pytest.mark.parametrize(
    ("table", "column"),
    [(t, c) for t, cols in SCHEMA.items() if t != LINK_TABLE[0] for c in cols],
)
def test_a_row_reads_each_column_as_the_column_decoder_does(table: str, column: str) -> None:
    """:func:`from_row` takes common values without :func:`_column` (issue 20: the push
    gate reads hundreds of rows); every value reads exactly as :func:`_column` answers
    alone: the same value of the same type, or a RowError with the same words."""
    kind, nullable = column_kinds(CLASS_OF[table])[column]
    for value in EDGES:
        row = _row(table, column, value)  # as SQLite hands it back (a NaN is NULL)
        try:
            want: object = _column(table, column, kind, nullable, row[column], row["id"])
        except RowError as exc:
            want = ("error", str(exc))
        try:
            got: object = getattr(from_row(CLASS_OF[table], row), column)
        except RowError as exc:
            got = ("error", str(exc))
        assert (type(got), repr(got)) == (type(want), repr(want)), (column, value)


def test_a_column_named_in_another_case_reads_as_sqlite_finds_it() -> None:
    """A Row finds ``identity`` as ``IDENTITY``: the decoder reads it the same way."""
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    kinds = column_kinds(Receipt)
    values = [_good("receipt", c, kinds[c][0]) for c in SCHEMA["receipt"]]
    select = ", ".join(f"? AS {c.upper()}" for c in SCHEMA["receipt"])
    upper = conn.execute(f"SELECT {select}", values).fetchone()
    lower = _row("receipt", "id", 1)
    assert from_row(Receipt, upper) == from_row(Receipt, lower)
    assert [getattr(from_row(Receipt, upper), n) for n in fields(Receipt)] == [
        getattr(from_row(Receipt, lower), n) for n in fields(Receipt)
    ]
