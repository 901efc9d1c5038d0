"""The ledger store (SPEC §6): typed records in and out of one SQLite database.

Room: ledger. Imports the standard library, :mod:`gentle_hooks.values` and its own room:
:mod:`.database` (the file, its opening, migration and write transactions), :mod:`.records`
and :mod:`.rows` (the record types and their row codec); never pydantic, click or the
policy. Services (:mod:`gentle_hooks.services.record`) decide what to record; this module
only keeps it.

Where: ``<git-common-dir>/gentle-hooks/ledger.sqlite3``
(:func:`gentle_hooks.ledger.location.ledger_path`), shared by linked worktrees, never in a
work tree. Every write is one ``BEGIN IMMEDIATE`` transaction; every error reading or
writing the store is a :class:`~gentle_hooks.ledger.database.StoreError` (exit 2).
Nothing is ever deleted or recreated here.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from gentle_hooks.ledger.database import (
    DEFAULT_BUSY_TIMEOUT_MS,
    StoreError,
    connect,
    create_store,
    store_error,
    write_transaction,
)
from gentle_hooks.ledger.records import (
    CommitRecord,
    ConsumedWork,
    EscalationRecord,
    OverrideRecord,
    PendingMutation,
    RddRender,
    Receipt,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
)
from gentle_hooks.ledger.rows import TABLES, from_row, to_row
from gentle_hooks.ledger.schema import RECORD_TABLES, SCHEMA_VERSION
from gentle_hooks.values.frozen import replace

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.ledger.records import R


class Ledger:
    """An open ledger. Use :meth:`open` (read-write) or :meth:`open_existing` (read).

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

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] = time.time,
    ) -> Ledger:
        """Open the ledger for writing, creating it (and its directory) when absent.

        An existing store is opened as it is and migrated forward; never recreated.

        Args:
            path: database file (:func:`gentle_hooks.ledger.location.ledger_path`).
            busy_timeout_ms: how long to wait for another writer's lock.
            clock: Unix time in seconds, for ``recorded_at``.

        Raises:
            StoreError: unreadable, not a database, truncated, malformed, or a newer schema.
        """
        if not os.path.lexists(path):
            create_store(path, busy_timeout_ms)
        conn = connect(path, readonly=False, create=False, busy=busy_timeout_ms)
        return cls(conn, path, False, clock)

    @classmethod
    def open_existing(
        cls,
        path: str,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] = time.time,
    ) -> Ledger | None:
        """Open the ledger for reading when it exists; never create one.

        Returns None when there is no ledger file. A store of an older schema is migrated
        forward first (that writes to an existing store; it creates nothing).

        Raises:
            StoreError: as :meth:`open`.
        """
        if not os.path.lexists(path):
            return None
        conn = connect(path, readonly=True, create=False, busy=busy_timeout_ms)
        ledger = cls(conn, path, True, clock)
        if ledger.schema_version() < SCHEMA_VERSION:
            ledger.close()
            cls.open(path, busy_timeout_ms=busy_timeout_ms, clock=clock).close()
            conn = connect(path, readonly=True, create=False, busy=busy_timeout_ms)
            ledger = cls(conn, path, True, clock)
        return ledger

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self._conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions and reads ----------------------------------------------------------

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction (:func:`~gentle_hooks.ledger.database.write_transaction`)."""
        if self.readonly:
            raise StoreError(self.path, "opened read-only; cannot record")  # pragma: no cover
        return write_transaction(self._conn, self.path)

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        try:
            return list(self._conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def _select(self, cls: type[R], where: str, params: Sequence[object] = ()) -> list[R]:
        rows = self._query(f"SELECT * FROM {TABLES[cls]} WHERE {where} ORDER BY id", params)
        return [from_row(cls, row) for row in rows]

    # -- writing -------------------------------------------------------------------------

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

    # -- pending work: mutations and escalations (keyed by root) -------------------------

    def consume_pending(self, root: str, commit_id: str, identity: str) -> ConsumedWork:
        """Mark the root's pending mutations and escalations as consumed by a commit.

        One transaction: what was pending when it began is consumed, nothing else.

        Args:
            root: work tree root; commit_id: the commit that delivered the work;
            identity: that commit's candidate identity.

        Returns:
            The records consumed, as they now stand (``consumed_by`` set).
        """
        with self._write() as conn:
            mutations = _consume(conn, PendingMutation, root, commit_id, identity)
            escalations = _consume(conn, EscalationRecord, root, commit_id, identity)
        return ConsumedWork(tuple(mutations), tuple(escalations))

    def pending_mutations(self, root: str) -> list[PendingMutation]:
        """The root's pending (unconsumed) mutations, oldest first."""
        return self._select(PendingMutation, "root = ? AND consumed_by IS NULL", (root,))

    def pending_escalations(self, root: str) -> list[EscalationRecord]:
        """The root's pending (unconsumed) escalations, oldest first (sticky, SPEC §5)."""
        return self._select(EscalationRecord, "root = ? AND consumed_by IS NULL", (root,))

    def delivered_work(
        self, origins: Sequence[str]
    ) -> tuple[list[PendingMutation], list[EscalationRecord]]:
        """The writer mutations and escalations consumed by the given origin commits."""
        if not origins:
            return [], []
        marks = ", ".join("?" for _ in origins)
        return (
            self._select(PendingMutation, f"consumed_by IN ({marks})", list(origins)),
            self._select(EscalationRecord, f"consumed_by IN ({marks})", list(origins)),
        )

    # -- candidate-bound records (keyed by candidate identity) ---------------------------

    def receipts(self, identity: str) -> list[Receipt]:
        """Receipts recorded for one candidate identity, oldest first."""
        return self._select(Receipt, "identity = ?", (identity,))

    def receipt(self, receipt_id: int) -> Receipt | None:
        """One receipt by id, or None."""
        found = self._select(Receipt, "id = ?", (receipt_id,))
        return found[0] if found else None

    def spot_checks(self, identity: str) -> list[SpotCheck]:
        """Spot checks and readbacks recorded for one candidate identity, oldest first."""
        return self._select(SpotCheck, "identity = ?", (identity,))

    def verdicts(
        self, identity: str | None = None, *, root: str | None = None
    ) -> list[VerdictRecord]:
        """Verdicts for one candidate identity, or every verdict recorded from ``root``."""
        if identity is not None:
            return self._select(VerdictRecord, "identity = ?", (identity,))
        return self._select(VerdictRecord, "root = ?", (root,))

    def verdict(self, verdict_id: int) -> VerdictRecord | None:
        """One verdict by id, or None."""
        found = self._select(VerdictRecord, "id = ?", (verdict_id,))
        return found[0] if found else None

    def review_facts(self, identity: str) -> list[ReviewFact]:
        """Review outcome facts recorded for one candidate identity, oldest first."""
        return self._select(ReviewFact, "identity = ?", (identity,))

    def overrides(self, identity: str) -> list[OverrideRecord]:
        """Overrides recorded for one candidate identity, oldest first."""
        return self._select(OverrideRecord, "identity = ?", (identity,))

    def other_candidate_counts(self, root: str, identity: str) -> dict[str, int]:
        """Candidate-bound records of ``root`` bound to other identities, per table."""
        out: dict[str, int] = {}
        for table in ("receipt", "spot_check", "verdict", "review_fact"):
            row = self._query(
                f"SELECT count(*) FROM {table} WHERE root = ? AND identity != ?", (root, identity)
            )[0]
            out[table] = int(row[0])
        return out

    # -- commit records (keyed by commit) ------------------------------------------------

    def commit_records(self, commit_ids: Sequence[str]) -> list[CommitRecord]:
        """Commit records of the given commits (any root), oldest first."""
        out: list[CommitRecord] = []
        for start in range(0, len(commit_ids), 500):
            chunk = list(commit_ids[start : start + 500])
            marks = ", ".join("?" for _ in chunk)
            out.extend(self._select(CommitRecord, f"commit_id IN ({marks})", chunk))
        return out

    def recent_commit_records(self, root: str, limit: int = 500) -> list[CommitRecord]:
        """The root's most recent commit records (newest first), at most ``limit``."""
        rows = self._query(
            "SELECT * FROM commit_record WHERE root = ? ORDER BY id DESC LIMIT ?", (root, limit)
        )
        return [from_row(CommitRecord, row) for row in rows]

    def commit_records_by_tree(self, trees: Sequence[str]) -> list[CommitRecord]:
        """Commit records whose commit tree is one of ``trees`` (the same content delivered
        again under another commit id: a re-commit after ``reset --soft``, say)."""
        out: list[CommitRecord] = []
        for start in range(0, len(trees), 500):
            chunk = list(trees[start : start + 500])
            marks = ", ".join("?" for _ in chunk)
            out.extend(self._select(CommitRecord, f"tree IN ({marks})", chunk))
        return out

    def commits_with_identity(self, identity: str) -> list[CommitRecord]:
        """Commit records whose committed candidate is ``identity``, oldest first."""
        return self._select(CommitRecord, "identity = ?", (identity,))

    # -- RDD lines (keyed by harness session) --------------------------------------------

    def rdd_advance(
        self, session_id: str, decide: Callable[[RddRender | None], RddRender | None]
    ) -> tuple[RddRender, bool]:
        """Apply one step of a session's pinned RDD line (SPEC §9): keep it, or render anew.

        ``decide`` gets the session's pinned render (None for a new session) and returns the
        render to record, or None to keep the pinned one. A kept line writes nothing and
        takes no write lock; a new render is decided again inside one ``BEGIN IMMEDIATE``
        transaction, so two processes advancing the same session at once record it once.

        Args:
            session_id: the harness session; decide: the pure transition (the caller's policy:
                this store imports none).

        Returns:
            (the session's pinned render after the step, True when this call recorded it).

        Raises:
            StoreError: the store cannot be read or written.
            ValueError: ``decide`` kept a session that has no render yet.
        """
        pinned = self.rdd_pinned(session_id)
        if pinned is not None and decide(pinned) is None:
            return pinned, False
        with self._write() as conn:
            row = conn.execute(
                "SELECT * FROM rdd_render WHERE session_id = ? ORDER BY id DESC LIMIT 1",
                (session_id,),
            ).fetchone()
            pinned = from_row(RddRender, row) if row is not None else None
            new = decide(pinned)
            if new is None:
                if pinned is None:
                    raise ValueError("a session without a rendered line must render one")
                return pinned, False
            if not new.recorded_at:
                new = replace(new, recorded_at=self._clock())
            values = to_row(new)
            cur = conn.execute(
                f"INSERT INTO rdd_render ({', '.join(values)}) "
                f"VALUES ({', '.join('?' for _ in values)})",
                tuple(values.values()),
            )
            stored = replace(new, id=int(cur.lastrowid or 0))
        return stored, True

    def rdd_pinned(self, session_id: str) -> RddRender | None:
        """The line a session rendered last (its pinned line), or None for a new session."""
        found = self._select(
            RddRender, "id = (SELECT max(id) FROM rdd_render WHERE session_id = ?)", (session_id,)
        )
        return found[0] if found else None

    def rdd_renders(self, session_id: str) -> list[RddRender]:
        """Every line a session rendered, oldest first (its first line, then re-renders)."""
        return self._select(RddRender, "session_id = ?", (session_id,))

    # -- the store itself ----------------------------------------------------------------

    def schema_version(self) -> int:
        """The store's schema version (``PRAGMA user_version``)."""
        return int(self._query("PRAGMA user_version")[0][0])

    def journal_mode(self) -> str:
        """The journal mode in use (``wal`` for a store this module opened for writing)."""
        return str(self._query("PRAGMA journal_mode")[0][0]).lower()

    def counts(self) -> dict[str, int]:
        """Number of rows per record table."""
        return {t: int(self._query(f"SELECT count(*) FROM {t}")[0][0]) for t in RECORD_TABLES}


if TYPE_CHECKING:
    _Pending = TypeVar("_Pending", PendingMutation, EscalationRecord)


def _consume(
    conn: sqlite3.Connection, cls: type[_Pending], root: str, commit_id: str, identity: str
) -> list[_Pending]:
    """Inside a write transaction: mark ``cls``'s pending rows of ``root`` consumed."""
    table = TABLES[cls]
    rows = conn.execute(
        f"SELECT * FROM {table} WHERE root = ? AND consumed_by IS NULL ORDER BY id", (root,)
    ).fetchall()
    conn.executemany(
        f"UPDATE {table} SET consumed_by = ?, consumed_identity = ? WHERE id = ?",
        [(commit_id, identity, row["id"]) for row in rows],
    )
    return [
        replace(from_row(cls, row), consumed_by=commit_id, consumed_identity=identity)
        for row in rows
    ]
