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

from gentle_hooks.ledger.kept import DAMAGED_KEPT, SPOOL_KEPT, kept_files
from gentle_hooks.ledger.location import (
    IDLE_FILE,
    LEDGER_FILE,
    SPOOL_FILE,
    STATE_DIR,
    ledger_path,
    state_dir_displaced,
)
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
    copied to another path still counts), or writer work held in quarantine, or a file kept
    aside holds writer records no command has read (:mod:`.kept`; the gate then refuses,
    naming it), or the ledger holds a trigger gentle-hooks did not create while no live
    entry shows (such a trigger may have deleted them; the gate refuses the ledger,
    naming it).

    Args:
        common_dir: the common git dir (the ledger lives under it).
        paths: the change's paths; not read: the answer is about the whole ledger.

    Raises:
        StoreError: the ledger exists but is damaged, newer, or unreadable.
    """
    path = ledger_path(common_dir)
    if kept_files(os.path.dirname(path)):
        return True  # writer records no command has read: the gate refuses, naming them
    if not os.path.lexists(path):
        return state_dir_displaced(common_dir) and _through_store(path, paths)
    if os.path.lexists(os.path.join(os.path.dirname(path), SPOOL_FILE)):
        return _through_store(path, paths)  # folds the spool in, or fails closed
    queries = _Queries(path)
    try:
        anything = queries.found(
            f"SELECT 1 FROM writer_entry WHERE {_LIVE} UNION ALL "
            f"SELECT 1 FROM quarantine WHERE {HELD_WORK} LIMIT 1",
            (),
        )
        if anything is None:
            return _through_store(path, paths)
        if not anything and queries.foreign_trigger():
            return True  # it may have emptied the tables: the gate refuses the store, naming it
        # a change of any path may hold a live entry's content, moved or copied there
        # (rows A1, A2 across paths): any live entry sends the change to the gate
        return bool(anything)
    finally:
        queries.close()


#: Ended entries (settled, expired, discarded): their writer blobs are the idle sentinel's lines
#: (:data:`gentle_hooks.ledger.schema.ENDED_BLOBS_SQL`).
_ENDED = "state IN ('settled', 'expired', 'discarded') AND blob IS NOT NULL AND blob != ''"


def ended_blobs_staged(common_dir: str, blobs: Callable[[], Sequence[str]]) -> bool:
    """True when an old or new blob of the staged change is the writer blob of an ended
    entry: expired writer content restored (a dropped stash brought back), or a committed
    writer file changed again (an amend of the writer's commit). The gate decides from
    contents; ``blobs`` is read only when the ledger has an ended entry. A ledger this
    probe cannot read answers True (the gate reads it and says what is wrong).
    """
    return _blob_of(common_dir, blobs, _ENDED)


def discarded_blob_in(common_dir: str, blobs: Callable[[], Sequence[str]]) -> bool:
    """True when one of ``blobs`` (post-commit: ``HEAD``'s change) is the writer blob of a
    discarded entry: a human's commit of content claimed by a discard gets a note saying
    so. ``blobs`` is read only when the ledger has a discarded entry; a ledger this probe
    cannot read answers True."""
    return _blob_of(common_dir, blobs, "state = 'discarded' AND blob IS NOT NULL")


def ended_paths_in(common_dir: str, paths: Callable[[], Sequence[str]]) -> bool:
    """True when one of ``paths`` (the change's) is the path of an expired or discarded
    entry: the change may bring that work's distinctive lines back
    (:func:`gentle_hooks.policy.distinctive.brought_back`; the gate decides from contents).
    ``paths`` is read only when the ledger has such an entry (the ``(path, state)`` index);
    a ledger this probe cannot read answers True."""
    return _blob_of(common_dir, paths, "state IN ('expired', 'discarded')", "path")


def claimed_paths_in(common_dir: str, paths: Callable[[], Sequence[str]]) -> bool:
    """True when one of ``paths`` (post-commit: ``HEAD``'s) is a path a person claimed
    writer content at (a discard ending no entry: :mod:`gentle_hooks.services.claims`):
    the commit's note names the claim. ``paths`` is read only when the ledger has such a
    claim; a ledger this probe cannot read answers True."""
    return _found_among(
        common_dir,
        "SELECT 1 FROM discard WHERE entries = '[]' LIMIT 1",
        paths,
        lambda marks: (
            "SELECT 1 FROM discard AS d, json_each(d.paths) AS p "
            f"WHERE d.entries = '[]' AND p.value IN ({marks}) LIMIT 1"
        ),
    )


def _blob_of(
    common_dir: str, blobs: Callable[[], Sequence[str]], where: str, column: str = "blob"
) -> bool:
    """Whether an entry matching ``where`` has one of ``blobs`` as its writer blob (or as
    its ``column``: ``path``) (read only when an entry matches ``where`` at all); True when
    the ledger cannot be read."""
    return _found_among(
        common_dir,
        f"SELECT 1 FROM writer_entry WHERE {where} LIMIT 1",
        blobs,
        lambda marks: f"SELECT 1 FROM writer_entry WHERE {where} AND {column} IN ({marks}) LIMIT 1",
    )


def _found_among(
    common_dir: str,
    any_sql: str,
    values: Callable[[], Sequence[str]],
    among_sql: Callable[[str], str],
) -> bool:
    """Whether the ledger has a row ``among_sql`` finds for one of ``values`` (its argument:
    the ``?`` marks of one chunk); ``values`` is read only when ``any_sql`` finds a row at
    all. False without a ledger; True when the ledger cannot be read."""
    path = ledger_path(common_dir)
    if not os.path.lexists(path):
        return False
    queries = _Queries(path)
    try:
        some = queries.found(any_sql, ())
        if not some:
            return some is None
        wanted = list(values())
        for i in range(0, len(wanted), 500):  # under SQLite's bound-parameter limit
            chunk = wanted[i : i + 500]
            if queries.found(among_sql(", ".join("?" for _ in chunk)), chunk) is not False:
                return True
        return False
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


#: When the idle sentinel (:func:`gentle_hooks.ledger.location.idle_path`) proves the ledger
#: holds nothing pending, read without opening it: the installed hooks' ``sh`` fast path is
#: generated from these rows (:func:`gentle_hooks.services.fastpath.ledger_idle_sh`), and
#: :func:`idle_by_sentinel` reads them in Python. Paths: ``state`` the state directory
#: under the common git dir, ``ledger`` the ledger file, ``idle`` the sentinel, ``wal`` the
#: ledger's write-ahead log, ``spool`` the spool (:mod:`.spool`); ``spool-kept`` and
#: ``damaged`` are name prefixes of kept-aside files (:mod:`.kept`). A test is
#: ``(negated, operator, path, other)`` with the ``test(1)`` operators
#: ``-L -e -d -f -s -nt`` (``-nt``: ``path`` modified after ``other``; the rows ask it
#: only when both exist) and ``-any``: some name in the directory starts with the prefix
#: (``sh``: the glob ``prefix*`` matches a file or a link). A row is
#: ``(id, form, tests, idle)``: form ``unless`` answers ``idle`` when one of its tests
#: fails, ``when`` answers it when all hold; the first row that answers decides.
IDLE_ROWS: tuple[tuple[str, str, tuple[tuple[bool, str, str, str | None], ...], bool], ...] = (
    ("state-link", "unless", ((True, "-L", "state", None),), False),
    ("no-state", "unless", ((False, "-e", "state", None),), True),
    ("state-not-dir", "unless", ((False, "-d", "state", None),), False),
    # writer records kept aside that no command has read keep every gate closed (ledger.kept)
    (
        "kept-aside",
        "unless",
        ((True, "-any", "spool-kept", None), (True, "-any", "damaged", None)),
        False,
    ),
    # a writer record spooled behind another process's lock is pending work the store
    # does not show yet (ledger.spool): only Python can fold it in
    ("spool-waiting", "unless", ((True, "-e", "spool", None), (True, "-L", "spool", None)), False),
    ("no-ledger", "when", ((True, "-e", "ledger", None), (True, "-L", "ledger", None)), True),
    (
        "ledger-not-plain",
        "unless",
        (
            (False, "-f", "ledger", None),
            (True, "-L", "ledger", None),
            (False, "-s", "ledger", None),
        ),
        False,
    ),
    (
        "ledger-after-sentinel",
        "unless",
        ((False, "-f", "idle", None), (True, "-L", "idle", None), (True, "-nt", "ledger", "idle")),
        False,
    ),
)
#: After every row: idle when all the tests of one of these hold (an empty write-ahead
#: log, or one the sentinel's time is not older than).
IDLE_LAST: tuple[tuple[tuple[bool, str, str, str | None], ...], ...] = (
    ((True, "-s", "wal", None),),
    ((True, "-nt", "wal", "idle"),),
)


def idle_by_sentinel(common_dir: str) -> bool:
    """:data:`IDLE_ROWS` and :data:`IDLE_LAST` read in Python for the ledger under
    ``common_dir``: True when the sentinel proves nothing is pending (or there is no
    ledger); False when only the store can say."""
    state = os.path.join(common_dir, STATE_DIR)
    ledger = os.path.join(state, LEDGER_FILE)
    paths = {"state": state, "ledger": ledger, "idle": os.path.join(state, IDLE_FILE)}
    paths["wal"] = ledger + "-wal"
    paths["spool"] = os.path.join(state, SPOOL_FILE)
    paths["spool-kept"] = os.path.join(state, SPOOL_KEPT)
    paths["damaged"] = os.path.join(state, DAMAGED_KEPT)

    def holds(test: tuple[bool, str, str, str | None]) -> bool:
        negated, op, path, other = test
        return _file_test(op, paths[path], paths[other] if other else "") != negated

    for _id, form, tests, idle in IDLE_ROWS:
        if all(holds(t) for t in tests) == (form == "when"):
            return idle
    return any(all(holds(t) for t in alt) for alt in IDLE_LAST)


def _file_test(op: str, path: str, other: str) -> bool:
    """``test <op> path`` (``test path -nt other``) as ``sh`` answers it."""
    if op == "-L":
        return os.path.islink(path)
    if op == "-e":
        return os.path.exists(path)
    if op == "-d":
        return os.path.isdir(path)
    if op == "-f":
        return os.path.isfile(path)
    if op == "-any":
        prefix = os.path.basename(path)
        try:
            return any(n.startswith(prefix) for n in os.listdir(os.path.dirname(path)))
        except OSError:
            return False
    try:
        st = os.stat(path)
        if op == "-s":
            return st.st_size > 0
        return st.st_mtime_ns > os.stat(other).st_mtime_ns  # -nt
    except OSError:
        return False


#: Where the background shell windows are kept under the state directory
#: (:data:`gentle_hooks.services.agent_shell.SHELL_DIR`, then
#: :data:`gentle_hooks.services.agent_windows.WINDOW_DIR`; a test holds them equal).
WINDOWS_DIR = ("shell", "windows")


def windows_open(common_dir: str) -> bool:
    """Whether a background shell call's window is kept in the repository (a ``.json`` file
    in :data:`WINDOWS_DIR`): one directory listing, none when the directory is absent."""
    try:
        names = os.listdir(os.path.join(common_dir, STATE_DIR, *WINDOWS_DIR))
    except OSError:
        return False
    return any(n.endswith(".json") for n in names)


#: Where the running shell calls' files are kept under the state directory
#: (:mod:`gentle_hooks.services.agent_inflight`).
CALLS_DIR = ("shell", "calls")


def calls_open(common_dir: str) -> bool:
    """Whether a running shell call's file is kept in the repository (a ``.json`` file in
    :data:`CALLS_DIR`): one directory listing, none when the directory is absent."""
    try:
        names = os.listdir(os.path.join(common_dir, STATE_DIR, *CALLS_DIR))
    except OSError:
        return False
    return any(n.endswith(".json") for n in names)


def moves_waiting(common_dir: str) -> bool:
    """Whether a gate has a background window (:func:`windows_open`) or a running shell
    call (:func:`calls_open`) to move before it judges: at most two directory listings."""
    return windows_open(common_dir) or calls_open(common_dir)


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
        import _sqlite3 as sqlite3

        if self.usable is None:
            self.usable = self._open()
        if not self.usable:
            return None
        try:
            return self.conn.execute(sql, params).fetchone() is not None
        except sqlite3.Error:
            return None

    def foreign_trigger(self) -> bool:
        """Whether the (opened) ledger holds a trigger no migration creates, or one of ours
        whose SQL is not ours (:func:`~gentle_hooks.ledger.schema.foreign_triggers`); a
        schema that cannot be read counts as one (the gate then reads it). One query of
        ``sqlite_master`` on this connection (tens of microseconds)."""
        import _sqlite3 as sqlite3

        from gentle_hooks.ledger.schema import TRIGGERS_SQL, foreign_triggers

        if not self.usable:
            return True
        try:
            return bool(foreign_triggers(self.conn.execute(TRIGGERS_SQL)))
        except sqlite3.Error:
            return True

    def _open(self) -> bool:
        import _sqlite3 as sqlite3

        from gentle_hooks.ledger.location import sql_text
        from gentle_hooks.ledger.schema import SCHEMA_VERSION

        sqlite3.register_adapter(str, sql_text)  # as the store binds a non-UTF-8 path

        if not os.path.isfile(self.path) or os.path.getsize(self.path) == 0:
            return False
        if os.path.islink(self.path) or os.path.islink(os.path.dirname(self.path)):
            return False  # the store refuses it, in one line (ledger.sqlite_file.check_location)
        for companion in (self.path + "-wal", self.path + "-shm", self.path + "-journal"):
            if os.path.islink(companion) or (
                os.path.lexists(companion) and not os.path.isfile(companion)
            ):
                return False  # a FIFO there blocks SQLite's open for ever; the store refuses it
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
