"""Records to table rows and back (SPEC §6 "Records"): the ledger's one row codec.

Room: ledger (standard library and :mod:`gentle_hooks.ledger.records`). A record's fields are
its table's columns; tuple fields are JSON lists in the table, bool fields are 0/1, ``id`` is
the table's own. Text UTF-8 cannot encode (a non-UTF-8 path) is kept exactly: in a JSON list
as ``\\uDCxx`` escapes, in a column as the BLOB of its bytes
(:func:`gentle_hooks.ledger.location.sql_text`).
"""

from __future__ import annotations

import json
import sqlite3

from gentle_hooks.ledger.location import from_sql_text
from gentle_hooks.ledger.records import (
    CommitRecord,
    DiscardRecord,
    EntryTake,
    EscalationRecord,
    OverrideRecord,
    PendingMutation,
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
    from typing import Any

    from gentle_hooks.ledger.records import R

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
}
_TUPLE_FIELDS = {"paths", "argv", "reasons", "missing", "added", "removed", "entries"}
#: The one tuple field whose items are integers (entry ids); every other holds strings.
_INT_ITEMS = {"entries"}
_BOOL_FIELDS = {"agreed", "counts", "accepted", "critical", "stale", "binary"}


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


def from_row(cls: type[R], row: sqlite3.Row) -> R:
    """Build a record of type ``cls`` from a table row (JSON lists and 0/1 decoded)."""
    decoded: dict[str, Any] = {}
    for name in fields(cls):
        value = row[name]
        if isinstance(value, bytes):  # text stored as its bytes: not UTF-8
            value = from_sql_text(value)
        if name in _TUPLE_FIELDS and value is not None:
            value = _json_tuple(name, value)
        elif name in _BOOL_FIELDS:
            value = bool(value)
        decoded[name] = value
    return cls(**decoded)


def _json_tuple(name: str, value: object) -> tuple[object, ...]:
    """A tuple column decoded and its shape checked: a JSON list of strings (of integers for
    :data:`_INT_ITEMS`). Raises ValueError naming the column otherwise, so a row edited into
    another shape is refused where it is read (and by ``doctor``'s ``rows`` check, which
    reads every row with :func:`from_row`) instead of failing later in its user."""
    if not isinstance(value, str):
        raise ValueError(f"{name}: not a JSON list")
    items = json.loads(value)
    if not isinstance(items, list):
        raise ValueError(f"{name}: not a JSON list")
    for item in items:
        ok = (
            isinstance(item, int) and not isinstance(item, bool)
            if name in _INT_ITEMS
            else isinstance(item, str)
        )
        if not ok:
            kind = "integers" if name in _INT_ITEMS else "strings"
            raise ValueError(f"{name}: not a JSON list of {kind}")
    return tuple(items)


def _json_list(values: list[object]) -> str:
    """A JSON list as the table keeps it: UTF-8 text, or ASCII with ``\\u`` escapes when a
    string holds a lone surrogate (which :func:`json.loads` gives back exactly)."""
    text = json.dumps(values, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(values)
    return text
