"""Rows no command can read, moved aside whole and put back exactly (SPEC §6 "Records";
docs/robustness.md "doctor").

Room ``ledger`` (standard library, :mod:`gentle_hooks.errors`, :mod:`gentle_hooks.values`
and its own room). A row the
row decoder refuses (:func:`gentle_hooks.ledger.rows.from_row`) makes every command that
reads it exit 2. ``doctor --fix`` moves each such row into the ``quarantine`` table in one
transaction with its removal (:meth:`Quarantine.quarantine_bad_rows`): nothing is deleted, and the
row's values are kept exactly — each column's SQLite storage class and bytes (an integer
as its decimal digits, a real as :meth:`float.hex`, text and blobs as the hex of their
bytes) — so :meth:`Quarantine.restore` re-inserts the same values under the same id.

A held row of writer work (any table but
:data:`~gentle_hooks.ledger.schema.EVIDENCE_TABLES`; or a source that is no table,
:data:`UNREAD_SOURCES`: a spool line or a damaged ledger's rows no command could read,
which can only be discarded) keeps the gates closed:
:meth:`Quarantine.refuse_held_work` raises a one-line error naming it, with the command
that restores it and the one that discards it (:meth:`Quarantine.discard_quarantined`:
marked discarded with who and why, its values still kept).
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring

from gentle_hooks.errors import Command, UsageError, cli
from gentle_hooks.ledger.connection import LedgerConnection, insert
from gentle_hooks.ledger.records import DAMAGED_SOURCE, SPOOL_SOURCE, QuarantineRecord
from gentle_hooks.ledger.rows import bad_rows
from gentle_hooks.ledger.schema import HELD_WORK
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.values.frozen import replace

#: The reason the printed discard command records (a person runs it, having read the line).
DISCARD_REASON = "the writer work of a damaged ledger row is abandoned"
#: Sources that are no table: nothing can be put back, only discarded by a person, with
#: this reason printed in the command.
UNREAD_SOURCES = {
    SPOOL_SOURCE: "the writer record of an unreadable spool line is abandoned",
    DAMAGED_SOURCE: "the writer rows a damaged ledger lost are abandoned",
}


def way_out(rec: QuarantineRecord) -> tuple[Command, ...]:
    """The commands that end a held row: ``doctor --restore ID`` then (a person's decision)
    ``doctor --discard ID --reason ...``; only the discard for a source that is no table
    (:data:`UNREAD_SOURCES`: there is nothing to put back)."""
    reason = UNREAD_SOURCES.get(rec.source)
    discard = cli(
        "doctor",
        "--discard",
        str(rec.id),
        "--reason",
        reason or DISCARD_REASON,
        label="or" if reason is None else "run",
    )
    if reason is not None:
        return (discard,)
    return (cli("doctor", "--restore", str(rec.id)), discard)


def _exact_row(conn: sqlite3.Connection, table: str, rowid: int) -> str:
    """The row's every column as stored: JSON ``{"columns": [[name, class, value], ...]}``
    (class ``null``, ``integer``, ``real``, ``text``, ``blob``)."""
    names = [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")]
    picks = ", ".join(f'typeof("{n}"), "{n}"' for n in names)
    factory = conn.text_factory
    conn.text_factory = bytes
    try:
        values = conn.execute(f"SELECT {picks} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
    finally:
        conn.text_factory = factory
    columns = []
    for i, name in enumerate(names):
        kind, value = bytes(values[2 * i]).decode("ascii"), values[2 * i + 1]
        if kind == "integer":
            shown = str(int(value))
        elif kind == "real":
            shown = float(value).hex()
        elif kind in ("text", "blob"):
            shown = bytes(value).hex()
        else:
            shown = ""
        columns.append([name, kind, shown])
    import json  # doctor's repair only: the gates that open a ledger never load it here

    return json.dumps({"columns": columns})


def _values(row: str) -> tuple[list[str], list[str], list[object]]:
    """:func:`_exact_row`'s JSON back to (column names, SQL placeholders, bound values).

    Raises:
        ValueError: the JSON is not what :func:`_exact_row` writes.
    """
    names: list[str] = []
    marks: list[str] = []
    values: list[object] = []
    import json

    for name, kind, shown in json.loads(row)["columns"]:
        names.append(f'"{name}"')
        if kind == "null":
            marks.append("?")
            values.append(None)
        elif kind == "integer":
            marks.append("?")
            values.append(int(shown))
        elif kind == "real":
            marks.append("?")
            values.append(float.fromhex(shown))
        elif kind == "text":
            marks.append("CAST(? AS TEXT)")  # the very bytes, as text (UTF-8 or not)
            values.append(bytes.fromhex(shown))
        elif kind == "blob":
            marks.append("?")
            values.append(bytes.fromhex(shown))
        else:
            raise ValueError(f"unknown storage class {kind!r}")
    return names, marks, values


class Quarantine(LedgerConnection):
    """The ``quarantine`` table of an open ledger: rows moved aside, put back, discarded."""

    def quarantined(self) -> list[QuarantineRecord]:
        """Every quarantined row (held, restored or discarded), oldest first."""
        return self._select(QuarantineRecord, "1 = 1")

    def held_work(self) -> list[QuarantineRecord]:
        """Held rows the gates cannot judge without (:data:`~.schema.HELD_WORK`)."""
        return self._select(QuarantineRecord, HELD_WORK)

    def quarantine_bad_rows(self) -> list[QuarantineRecord]:
        """Move every row :func:`bad_rows` finds into ``quarantine``, all in one
        transaction with their removal from their tables; the records now held.

        Raises:
            StoreError: the store cannot be written (nothing was moved then).
        """
        held = []
        with self._write() as conn:
            for table, rowid, why in bad_rows(conn):
                rec = QuarantineRecord(
                    table, rowid, why, _exact_row(conn, table, rowid), recorded_at=self._clock()
                )
                held.append(replace(rec, id=insert(conn, rec)))
                conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
        return held

    def refuse_held_work(self) -> None:
        """The gates' check: raise when writer work is held in quarantine.

        Raises:
            QuarantinedWork: one line naming the first held row, how many are held, and
                the commands that restore it or (a person's decision) discard it.
        """
        held = self.held_work()
        if not held:
            return
        first = held[0]
        more = f" ({len(held)} rows held)" if len(held) > 1 else ""
        if first.source in UNREAD_SOURCES:
            what, end = f"writer work no command could read ({first.why})", "discarded"
        else:
            what, end = f"{first.source} row {first.source_id}", "restored or discarded"
        raise QuarantinedWork(
            self.path,
            f"{what} is held in quarantine {first.id}{more}"
            + ("" if first.source in UNREAD_SOURCES else f" ({first.why})")
            + f"; the gates stay closed until it is {end}",
            way_out(first),
        )

    def _held(self, quarantine_id: int) -> QuarantineRecord:
        found = self._select(QuarantineRecord, "id = ?", (quarantine_id,))
        if not found or found[0].state != "held":
            state = f"is {found[0].state} already" if found else "does not exist"
            raise UsageError(f"quarantine {quarantine_id} {state}: nothing to do")
        return found[0]

    def restore(self, quarantine_id: int, who: str) -> QuarantineRecord:
        """Put a held row back into its table exactly as it was (its id, every value and
        storage class; CHECK constraints are not applied again: the row is put back as it
        stood) and mark the quarantine row ``restored`` by ``who``.

        Raises:
            UsageError: no such held row; StoreError: the row cannot be inserted (a row of
                the same key was recorded since) or the store cannot be written.
        """
        rec = self._held(quarantine_id)
        if rec.source in UNREAD_SOURCES:
            raise UsageError(
                f"quarantine {rec.id} holds writer work no command could read ({rec.why}): "
                "there is nothing to put back; record its writes again, then a person "
                "discards it",
                commands=way_out(rec),
            )
        names, marks, values = _values(rec.row)
        self._conn.execute("PRAGMA ignore_check_constraints = ON")
        try:
            with self._write() as conn:
                conn.execute(
                    f"INSERT INTO {rec.source} ({', '.join(names)}) VALUES ({', '.join(marks)})",
                    values,
                )
                conn.execute(
                    "UPDATE quarantine SET state = 'restored', who = ?, ended_at = ? WHERE id = ?",
                    (who, self._clock(), rec.id),
                )
        finally:
            self._conn.execute("PRAGMA ignore_check_constraints = OFF")
        return rec

    def discard_quarantined(self, quarantine_id: int, who: str, reason: str) -> QuarantineRecord:
        """Mark a held row ``discarded`` with who and why: the gates no longer wait for it;
        its values stay in ``quarantine``.

        Raises:
            UsageError: no such held row; StoreError: the store cannot be written.
        """
        rec = self._held(quarantine_id)
        with self._write() as conn:
            conn.execute(
                "UPDATE quarantine SET state = 'discarded', who = ?, reason = ?, ended_at = ? "
                "WHERE id = ?",
                (who, reason, self._clock(), rec.id),
            )
        return rec


class QuarantinedWork(StoreError):
    """Writer work held in quarantine: the gate cannot judge without it (exit 2); its
    commands restore the row, or discard it (:func:`way_out`)."""

    def __init__(self, path: str, problem: str, commands: tuple[Command, ...]) -> None:
        super().__init__(path, problem)
        self.commands = commands
