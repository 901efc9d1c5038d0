"""The schema version a ledger's tables are, and ``doctor --fix``'s repair of a lowered
``PRAGMA user_version`` (SPEC §6).

Room: ledger. Imports the standard library and its own room (:mod:`.schema` for the
migrations, :mod:`.sqlite_file` for the file checks). A store whose ``user_version`` is
lower than its tables cannot be migrated forward (the migrations would create what it
holds), so every command refuses it. When its tables, indexes and triggers are exactly
those the migrations give some version (the current one, most often), that version is
written back; nothing else changes and no row is touched. Otherwise nothing is written.
"""

from __future__ import annotations

import sqlite3

from gentle_hooks.ledger.schema import MIGRATIONS, SCHEMA_VERSION
from gentle_hooks.ledger.sqlite_file import check_location, file_uri, migration_statements

#: The schema objects of a store: (type, name, table, SQL with its whitespace collapsed).
_OBJECTS = (
    "SELECT type, name, tbl_name, sql FROM sqlite_master "
    "WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL"
)


def _objects(conn: sqlite3.Connection) -> frozenset[tuple[str, str, str, str]]:
    return frozenset(
        (str(t), str(n), str(tb), " ".join(str(sql).split()))
        for t, n, tb, sql in conn.execute(_OBJECTS)
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


def restore_version(path: str) -> str | None:
    """``doctor --fix``: write back the schema version of a store whose ``user_version`` is
    lower than its tables (:func:`matching_version`), in one ``BEGIN IMMEDIATE``
    transaction that checks both again under the write lock; the line saying what was done,
    or None when there was nothing to do (no store, a version not lower than its tables).

    Never raises for the store's state: a store whose tables match no version, or that
    cannot be opened or written, is one line saying so and what to do; nothing is written.
    """
    try:
        check_location(path)
        conn = sqlite3.connect(file_uri(path, "rw"), uri=True, timeout=30, isolation_level=None)
    except Exception as exc:  # StoreError, sqlite3.Error: the store checks say why
        return f"could not restore the schema version of {path}: {exc}"
    try:
        conn.execute("BEGIN IMMEDIATE")
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
