"""Records to table rows and back (SPEC §6 "Records"): the ledger's one row codec.

Room: ledger (standard library and :mod:`gentle_hooks.ledger.records`). A record's fields are
its table's columns; tuple fields are JSON lists in the table, bool fields are 0/1, ``id`` is
the table's own. Text UTF-8 cannot encode (a non-UTF-8 path) is kept exactly: in a JSON list
as ``\\uDCxx`` escapes, in a column as the BLOB of its bytes
(:func:`gentle_hooks.ledger.location.sql_text`).
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import math

from gentle_hooks.ledger.location import from_sql_text
from gentle_hooks.ledger.records import (
    DAMAGED_SOURCE,
    FORMER_REVIEW_OUTCOMES,
    REVIEW_FACT_OUTCOMES,
    SPOOL_SOURCE,
    CommitRecord,
    CommitWorktree,
    DiscardRecord,
    EntryTake,
    EscalationRecord,
    OverrideRecord,
    PendingMutation,
    QuarantineRecord,
    RddRender,
    Receipt,
    Record,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
    VerifyRun,
    WriterEntryRecord,
)
from gentle_hooks.values.frozen import fields

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TypeVar

    from gentle_hooks.ledger.records import R

    J = TypeVar("J")

#: Record type -> its table (:mod:`gentle_hooks.ledger.schema`).
TABLES: dict[type[Any], str] = {
    PendingMutation: "pending_mutation",
    EscalationRecord: "escalation",
    Receipt: "receipt",
    SpotCheck: "spot_check",
    VerdictRecord: "verdict",
    ReviewFact: "review_fact",
    CommitRecord: "commit_record",
    OverrideRecord: "override",
    RddRender: "rdd_render",
    WriterEntryRecord: "writer_entry",
    EntryTake: "entry_take",
    DiscardRecord: "discard",
    VerifyRun: "verify_run",
    QuarantineRecord: "quarantine",
    CommitWorktree: "commit_worktree",
}
_TUPLE_FIELDS = {
    "paths",
    "argv",
    "created",
    "reasons",
    "missing",
    "added",
    "removed",
    "entries",
    "claimed",
    "blobs",
}
#: The tuple fields whose items are integers (entry ids); every other holds strings.
_INT_ITEMS = {"entries", "claimed"}
_BOOL_FIELDS = {"agreed", "counts", "accepted", "critical", "stale", "binary"}
#: Columns whose text reaches the operating system (a path, an argument vector, an object
#: or directory name given to git or a process): a NUL there cannot be passed on
#: (``embedded null byte``), and no honest writer stores one, so the row is refused.
_OS_COLUMNS = frozenset(
    {"root", "path", "paths", "cwd", "argv", "command", "room", "artifact_ref", "blob"}
    | {"before_blob", "head", "tree", "base_tree", "commit_id", "rewritten_from", "identity"}
)

#: Columns holding one path relative to the work tree root, given to git as a pathspec:
#: git refuses an empty one and one outside the repository, so no command could use the
#: row (issue 16, refuter r16y).
_TREE_PATHS = frozenset({("writer_entry", "path")})


def outside_tree(path: str) -> str | None:
    """Why ``path`` is not a path inside the work tree as a recorder writes one (empty,
    absolute, or with a ``..`` component), or None."""
    if not path:
        return "not a path in the work tree: empty"
    if path.startswith("/"):
        return "not a path in the work tree: absolute"
    if ".." in path.split("/"):
        return "not a path in the work tree: a '..' component"
    return None


def to_row(rec: Record) -> dict[str, object]:
    """A record's column values (without ``id``), JSON lists and 0/1 encoded."""
    row: dict[str, object] = {}
    for name in fields(rec):
        if name == "id":
            continue
        value = getattr(rec, name)
        if name in _TUPLE_FIELDS and value is not None:
            value = _json_list(list(value))
        elif name in _BOOL_FIELDS:
            value = int(bool(value))
        row[name] = value
    return row


class RowError(ValueError):
    """A stored row that is not a record of its table: names the table, the row id, the
    column and what is wrong (a wrong type, a value outside the column's domain)."""

    def __init__(self, table: str, row_id: object, column: str, why: str) -> None:
        super().__init__(f"{table} row {row_id!r} column {column}: {why}")
        self.table = table
        self.row_id = row_id
        self.column = column


