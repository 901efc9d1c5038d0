"""The hook pass path's read of the ledger: is there pending writer work? (SPEC §6)

Room ``ledger``, light probe: standard library only; ``sqlite3`` is imported only when a
ledger file exists. No ledger file means no records, and nothing is created. A ledger this
probe cannot read the quick way (another schema version, damage) is handed to the store,
which migrates it or raises its one-line error (a gate then fails closed).
"""

from __future__ import annotations

import os

from gentle_hooks.ledger.location import ledger_path

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Sequence


def has_pending_work(common_dir: str, root: str | None) -> bool:
    """True when the ledger under ``common_dir`` holds pending writer mutations for the
    work tree ``root`` (False for a bare repository or when there is no ledger).

    Raises:
        StoreError: the ledger exists but is damaged, newer, or unreadable.
    """
    path = ledger_path(common_dir)
    if root is None or not os.path.lexists(path):
        return False
    found = pending_rows(path, root, ("pending_mutation",))
    if found is None:
        from gentle_hooks.ledger.store import Ledger

        led = Ledger.open_existing(path)  # raises the store's error; migrates an older one
        if led is None:
            return False
        with led:
            return bool(led.pending_mutations(root))
    return found


def pending_rows(path: str, root: str, tables: Sequence[str]) -> bool | None:
    """Whether any of ``tables`` holds an unconsumed row for ``root``.

    One read-only query per table, after checking that the schema version and
    ``quick_check`` are what this code knows.

    Returns:
        True / False; None when the ledger cannot be read this way (the caller asks the
        store, which explains).
    """
    import sqlite3

    from gentle_hooks.ledger.schema import SCHEMA_VERSION

    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            check = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
            if version != SCHEMA_VERSION or check != "ok":
                return None
            for table in tables:
                row = conn.execute(
                    f"SELECT 1 FROM {table} WHERE root = ? AND consumed_by IS NULL LIMIT 1",
                    (root,),
                ).fetchone()
                if row is not None:
                    return True
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        return None
    return False


def ledger_exists(common_dir: str) -> bool:
    """Whether a ledger file exists under ``common_dir`` (nothing is opened)."""
    return os.path.exists(ledger_path(common_dir))
