"""The ledger store (SPEC §6): one SQLite database in WAL mode, typed records in and out.

Layer: adapter. Imports the standard library, :mod:`gentle_hooks.errors` and
:mod:`gentle_hooks.ledger.schema`; never pydantic, click or the policy. Services
(:mod:`gentle_hooks.services.record`) decide what to record; this module only keeps it.

Where: ``<git-common-dir>/gentle-hooks/ledger.sqlite3`` (:func:`ledger_path`), shared by
linked worktrees, never in a work tree.

Guarantees:

* every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers from several
  worktrees serialise on SQLite's lock (``busy_timeout``) and lose nothing;
* ``synchronous=FULL`` in WAL mode: a committed record survives a killed process (and a
  power cut); a process killed mid-write leaves only whole transactions behind;
* the schema version is ``PRAGMA user_version``; an older store is migrated forward in
  one transaction, a newer one is refused;
* a store that cannot be read (not a database, truncated, malformed, a directory,
  permission denied) raises :class:`StoreError` naming the file and ``gentle-hook doctor``.
  Nothing is ever deleted or recreated here.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from gentle_hooks.errors import GentleError
from gentle_hooks.ledger.location import LEDGER_FILE as LEDGER_FILE
from gentle_hooks.ledger.location import STATE_DIR as STATE_DIR
from gentle_hooks.ledger.location import ledger_path as ledger_path
from gentle_hooks.ledger.records import (
    TABLES,
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
    from_row,
    to_row,
)
from gentle_hooks.ledger.schema import MIGRATIONS, RECORD_TABLES, SCHEMA_VERSION
from gentle_hooks.values.frozen import frozen, replace

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.ledger.records import R

#: How long a writer waits for another writer's transaction, in milliseconds.
DEFAULT_BUSY_TIMEOUT_MS = 30_000

_MAGIC = b"SQLite format 3\x00"


class StoreError(GentleError):
    """The ledger cannot be used: unreadable, corrupt, truncated, newer schema (exit 2).

    The message names the database file and the repair command (``gentle-hook doctor``)
    and says that nothing was deleted.
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(
            f"ledger {path}: {problem}; run 'gentle-hook doctor' (nothing was deleted)"
        )
        self.path = path
        self.problem = problem


# -- the store ---------------------------------------------------------------------------


