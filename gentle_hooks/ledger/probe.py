"""The hook pass path's read of the ledger: may these paths carry writer content? (SPEC §3,
§6)

Room ``ledger``, light probe: standard library only; ``sqlite3`` is imported only when a
ledger file exists. No ledger file means no records, and nothing is created. A ledger this
probe cannot read the quick way (another schema version, damage) is handed to the store,
which migrates it or raises its one-line error (a gate then fails closed).

A change can carry writer content only on a path a writer wrote whose entry still
attributes (``open`` or ``taken``): when none of the change's paths has one, the gate has
nothing to judge; otherwise the gate decides from contents
(:mod:`gentle_hooks.policy.attribution`).
"""

from __future__ import annotations

import os

from gentle_hooks.ledger.location import ledger_path

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

_LIVE = "state IN ('open', 'taken')"


def writer_paths_touched(common_dir: str, paths: Callable[[], Sequence[str]]) -> bool:
    """True when one of the change's paths has a live writer entry.

    Args:
        common_dir: the common git dir (the ledger lives under it).
        paths: the change's paths, asked only when the ledger holds a live entry at all
            (it costs a git process).

    Raises:
        StoreError: the ledger exists but is damaged, newer, or unreadable.
    """
    path = ledger_path(common_dir)
    if not os.path.lexists(path):
        return False
    anything = _query(path, f"SELECT 1 FROM writer_entry WHERE {_LIVE} LIMIT 1", ())
    if anything is None:
        return _through_store(path, paths)
    if not anything:
        return False
    wanted = list(paths())
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        sql = f"SELECT 1 FROM writer_entry WHERE {_LIVE} AND path IN ({marks}) LIMIT 1"
        found = _query(path, sql, chunk)
        if found is None:
            return _through_store(path, paths)
        if found:
            return True
    return False


def escalation_waiting(common_dir: str, root: str) -> bool:
    """True when the work tree ``root`` has a sticky escalation no commit took yet and no
    writer work carries (it moves into the next commit's record, SPEC §5)."""
    path = ledger_path(common_dir)
    sql = (
        "SELECT 1 FROM escalation WHERE root = ? AND consumed_by IS NULL AND id NOT IN "
        "(SELECT escalation_id FROM escalation_entry) LIMIT 1"
    )
    found = _query(path, sql, (root,))
    if found is not None:
        return found
    from gentle_hooks.ledger.store import Ledger

    led = Ledger.open_existing(path)
    if led is None:
        return False
    with led:
        return bool(led.unlinked_escalations(root))


def ledger_exists(common_dir: str) -> bool:
    """Whether a ledger file exists under ``common_dir`` (nothing is opened)."""
    return os.path.exists(ledger_path(common_dir))


def _query(path: str, sql: str, params: Sequence[str]) -> bool | None:
    """Whether ``sql`` finds a row, read-only, after checking that the schema version and
    ``quick_check`` are what this code knows; None when the ledger cannot be read this way."""
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
            return conn.execute(sql, params).fetchone() is not None
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        return None


def _through_store(path: str, paths: Callable[[], Sequence[str]]) -> bool:
    """The same question through the store: it migrates an older ledger, or raises its
    one-line error for a damaged one (the gate fails closed)."""
    from gentle_hooks.ledger.store import Ledger

    led = Ledger.open_existing(path)
    if led is None:
        return False
    with led:
        return bool(led.live_entries(list(paths())))
