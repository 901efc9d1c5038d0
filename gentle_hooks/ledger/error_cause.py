"""Why SQLite refused the store: another process's lock, a full disk, the file size limit,
or a stale rollback journal beside a write-ahead-log store.

Room ``ledger``, standard library only. SQLite reports most of these without the cause
(``database is locked``, ``disk I/O error``, ``attempt to write a readonly database``);
the files and the system say which it is, so the one line a command prints can name the
cause and the command that fixes it.
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import os
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


def explain(path: str, text: str) -> tuple[str, bool, tuple[str, ...]]:
    """The problem to report for SQLite's error ``text`` on the store at ``path``, whether
    ``doctor --fix`` repairs it (else plain ``doctor`` explains it), and the places whose
    permission bits alone refuse this process the write (:func:`permission_fix`: the fix
    is ``chmod u+w`` of them; empty for any other cause)."""
    if "locked" in text or "busy" in text:
        who = ", ".join(lock_wait.lock_holders(path)) or "another process"
        waited = f"{lock_wait.LOCK_WAIT_SECONDS:g} s"
        return f"busy: {who} held its write lock past the {waited} waited", False, ()
    if ("disk I/O error" in text or "disk is full" in text) and _disk_full(path):
        # SQLite reports a full disk as SQLITE_FULL or as SQLITE_IOERR (a WAL or -shm
        # write that failed) without the errno: the file system's free space tells
        return f"No space left on device ({text})", False, ()
    limit = _size_limit_reached(path) if "disk I/O error" in text else None
    if limit is not None:
        # a write past RLIMIT_FSIZE fails with EFBIG (Python ignores SIGXFSZ), which
        # SQLite reports as a disk I/O error without the errno
        return (
            f"File too large: the file size limit (ulimit -f) is {limit} bytes ({text})",
            False,
            (),
        )
    journal = stale_journal(path)
    if journal is not None:
        return f"unreadable: {stale_journal_words(journal)} ({text})", True, ()
    if text.startswith("no such table: "):  # dropped: doctor --fix creates it again, empty
        return f"unreadable: {text} (a table of the ledger is missing)", True, ()
    refusal = write_refusals(path) if "open" in text or "readonly" in text else None
    if refusal is not None:
        # SQLite opens a write-ahead-log store for writing (its -wal and -shm files
        # beside it) and says only "unable to open database file" when it may not
        return f"{refusal} ({text})", False, permission_fix(path)
    return f"unreadable: {text}", False, ()


def write_refusals(path: str) -> str | None:
    """Why the system refuses writes to the store at ``path``: its directory, the file or
    its ``-wal``/``-shm`` files on a read-only file system or not writable by this process
    (``PATH: Read-only file system``, ``PATH: Permission denied``); None when neither."""
    refused = refused_writes(path)
    return None if not refused else f"{refused[0][0]}: {os.strerror(refused[0][1])}"


def refused_writes(path: str) -> list[tuple[str, int]]:
    """Every place of the store at ``path`` the system refuses writes to, in order, with
    the error number that says why (``errno.EROFS``, ``errno.EACCES``): the state
    directory, the file, its ``-wal`` and ``-shm`` files (each when it exists). Empty when
    every one is writable. Asks the system, writes nothing."""
    from gentle_hooks.bounded import write_refusal_errno

    out = []
    for name in (os.path.dirname(path), path, path + "-wal", path + "-shm"):
        if os.path.lexists(name):
            code = write_refusal_errno(name)
            if code is not None:
                out.append((name, code))
    return out


def permission_fix(path: str) -> tuple[str, ...]:
    """The places of the store at ``path`` this process may not write for their
    permission bits alone (not a read-only file system): the arguments of the
    ``chmod u+w`` that lets it write them again. Empty when there is none."""
    import errno

    return tuple(name for name, code in refused_writes(path) if code == errno.EACCES)


def access_refusal(path: str) -> tuple[str, tuple[str, ...]] | None:
    """Why the system refuses this process writes to the store at ``path`` (its state
    directory, the file or its ``-wal``/``-shm`` files: every record and every gate's write
    then fails), naming the first such place and the system's reason, with the places
    :func:`permission_fix` names (the arguments of ``chmod u+w``; empty on a read-only file
    system); None when every one is writable. Asks the system, writes nothing."""
    refusal = write_refusals(path)
    if refusal is None:
        return None
    denied = permission_fix(path)
    then = "let this process write there" if denied else "remount that file system read-write"
    return f"{refusal}: writes to the ledger fail (a record; the gates fail closed); {then}", denied


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
