"""The readable rows of a damaged ledger moved aside, recovered into the ledger (SPEC §6
"Nothing is ever auto-deleted"; docs/robustness.md "Kept aside").

Room ``ledger``. ``doctor --fix`` moves a damaged ledger aside as
``ledger.sqlite3.damaged-<stamp>`` (:func:`gentle_hooks.ledger.diagnose.move_aside`); until its
rows are recovered, the gates stay closed (:mod:`.kept`). :func:`salvage` recovers them as far
as SQLite itself can read them, with the standard library only: on a private copy (the kept
file is never written; a write-ahead log beside it is applied to the copy), every table of
the ledger is copied whole, by ``INSERT ... SELECT`` (the same ids, values and storage
classes), and where a damaged page stops that, row by row up to the table's highest id
(``sqlite_sequence``, else ``max(rowid)``), each row SQLite cannot read counted as lost.

Lost rows of writer work (any table but :data:`~.schema.EVIDENCE_TABLES`), or a file SQLite
cannot read at all, are held in the ``quarantine`` table (source
:data:`~.records.DAMAGED_SOURCE`, one row per table: the file, the table and the lost ids as
JSON): they keep the gates closed until a person discards them. Lost evidence only takes
that evidence away (the gate asks for it again). Then the file (and its ``-wal``/``-shm``)
is renamed ``ledger.sqlite3.salvaged-<stamp>``: kept, no longer blocking.

Rows keep their ids, so they are recovered only into a ledger that holds no row yet (the
one ``doctor --fix`` creates after moving the damaged one aside); into a ledger that has
recorded since, nothing is merged, and the whole file is held in quarantine instead.
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import os
import shutil

from gentle_hooks.bounded import scratch_dir
from gentle_hooks.ledger.connection import LedgerConnection, insert
from gentle_hooks.ledger.error_cause import undecodable
from gentle_hooks.ledger.kept import COMPANIONS, DAMAGED_KEPT, SALVAGED
from gentle_hooks.ledger.records import DAMAGED_SOURCE, QuarantineRecord
from gentle_hooks.ledger.schema import EVIDENCE_TABLES
from gentle_hooks.values.frozen import replace

#: Ids probed one by one in a table whose whole copy failed, at most.
MAX_PROBED = 5_000_000


class Salvaged:
    """What :func:`salvage` did.

    Attributes:
        recovered: rows copied, per table (tables with none left out); lost: ids SQLite
            could not read, per table (``None``: the table could not be read at all);
        held: the quarantine rows now holding lost writer work; kept: the file's new name;
        sequences: the damaged tables' id counters, where readable.
    """

    __slots__ = ("held", "kept", "lost", "recovered", "sequences")

    def __init__(self) -> None:
        self.recovered: dict[str, int] = {}
        self.sequences: dict[str, int] = {}
        self.lost: dict[str, list[int] | None] = {}
        self.held: list[QuarantineRecord] = []
        self.kept = ""


def damaged_files(ledger: str) -> list[str]:
    """The damaged ledgers moved aside beside ``ledger`` whose rows were not recovered yet."""
    from gentle_hooks.ledger.kept import kept_files

    return [
        p
        for p in kept_files(os.path.dirname(ledger))
        if os.path.basename(p).startswith(DAMAGED_KEPT)
    ]


def salvage(led: LedgerConnection, damaged: str) -> Salvaged:
    """Recover the readable rows of the damaged ledger ``damaged`` into ``led``'s ledger (in
    one transaction, holding lost writer work in quarantine), then rename it
    ``ledger.sqlite3.salvaged-<stamp>`` (kept).

    The rows are read first into a private database of the ledger's tables, one statement
    at a time (SQLite leaves a write transaction that met a damaged page unusable), and
    only then copied into the ledger in one transaction from that healthy file.

    Raises:
        StoreError: the ledger cannot be written (nothing was recovered or renamed);
        OSError: the copy or the rename failed.
    """
    out = Salvaged()
    name = os.path.basename(damaged)
    conn = led._conn
    tables = [
        str(r[0])
        for r in conn.execute(
            "SELECT name FROM main.sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    why = None
    if any(_has_rows(conn, t) for t in tables):
        why = "the ledger has recorded since it was moved aside: its rows were not merged"
    with scratch_dir("gentle-hooks-salvage-") as scratch:
        rows = os.path.join(scratch, "rows.sqlite3")
        if why is None:
            why = _extract(conn, damaged, scratch, rows, tables, out)
        conn.execute("ATTACH DATABASE ? AS salvaged", (rows,))
        try:
            with led._write() as w:
                if why is None:
                    for table in tables:
                        w.execute(f'INSERT INTO main."{table}" SELECT * FROM salvaged."{table}"')
                    for table, seq in out.sequences.items():
                        _carry_sequence(w, table, seq)
                lost = [(t, ids) for t, ids in out.lost.items() if t not in EVIDENCE_TABLES]
                if why is not None:
                    lost = [("*", None)]
                for table, ids in lost:
                    out.held.append(_hold(w, led, name, table, ids, why))
        finally:
            conn.execute("DETACH DATABASE salvaged")
    out.kept = _rename(damaged)
    return out


def _extract(
    conn: sqlite3.Connection,
    damaged: str,
    scratch: str,
    rows: str,
    tables: list[str],
    out: Salvaged,
) -> str | None:
    """Copy what SQLite can read of the damaged ledger (a private copy of it, with its
    write-ahead log) into ``rows``, a new database of the ledger's ``tables`` (their
    definitions read from ``conn``), one statement at a time; None, or why nothing of it
    can be read."""
    copy = os.path.join(scratch, "damaged.sqlite3")
    shutil.copyfile(damaged, copy, follow_symlinks=False)
    if os.path.isfile(damaged + "-wal") and not os.path.islink(damaged + "-wal"):
        shutil.copyfile(damaged + "-wal", copy + "-wal", follow_symlinks=False)
    ddl = [
        str(r[0])
        for r in conn.execute(
            "SELECT sql FROM main.sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    reader = sqlite3.connect(rows, isolation_level=None)
    try:
        for sql in ddl:
            reader.execute(sql)
        try:
            reader.execute("ATTACH DATABASE ? AS salvage", (copy,))
            reader.execute("SELECT count(*) FROM salvage.sqlite_master").fetchone()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if isinstance(exc, UnicodeDecodeError):  # SQLite's report of a planted schema
                exc = undecodable(exc)
            return f"cannot be read: {exc}"
        reader.execute("PRAGMA ignore_check_constraints = ON")  # rows as they stood
        for table in tables:
            _copy_table(reader, table, out)
    finally:
        reader.close()
    return None


def _has_rows(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute(f'SELECT 1 FROM main."{table}" LIMIT 1').fetchone() is not None


def _copy_table(conn: sqlite3.Connection, table: str, out: Salvaged) -> None:
    """Inside the transaction: copy ``table``'s rows from ``salvage`` (whole, else row by
    row), recording what was recovered and lost in ``out``."""
    mine = [str(r[1]) for r in conn.execute(f'PRAGMA main.table_info("{table}")')]
    try:
        theirs = {str(r[1]) for r in conn.execute(f'PRAGMA salvage.table_info("{table}")')}
    except sqlite3.Error:
        out.lost[table] = None
        return
    if not theirs:
        return  # a table the damaged ledger's (older) schema did not have yet
    cols = ", ".join(f'"{c}"' for c in mine if c in theirs)
    copy = f'INSERT INTO main."{table}" ({cols}) SELECT {cols} FROM salvage."{table}"'
    try:
        done = conn.execute(copy).rowcount
        if done:
            out.recovered[table] = done
        _note_sequence(conn, table, out)
        return
    except sqlite3.Error:
        pass  # a damaged page: row by row, as far as SQLite can read
    top = _highest_id(conn, table)
    if top is None:
        out.lost[table] = None
        return
    lost: list[int] = []
    count = 0
    for rowid in range(1, min(top, MAX_PROBED) + 1):
        try:
            count += conn.execute(copy + " WHERE rowid = ?", (rowid,)).rowcount
        except sqlite3.Error:
            lost.append(rowid)
    if count:
        out.recovered[table] = count
    if top > MAX_PROBED:
        out.lost[table] = None  # ids past the probe: not read, so not known to be whole
    elif lost:
        out.lost[table] = lost
    _note_sequence(conn, table, out)


def _highest_id(conn: sqlite3.Connection, table: str) -> int | None:
    """The highest id the damaged table gave out: its ``sqlite_sequence`` entry, or its
    ``max(rowid)``, whichever is higher and readable; None when neither is."""
    found: list[int] = []
    for sql in (
        "SELECT seq FROM salvage.sqlite_sequence WHERE name = ?",
        f'SELECT max(rowid), ? FROM salvage."{table}"',
    ):
        try:
            row = conn.execute(sql, (table,)).fetchone()
        except sqlite3.Error:
            continue
        if row is not None and isinstance(row[0], int):
            found.append(row[0])
    return max(found) if found else None


def _note_sequence(conn: sqlite3.Connection, table: str, out: Salvaged) -> None:
    """The damaged table's id counter (``sqlite_sequence``), when readable, in ``out``."""
    try:
        row = conn.execute(
            "SELECT seq FROM salvage.sqlite_sequence WHERE name = ?", (table,)
        ).fetchone()
    except sqlite3.Error:
        return
    if row is not None and isinstance(row[0], int):
        out.sequences[table] = row[0]


