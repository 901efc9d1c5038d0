"""The diagnosis of a ledger for ``gentle-hook doctor`` (SPEC §6): looks, never repairs.

Room: ledger. Imports the standard library, :mod:`gentle_hooks.values` and its own room
(:mod:`.header`, :mod:`.sqlite_file` for the file URI, :mod:`.schema`, :mod:`.schema_repair`
for the version a store's tables are). Opens the file read-only; never migrates, creates
or deletes anything.
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import os

from gentle_hooks.ledger import lock_wait
from gentle_hooks.ledger.error_cause import (
    access_refusal,
    stale_journal,
    stale_journal_words,
    text_rows,
    write_refusals,
)
from gentle_hooks.ledger.header import check_header
from gentle_hooks.ledger.location import idle_path
from gentle_hooks.ledger.records import DAMAGED_SOURCE, SPOOL_SOURCE
from gentle_hooks.ledger.rows import bad_rows
from gentle_hooks.ledger.schema import HELD_WORK, MIGRATIONS, RECORD_TABLES, SCHEMA_VERSION
from gentle_hooks.ledger.schema_repair import (
    exhausted_counters,
    fix_words,
    is_resettable,
    matching_version,
    schema_differences,
)
from gentle_hooks.ledger.sqlite_file import (
    companions,
    file_uri,
    idle_problem,
    migration_statements,
    odd_file,
)
from gentle_hooks.values.frozen import frozen


@frozen
class StoreCheck:
    """One result of :func:`diagnose`: a check name, whether it passed, one line of detail,
    whether ``doctor --fix`` repairs it in place (a lowered schema version, an id counter
    at its end), whether it proves the file's own bytes damaged (a bad header,
    SQLite's "malformed" or "not a database", an ``integrity_check`` other than ok, a
    table no gentle-hooks version creates): only
    such a check lets ``doctor --fix`` move the ledger aside (:func:`is_damaged`), and the
    places whose permission bits refuse this process its writes (the ``access`` check's
    fix is ``chmod u+w`` of them)."""

    name: str
    ok: bool
    detail: str
    fixable: bool = False
    damaged: bool = False
    writable: tuple[str, ...] = ()


def diagnose(path: str) -> tuple[StoreCheck, ...]:
    """Inspect a ledger without changing it (for ``gentle-hook doctor``; SPEC §6).

    Opens the file read-only, never migrates, never raises for a damaged store. Checks,
    in order, stopping at the first that makes the rest meaningless: ``store`` (the state
    directory is a directory and neither it nor the file is a symbolic link; the file
    exists, is a file, has a SQLite header and is not truncated), ``access`` (this process
    may write the directory and the files: :func:`_access_check`), ``schema`` (the version
    is one this code knows, and an older one migrates forward: tried on an in-memory
    copy), ``journal`` (WAL mode), ``integrity`` (``PRAGMA integrity_check``),
    ``constraints`` (CHECK and NOT NULL, on an in-memory copy), ``counters`` (no id counter
    at its end), ``records`` (rows per table), ``rows`` (every row reads as its record),
    ``quarantine`` (no writer work held).

    Args:
        path: the database file (:func:`gentle_hooks.ledger.location.ledger_path`).

    Returns:
        The checks run. A ledger not created yet is one passing ``store`` check (and a
        failing ``access`` check when its directory refuses writes).
    """
    directory = os.path.dirname(path)
    links = [p for p in (directory, path, *companions(path)) if os.path.islink(p)]
    if links:
        return (
            StoreCheck("store", False, f"{links[0]}: is a symbolic link (refused; move it away)"),
        )
    kind = state_not_directory(path)
    if kind is not None:  # before its companions: they cannot be in a file (ENOTDIR)
        words = (
            f"{directory} is not a directory (it is {kind}; the fix moves it aside, kept as "
            f"{os.path.basename(directory)}.broken-TIME, and makes the state directory again)"
        )
        return (StoreCheck("store", False, words, fixable=True),)
    for place in companions(path):
        kind = odd_file(place)
        if kind is not None:  # SQLite would block on a FIFO or fail on anything else there
            words = f"{place}: is {kind} (refused; the fix moves it aside, kept, renamed)"
            return (StoreCheck("store", False, words, fixable=True),)
    access = _access_check(path)
    if not os.path.lexists(path):
        made = StoreCheck("store", True, f"{path}: not created yet (nothing recorded)")
        return (made, access) if access is not None else (made,)
    kind = odd_file(path)
    if kind is not None:  # a FIFO, a socket, a directory: never "empty" or "truncated"
        return (StoreCheck("store", False, f"{path}: is {kind}, not a database file"),)
    try:
        problem = check_header(path)
    except OSError as exc:
        return (StoreCheck("store", False, f"{path}: cannot be read: {exc.strerror}"),)
    if problem:
        return (StoreCheck("store", False, f"{path}: {problem}", damaged=True),)
    out = [StoreCheck("store", True, path), *([access] if access is not None else [])]
    journal = stale_journal(path)
    if journal is not None:  # SQLite would try to roll it back: no read-only open works
        words = stale_journal_words(journal) + "; the fix moves it aside (kept, renamed)"
        return (*out, StoreCheck("journal", False, words, fixable=True))
    try:
        # one bounded wait behind another process's lock, then no more in this process
        wait = lock_wait.wait_ms(lock_wait.STATEMENT_WAIT_MS) / 1000
        conn = sqlite3.connect(file_uri(path, "ro"), uri=True, timeout=wait)
    except sqlite3.Error as exc:
        damaged = is_corruption(exc)
        return (StoreCheck("store", False, f"{path}: cannot be opened: {exc}", damaged=damaged),)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        differ = schema_differences(conn) if version == SCHEMA_VERSION else []
        if version > SCHEMA_VERSION:
            out.append(
                StoreCheck(
                    "schema",
                    False,
                    f"version {version} is newer than this gentle-hooks knows "
                    f"({SCHEMA_VERSION}); upgrade gentle-hooks",
                )
            )
        elif version < SCHEMA_VERSION:
            failed = _migration_fails(conn, version)
            if failed:
                out.append(_lowered(conn, version, failed))
            else:
                out.append(StoreCheck("schema", True, f"version {version} (migrated on next use)"))
        else:
            detail = f"version {version} (current)"
            if differ:
                detail += ", but " + ", ".join(d.words for d in differ[:5])
            fixable = bool(differ) and all(d.is_trigger_fix or d.is_missing_fix for d in differ)
            detail += fix_words(differ) if fixable else ""
            # a table no gentle-hooks version creates: the file is moved aside (kept) and
            # its rows of ours recovered into a new ledger (ledger.salvage)
            foreign = any(d.kind == "table" and d.how == "not ours" for d in differ)
            out.append(StoreCheck("schema", not differ, detail, fixable=fixable, damaged=foreign))
        mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        out.append(StoreCheck("journal", mode == "wal", f"journal mode {mode}"))
        rows = [str(r[0]) for r in text_rows(conn, "PRAGMA integrity_check")]
        ok = rows == ["ok"]
        out.append(StoreCheck("integrity", ok, "ok" if ok else "; ".join(rows[:5]), damaged=not ok))
        if ok:
            # a row breaking a constraint: the row's damage (quarantined by doctor --fix),
            # not the file's
            rows = _constraint_problems(conn)
            ok = rows == ["ok"]
            out.append(StoreCheck("constraints", ok, "ok" if ok else "; ".join(rows[:5])))
            out.append(_counter_check(conn))
        gone = any(d.kind == "table" and d.how == "missing" for d in differ)
        if version == SCHEMA_VERSION and not gone:  # a table dropped: the fix makes it again
            counts = [
                f"{t} {int(conn.execute(f'SELECT count(*) FROM {t}').fetchone()[0])}"
                for t in RECORD_TABLES
            ]
            out.append(StoreCheck("records", True, ", ".join(counts)))
            bad = _unreadable_rows(conn)
            detail = f"{len(bad)} row(s) other commands refuse: " + "; ".join(bad[:3])
            out.append(StoreCheck("rows", not bad, detail if bad else "every row reads"))
            out.append(_quarantine_check(conn))
    except sqlite3.Error as exc:
        lock_wait.ran_out(exc)
        out.append(_unreadable(path, exc))
    finally:
        conn.close()
    lock = _lock_check(path)
    return (*out, lock) if lock is not None else tuple(out)


def _access_check(path: str) -> StoreCheck | None:
    """The failing ``access`` check of :func:`~.error_cause.access_refusal`, or None."""
    found = access_refusal(path)
    return None if found is None else StoreCheck("access", False, found[0], writable=found[1])


#: SQLITE_CORRUPT and SQLITE_NOTADB (the primary codes; typeshed lacks the constants).
_CORRUPT_CODES = (11, 26)


def is_corruption(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the file's bytes are damaged (``SQLITE_CORRUPT``,
    ``SQLITE_NOTADB``: "malformed", "not a database", "file is encrypted"); a locked or
    busy store, memory, an interrupt or an I/O error is a condition of the machine, not
    damage."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _CORRUPT_CODES:
        return True
    text = str(exc)
    return any(m in text for m in ("malformed", "not a database", "file is encrypted"))


def _unreadable(path: str, exc: sqlite3.Error) -> StoreCheck:
    """The failing ``integrity`` check of a store SQLite refused to read: damage only for
    :func:`is_corruption`; otherwise it was not checked, and the line says why (naming the
    process holding a lock when Linux says) and that nothing is to be fixed in the file."""
    if is_corruption(exc):
        return StoreCheck("integrity", False, f"unreadable: {exc}", damaged=True)
    text = str(exc)
    if "locked" in text or "busy" in text:
        who = ", ".join(lock_wait.lock_holders(path)) or "another process"
        why = f"{who} holds a lock on the ledger ({text})"
        then = "end that process, or let it finish, then run doctor again"
    elif (refusal := write_refusals(path)) is not None:
        why = f"SQLite could not open it: {refusal} ({text})"
        then = "let this user write there, then run doctor again"
    else:
        why = f"SQLite could not read it ({text})"
        then = "fix that condition (memory, the disk), then run doctor again"
    return StoreCheck(
        "integrity",
        False,
        f"not checked: {why}; a condition, not damage: the ledger is kept as it is ({then})",
    )


def _lock_check(path: str) -> StoreCheck | None:
    """A failing ``lock`` check when another process holds the store's write lock now (a
    writer then waits :data:`~gentle_hooks.ledger.lock_wait.LOCK_WAIT_SECONDS` and fails),
    naming the holder when Linux says; None when the lock is free or cannot be tried. Takes
    the lock without waiting and releases it, writing nothing."""
    try:
        conn = sqlite3.connect(file_uri(path, "rw"), uri=True, timeout=0, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            return None
        who = ", ".join(lock_wait.lock_holders(path)) or "another process"
        return StoreCheck(
            "lock",
            False,
            f"{who} holds the write lock: a writer waits {lock_wait.LOCK_WAIT_SECONDS:g} s, "
            "then fails (end that process, or let it finish)",
        )
    finally:
        conn.close()
    return None


def sentinel_check(path: str) -> StoreCheck | None:
    """``sentinel``: something other than the idle sentinel (a regular file) in its
    place beside the store at ``path`` — a directory, a FIFO, a link — fails, naming it
    (writers leave a directory there, and the hooks never read any of them as idle, so
    every hook reads the ledger); None when the sentinel is fine or absent, or the state
    directory is not a plain directory (the ``store`` check says so)."""
    directory = os.path.dirname(path)
    if os.path.islink(directory) or not os.path.isdir(directory):
        return None
    kind = idle_problem(path)
    if kind is None:
        return None
    return StoreCheck(
        "sentinel",
        False,
        f"{idle_path(path)}: is {kind}, not the idle sentinel (a regular file); the hooks "
        "read the ledger instead",
    )


def remove_odd_sentinel(path: str) -> str | None:
    """``doctor --fix``: remove what :func:`sentinel_check` names (a link itself, a
    directory with what it holds, never following a link); the path removed, or None when
    there was nothing to remove or it could not be removed."""
    from gentle_hooks.bounded import remove_entry

    if sentinel_check(path) is None:
        return None
    return idle_path(path) if remove_entry(idle_path(path)) else None


def _lowered(conn: sqlite3.Connection, version: int, failed: str) -> StoreCheck:
    """``schema`` of a store at ``version`` that cannot be migrated forward: what its
    tables are, and whether ``doctor --fix`` can write their version back
    (:func:`~gentle_hooks.ledger.schema_repair.restore_version`)."""
    found = matching_version(conn)
    head = f"version {version} cannot be migrated forward ({failed}): its user_version is "
    if found is not None and found > version:
        return StoreCheck(
            "schema",
            False,
            head + f"lower than its tables, which are version {found}'s; the fix writes "
            f"user_version {found} back (no row changes)",
            fixable=True,
        )
    return StoreCheck(
        "schema",
        False,
        head + "lower than the tables it holds, which are no version this gentle-hooks "
        "knows: upgrade gentle-hooks if a newer one wrote it, or keep the file and move it "
        "aside (a new ledger starts empty)",
    )


def _constraint_problems(conn: sqlite3.Connection) -> list[str]:
    """``PRAGMA integrity_check`` on an in-memory copy of the store: SQLite checks CHECK
    and NOT NULL constraints only on a connection that can write, and doctor never writes
    to the store itself."""
    copy = sqlite3.connect(":memory:")
    try:
        conn.backup(copy)
        return [str(r[0]) for r in text_rows(copy, "PRAGMA integrity_check")]
    finally:
        copy.close()


def _migration_fails(conn: sqlite3.Connection, version: int) -> str | None:
    """Run the migrations from ``version`` on an in-memory copy of the store; the SQLite
    error that stops them, or None when they apply."""
    copy = sqlite3.connect(":memory:")
    try:
        conn.backup(copy)
        for script in MIGRATIONS[version:]:
            for statement in migration_statements(script):
                copy.execute(statement)
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        copy.close()
    return None


def _counter_check(conn: sqlite3.Connection) -> StoreCheck:
    """``counters``: no table's id counter is at the end of SQLite's ids
    (:func:`~gentle_hooks.ledger.schema_repair.exhausted_counters`: every new record of such
    a table fails as if the disk were full); fixable when the ids its rows hold are not
    at that end too."""
    ends = exhausted_counters(conn)
    if not ends:
        return StoreCheck("counters", True, "every table numbers new records")
    name, seq, top = ends[0]
    more = f" (and {len(ends) - 1} more table(s))" if len(ends) > 1 else ""
    which = f"id counter of {name} is {seq}" if seq >= top else f"highest id of {name} is {top}"
    head = (
        f"the {which}, at the end of SQLite's ids{more}: every new "
        f"{name} record fails with 'database or disk is full'"
    )
    if all(is_resettable(t) for _, _, t in ends):
        fix = f"the fix sets it back to the highest id it holds ({top}; no row changes)"
    else:
        fix = "the fix renumbers the rows at that end after the highest id below it"
    return StoreCheck("counters", False, head + "; " + fix, fixable=True)


def _quarantine_check(conn: sqlite3.Connection) -> StoreCheck:
    """``quarantine``: rows ``doctor --fix`` moved aside and still holds; fails while one
    is writer work (:data:`~gentle_hooks.ledger.schema.HELD_WORK`: the gates stay closed)."""
    held = conn.execute("SELECT count(*) FROM quarantine WHERE state = 'held'").fetchone()[0]
    work = [
        (int(r[0]), str(r[1]), r[2])
        for r in conn.execute(
            f"SELECT id, source, source_id FROM quarantine WHERE {HELD_WORK} ORDER BY id"
        )
    ]
    if not held:
        return StoreCheck("quarantine", True, "no row held")
    if not work:
        return StoreCheck(
            "quarantine", True, f"{held} row(s) of evidence held (the gates ask for it again)"
        )
    qid, source, source_id = work[0]
    what = source if source_id is None else f"{source} row {source_id}"
    # a spool line or a damaged ledger's lost rows are no table row: only discarded
    only = all(s in (SPOOL_SOURCE, DAMAGED_SOURCE) for _, s, _ in work)
    return StoreCheck(
        "quarantine",
        False,
        f"{len(work)} row(s) of writer work held, first {what} (quarantine {qid}): the gates "
        f"stay closed until each is {'discarded' if only else 'restored or discarded'}",
    )


def _unreadable_rows(conn: sqlite3.Connection) -> list[str]:
    """Rows every other command would refuse: each row of each table read with the row
    decoder the store reads with (:func:`~gentle_hooks.ledger.rows.bad_rows`), as
    ``table row N column C: why``."""
    return [why for _, _, why in bad_rows(conn)]


def is_damaged(path: str, checks: tuple[StoreCheck, ...]) -> bool:
    """Whether ``path`` is a ledger file whose damage :func:`move_aside` repairs: a regular
    file (not a link, not a directory), its directory and its companions (``-wal``,
    ``-shm``, ``-journal``) safe to open, with a failed check that proves its own bytes
    damaged (:attr:`StoreCheck.damaged`) — never for a store that is locked or busy, or
    a disk that is full, read-only or failing (then the fix is the machine's or the lock
    holder's, and the ledger, with the writer work it holds, is kept in place)."""
    if not any(c.damaged and not c.ok for c in checks):
        return False
    directory = os.path.dirname(path)
    if os.path.islink(directory) or any(odd_file(p) for p in companions(path)):
        return False
    return os.path.isfile(path) and not os.path.islink(path)


def state_not_directory(path: str) -> str | None:
    """What stands in the place of the state directory of the ledger file ``path`` when it
    is neither a directory nor a symbolic link (a link is refused, never moved: see
    :func:`diagnose`), as a phrase (``a regular file``, ``a FIFO``); None otherwise."""
    import stat

    from gentle_hooks.bounded import file_kind

    try:
        mode = os.lstat(os.path.dirname(path)).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
        return None
    return "a regular file" if stat.S_ISREG(mode) else file_kind(mode)


def move_state_aside(path: str, stamp: str) -> str:
    """Rename what stands in the place of the state directory of the ledger file ``path``
    (:func:`state_not_directory`) to ``<dir>.broken-STAMP`` (kept) and make the state
    directory again; the new path of what was there.

    Raises:
        OSError: the rename or the new directory failed.
    """
    directory = os.path.dirname(path)
    target = f"{directory}.broken-{stamp}"
    if os.path.lexists(target):
        raise FileExistsError(0, "already exists", target)
    os.rename(directory, target)
    os.mkdir(directory)
    return target


def move_aside(path: str, stamp: str) -> str:
    """Rename a damaged ledger (and its ``-wal``/``-shm`` files) to ``PATH.damaged-STAMP``,
    keeping it for inspection; the next use starts a new, empty ledger. The new path.

    Raises:
        OSError: the rename failed (then nothing was moved, or only the sidecars).
    """
    target = f"{path}.damaged-{stamp}"
    for suffix in ("-wal", "-shm"):
        if os.path.isfile(path + suffix) and not os.path.islink(path + suffix):
            os.replace(path + suffix, target + suffix)
    os.replace(path, target)
    return target


def move_odd_companions_aside(path: str, stamp: str) -> list[tuple[str, str, str]]:
    """Rename each companion of the store at ``path`` (``-wal``, ``-shm``, ``-journal``) that
    is neither a regular file nor a symbolic link (a FIFO, a socket, a device, a directory:
    :func:`~gentle_hooks.ledger.sqlite_file.odd_file`) to ``NAME.odd-STAMP``, kept for
    inspection: no SQLite file can be there, so no committed row is in it. A link is left
    where it is (its target may hold a real log). ``(what it is, old path, new path)`` per
    companion moved.

    Raises:
        OSError: a rename failed (those before it are done).
    """
    moved = []
    for place in companions(path):
        kind = odd_file(place)
        if kind is None or os.path.islink(place):
            continue
        target = f"{place}.odd-{stamp}"
        os.replace(place, target)
        moved.append((kind, place, target))
    return moved


def move_journal_aside(path: str, stamp: str) -> str | None:
    """Rename the stale rollback journal beside the store at ``path``
    (:func:`~gentle_hooks.ledger.error_cause.stale_journal`) to ``JOURNAL.stale-STAMP``,
    kept for inspection: the store's committed rows are in it and its write-ahead log,
    never in that journal. The new path, or None when there is no stale journal.

    Raises:
        OSError: the rename failed.
    """
    journal = stale_journal(path)
    if journal is None:
        return None
    target = f"{journal}.stale-{stamp}"
    os.replace(journal, target)
    return target