#: Allowed values of the columns that have a closed domain (the schema's CHECK constraints
#: and the values the code writes).
DOMAINS: dict[tuple[str, str], frozenset[object]] = {
    ("escalation", "item"): frozenset(range(1, 7)),
    ("receipt", "kind"): frozenset({"run", "add"}),
    ("spot_check", "kind"): frozenset({"rerun", "readback"}),
    ("review_fact", "outcome"): frozenset({*REVIEW_FACT_OUTCOMES, *FORMER_REVIEW_OUTCOMES}),
    ("rdd_render", "mode"): frozenset({"on", "off", "unknown"}),
    ("rdd_render", "previous_mode"): frozenset({"on", "off", "unknown"}),
    ("writer_entry", "state"): frozenset({"open", "taken", "settled", "expired", "discarded"}),
    ("verify_run", "status"): frozenset({"pass", "fail", "blocked"}),
    ("quarantine", "state"): frozenset({"held", "restored", "discarded"}),
}
#: Values an older gentle-hooks stored, read as the value stored now (rows are never
#: rewritten: the stored value stays as it was).
FORMER_VALUES: dict[tuple[str, str], dict[str, str]] = {
    ("review_fact", "outcome"): FORMER_REVIEW_OUTCOMES,
}
#: Integer columns holding a row id of this or another table: 1 or more.
ID_COLUMNS = frozenset(
    {"id", "mutation_id", "entry_id", "receipt_id", "observed_run", "escalation_id"}
)
#: Integer columns holding a count of milliseconds: 0 or more.
_NON_NEGATIVE = frozenset({"duration_ms"})
#: JSON-list columns that are NULL or hold at least one item: a receipt that gentle-hooks
#: ran has the command it ran (the runner refuses an empty one before running anything).
_NON_EMPTY = frozenset({("receipt", "argv")})
#: Text columns holding a JSON document: the JSON type it must be.
JSON_COLUMNS: dict[tuple[str, str], type] = {
    ("verdict", "json"): dict,
    ("verify_run", "observations"): list,
    ("quarantine", "row"): dict,
}
#: The one table without a record type (SPEC §5 sticky escalations): its integer columns.
LINK_TABLE = ("escalation_entry", ("escalation_id", "entry_id"))
#: A quarantined row names the table it came from, or what no table holds (a spool line, a
#: damaged ledger's lost rows).
DOMAINS[("quarantine", "source")] = frozenset(
    [*TABLES.values(), LINK_TABLE[0], SPOOL_SOURCE, DAMAGED_SOURCE]
)


def column_kinds(cls: type[Any]) -> dict[str, tuple[str, bool]]:
    """Each column of ``cls``'s table: (kind, nullable). Kinds: ``text``, ``int``, ``real``,
    ``bool``, ``texts`` (JSON list of strings), ``ints`` (JSON list of integers); read from
    the record's field annotations."""
    kinds = {"str": "text", "int": "int", "float": "real", "bool": "bool"}
    kinds.update({"tuple[str, ...]": "texts", "tuple[int, ...]": "ints"})
    out = {}
    for name in fields(cls):
        note = str(cls.__annotations__[name])
        nullable = note.endswith(" | None")
        out[name] = (kinds[note.removesuffix(" | None")], nullable)
    return out


_KINDS: dict[type[Any], dict[str, tuple[str, bool]]] = {c: column_kinds(c) for c in TABLES}

#: How :func:`from_row` may take a column's value without :func:`_column`: the values each
#: shortcut accepts are exactly those :func:`_column` returns unchanged (``bool`` ones as
#: ``bool``); any other value goes through :func:`_column`, which decides and words errors.
_TEXT, _OS_TEXT, _INT, _ROW_ID, _COUNT, _BOOL, _TIME, _CHECKED = range(8)


def _shortcut(table: str, name: str, kind: str) -> int:
    """The shortcut of one column (:data:`_TEXT` ... :data:`_CHECKED`, no shortcut)."""
    key = (table, name)
    if key in DOMAINS or key in FORMER_VALUES or key in JSON_COLUMNS or key in _TREE_PATHS:
        return _CHECKED
    if kind == "text":
        return _OS_TEXT if name in _OS_COLUMNS else _TEXT
    if kind == "int":
        if name in ID_COLUMNS:
            return _ROW_ID
        return _COUNT if name in _NON_NEGATIVE else _INT
    if kind == "bool":
        return _BOOL
    return _TIME if kind == "real" else _CHECKED


#: Per record type: each column's (name, kind, nullable, shortcut).
_PLANS: dict[type[Any], tuple[tuple[str, str, bool, int], ...]] = {
    c: tuple((n, k, nul, _shortcut(TABLES[c], n, k)) for n, (k, nul) in _KINDS[c].items())
    for c in TABLES
}
_ABSENT = object()