def _carry_sequence(conn: sqlite3.Connection, table: str, seq: int) -> None:
    """Inside the transaction: the ledger's id counter of ``table`` at least the damaged
    one's, so a lost row's id is never given out again."""
    if conn.execute("SELECT 1 FROM main.sqlite_sequence WHERE name = ?", (table,)).fetchone():
        conn.execute(
            "UPDATE main.sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (seq, table)
        )
    else:
        conn.execute("INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq))


def _hold(
    conn: sqlite3.Connection,
    led: LedgerConnection,
    name: str,
    table: str,
    ids: list[int] | None,
    why: str | None,
) -> QuarantineRecord:
    """Inside the transaction: one held quarantine row for what of ``table`` (``*``: the
    whole file) could not be recovered from the file ``name``."""
    import json

    if why is not None:
        what = f"{name} {why}"
    elif ids is None:
        what = f"the {table} rows of {name} could not be read"
    else:
        shown = ", ".join(str(i) for i in ids[:5]) + (" ..." if len(ids) > 5 else "")
        what = f"{len(ids)} {table} row(s) of {name} could not be read (ids {shown})"
    row = json.dumps({"file": name, "table": table, "ids": ids}, sort_keys=True)
    rec = QuarantineRecord(DAMAGED_SOURCE, None, what, row, recorded_at=led._clock())
    return replace(rec, id=insert(conn, rec))


def _rename(damaged: str) -> str:
    """Rename ``damaged`` and its companions to the ``salvaged`` name; the new path."""
    directory, name = os.path.split(damaged)
    target = os.path.join(directory, SALVAGED + name[len(DAMAGED_KEPT) :])
    for suffix in COMPANIONS:
        if os.path.lexists(damaged + suffix):
            os.replace(damaged + suffix, target + suffix)
    os.replace(damaged, target)
    return target
