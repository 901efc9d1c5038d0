"""The schema version a ledger's tables are, and ``doctor --fix``'s repairs of the schema's
bookkeeping: a lowered ``PRAGMA user_version``, an id counter at its end, a table, index or
trigger of ours that is missing, a trigger that is not ours (SPEC §6).

Room: ledger. Imports the standard library and its own room (:mod:`.schema` for the
migrations, :mod:`.sqlite_file` for the file checks). A store whose ``user_version`` is
lower than its tables cannot be migrated forward (the migrations would create what it
holds), so every command refuses it. When its tables, indexes and triggers are exactly
those the migrations give some version (the current one, most often), that version is
written back; nothing else changes and no row is touched. Otherwise nothing is written.

A table's ``AUTOINCREMENT`` counter (its ``sqlite_sequence`` row) at or near the largest id
SQLite gives makes every new record of that table fail with "database or disk is full"
while the file is sound: :func:`exhausted_counters` finds such a counter, and
:func:`reset_counters` sets it back to the highest id the table holds (ids only grow from
there; no row changes).
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
from collections.abc import Callable

from gentle_hooks.ledger.error_cause import text_rows
from gentle_hooks.ledger.lock_wait import LOCK_WAIT_SECONDS, begin_immediate
from gentle_hooks.ledger.schema import MIGRATIONS, SCHEMA_VERSION
from gentle_hooks.ledger.sqlite_file import check_location, file_uri, migration_statements
from gentle_hooks.values.frozen import frozen

#: The schema objects of a store: (type, name, table, SQL with its whitespace collapsed).
_OBJECTS = (
    "SELECT type, name, tbl_name, sql FROM sqlite_master "
    "WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL"
)


def _open_for_repair(path: str) -> sqlite3.Connection:
    """A read-write connection to the existing store at ``path`` in autocommit mode (the
    repairs begin their own ``BEGIN IMMEDIATE``), waiting up to ``LOCK_WAIT_SECONDS`` for a
    lock; never creates a store.

    Raises:
        StoreError: the state directory is displaced (:func:`check_location`);
        sqlite3.Error: SQLite cannot open it.
    """
    check_location(path)
    return sqlite3.connect(
        file_uri(path, "rw"), uri=True, timeout=LOCK_WAIT_SECONDS, isolation_level=None
    )


def _repair(
    path: str,
    what: str,
    body: Callable[[sqlite3.Connection], list[str]],
    *,
    any_version: bool = False,
) -> list[str]:
    """Run one ``doctor --fix`` repair: ``body`` on the store at ``path``
    (:func:`_open_for_repair`) inside one ``BEGIN IMMEDIATE`` transaction, committed when it
    returns; its lines. Unless ``any_version``, a store that is no current version is left
    alone (rolled back, no line: the schema check says what then).

    Never raises for the store's state: a store that cannot be opened or written is the one
    line ``could not {what} of {path}: {error}``, and nothing is written then.
    """
    try:
        conn = _open_for_repair(path)
    except Exception as exc:  # StoreError, sqlite3.Error: the store checks say why
        return [f"could not {what} of {path}: {exc}"]
    try:
        begin_immediate(conn)
        if not any_version and (
            int(conn.execute("PRAGMA user_version").fetchone()[0]) != SCHEMA_VERSION
        ):
            conn.execute("ROLLBACK")
            return []
        out = body(conn)
        conn.execute("COMMIT")
        return out
    except sqlite3.Error as exc:
        return [f"could not {what} of {path}: {exc}"]
    finally:
        conn.close()


def _objects(conn: sqlite3.Connection) -> frozenset[tuple[str, str, str, str]]:
    return frozenset(
        (str(t), str(n), str(tb), " ".join(str(sql).split()))
        for t, n, tb, sql in text_rows(conn, _OBJECTS)
    )


def _fresh_schemas() -> list[frozenset[tuple[str, str, str, str]]]:
    """The schema objects of a new store at each version, 0 to the current one."""
    fresh = sqlite3.connect(":memory:")
    try:
        out = [_objects(fresh)]
        for script in MIGRATIONS:
            for statement in migration_statements(script):
                fresh.execute(statement)
            out.append(_objects(fresh))
    finally:
        fresh.close()
    return out


def matching_version(conn: sqlite3.Connection) -> int | None:
    """The highest schema version whose tables, indexes and triggers the store's are
    exactly (their SQL compared with whitespace collapsed), or None when none is."""
    have = _objects(conn)
    for version, want in reversed(list(enumerate(_fresh_schemas()))):
        if have == want:
            return version
    return None


@frozen
class SchemaDifference:
    """One way a store's schema differs from the current one.

    Attributes:
        how: ``missing`` (the store lacks it), ``not ours`` (no gentle-hooks version
            creates it) or ``changed`` (ours, its SQL not ours).
        kind: ``table``, ``index``, ``trigger`` or ``view``; name: its name.
    """

    how: str
    kind: str
    name: str

    @property
    def words(self) -> str:
        """``missing kind name``, ``not ours: kind name``, ``changed: kind name``."""
        joint = " " if self.how == "missing" else ": "
        return f"{self.how}{joint}{self.kind} {self.name}"

    @property
    def is_trigger_fix(self) -> bool:
        """Whether ``doctor --fix`` repairs it (:func:`drop_foreign_triggers`): a trigger
        present in the store that no migration creates, or one of ours whose SQL changed."""
        return self.kind == "trigger" and self.how in ("not ours", "changed")

    @property
    def is_missing_fix(self) -> bool:
        """Whether ``doctor --fix`` repairs it (:func:`create_missing`): a table, index or
        trigger of ours the store lacks (SQLite's own objects are SQLite's to make)."""
        return self.how == "missing" and not self.name.startswith("sqlite_")


def schema_differences(conn: sqlite3.Connection) -> list[SchemaDifference]:
    """What of the store's schema differs from the current one (:class:`SchemaDifference`,
    missing ones first, then those not ours, then those changed): the tables, indexes and triggers
    it lacks (a dropped trigger silently disables what it guards, e.g. a tool call recorded
    once), the objects no gentle-hooks version creates (a planted trigger can delete rows
    as they are written), and our objects whose SQL is not ours (a unique index, a CHECK
    that refuses new rows). SQLite's own objects are compared too (one named ``sqlite_…``
    can be planted with ``writable_schema``)."""
    # every object but the statistics ANALYZE may add: LIKE's ``_`` matches any character
    # and ignores case, so ``NOT LIKE 'sqlite_%'`` would hide a trigger named sqlitexyz
    sql = "SELECT type, name, sql FROM sqlite_master WHERE name NOT GLOB 'sqlite_stat[0-9]*'"
    fresh = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS:
            for statement in migration_statements(script):
                fresh.execute(statement)
        want = {(str(t), str(n)): " ".join(str(q).split()) for t, n, q in fresh.execute(sql)}
    finally:
        fresh.close()
    have = {(str(t), str(n)): " ".join(str(q).split()) for t, n, q in text_rows(conn, sql)}
    changed = [key for key in sorted(want.keys() & have.keys()) if want[key] != have[key]]
    return (
        [SchemaDifference("missing", t, n) for t, n in sorted(want.keys() - have.keys())]
        + [SchemaDifference("not ours", t, n) for t, n in sorted(have.keys() - want.keys())]
        + [SchemaDifference("changed", t, n) for t, n in changed]
    )


def fix_words(differ: list[SchemaDifference]) -> str:
    """What ``doctor --fix`` does of the schema differences ``differ`` (each a trigger or
    missing fix), said after them: ``; the fix ...``."""
    if all(d.is_trigger_fix for d in differ):
        return "; the fix drops each, printing its SQL"
    words = "; the fix creates each missing one again (a table empty: its rows are gone)"
    if any(d.is_trigger_fix for d in differ):
        words += ", and drops or puts back each trigger, printing its SQL"
    return words


def restore_version(path: str) -> str | None:
    """``doctor --fix``: write back the schema version of a store whose ``user_version`` is
    lower than its tables (:func:`matching_version`), in one ``BEGIN IMMEDIATE``
    transaction that checks both again under the write lock; the line saying what was done,
    or None when there was nothing to do (no store, a version not lower than its tables).

    Never raises for the store's state: a store whose tables match no version, or that
    cannot be opened or written, is one line saying so and what to do; nothing is written.
    """
    try:
        conn = _open_for_repair(path)
    except Exception as exc:  # StoreError, sqlite3.Error: the store checks say why
        return f"could not restore the schema version of {path}: {exc}"
    try:
        begin_immediate(conn)
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version >= SCHEMA_VERSION:
            conn.execute("ROLLBACK")
            return None
        found = matching_version(conn)
        if found is None:
            conn.execute("ROLLBACK")
            return (
                f"{path}: user_version {version}, but its tables are those of no version "
                f"this gentle-hooks knows (0 to {SCHEMA_VERSION}); nothing was changed: "
                "upgrade gentle-hooks if a newer one wrote it, or keep the file and move it "
                "aside (a new ledger starts empty)"
            )
        if found <= version:
            conn.execute("ROLLBACK")
            return None
        conn.execute(f"PRAGMA user_version = {int(found)}")
        conn.execute("COMMIT")
        return (
            f"restored the schema version of {path}: user_version {version} -> {found} "
            "(its tables are that version's; no row changed)"
        )
    except sqlite3.Error as exc:
        return f"could not restore the schema version of {path}: {exc}"
    finally:
        conn.close()


#: The largest rowid SQLite gives (2**63 - 1).
LAST_ID = 2**63 - 1
#: A counter within this of :data:`LAST_ID` is at its end: no ledger records 2**32 rows,
#: so only a damaged or tampered counter gets there.
_END = LAST_ID - 2**32


def exhausted_counters(conn: sqlite3.Connection) -> list[tuple[str, int, int]]:
    """The tables whose next id is past the end: (table, counter, the highest id the table
    holds, 0 when empty), by table name. SQLite numbers a new row of an ``AUTOINCREMENT``
    table after the larger of its ``sqlite_sequence`` counter and its highest rowid, so
    either at its end fails every insert ("database or disk is full"); a table with no
    counter row counts 0 for it. A counter of a table that is gone counts for nothing."""
    try:
        counters = {
            str(name): int(seq)
            for name, seq in conn.execute(
                "SELECT name, seq FROM sqlite_sequence WHERE typeof(seq) = 'integer'"
            ).fetchall()
        }
    except sqlite3.OperationalError:  # no sqlite_sequence: no AUTOINCREMENT table yet
        return []
    sql = "SELECT name, sql FROM sqlite_master WHERE type = 'table'"
    tables = sorted(
        str(n)
        for n, q in text_rows(conn, sql)
        if str(n) in counters or "AUTOINCREMENT" in str(q).upper()
    )
    out = []
    for name in tables:
        quoted = '"' + name.replace('"', '""') + '"'
        top = int(conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {quoted}").fetchone()[0])
        seq = counters.get(name, 0)
        if max(seq, top) >= _END:
            out.append((name, seq, top))
    return out


def is_resettable(top: int) -> bool:
    """Whether a table whose highest id is ``top`` gets ids again once its counter is set
    back to ``top`` (not when that id is itself at the end: its rows are renumbered)."""
    return top < _END


def _renumber(conn: sqlite3.Connection, table: str) -> list[tuple[int, int]]:
    """Inside a write transaction: give each row of ``table`` whose id is at the end of
    SQLite's ids the next id after the highest one below that end, in id order (so the
    order of records is kept), and rewrite what refers to it: every column declared
    ``REFERENCES table (id)`` and the ``source_id`` of quarantine rows taken from ``table``.
    The (old, new) ids."""
    quoted = '"' + table.replace('"', '""') + '"'
    below = conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {quoted} WHERE rowid < ?", (_END,))
    nxt = int(below.fetchone()[0])
    ends = [
        int(r[0])
        for r in conn.execute(
            f"SELECT rowid FROM {quoted} WHERE rowid >= ? ORDER BY rowid", (_END,)
        )
    ]
    sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    refs = []
    for (other,) in text_rows(conn, sql):
        theirs = '"' + str(other).replace('"', '""') + '"'
        for fk in text_rows(conn, f"PRAGMA foreign_key_list({theirs})"):
            if str(fk[2]) == table and str(fk[4] or "id") == "id":
                refs.append((theirs, '"' + str(fk[3]).replace('"', '""') + '"'))
    moved = []
    for old in ends:
        nxt += 1
        conn.execute(f"UPDATE {quoted} SET rowid = ? WHERE rowid = ?", (nxt, old))
        for other, column in refs:
            conn.execute(f"UPDATE {other} SET {column} = ? WHERE {column} = ?", (nxt, old))
        if table != "quarantine" and "quarantine" in {o for (o,) in text_rows(conn, sql)}:
            conn.execute(
                "UPDATE quarantine SET source_id = ? WHERE source = ? AND source_id = ?",
                (nxt, table, old),
            )
        moved.append((old, nxt))
    return moved


def reset_counters(path: str) -> list[str]:
    """``doctor --fix``: set each counter at its end (:func:`exhausted_counters`) back to the
    highest id its table holds, in one ``BEGIN IMMEDIATE`` transaction that looks again
    under the write lock; a line per counter set back. Rows whose id is itself at the end
    are first renumbered after the highest id below it, with what refers to them
    (:func:`_renumber`); the line names each old and new id.

    Never raises for the store's state: a store that cannot be opened or written is one
    line saying so; nothing is written then.
    """

    def reset(conn: sqlite3.Connection) -> list[str]:
        lines = []
        for name, seq, top in exhausted_counters(conn):
            if not is_resettable(top):
                moved = _renumber(conn, name)
                top = moved[-1][1]
                ids = ", ".join(f"{old} -> {new}" for old, new in moved)
                lines.append(
                    f"renumbered the rows of {name} at the end of SQLite's ids in {path}: "
                    f"{ids} (and what refers to them)"
                )
            if seq > top or seq >= _END:
                conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (top, name))
                lines.append(
                    f"reset the id counter of {name} in {path}: {seq} -> {top} (the highest "
                    "id it holds; no row changed)"
                )
        return lines

    return _repair(path, "reset the id counters", reset, any_version=True)


def drop_foreign_triggers(path: str) -> list[str]:
    """``doctor --fix``: drop every trigger of a current store that no migration creates,
    and put back the SQL of each of ours that was changed
    (:func:`~gentle_hooks.ledger.schema.foreign_triggers`), in one ``BEGIN IMMEDIATE``
    transaction that reads them again under the write lock. One line per trigger, keeping
    the SQL it had (shown bounded) so a person can create it again; empty when there is
    none or the store is no current version (the schema check says what then). No row
    changes.

    Never raises for the store's state: a store that cannot be opened or written is one
    line saying so; nothing is written then.
    """
    from gentle_hooks.errors import shown_field
    from gentle_hooks.ledger.schema import TRIGGERS_SQL, foreign_triggers, own_triggers

    def drop(conn: sqlite3.Connection) -> list[str]:
        rows = conn.execute(TRIGGERS_SQL).fetchall()
        had = {str(name): str(sql) for name, sql in rows}
        ours = dict(own_triggers())
        out = []
        for name in foreign_triggers(rows):
            conn.execute('DROP TRIGGER "' + name.replace('"', '""') + '"')
            kept = shown_field(" ".join(had[name].split()))
            if name in ours:
                conn.execute(ours[name])
                out.append(f"put back gentle-hooks' trigger {name} in {path}; it was: {kept}")
            else:
                what = f"trigger {shown_field(name)} gentle-hooks did not create"
                out.append(f"dropped the {what} from {path}; it was: {kept}")
        return out

    return _repair(path, "drop the triggers", drop)


#: The order :func:`create_missing` creates objects in: a table before its indexes and
#: triggers.
_CREATE_ORDER = {"table": 0, "index": 1, "trigger": 2}


def create_missing(path: str) -> list[str]:
    """``doctor --fix``: create again every table, index and trigger of the current schema a
    current store lacks (:attr:`SchemaDifference.is_missing_fix`: a dropped table, say),
    each with the SQL the migrations give it, tables first, in one ``BEGIN IMMEDIATE``
    transaction that looks again under the write lock. A table comes back empty: the rows
    it held went with it, and nothing else is touched. One line per object; empty when
    none is missing or the store is no current version (the schema check says what then).

    Never raises for the store's state: a store that cannot be opened or written is one
    line saying so; nothing is written then.
    """

    def create(conn: sqlite3.Connection) -> list[str]:
        gone = [d for d in schema_differences(conn) if d.is_missing_fix]
        gone.sort(key=lambda d: (_CREATE_ORDER.get(d.kind, 3), d.name))
        out = []
        for d in gone:
            conn.execute(want[(d.kind, d.name)])
            empty = " (empty: the rows it held are gone)" if d.kind == "table" else ""
            out.append(f"created the missing {d.kind} {d.name} in {path} again{empty}")
        return out

    want = _current_sql()
    return _repair(path, "create the missing tables", create)


def _current_sql() -> dict[tuple[str, str], str]:
    """The SQL of each object a new store has at the current version, by (type, name)."""
    fresh = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS:
            for statement in migration_statements(script):
                fresh.execute(statement)
        sql = "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL"
        return {(str(t), str(n)): str(q) for t, n, q in fresh.execute(sql)}
    finally:
        fresh.close()
