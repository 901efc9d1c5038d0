"""Records to table rows and back (SPEC §6 "Records"): the ledger's one row codec.

Room: ledger (standard library and :mod:`gentle_hooks.ledger.records`). A record's fields are
its table's columns; tuple fields are JSON lists in the table, bool fields are 0/1, ``id`` is
the table's own.
"""

from __future__ import annotations

import json
import sqlite3

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
_BOOL_FIELDS = {"agreed", "counts", "accepted", "critical", "stale", "binary"}


def to_row(rec: Record) -> dict[str, object]:
    """A record's column values (without ``id``), JSON lists and 0/1 encoded."""
    row: dict[str, object] = {}
    for name in fields(rec):
        if name == "id":
            continue
        value = getattr(rec, name)
        if name in _TUPLE_FIELDS and value is not None:
            value = json.dumps(list(value), ensure_ascii=False)
        elif name in _BOOL_FIELDS:
            value = int(bool(value))
        row[name] = value
    return row


def from_row(cls: type[R], row: sqlite3.Row) -> R:
    """Build a record of type ``cls`` from a table row (JSON lists and 0/1 decoded)."""
    decoded: dict[str, Any] = {}
    for name in fields(cls):
        value = row[name]
        if name in _TUPLE_FIELDS and value is not None:
            value = tuple(json.loads(value))
        elif name in _BOOL_FIELDS:
            value = bool(value)
        decoded[name] = value
    return cls(**decoded)
