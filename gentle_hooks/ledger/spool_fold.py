"""Folding the spool into the store (:mod:`.spool`): each spooled mutation stored once.

Room ``ledger``. A spooled line goes through the insert path of a recorded mutation
(:func:`insert_mutation`); a line whose mutation is stored
already (the same tool call, or the same writer, paths and time: a fold that committed
but was killed before it removed the spool) is skipped, so a replayed line records once.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence

from gentle_hooks.ledger import spool
from gentle_hooks.ledger.connection import LedgerConnection, insert
from gentle_hooks.ledger.records import PendingMutation, WriterEntryRecord
from gentle_hooks.ledger.rows import RowError, from_row, to_row
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.values.frozen import replace

_SAME_CALL = (
    "SELECT id FROM pending_mutation WHERE tool_call_id = ? AND source IS ? "
    "AND session_id IS ? ORDER BY id LIMIT 1"
)
_SAME_WRITE = (
    "SELECT id FROM pending_mutation WHERE root = ? AND recorded_at = ? AND model = ? "
    "AND effort = ? AND paths = ? AND source IS ? AND session_id IS ? "
    "AND tool_call_id IS NULL ORDER BY id LIMIT 1"
)
_CALL_KEYS: tuple[str, ...] = ("tool_call_id", "source", "session_id")
_WRITE_KEYS: tuple[str, ...] = (
    "root",
    "recorded_at",
    "model",
    "effort",
    "paths",
    "source",
    "session_id",
)


def fold(led: LedgerConnection) -> int:
    """Store the spooled mutations of ``led``'s ledger in one transaction, then remove the
    spool; how many were new (0 with no spool).

    Raises:
        StoreError: the write lock was not granted (the spool is kept), or a spool line is
            not a record (the spool was moved aside, named in the message).
    """
    stored = 0
    # the spool is removed (ExitStack) only after the transaction committed (led._write)
    with contextlib.ExitStack() as held, led._write() as conn:
        try:
            lines = held.enter_context(spool.claimed(led.path))
            recs = [_records(spool.spool_path(led.path), m, e) for m, e in lines or ()]
        except spool.SpoolError as exc:
            raise StoreError(
                exc.kept, f"a spooled writer record cannot be read: {exc.why}; it is kept"
            ) from None
        for mutation, entries in recs:
            if mutation.tool_call_id is not None:
                sql, keys = _SAME_CALL, _CALL_KEYS
            else:
                sql, keys = _SAME_WRITE, _WRITE_KEYS
            row = to_row(mutation)
            if conn.execute(sql, tuple(row[k] for k in keys)).fetchone() is None:
                insert_mutation(conn, mutation, entries, mutation.recorded_at)
                stored += 1
    return stored


def _records(
    spool_path: str, mutation: dict[str, object], entries: list[dict[str, object]]
) -> tuple[PendingMutation, list[WriterEntryRecord]]:
    """The records of one spool line.

    Raises:
        SpoolError: a row that is not a record of its table (the line is malformed): the
            spool was moved aside first.
    """
    try:
        # row ids the insert replaces: any valid one passes the row check
        rec = from_row(PendingMutation, {**mutation, "id": 1})  # type: ignore[arg-type]
        out = [
            from_row(WriterEntryRecord, {**e, "id": 1, "mutation_id": 1})  # type: ignore[arg-type]
            for e in entries
        ]
    except RowError as exc:
        raise spool.aside(spool_path, f"a line is not a spooled record ({exc})") from None
    return rec, out


def insert_mutation(
    conn: sqlite3.Connection,
    mutation: PendingMutation,
    entries: Sequence[WriterEntryRecord],
    now: float,
) -> tuple[PendingMutation, tuple[WriterEntryRecord, ...]]:
    """Inside a transaction: insert a mutation and its entries, and link the entries to the
    root's open escalations."""
    mutation = replace(mutation, id=insert(conn, mutation))
    stored = []
    for entry in entries:
        entry = replace(entry, mutation_id=mutation.id, recorded_at=now)
        stored.append(replace(entry, id=insert(conn, entry)))
    open_escalations = _open_escalation_ids(conn, mutation.root)
    conn.executemany(
        "INSERT OR IGNORE INTO escalation_entry (escalation_id, entry_id) VALUES (?, ?)",
        [(esc, e.id) for esc in open_escalations for e in stored],
    )
    return mutation, tuple(stored)


def _open_escalation_ids(conn: sqlite3.Connection, root: str) -> list[int]:
    """Inside a transaction: the root's escalations still sticky for new writer work."""
    rows = conn.execute(
        "SELECT id FROM escalation WHERE root = ? AND consumed_by IS NULL ORDER BY id", (root,)
    )
    return [int(r[0]) for r in rows]