def check_header(path: str) -> str | None:
    """Cheap structural check of a database file without opening it with SQLite.

    Returns:
        None when the file is plausible; otherwise one line saying what is wrong: empty
        (a store is created whole and renamed into place, so an empty file is one that lost
        its contents), not a SQLite database, or truncated (the header promises more pages
        than the file holds while no write-ahead log could supply them).

    Raises:
        OSError: the file cannot be read.
    """
    size = os.path.getsize(path)
    if size == 0:
        return "empty: truncated to 0 bytes (a store is never created empty)"
    with open(path, "rb") as fh:
        header = fh.read(100)
    if len(header) < 100 or not header.startswith(_MAGIC):
        return "not a SQLite database (bad header)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]
    try:  # another process may remove the WAL between two calls: absent is empty
        wal_has_frames = os.path.getsize(path + "-wal") > 32
    except FileNotFoundError:
        wal_has_frames = False
    if valid and pages and not wal_has_frames and pages * page_size > size:
        return (
            f"truncated: the header promises {pages} pages of {page_size} bytes, "
            f"the file holds {size} bytes"
        )
    return None


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
            path: database file (:func:`ledger_path`).
            busy_timeout_ms: how long to wait for another writer's lock.
            clock: Unix time in seconds, for ``recorded_at``.

        Raises:
            StoreError: unreadable, not a database, truncated, malformed, or a newer schema.
        """
        if not os.path.lexists(path):
            cls._create(path, busy_timeout_ms, clock)
        return cls._connect(path, readonly=False, create=False, busy=busy_timeout_ms, clock=clock)

    @classmethod
    def _create(cls, path: str, busy: int, clock: Callable[[], float]) -> None:
        """Create a store whole: build the schema in a private file, then link it into
        place. A crash leaves either no store or a complete one (never an empty file); of
        two processes creating it at once, the first link wins and both use it."""
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        except OSError as exc:
            raise StoreError(path, f"cannot create its directory: {exc.strerror}") from None
        tmp = f"{path}.new-{os.getpid()}"
        try:
            cls._connect(tmp, readonly=False, create=True, busy=busy, clock=clock).close()
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass  # another process created it first: use theirs
            except OSError as exc:
                raise StoreError(path, f"cannot be created: {exc.strerror}") from None
        finally:
            for leftover in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
                if os.path.lexists(leftover):
                    os.unlink(leftover)

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
        ledger = cls._connect(path, readonly=True, create=False, busy=busy_timeout_ms, clock=clock)
        if ledger.schema_version() < SCHEMA_VERSION:
            ledger.close()
            cls.open(path, busy_timeout_ms=busy_timeout_ms, clock=clock).close()
            ledger = cls._connect(
                path, readonly=True, create=False, busy=busy_timeout_ms, clock=clock
            )
        return ledger

    @classmethod
    def _connect(
        cls, path: str, *, readonly: bool, create: bool, busy: int, clock: Callable[[], float]
    ) -> Ledger:
        if not create:
            if os.path.isdir(path):
                raise StoreError(path, "is a directory, not a database file")
            try:
                problem = check_header(path)
            except OSError as exc:
                raise StoreError(path, f"cannot be read: {exc.strerror}") from None
            if problem:
                raise StoreError(path, problem)
        mode = "ro" if readonly else ("rwc" if create else "rw")
        try:
            conn = sqlite3.connect(
                f"file:{_quote(os.path.abspath(path))}?mode={mode}",
                uri=True,
                timeout=busy / 1000,
                isolation_level=None,
            )
        except sqlite3.Error as exc:
            raise StoreError(path, f"cannot be opened: {exc}") from None
        conn.row_factory = sqlite3.Row
        ledger = cls(conn, path, readonly, clock)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy)}")
            # Read the version before anything can write: a newer store is left untouched.
            version = ledger.schema_version()
            if version > SCHEMA_VERSION:
                raise StoreError(
                    path,
                    f"schema version {version} is newer than this gentle-hooks knows "
                    f"({SCHEMA_VERSION}); upgrade gentle-hooks",
                )
            if not readonly:
                ledger._set_wal()
                conn.execute("PRAGMA synchronous = FULL")
            if not readonly and version < SCHEMA_VERSION:
                ledger._migrate()
            if not create:
                ledger._quick_check()
        except sqlite3.Error as exc:
            conn.close()
            raise ledger._store_error(exc) from None
        except StoreError:
            conn.close()
            raise
        return ledger

    def _quick_check(self) -> None:
        """``PRAGMA quick_check``: a damaged page anywhere fails the open, so nothing is
        read from or written into a store that is partly corrupt (O(pages); the ledger is
        small)."""
        rows = self._conn.execute("PRAGMA quick_check(3)").fetchall()
        problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
        if problems:
            text = " ".join("; ".join(problems).split())
            raise StoreError(self.path, "malformed: " + text[:200])

    def _set_wal(self) -> None:
        # Changing the journal mode needs an exclusive lock that the busy handler does not
        # always wait for; retry briefly so two first writers racing do not fail.
        for attempt in range(50):
            try:
                mode = self._conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                time.sleep(0.02)
                continue
            if str(mode).lower() != "wal":
                raise StoreError(self.path, f"cannot use WAL mode (journal mode {mode})")
            return

    def _migrate(self) -> None:
        with self._write() as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StoreError(self.path, f"schema version {version} is newer than known")
            for script in MIGRATIONS[version:]:
                for statement in _statements(script):
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self._conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions and errors ---------------------------------------------------------

    def _store_error(self, exc: sqlite3.Error) -> StoreError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            return StoreError(self.path, f"busy: another process held it too long ({text})")
        return StoreError(self.path, f"unreadable: {text}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on error."""
        if self.readonly:
            raise StoreError(self.path, "opened read-only; cannot record")  # pragma: no cover
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._store_error(exc) from None
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._store_error(exc) from None
            raise

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        try:
            return list(self._conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise self._store_error(exc) from None

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

    # -- reading -------------------------------------------------------------------------

    def rdd_pinned(self, session_id: str) -> RddRender | None:
        """The line a session rendered last (its pinned line), or None for a new session."""
        found = self._select(
            RddRender, "id = (SELECT max(id) FROM rdd_render WHERE session_id = ?)", (session_id,)
        )
        return found[0] if found else None

    def rdd_renders(self, session_id: str) -> list[RddRender]:
        """Every line a session rendered, oldest first (its first line, then re-renders)."""
        return self._select(RddRender, "session_id = ?", (session_id,))

    def pending_mutations(self, root: str) -> list[PendingMutation]:
        """The root's pending (unconsumed) mutations, oldest first."""
        return self._select(PendingMutation, "root = ? AND consumed_by IS NULL", (root,))

    def pending_escalations(self, root: str) -> list[EscalationRecord]:
        """The root's pending (unconsumed) escalations, oldest first (sticky, SPEC §5)."""
        return self._select(EscalationRecord, "root = ? AND consumed_by IS NULL", (root,))

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

    def schema_version(self) -> int:
        """The store's schema version (``PRAGMA user_version``)."""
        return int(self._query("PRAGMA user_version")[0][0])

    def journal_mode(self) -> str:
        """The journal mode in use (``wal`` for a store this module opened for writing)."""
        return str(self._query("PRAGMA journal_mode")[0][0]).lower()

    def counts(self) -> dict[str, int]:
        """Number of rows per record table."""
        return {t: int(self._query(f"SELECT count(*) FROM {t}")[0][0]) for t in RECORD_TABLES}


_URI_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")


def _quote(path: str) -> str:
    """``urllib.parse.quote(path)``, same output: importing urllib.parse costs ~3 ms (it
    loads ipaddress), on every gate that reads the ledger."""
    return "".join(chr(b) if b in _URI_SAFE else f"%{b:02X}" for b in path.encode("utf-8"))


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


def _statements(script: str) -> Iterator[str]:
    """Split a migration script into complete SQL statements (comments stay attached)."""
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete statement in migration: {buf.strip()[:60]}")


@frozen
class StoreCheck:
    """One result of :func:`diagnose`: a check name, whether it passed, one line of detail."""

    name: str
    ok: bool
    detail: str


def diagnose(path: str) -> tuple[StoreCheck, ...]:
    """Inspect a ledger without changing it (for ``gentle-hook doctor``; SPEC §6).

    Opens the file read-only, never migrates, never raises for a damaged store. Checks,
    in order, stopping at the first that makes the rest meaningless: ``store`` (the file
    exists, is a file, has a SQLite header and is not truncated), ``schema`` (the version
    is one this code knows), ``journal`` (WAL mode), ``integrity`` (``PRAGMA
    integrity_check``), ``records`` (rows per table).

    Args:
        path: the database file (:func:`ledger_path`).

    Returns:
        The checks run. A ledger not created yet is one passing ``store`` check.
    """
    if not os.path.lexists(path):
        return (StoreCheck("store", True, f"{path}: not created yet (nothing recorded)"),)
    if os.path.isdir(path):
        return (StoreCheck("store", False, f"{path}: is a directory, not a database file"),)
    try:
        problem = check_header(path)
    except OSError as exc:
        return (StoreCheck("store", False, f"{path}: cannot be read: {exc.strerror}"),)
    if problem:
        return (StoreCheck("store", False, f"{path}: {problem}"),)
    out = [StoreCheck("store", True, path)]
    try:
        conn = sqlite3.connect(f"file:{_quote(os.path.abspath(path))}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return (StoreCheck("store", False, f"{path}: cannot be opened: {exc}"),)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            out.append(
                StoreCheck(
                    "schema",
                    False,
                    f"version {version} is newer than this gentle-hooks knows "
                    f"({SCHEMA_VERSION}); upgrade gentle-hooks",
                )
            )
        else:
            note = "current" if version == SCHEMA_VERSION else "migrated forward on next use"
            out.append(StoreCheck("schema", True, f"version {version} ({note})"))
        mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        out.append(StoreCheck("journal", mode == "wal", f"journal mode {mode}"))
        rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
        ok = rows == ["ok"]
        out.append(StoreCheck("integrity", ok, "ok" if ok else "; ".join(rows[:5])))
        if version == SCHEMA_VERSION:
            counts = [
                f"{t} {int(conn.execute(f'SELECT count(*) FROM {t}').fetchone()[0])}"
                for t in RECORD_TABLES
            ]
            out.append(StoreCheck("records", True, ", ".join(counts)))
    except sqlite3.Error as exc:
        out.append(StoreCheck("integrity", False, f"unreadable: {exc}"))
    finally:
        conn.close()
    return tuple(out)
