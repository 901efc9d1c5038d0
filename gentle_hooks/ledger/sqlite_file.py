"""The ledger's SQLite database file: checked, created whole, opened, migrated (SPEC §6).

Room: ledger. Imports the standard library, :mod:`gentle_hooks.errors` and
:mod:`gentle_hooks.ledger.schema`; knows SQL and the schema, not the record types (those are
:mod:`gentle_hooks.ledger.store`'s). Returns plain :class:`sqlite3.Connection` objects.

Guarantees:

* a store is created whole (:func:`create_store`): a crash leaves no store or a complete one;
* :func:`connect` sets ``synchronous=FULL`` in WAL mode for writers: a committed record
  survives a killed process (and a power cut); a process killed mid-write leaves only whole
  transactions behind;
* every write is one ``BEGIN IMMEDIATE`` transaction (:func:`write_transaction`), so
  concurrent writers from several worktrees serialise on SQLite's lock (``busy_timeout``)
  and lose nothing;
* the idle sentinel (:func:`gentle_hooks.ledger.location.idle_path`) exists only while
  nothing is pending (:data:`~gentle_hooks.ledger.schema.PENDING_SQL` finds no row): every
  write transaction removes it under the write lock before its first statement, and
  :func:`settle_idle` creates it only under the write lock, after a commit, when it sees
  nothing pending. A transaction rolled back or a process killed leaves it absent, which
  only costs the next human commit an interpreter start;
* the schema version is ``PRAGMA user_version``; an older store opened for writing is
  migrated forward in one transaction, a newer one is refused;
* a store that cannot be read (not a database, truncated, malformed, a directory,
  permission denied) raises :class:`StoreError` naming the file and ``gentle-hook doctor``.
  Nothing is ever deleted or recreated here.
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import contextlib
import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager

from gentle_hooks.bounded import file_kind, new_private_file, sweep
from gentle_hooks.errors import Command, GentleError, cli
from gentle_hooks.ledger import error_cause, lock_wait
from gentle_hooks.ledger.header import check_header
from gentle_hooks.ledger.location import SPOOL_FILE, idle_path, sql_text
from gentle_hooks.ledger.schema import (
    ENDED_BLOBS_SQL,
    ENDED_PATHS_SQL,
    MIGRATIONS,
    PENDING_SQL,
    SCHEMA_VERSION,
    TRIGGERS_SQL,
    foreign_triggers,
    sentinel_path_lines,
)

# Every parameter bound by this process: a non-UTF-8 path (kept by surrogateescape) is
# stored and found as the BLOB of its bytes instead of failing to encode.
sqlite3.register_adapter(str, sql_text)

#: How long one statement waits for another writer's transaction, in milliseconds (a
#: process's write transactions share :data:`~.lock_wait.LOCK_WAIT_SECONDS` in all).
DEFAULT_BUSY_TIMEOUT_MS = lock_wait.STATEMENT_WAIT_MS


class StoreError(GentleError):
    """The ledger cannot be used: unreadable, corrupt, truncated, newer schema (exit 2).

    The message names the database file and says that nothing was deleted; its command is
    ``doctor``, or ``doctor --fix`` when ``fix`` says that repairs it, or ``chmod u+w``
    of the places named in ``writable`` when only their permission bits refuse this
    process (:mod:`gentle_hooks.report.fixes` writes it after the words).
    """

    def __init__(
        self, path: str, problem: str, *, fix: bool = False, writable: tuple[str, ...] = ()
    ) -> None:
        doctor = cli("doctor", "--fix") if fix else cli("doctor")
        chmod = Command(("u+w", *writable), tool="chmod") if writable else None
        super().__init__(
            f"ledger {path}: {problem} (nothing was deleted)", commands=(chmod or doctor,)
        )
        self.path = path
        self.problem = problem
        self.busy = False  # another process held the write lock past the wait
        self.journal: str | None = None  # a stale rollback journal refused the open


def unspooled(refused: StoreError, spool: str, exc: OSError) -> StoreError:
    """The error when a record the store refused (``refused``: its write lock held past
    the wait, a stale journal) cannot be appended to the spool at ``spool`` either: both
    reasons, the system's for the spool first (``File too large``, ``No space left on
    device``: :func:`~gentle_hooks.ledger.error_cause.write_refused`), never a bare
    ``busy``. The record was not kept; the spool's earlier lines are (an append cut short
    is cut back off: :func:`gentle_hooks.ledger.spool.append`)."""
    return StoreError(
        refused.path,
        f"cannot keep the record in the spool {spool}: {error_cause.write_refused(exc)} "
        f"(its earlier lines are kept whole); the store itself refused it: {refused.problem}",
    )


_URI_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")


def file_uri(path: str, mode: str) -> str:
    """The SQLite URI of ``path`` opened in ``mode`` (``ro``, ``rw``, ``rwc``).

    The path is made absolute and percent-encoded as ``urllib.parse.quote`` does.
    """
    # Not urllib.parse.quote: importing it costs ~3 ms (it loads ipaddress), on every gate
    # that reads the ledger. Same output.
    absolute = os.fsencode(os.path.abspath(path))  # a non-UTF-8 directory: its own bytes
    quoted = "".join(chr(b) if b in _URI_SAFE else f"%{b:02X}" for b in absolute)
    return f"file:{quoted}?mode={mode}"


def store_error(path: str, exc: sqlite3.Error) -> StoreError:
    """The :class:`StoreError` for a SQLite error on the store at ``path``, naming its cause
    (:func:`~gentle_hooks.ledger.error_cause.explain`)."""
    problem, fixable, denied = error_cause.explain(path, str(exc))
    err = StoreError(path, problem, fix=fixable, writable=denied)
    err.busy = problem.startswith("busy:")
    return err


@contextmanager
def write_transaction(conn: sqlite3.Connection, path: str) -> Iterator[sqlite3.Connection]:
    """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on error.

    Args:
        conn: a connection opened for writing (autocommit: ``isolation_level=None``);
        path: the database file, for messages.

    The idle sentinel is removed once the lock is held, before the body writes anything.

    Raises:
        StoreError: a SQLite error inside the transaction (after the rollback), the write
            lock not granted within the busy timeout, or the idle sentinel that cannot be
            removed (nothing is written then).
    """
    try:
        lock_wait.begin_immediate(conn)
    except sqlite3.Error as exc:
        raise store_error(path, exc) from None
    try:
        _drop_idle(path)
        yield conn
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise store_error(path, exc) from None
        raise


def _drop_idle(path: str) -> None:
    """Remove the idle sentinel of the store at ``path`` (absent is fine).

    A directory in its place is left alone: the hooks trust only a regular file that is not
    a link (:data:`gentle_hooks.ledger.probe.IDLE_ROWS`), so it never says "idle"; ``doctor``
    names it (:func:`idle_problem`) and ``doctor --fix`` removes it.

    Raises:
        StoreError: a file is there and cannot be removed.
    """
    sentinel = idle_path(path)
    try:
        if stat.S_ISDIR(os.lstat(sentinel).st_mode):
            return
        os.unlink(sentinel)  # the sentinel, or a link or FIFO in its place: itself
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError(sentinel, f"cannot be removed: {exc.strerror}") from None


def idle_problem(path: str) -> str | None:
    """What stands in the idle sentinel's place beside the store at ``path`` when it is not
    the sentinel (a regular file): ``a directory``, ``a FIFO``, ``a symbolic link``...; None
    when it is the sentinel or absent."""
    return odd_file(idle_path(path))


def settle_idle(conn: sqlite3.Connection, path: str) -> bool:
    """Create the idle sentinel when the store holds nothing pending, listing the writer
    blobs of ended entries (:data:`~gentle_hooks.ledger.schema.ENDED_BLOBS_SQL`) and the paths
    of expired and discarded ones (:data:`~gentle_hooks.ledger.schema.ENDED_PATHS_SQL`); whether it
    exists now.

    Runs its own ``BEGIN IMMEDIATE`` transaction (it writes nothing to the database): under
    the write lock, no writer can make work pending between the check and the file's
    creation, and a writer that comes after removes it first (:func:`write_transaction`).
    Anything that goes wrong (busy, a read error, a file that cannot be created) leaves the
    sentinel absent: that is always safe. A store holding a trigger no migration creates
    never gets one (:func:`~gentle_hooks.ledger.schema.foreign_triggers`): such a trigger
    may delete the very rows that would be pending, so "nothing pending" proves nothing.
    Only this code writes the sentinel; a trigger created after it changes the database
    file, which then is newer than the sentinel, and the hooks stop trusting it
    (:data:`gentle_hooks.ledger.probe.IDLE_ROWS`, ``ledger-after-sentinel``).

    Args:
        conn: a connection opened for writing; path: the database file.
    """
    sentinel = idle_path(path)
    if os.path.lexists(sentinel):
        return odd_file(sentinel) is None  # something else there never reads as idle
    if os.path.lexists(os.path.join(os.path.dirname(path), SPOOL_FILE)):
        return False  # a spooled writer record is pending work the tables do not show yet
    try:
        lock_wait.begin_immediate(conn, wait=False)  # optional: a held lock just leaves it absent
    except sqlite3.Error:
        return False
    try:
        if conn.execute(PENDING_SQL).fetchone() is not None:
            return False
        if foreign_triggers(conn.execute(TRIGGERS_SQL)):
            return False  # a trigger may have emptied the tables: only the gate may decide
        ended = "".join(f"{b}\n" for (b,) in conn.execute(ENDED_BLOBS_SQL)).encode("ascii")
        ended += b"".join(sentinel_path_lines(p) for (p,) in conn.execute(ENDED_PATHS_SQL))
        # written whole to a private file first: a sentinel never lists part of them
        fd, tmp = new_private_file(os.path.dirname(sentinel), "idle-", 0o644)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(ended)
            os.replace(tmp, sentinel)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        return True
    except (sqlite3.Error, OSError):
        return False
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def touch_idle(path: str) -> None:
    """Bring the idle sentinel's time up to now when it exists (never create it).

    A writer's connection changes the database file and its write-ahead log when it closes
    (the checkpoint); the hooks trust the sentinel only while neither is newer than it (an
    empty log, as a reader leaves it, aside), so
    a file changed by anything else since (damage, another tool) sends them to Python,
    which says what is wrong. Called after a writer's connection closed.
    """
    with contextlib.suppress(OSError):  # absent (work pending), or not ours to touch
        os.utime(idle_path(path), follow_symlinks=False)


def create_store(path: str, busy: int) -> None:
    """Create a store whole: build the schema in a private file, then link it into place.

    A crash leaves either no store or a complete one (never an empty file); of two processes
    creating it at once, the first link wins and both use it.

    Args:
        path: the database file; busy: the busy timeout in milliseconds.

    Raises:
        StoreError: its directory or the file cannot be created.
    """
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise StoreError(path, f"cannot create its directory: {exc.strerror}") from None
    check_location(path)
    sweep_new_files(path)
    try:
        # a random name created here (O_EXCL | O_NOFOLLOW): a link planted at a guessable
        # name never makes SQLite create the store where it points
        fd, tmp = new_private_file(directory, new_file_prefix(path), 0o644)
    except OSError as exc:
        raise StoreError(path, f"cannot be created: {exc.strerror}") from None
    os.close(fd)
    try:
        connect(tmp, readonly=False, create=True, busy=busy).close()
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


def new_file_prefix(path: str) -> str:
    """The name of a store being created for ``path``, up to its creator's process id."""
    return f"{os.path.basename(path)}.new-"


