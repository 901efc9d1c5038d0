"""Why SQLite refused the store: another process's lock, a full disk, the file size limit,
or a stale rollback journal beside a write-ahead-log store.

Room ``ledger``, standard library only. SQLite reports most of these without the cause
(``database is locked``, ``disk I/O error``, ``attempt to write a readonly database``);
the files and the system say which it is, so the one line a command prints can name the
cause and the command that fixes it.
"""

from __future__ import annotations

import os
import sqlite3
import stat

from gentle_hooks.ledger import lock_wait

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported on the hook pass path
    from typing import Any

#: Bytes 18 and 19 of a SQLite header, the file format's write and read versions: 2 for
#: a store in write-ahead-log mode.
_WAL_VERSIONS = b"\x02\x02"


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "backslashreplace")


def undecodable(exc: UnicodeDecodeError) -> sqlite3.DatabaseError:
    """The error to raise for SQLite's own error message that is not UTF-8 (Python's
    ``sqlite3`` cannot decode it): a schema planted with such bytes, which SQLite reports as
    malformed, so callers treat it as the damage it is (``doctor --fix`` moves it aside)."""
    return sqlite3.DatabaseError(
        f"malformed database schema (SQLite's report is not valid text: {exc.reason})"
    )


def text_rows(conn: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (a query of ``sqlite_master`` or a ``PRAGMA`` report) with every
    text value decoded leniently: bytes that are not UTF-8 are ``\\xNN`` escapes instead of a
    :class:`UnicodeDecodeError`, so a schema planted with such bytes (``writable_schema``)
    is damage the caller reports, never a crash; SQLite's own error message that is not
    UTF-8 is :func:`undecodable`. Rows are plain tuples; the connection's
    ``text_factory`` and ``row_factory`` are restored before returning. Raises what
    ``sqlite3`` raises for the query itself."""
    text_factory, row_factory = conn.text_factory, conn.row_factory
    conn.text_factory, conn.row_factory = _lenient_text, None
    try:
        return [tuple(row) for row in conn.execute(sql).fetchall()]
    except UnicodeDecodeError as exc:
        raise undecodable(exc) from None
    finally:
        conn.text_factory, conn.row_factory = text_factory, row_factory


def explain(path: str, text: str) -> tuple[str, bool]:
    """The problem to report for SQLite's error ``text`` on the store at ``path``, and
    whether ``doctor --fix`` repairs it (else plain ``doctor`` explains it)."""
    if "locked" in text or "busy" in text:
        who = ", ".join(lock_wait.lock_holders(path)) or "another process"
        waited = f"{lock_wait.LOCK_WAIT_SECONDS:g} s"
        return f"busy: {who} held its write lock past the {waited} waited", False
    if ("disk I/O error" in text or "disk is full" in text) and _disk_full(path):
        # SQLite reports a full disk as SQLITE_FULL or as SQLITE_IOERR (a WAL or -shm
        # write that failed) without the errno: the file system's free space tells
        return f"No space left on device ({text})", False
    limit = _size_limit_reached(path) if "disk I/O error" in text else None
    if limit is not None:
        # a write past RLIMIT_FSIZE fails with EFBIG (Python ignores SIGXFSZ), which
        # SQLite reports as a disk I/O error without the errno
        return f"File too large: the file size limit (ulimit -f) is {limit} bytes ({text})", False
    journal = stale_journal(path)
    if journal is not None:
        return f"unreadable: {stale_journal_words(journal)} ({text})", True
    refusal = write_refusals(path) if "open" in text or "readonly" in text else None
    if refusal is not None:
        # SQLite opens a write-ahead-log store for writing (its -wal and -shm files
        # beside it) and says only "unable to open database file" when it may not
        return f"{refusal} ({text})", False
    return f"unreadable: {text}", False


def write_refusals(path: str) -> str | None:
    """Why the system refuses writes to the store at ``path``: its directory, the file or
    its ``-wal``/``-shm`` files on a read-only file system or not writable by this process
    (``PATH: Read-only file system``, ``PATH: Permission denied``); None when neither."""
    from gentle_hooks.bounded import write_refusal

    for name in (os.path.dirname(path), path, path + "-wal", path + "-shm"):
        if name == os.path.dirname(path) or os.path.lexists(name):
            refusal = write_refusal(name)
            if refusal is not None:
                return refusal
    return None


def write_refused(exc: OSError) -> str:
    """Why the system refused a write of ours (a spool line), in its words: ``File too
    large`` with the file size limit (``ulimit -f``) in bytes when that limit refused it,
    ``No space left on device``, ``Read-only file system``, ``Permission denied``..."""
    import errno

    reason = exc.strerror or str(exc)
    if exc.errno == errno.EFBIG:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        if soft != resource.RLIM_INFINITY:
            return f"{reason}: the file size limit (ulimit -f) is {soft} bytes"
    return reason


def stale_journal(path: str) -> str | None:
    """The rollback journal beside the store at ``path`` when it is stale: a non-empty
    regular file while the store's header says write-ahead-log mode, where SQLite never
    writes one, yet takes it for a crashed transaction to roll back (a read-only reader
    then cannot open the store at all). None otherwise."""
    journal = path + "-journal"
    try:
        st = os.lstat(journal)
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
            return None
        with open(path, "rb") as fh:
            header = fh.read(20)
    except OSError:
        return None
    return journal if header[18:20] == _WAL_VERSIONS else None


def stale_journal_words(journal: str) -> str:
    """What a stale journal (:func:`stale_journal`) is, in one clause."""
    return (
        f"{journal}: a rollback journal beside a write-ahead-log store (SQLite never writes "
        "one there; while it is there no read can open the store)"
    )


def _size_limit_reached(path: str) -> int | None:
    """The file size limit in bytes when the store's file, WAL or journal is within a
    page of it; None when there is no limit or none is near it."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    for name in (path, path + "-wal", path + "-journal"):
        try:
            if os.stat(name).st_size + 65536 >= soft:
                return soft
        except OSError:
            continue
    return None


def _disk_full(path: str) -> bool:
    """Whether the file system holding ``path`` has (next to) no block left for us."""
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024