def from_row(cls: type[R], row: sqlite3.Row) -> R:
    """Build a record of type ``cls`` from a table row, every column checked.

    Each column is decoded (JSON lists, 0/1, text kept as a BLOB) and checked against its
    field's type and its domain (:data:`DOMAINS`, :data:`ID_COLUMNS`, finite
    ``recorded_at``, :data:`JSON_COLUMNS`): this is the one place a row is read, so a row
    edited into another shape is refused where it is read, and by ``doctor``, which reads
    every row with it. ``row``: a :class:`sqlite3.Row` or a mapping of column names.

    Raises:
        RowError: a column missing, of a wrong type or outside its domain.
    """
    table = TABLES[cls]
    try:
        row_id = row["id"]
    except (IndexError, KeyError):
        row_id = None
    # a Row finds a name by comparing it with each column's: read its values by name once
    by_name: Any = row
    if type(row) is sqlite3.Row:
        keys = row.keys()
        by_name = dict(zip(keys, row, strict=True))
        if len(by_name) != len(keys):  # a name twice: the Row's own look-up decides
            by_name = row
    decoded: dict[str, Any] = {}
    for name, kind, nullable, shortcut in _PLANS[cls]:
        value: Any = by_name.get(name, _ABSENT) if by_name is not row else _ABSENT
        if value is _ABSENT:
            try:
                value = row[name]  # also a name spelt in another case, as a Row finds it
            except (IndexError, KeyError):
                raise RowError(table, row_id, name, "missing") from None
        vt = type(value)
        if value is None:
            plain = nullable
        elif vt is str:
            plain = shortcut == _TEXT or (shortcut == _OS_TEXT and "\x00" not in value)
        elif vt is int:
            if shortcut == _BOOL and (value == 0 or value == 1):
                decoded[name] = value == 1
                continue
            plain = shortcut == _INT or (shortcut == _ROW_ID and value >= 1)
            plain = plain or (shortcut == _COUNT and value >= 0)
        else:
            plain = vt is float and shortcut == _TIME and 0 <= value < math.inf
        decoded[name] = value if plain else _column(table, name, kind, nullable, value, row_id)
    return cls(**decoded)


def row_ids(table: str, columns: Sequence[str], row: Sequence[object]) -> tuple[int, ...]:
    """Row-id columns read without a record (``escalation_entry``, a join's ids), checked
    like :func:`from_row`: ``row[i]`` is the value of ``columns[i]``.

    Raises:
        RowError: a value that is not a row id.
    """
    out = []
    for i, column in enumerate(columns):
        value = _column(table, column, "int", False, row[i], None)
        out.append(value if isinstance(value, int) else 0)  # _column returned an int
    return tuple(out)


def _column(
    table: str, name: str, kind: str, nullable: bool, value: object, row_id: object
) -> object:
    """One column's value decoded and checked (see :func:`from_row`)."""

    def bad(why: str) -> RowError:
        shown = repr(value)
        return RowError(table, row_id, name, f"{why} ({shown[:40]})")

    if value is None:
        if nullable:
            return None
        raise bad("missing (NULL)")
    if kind in ("text", "texts") and isinstance(value, bytes):
        value = _blob_text(kind, value, bad)
    if kind == "text":
        if not isinstance(value, str):
            raise bad("not text")
        if (table, name) in JSON_COLUMNS:
            json_of(value, JSON_COLUMNS[(table, name)], bad)
    elif kind in ("texts", "ints"):
        value = _json_tuple(name, value, bad)
        if not value and (table, name) in _NON_EMPTY:
            raise bad("an empty JSON list")
    elif kind == "real":
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise bad("not a number")
        if not math.isfinite(value) or value < 0:
            raise bad("not a time (finite, 0 or more)")
    else:  # int, bool
        if not isinstance(value, int):
            raise bad("not an integer")
        if kind == "bool":
            if value not in (0, 1):
                raise bad("not 0 or 1")
            return bool(value)
        if name in ID_COLUMNS and value < 1:
            raise bad("not a row id")
        if name in _NON_NEGATIVE and value < 0:
            raise bad("negative")
    if name in _OS_COLUMNS:
        items = value if isinstance(value, tuple) else (value,)
        if any(isinstance(v, str) and "\x00" in v for v in items):
            raise bad("holds a NUL character")
    if (table, name) in _TREE_PATHS and isinstance(value, str):
        why = outside_tree(value)
        if why is not None:
            raise bad(why)
    domain = DOMAINS.get((table, name))
    if domain is not None and value not in domain:
        raise bad("not one of " + ", ".join(sorted(map(str, domain))))
    if isinstance(value, str) and (table, name) in FORMER_VALUES:
        return FORMER_VALUES[(table, name)].get(value, value)
    return value


