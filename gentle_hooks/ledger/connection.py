"""An open ledger connection (SPEC §6): transactions, typed reads, one record added.

Room ``ledger``. :class:`LedgerConnection` opens the database (:mod:`.sqlite_file`: created whole,
WAL, migrated forward, never recreated), runs every write as one ``BEGIN IMMEDIATE``
transaction, reads typed records through the row codec (:mod:`.rows`), and adds one record
at a time. The queries of each record family build on it (:mod:`.pending`, :mod:`.store`).
Every error reading or writing the store is a
:class:`~gentle_hooks.ledger.sqlite_file.StoreError` (exit 2); nothing is ever deleted.
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from gentle_hooks.errors import shown, shown_field
from gentle_hooks.ledger import lock_wait, spool
from gentle_hooks.ledger.rows import TABLES, RowError, from_row, row_ids, to_row
from gentle_hooks.ledger.schema import (
    RECORD_TABLES,
    SCHEMA_VERSION,
    TRIGGERS_SQL,
    foreign_triggers,
)
from gentle_hooks.ledger.sqlite_file import (
    DEFAULT_BUSY_TIMEOUT_MS,
    StoreError,
    check_location,
    connect,
    create_store,
    settle_idle,
    store_error,
    sweep_new_files,
    touch_idle,
    write_transaction,
)
from gentle_hooks.values.frozen import replace

#: Values bound in one ``IN (...)`` list at most.
IN_CHUNK = 500

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.ledger.records import R

    S = TypeVar("S", bound="LedgerConnection")


class LedgerConnection:
    """An open ledger database. Use :meth:`open` (read-write) or :meth:`open_existing`.

    Attributes:
        path: the database file; readonly: True when opened for reading only.
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: str,
        readonly: bool,
        clock: Callable[[], float],
    ) -> None:
        self._conn = conn
        self.path = path
        self.readonly = readonly
        self._clock = clock

    @classmethod
    def open(
        cls: type[S],
        path: str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] = time.time,
        fold: bool = True,
    ) -> S:
        """Open the ledger for writing, creating it (and its directory) when absent.

        An existing store is opened as it is and migrated forward; never recreated.

        Args:
            path: database file (:func:`gentle_hooks.ledger.location.ledger_path`).
            busy_timeout_ms: how long to wait for another writer's lock.
            clock: Unix time in seconds, for ``recorded_at``.
            fold: False leaves the spool where it is, untouched (plain ``doctor``).

        Writer records spooled behind another process's lock (:mod:`.spool`) are folded in
        first when the lock is free; a held lock leaves them spooled.

        Raises:
            StoreError: unreadable, not a database, truncated, malformed, or a newer schema;
                a spool line that is not a record (the spool moved aside and named).
        """
        if not os.path.lexists(path):
            create_store(path, busy_timeout_ms)
        conn = connect(path, readonly=False, create=False, busy=busy_timeout_ms)
        sweep_new_files(path)  # a killed first write's leftovers: this writer owns them now
        settle_idle(conn, path)  # a new or just-migrated store gets its sentinel here
        ledger = cls(conn, path, False, clock)
        if fold and spool.waiting(path):
            try:
                ledger._fold_spool()
            except StoreError as exc:
                if not exc.busy:  # held: this writer's own write says so, or spools
                    ledger.close()
                    raise
        return ledger

    @classmethod
    def open_existing(
        cls: type[S],
        path: str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] = time.time,
        fold: bool = True,
    ) -> S | None:
        """Open the ledger for reading when it exists; never create one.

        Returns None when there is no ledger file. A store of an older schema is migrated
        forward first, and a spool folded in (that writes to an existing store; it creates
        nothing): a reader never answers without a spooled writer record. ``fold`` False
        (plain ``doctor``, which changes nothing) reads the store as it is and leaves the
        spool, whatever stands there, untouched: the caller reports it.

        Raises:
            StoreError: as :meth:`open`; a spool that cannot be folded while another process
                holds the write lock (a gate then fails closed).
        """
        check_location(path)  # a state directory displaced by a file is not "no ledger"
        if not os.path.lexists(path):
            return None
        if fold and spool.waiting(path):
            cls.open(path, busy_timeout_ms=busy_timeout_ms, clock=clock).close()
            if spool.waiting(path):
                who = ", ".join(lock_wait.lock_holders(path)) or "another process"
                raise StoreError(
                    path,
                    f"a writer record is waiting in {spool.spool_path(path)} "
                    f"(ledger locked by {who})",
                )
        conn = connect(path, readonly=True, create=False, busy=busy_timeout_ms)
        ledger = cls(conn, path, True, clock)
        if ledger.schema_version() < SCHEMA_VERSION:
            ledger.close()
            cls.open(path, busy_timeout_ms=busy_timeout_ms, clock=clock, fold=fold).close()
            conn = connect(path, readonly=True, create=False, busy=busy_timeout_ms)
            ledger = cls(conn, path, True, clock)
        return ledger

    def close(self) -> None:
        """Close the connection (idempotent); a writer's then brings the idle sentinel's time
        past what its close changed (:func:`~gentle_hooks.ledger.sqlite_file.touch_idle`)."""
        self._conn.close()
        if not self.readonly:
            touch_idle(self.path)

    def _fold_spool(self) -> None:
        """Fold the spool into the store (the pending-work store does; here: nothing)."""

    def __enter__(self: S) -> S:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (:func:`~gentle_hooks.ledger.sqlite_file.write_transaction`:
        it removes the idle sentinel first); after its commit, the sentinel is put back when
        nothing is pending (:func:`~gentle_hooks.ledger.sqlite_file.settle_idle`)."""
        if self.readonly:
            raise StoreError(self.path, "opened read-only; cannot record")  # pragma: no cover
        with write_transaction(self._conn, self.path) as conn:
            yield conn
        settle_idle(self._conn, self.path)

    def refuse_foreign_triggers(self) -> None:
        """The gates' check: raise when the store holds a trigger no migration creates, or
        one of ours whose SQL is not ours. A trigger runs inside every write: one that
        deletes a writer entry as it is recorded hides the writer's work, so a gate cannot
        decide on what such a store says (``doctor`` names it, ``doctor --fix`` drops it).
        One query of the schema on this open connection.

        Raises:
            StoreError: one line naming the triggers (each shown bounded); its command is
                ``doctor --fix``, which drops them (printing their SQL).
        """
        found = [shown_field(name) for name in foreign_triggers(self._query(TRIGGERS_SQL))]
        if not found:
            return
        named = shown(", ".join(found))
        raise StoreError(
            self.path,
            f"holds {'a trigger' if len(found) == 1 else 'triggers'} gentle-hooks did not "
            f"create ({named}): a trigger can change or delete records as they are written, "
            "so no gate decides on this ledger until it is dropped",
            fix=True,
        )

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        try:
            return list(self._conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def _select(self, cls: type[R], where: str, params: Sequence[object] = ()) -> list[R]:
        table = TABLES[cls]
        rows = self._query(f"SELECT * FROM {table} WHERE {where} ORDER BY id", params)
        out = []
        for row in rows:
            try:
                out.append(from_row(cls, row))
            except RowError as exc:  # a row edited by hand or by a bad tool
                raise StoreError(self.path, f"cannot be read: {exc}") from None
        return out

    def _select_one(self, cls: type[R], where: str, params: Sequence[object] = ()) -> R | None:
        """The first (oldest) record :meth:`_select` finds, or None."""
        found = self._select(cls, where, params)
        return found[0] if found else None

    def _ids(self, table: str, columns: Sequence[str], row: Sequence[object]) -> tuple[int, ...]:
        """Row-id columns read without a record (:func:`~.rows.row_ids`).

        Raises:
            StoreError: a value that is not a row id.
        """
        try:
            return row_ids(table, columns, row)
        except RowError as exc:
            raise StoreError(self.path, f"cannot be read: {exc}") from None

    def _select_in(
        self,
        cls: type[R],
        column: str,
        values: Sequence[object],
        where: str = "1 = 1",
        params: Sequence[object] = (),
    ) -> list[R]:
        """``_select(cls, f"{where} AND {column} IN (values)")``, the values in chunks of
        :data:`IN_CHUNK` (SQLite bounds the parameters of one statement), oldest first."""
        out: list[R] = []
        distinct: list[object] = list(dict.fromkeys(values))
        for start in range(0, len(distinct), IN_CHUNK):
            part: list[object] = distinct[start : start + IN_CHUNK]
            sql = f"{where} AND {column} IN ({', '.join(['?'] * len(part))})"
            out.extend(self._select(cls, sql, [*params, *part]))
        if len(distinct) > IN_CHUNK:
            out.sort(key=lambda r: r.id)
        return out

    def add(self, rec: R) -> R:
        """Record one record in its own transaction.

        Args:
            rec: a record with ``id`` 0; ``recorded_at`` 0 means "now" (the clock).

        Returns:
            The record as stored, with its ``id`` and ``recorded_at``.

        Raises:
            StoreError: the store cannot be written (locked too long, corrupt, read-only).
        """
        if not rec.recorded_at:
            rec = replace(rec, recorded_at=self._clock())
        row = to_row(rec)
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self._write() as conn:
            cur = conn.execute(
                f"INSERT INTO {TABLES[type(rec)]} ({cols}) VALUES ({marks})", tuple(row.values())
            )
            rowid = int(cur.lastrowid or 0)
        return replace(rec, id=rowid)

    def add_all(self, recs: Sequence[R]) -> list[R]:
        """Record ``recs`` (as :meth:`add` does each) in one transaction: all are stored,
        or none.

        Raises:
            StoreError: the store cannot be written; nothing was stored.
        """
        now = self._clock()
        recs = [rec if rec.recorded_at else replace(rec, recorded_at=now) for rec in recs]
        with self._write() as conn:
            ids = [insert(conn, rec) for rec in recs]
        return [replace(rec, id=rowid) for rec, rowid in zip(recs, ids, strict=True)]

    def schema_version(self) -> int:
        """The store's schema version (``PRAGMA user_version``)."""
        return int(self._query("PRAGMA user_version")[0][0])

    def journal_mode(self) -> str:
        """The journal mode in use (``wal`` for a store this module opened for writing)."""
        return str(self._query("PRAGMA journal_mode")[0][0]).lower()

    def counts(self) -> dict[str, int]:
        """Number of rows per record table."""
        return {t: int(self._query(f"SELECT count(*) FROM {t}")[0][0]) for t in RECORD_TABLES}


def insert(conn: sqlite3.Connection, rec: R) -> int:
    """Inside a write transaction: insert one record; its new id."""
    row = to_row(rec)
    cur = conn.execute(
        f"INSERT INTO {TABLES[type(rec)]} ({', '.join(row)}) "
        f"VALUES ({', '.join('?' for _ in row)})",
        tuple(row.values()),
    )
    return int(cur.lastrowid or 0)
