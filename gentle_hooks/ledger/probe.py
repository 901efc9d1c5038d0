"""The hook pass path's read of the ledger: may these paths carry writer content? (SPEC §3,
§6)

Room ``ledger``, light probe: standard library only; ``sqlite3`` is imported only when a
ledger file exists. No ledger file means no records, and nothing is created. A ledger this
probe cannot read the quick way (another schema version, damage) is handed to the store,
which migrates it or raises its one-line error (a gate then fails closed).

A change can carry writer content only while some entry still attributes (``open`` or
``taken``): when none does, the gate has nothing to judge; otherwise the gate decides from
contents (:mod:`gentle_hooks.policy.attribution`), of the entry's own path or of any other
the content was moved or copied to.
"""

from __future__ import annotations

import os

from gentle_hooks.ledger.location import ledger_path, state_dir_displaced
from gentle_hooks.ledger.schema import HELD_WORK

TYPE_CHECKING = False  # importing typing costs ~10 ms; annotations are strings here
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

# Every state but the ended ones: a row edited to a state no code writes counts as live, so
# the store reads it (and refuses it in one line) instead of the gate skipping its path.
_LIVE = "state NOT IN ('settled', 'expired', 'discarded')"


def writer_paths_touched(common_dir: str, paths: Callable[[], Sequence[str]]) -> bool:
    """True when the ledger holds a live writer entry (of any path: writer content moved or
    copied to another path still counts), or writer work held in quarantine (the gate
    then refuses, naming it).

    Args:
        common_dir: the common git dir (the ledger lives under it).
        paths: the change's paths (kept for callers; the answer no longer depends on them).

    Raises:
        StoreError: the ledger exists but is damaged, newer, or unreadable.
    """
    path = ledger_path(common_dir)
    if not os.path.lexists(path):
        return state_dir_displaced(common_dir) and _through_store(path, paths)
    queries = _Queries(path)
    try:
        anything = queries.found(
            f"SELECT 1 FROM writer_entry WHERE {_LIVE} UNION ALL "
            f"SELECT 1 FROM quarantine WHERE {HELD_WORK} LIMIT 1",
            (),
        )
        if anything is None:
            return _through_store(path, paths)
        # a change of any path may hold a live entry's content, moved or copied there
        # (rows A1, A2 across paths): any live entry sends the change to the gate
        return bool(anything)
    finally:
        queries.close()


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
    """Whether a ledger file exists under ``common_dir``, or something displaced the state
    directory (the store then says what; nothing is opened here)."""
    return os.path.exists(ledger_path(common_dir)) or state_dir_displaced(common_dir)


def _query(path: str, sql: str, params: Sequence[str]) -> bool | None:
    """Whether ``sql`` finds a row (see :class:`_Queries`); None when the ledger cannot be
    read this way."""
    queries = _Queries(path)
    try:
        return queries.found(sql, params)
    finally:
        queries.close()


class _Queries:
    """Read-only questions to one ledger file over one connection, asked only after the
    schema version and ``quick_check`` are what this code knows (checked once)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn: Any = None  # sqlite3.Connection once opened and checked
        self.usable: bool | None = None  # None: not yet opened

    def found(self, sql: str, params: Sequence[str]) -> bool | None:
        """Whether ``sql`` finds a row; None when the ledger cannot be read this way."""
        import sqlite3

        if self.usable is None:
            self.usable = self._open()
        if not self.usable:
            return None
        try:
            return self.conn.execute(sql, params).fetchone() is not None
        except sqlite3.Error:
            return None

    def _open(self) -> bool:
        import sqlite3

        from gentle_hooks.ledger.location import sql_text
        from gentle_hooks.ledger.schema import SCHEMA_VERSION

        sqlite3.register_adapter(str, sql_text)  # as the store binds a non-UTF-8 path

        if not os.path.isfile(self.path) or os.path.getsize(self.path) == 0:
            return False
        if os.path.islink(self.path) or os.path.islink(os.path.dirname(self.path)):
            return False  # the store refuses it, in one line (ledger.sqlite_file.check_location)
        try:
            self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            check = self.conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        except (sqlite3.Error, OSError, UnicodeError):
            return False
        return bool(version == SCHEMA_VERSION and check == "ok")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _through_store(path: str, paths: Callable[[], Sequence[str]]) -> bool:
    """The same question through the store: it migrates an older ledger, or raises its
    one-line error for a damaged one (the gate fails closed)."""
    from gentle_hooks.ledger.store import Ledger

    led = Ledger.open_existing(path)
    if led is None:
        return False
    with led:
        return bool(led.live_entries())