def _blob_text(kind: str, value: bytes, bad: Callable[[str], RowError]) -> str:
    """The text a BLOB in a text column stands for: only text UTF-8 cannot encode is
    stored as a BLOB (:func:`~gentle_hooks.ledger.location.sql_text`), so a BLOB that is
    valid UTF-8, or any BLOB in a JSON list column (kept as ASCII escapes), was written by
    something else: the row is refused rather than read as if it were text (a query
    matching the text would not find it)."""
    if kind == "texts":
        raise bad("a BLOB, not a JSON list")
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return from_sql_text(value)  # text that is not UTF-8
    raise bad("a BLOB of UTF-8 text, not text (SQLite type blob)")


def json_of(
    text: str, kind: type[J], bad: Callable[[str], Exception], unreadable: str = "not JSON"
) -> J:
    """``text`` read as JSON, a ``kind`` (:class:`dict` or :class:`list`).

    Raises:
        ``bad(unreadable)``: ``text`` is no JSON (or nested too deep to read);
        ``bad("not a JSON object")`` / ``bad("not a JSON list")``: it is no ``kind``.
    """
    import json  # a passing push reads no JSON column: json loads on use

    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise bad(unreadable) from None
    if not isinstance(value, kind):
        raise bad(f"not a JSON {'object' if kind is dict else 'list'}")
    return value


def _json_tuple(name: str, value: object, bad: Callable[[str], RowError]) -> tuple[object, ...]:
    """A tuple column decoded and its shape checked: a JSON list of strings (of integers for
    :data:`_INT_ITEMS`)."""
    if not isinstance(value, str):
        raise bad("not a JSON list")
    items = plain_strings(value) if name not in _INT_ITEMS or value == "[]" else None
    if items is None:  # any other shape: a gate that passes reads only plain lists
        items = json_of(value, list, bad, "not a JSON list")
    for item in items:
        ok = (
            isinstance(item, int) and not isinstance(item, bool)
            if name in _INT_ITEMS
            else isinstance(item, str)
        )
        if not ok:
            kind = "integers" if name in _INT_ITEMS else "strings"
            raise bad(f"not a JSON list of {kind}")
    return tuple(items)


def plain_strings(text: str) -> list[str] | None:
    """The items of ``text`` when it is a JSON list of plain strings as :func:`_json_list`
    writes one (``[]``, ``["a", "b"]``: items apart by ``", "``, none holding a quote, a
    backslash or a control character), exactly as :func:`json.loads` reads it; None for
    any other text, which only :func:`json.loads` reads (or refuses)."""
    if text == "[]":
        return []
    if len(text) < 4 or text[:2] != '["' or text[-2:] != '"]' or "\\" in text:
        return None
    inner = text[2:-2]
    if inner and min(inner) < " ":  # JSON strings hold no raw control character
        return None
    items = inner.split('", "')
    if any('"' in item for item in items):
        return None
    return items


def _json_list(values: list[object]) -> str:
    """A JSON list as the table keeps it: UTF-8 text, or ASCII with ``\\u`` escapes when a
    string holds a lone surrogate (which :func:`json.loads` gives back exactly)."""
    import json

    text = json.dumps(values, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(values)
    return text


class _Undecodable:
    """Text a column holds whose bytes are not UTF-8: never a ``str``, so the row decoder
    refuses it ("not text") instead of the whole scan failing on it."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __repr__(self) -> str:
        return f"<text not UTF-8: {self.data[:20]!r}>"


def _text(data: bytes) -> object:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return _Undecodable(data)


def bad_rows(conn: sqlite3.Connection) -> list[tuple[str, int, str]]:
    """Every row of every table the row decoder refuses: (table, rowid, why), in table
    order then rowid order. Reads only; ``conn``'s factories are put back."""
    factories = (conn.row_factory, conn.text_factory)
    conn.row_factory, conn.text_factory = sqlite3.Row, _text
    out: list[tuple[str, int, str]] = []
    try:
        for cls, table in TABLES.items():
            for row in conn.execute(f"SELECT rowid AS rowid_, * FROM {table} ORDER BY rowid"):
                try:
                    from_row(cls, row)
                except RowError as exc:
                    out.append((table, int(row["rowid_"]), str(exc)))
        link, columns = LINK_TABLE
        sql = f"SELECT rowid, {', '.join(columns)} FROM {link} ORDER BY rowid"
        for row in conn.execute(sql):
            try:
                row_ids(link, columns, tuple(row)[1:])
            except RowError as exc:
                out.append((link, int(row[0]), str(exc)))
    finally:
        conn.row_factory, conn.text_factory = factories
    return out