def sweep_new_files(path: str) -> list[str]:
    """Remove what a killed first write left beside the store at ``path`` (a
    ``ledger.sqlite3.new-<pid>-...`` file, its journal, of a process that is gone)."""
    return sweep(os.path.dirname(path), new_file_prefix(path))


def check_location(path: str) -> None:
    """Refuse a store reached through a symbolic link, or a state directory that is not one.

    The state directory (``<git-common-dir>/gentle-hooks``) and the ledger file are ours:
    a symbolic link in either place would send records (and SQLite's journal files) to
    wherever it points, outside the repository.

    Raises:
        StoreError: the directory or the file is a symbolic link, or the directory is not
            a directory.
    """
    directory = os.path.dirname(path)
    if os.path.islink(directory):
        raise StoreError(
            path, f"its directory {directory} is a symbolic link; refusing to write through it"
        )
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise StoreError(path, f"its directory {directory} is not a directory")
    for place in (path, *companions(path)):
        kind = odd_file(place)
        if kind is not None:
            named = "" if place == path else f"{place} "
            raise StoreError(path, f"{named}is {kind}; refusing to open it")


def odd_file(path: str) -> str | None:
    """What makes ``path`` unsafe for SQLite to open, or None: a symbolic link (it would
    write wherever it points), or something other than a regular file (a FIFO blocks the
    open for ever, a device or directory is no database). An absent path is fine."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    return None if stat.S_ISREG(mode) else file_kind(mode)


def companions(path: str) -> tuple[str, ...]:
    """The files SQLite keeps beside the store: write-ahead log, shared memory, journal."""
    return (path + "-wal", path + "-shm", path + "-journal")


def connect(path: str, *, readonly: bool, create: bool, busy: int) -> sqlite3.Connection:
    """Open the database at ``path``: checked, in WAL mode and migrated when writing.

    Rows come back as :class:`sqlite3.Row`; the connection is in autocommit mode (writes go
    through :func:`write_transaction`).

    Args:
        path: the database file.
        readonly: open with ``mode=ro``: no WAL switch, no migration.
        create: the file is new (``mode=rwc``): no header or page check.
        busy: the busy timeout in milliseconds.

    Raises:
        StoreError: a directory, unreadable, not a database, truncated, malformed
            (``PRAGMA quick_check``), a newer schema, WAL mode refused, or a stale rollback
            journal beside it (:func:`~gentle_hooks.ledger.error_cause.stale_journal`).
    """
    check_location(path)
    if not create:
        if os.path.isdir(path):
            raise StoreError(path, "is a directory, not a database file")
        try:
            problem = check_header(path)
        except OSError as exc:
            raise StoreError(path, f"cannot be read: {exc.strerror}") from None
        if problem:
            raise StoreError(path, problem)
        journal = error_cause.stale_journal(path)
        if journal is not None:  # a writer's open would roll it back over committed rows
            refused = StoreError(path, error_cause.stale_journal_words(journal), fix=True)
            refused.journal = journal
            raise refused
    mode = "ro" if readonly else ("rwc" if create else "rw")
    busy = lock_wait.wait_ms(busy)  # a wait of this process ran out: none again
    try:
        conn = sqlite3.connect(
            file_uri(path, mode), uri=True, timeout=busy / 1000, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise StoreError(path, f"cannot be opened: {exc}") from None
    conn.row_factory = sqlite3.Row
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy)}")
        # Read the version before anything can write: a newer store is left untouched.
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                path,
                f"schema version {version} is newer than this gentle-hooks knows "
                f"({SCHEMA_VERSION}); upgrade gentle-hooks",
            )
        if not readonly:
            _set_wal(conn, path)
            conn.execute("PRAGMA synchronous = FULL")
        if not readonly and version < SCHEMA_VERSION:
            _migrate(conn, path)
        if not create:
            _quick_check(conn, path)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        conn.close()
        exc = error_cause.undecodable(exc) if isinstance(exc, UnicodeDecodeError) else exc
        lock_wait.ran_out(exc)
        raise store_error(path, exc) from None
    except StoreError:
        conn.close()
        raise
    return conn


#: The starts of ``quick_check`` lines about one row's values (a CHECK or NOT NULL
#: constraint a stored row breaks) rather than the file's structure.
ROW_PROBLEMS = ("CHECK constraint failed in ", "NULL value in ")


def _quick_check(conn: sqlite3.Connection, path: str) -> None:
    """``PRAGMA quick_check``: a damaged page anywhere fails the open, so nothing is
    read from or written into a store that is partly corrupt (O(pages); the ledger is
    small).

    A row whose values break a CHECK or NOT NULL constraint (SQLite checks those only on a
    connection that can write) does not fail the open: the row decoder refuses that row
    where it is read (:func:`gentle_hooks.ledger.rows.from_row`) and ``doctor`` names it,
    so one bad old row never stops new records from being kept.
    """
    rows = error_cause.text_rows(conn, "PRAGMA quick_check(100)")
    problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
    problems = [p for p in problems if not p.startswith(ROW_PROBLEMS)]
    if problems:
        text = " ".join("; ".join(problems[:3]).split())
        raise StoreError(path, "malformed: " + text[:200])


def _set_wal(conn: sqlite3.Connection, path: str) -> None:
    # Changing the journal mode needs an exclusive lock that the busy handler does not
    # always wait for; retry briefly so two first writers racing do not fail.
    for attempt in range(50):
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 49:
                raise
            time.sleep(0.02)
            continue
        if str(mode).lower() != "wal":
            raise StoreError(path, f"cannot use WAL mode (journal mode {mode})")
        return


def _migrate(conn: sqlite3.Connection, path: str) -> None:
    with write_transaction(conn, path):
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(path, f"schema version {version} is newer than known")
        for script in MIGRATIONS[version:]:
            for statement in migration_statements(script):
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def migration_statements(script: str) -> Iterator[str]:
    """Split a migration script into complete SQL statements (comments stay attached)."""
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete statement in migration: {buf.strip()[:60]}")
