"""Folding the spool into the store (:mod:`.spool`): each spooled mutation and commit
record stored once.

Room ``ledger``. A spooled line goes through the insert path of a recorded mutation
(:func:`insert_mutation`), or of a commit record and the entries it took
(:func:`take_in`, :func:`consume_unlinked_in`); a line whose mutation is stored already
(the same tool call, or the same writer, paths and time: a fold that committed but was
killed before it removed the spool), or whose commit has a record already, is skipped, so a
replayed line records once. The lines a fold cannot read are kept aside
(:func:`~.spool.keep_aside`); ``doctor --fix`` folds them again (:func:`fold_kept`) and
holds in quarantine the ones still unreadable.
"""

from __future__ import annotations

import _sqlite3 as sqlite3  # the C module: see the ledger package docstring
import contextlib
import os
from collections.abc import Sequence

from gentle_hooks.ledger import spool
from gentle_hooks.ledger.connection import LedgerConnection, insert
from gentle_hooks.ledger.location import SPOOL_FILE
from gentle_hooks.ledger.records import (
    SPOOL_SOURCE,
    CommitRecord,
    EntryTake,
    PendingMutation,
    QuarantineRecord,
    WriterEntryRecord,
)
from gentle_hooks.ledger.rows import RowError, from_row, to_row
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.values.frozen import replace

_SAME_CALL = (
    "SELECT id FROM pending_mutation WHERE tool_call_id = ? AND source IS ? "
    "AND session_id IS ? ORDER BY id LIMIT 1"
)
_SAME_WRITE = (
    "SELECT id FROM pending_mutation WHERE root = ? AND recorded_at = ? AND model = ? "
    "AND effort = ? AND paths = ? AND source IS ? AND session_id IS ? "
    "AND tool_call_id IS NULL ORDER BY id LIMIT 1"
)
_CALL_KEYS: tuple[str, ...] = ("tool_call_id", "source", "session_id")
_WRITE_KEYS: tuple[str, ...] = (
    "root",
    "recorded_at",
    "model",
    "effort",
    "paths",
    "source",
    "session_id",
)


def fold(led: LedgerConnection) -> int:
    """Store the spooled mutations and commit records of ``led``'s ledger in one
    transaction, then remove the spool; how many were new (0 with no spool).

    Every line that reads as a record is stored; the lines that do not are written, byte for
    byte, to a kept-aside file first (:func:`~.spool.keep_aside`), which keeps the gates
    closed until ``doctor --fix`` reads it: one bad line never takes another record with it.

    Raises:
        StoreError: the write lock was not granted, or the unreadable lines could not be
            kept aside (the spool is kept as it is); a spool that is not a regular file or
            cannot be read (moved aside whole, named in the message).
    """
    with contextlib.ExitStack() as held, led._write() as conn:
        # the spool is removed (ExitStack) only after the transaction committed (led._write)
        try:
            lines = held.enter_context(spool.claimed(led.path))
        except spool.SpoolError as exc:
            raise StoreError(
                exc.kept, f"a spooled writer record cannot be read: {exc.why}; it is kept"
            ) from None
        recs, bad = read_lines(lines or ())
        if bad:
            try:
                spool.keep_aside(led.path, [raw for _, raw, _ in bad])
            except OSError as exc:
                raise StoreError(
                    spool.spool_path(led.path),
                    f"{len(bad)} spooled line(s) that are not records could not be kept "
                    f"aside ({exc.strerror}); the spool is kept as it is",
                ) from None
        return store_lines(conn, recs)


#: A spool line that is not a record: (line number, its bytes, why).
BadLine = tuple[int, bytes, str]


def read_lines(
    lines: Sequence[tuple[int, bytes]],
) -> tuple[list[spool.CommitLine | tuple[PendingMutation, list[WriterEntryRecord]]], list[BadLine]]:
    """The records of spool lines (each checked as rows of its tables), and the lines that
    are not records, with why."""
    recs: list[spool.CommitLine | tuple[PendingMutation, list[WriterEntryRecord]]] = []
    bad: list[BadLine] = []
    for number, raw in lines:
        try:
            item = spool.parse_line(raw)
            recs.append(_commit(item) if isinstance(item, spool.CommitLine) else _records(*item))
        except (spool.LineError, RowError) as exc:
            bad.append((number, raw, f"line {number} is not a spooled record ({exc})"))
    return recs, bad


def store_lines(
    conn: sqlite3.Connection,
    recs: Sequence[spool.CommitLine | tuple[PendingMutation, list[WriterEntryRecord]]],
) -> int:
    """Inside a write transaction: store the records of spool lines (:func:`read_lines`),
    each once (a replayed line is skipped); how many were new."""
    stored = 0
    for item in recs:
        if isinstance(item, spool.CommitLine):
            stored += _fold_commit(conn, item)
            continue
        mutation, entries = item
        if mutation.tool_call_id is not None:
            sql, keys = _SAME_CALL, _CALL_KEYS
        else:
            sql, keys = _SAME_WRITE, _WRITE_KEYS
        row = to_row(mutation)
        if conn.execute(sql, tuple(row[k] for k in keys)).fetchone() is None:
            insert_mutation(conn, mutation, entries, mutation.recorded_at)
            stored += 1
    return stored


def _commit(line: spool.CommitLine) -> spool.CommitLine:
    """``line`` with its row checked as a commit record's (:func:`_fold_commit` reads it).

    Raises:
        RowError: a row that is not a commit record.
    """
    from_row(CommitRecord, {**line.commit, "id": 1})  # type: ignore[arg-type]
    return line


def _fold_commit(conn: sqlite3.Connection, line: spool.CommitLine) -> int:
    """Inside the fold's transaction: store a spooled commit record, take the entries it
    took (those the store holds) and, when it says so, its root's unlinked escalations; 1,
    or 0 when the commit has a record already (stored once per commit)."""
    rec = from_row(CommitRecord, {**line.commit, "id": 1})  # type: ignore[arg-type]
    seen = conn.execute(
        "SELECT 1 FROM commit_record WHERE commit_id = ? LIMIT 1", (rec.commit_id,)
    ).fetchone()
    if seen is not None:
        return 0
    known = []
    for start in range(0, len(line.take), 500):
        chunk = line.take[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        found = conn.execute(f"SELECT id FROM writer_entry WHERE id IN ({marks})", chunk)
        known += sorted(int(r[0]) for r in found)
    take_in(conn, known, rec.commit_id, rec.identity, rec.hook, rec.recorded_at)
    if line.escalations:
        consume_unlinked_in(conn, rec.root, rec.commit_id, rec.identity)
    insert(conn, rec)
    return 1


def take_in(
    conn: sqlite3.Connection,
    entry_ids: Sequence[int],
    commit_id: str,
    identity: str,
    hook: str,
    now: float,
) -> None:
    """Inside a transaction: record that ``commit_id`` carried these entries (once per entry
    and commit); an open entry becomes ``taken``; mutations and escalations whose entries
    are all taken are no longer pending (``consumed_by`` is set to the commit)."""
    if not entry_ids:
        return
    for entry_id in entry_ids:
        seen = conn.execute(
            "SELECT 1 FROM entry_take WHERE entry_id = ? AND commit_id = ?",
            (entry_id, commit_id),
        ).fetchone()
        if seen is None:
            insert(conn, EntryTake(entry_id, commit_id, identity, hook, recorded_at=now))
    marks = ", ".join("?" for _ in entry_ids)
    conn.execute(
        f"UPDATE writer_entry SET state = 'taken' WHERE state = 'open' AND id IN ({marks})",
        list(entry_ids),
    )
    conn.execute(
        "UPDATE pending_mutation SET consumed_by = ?, consumed_identity = ? "
        "WHERE consumed_by IS NULL AND id IN (SELECT mutation_id FROM writer_entry "
        f"WHERE id IN ({marks})) AND NOT EXISTS (SELECT 1 FROM writer_entry AS w "
        "WHERE w.mutation_id = pending_mutation.id AND w.state = 'open')",
        [commit_id, identity, *entry_ids],
    )
    conn.execute(
        "UPDATE escalation SET consumed_by = ?, consumed_identity = ? "
        "WHERE consumed_by IS NULL AND id IN (SELECT escalation_id FROM escalation_entry "
        f"WHERE entry_id IN ({marks})) AND NOT EXISTS (SELECT 1 FROM escalation_entry AS l "
        "JOIN writer_entry AS w ON w.id = l.entry_id "
        "WHERE l.escalation_id = escalation.id AND w.state = 'open')",
        [commit_id, identity, *entry_ids],
    )


def consume_unlinked_in(conn: sqlite3.Connection, root: str, commit_id: str, identity: str) -> None:
    """Inside a transaction: a commit of the root takes its unlinked sticky escalations
    (SPEC §5: they move into the commit's record)."""
    conn.execute(
        "UPDATE escalation SET consumed_by = ?, consumed_identity = ? "
        "WHERE root = ? AND consumed_by IS NULL AND id NOT IN "
        "(SELECT escalation_id FROM escalation_entry)",
        (commit_id, identity, root),
    )


def _records(
    mutation: dict[str, object], entries: list[dict[str, object]]
) -> tuple[PendingMutation, list[WriterEntryRecord]]:
    """The records of one spool line.

    Raises:
        RowError: a row that is not a record of its table (the line is malformed).
    """
    # row ids the insert replaces: any valid one passes the row check
    rec = from_row(PendingMutation, {**mutation, "id": 1})  # type: ignore[arg-type]
    out = [
        from_row(WriterEntryRecord, {**e, "id": 1, "mutation_id": 1})  # type: ignore[arg-type]
        for e in entries
    ]
    return rec, out


def insert_mutation(
    conn: sqlite3.Connection,
    mutation: PendingMutation,
    entries: Sequence[WriterEntryRecord],
    now: float,
) -> tuple[PendingMutation, tuple[WriterEntryRecord, ...]]:
    """Inside a transaction: insert a mutation and its entries, and link the entries to the
    root's open escalations."""
    mutation = replace(mutation, id=insert(conn, mutation))
    stored = []
    for entry in entries:
        entry = replace(entry, mutation_id=mutation.id, recorded_at=now)
        stored.append(replace(entry, id=insert(conn, entry)))
    open_escalations = _open_escalation_ids(conn, mutation.root)
    conn.executemany(
        "INSERT OR IGNORE INTO escalation_entry (escalation_id, entry_id) VALUES (?, ?)",
        [(esc, e.id) for esc in open_escalations for e in stored],
    )
    return mutation, tuple(stored)


def _open_escalation_ids(conn: sqlite3.Connection, root: str) -> list[int]:
    """Inside a transaction: the root's escalations still sticky for new writer work: not
    consumed by a commit, and either made while no writer work was in flight (linked to no
    entry) or linked to an entry still open. One whose work is gone (every entry of it
    expired, discarded or settled) is not: it stays with that work, whose content brought
    back carries it again, and never reaches unrelated later work (SPEC §5 "Escalation")."""
    rows = conn.execute(
        "SELECT id FROM escalation WHERE root = ? AND consumed_by IS NULL AND ("
        "NOT EXISTS (SELECT 1 FROM escalation_entry l WHERE l.escalation_id = escalation.id) "
        "OR EXISTS (SELECT 1 FROM escalation_entry l JOIN writer_entry w ON w.id = l.entry_id "
        "WHERE l.escalation_id = escalation.id AND w.state = 'open')) ORDER BY id",
        (root,),
    )
    return [int(r[0]) for r in rows]


def fold_kept(led: LedgerConnection, kept: str) -> tuple[int, list[QuarantineRecord]]:
    """``doctor --fix``: fold the lines of the kept-aside spool file ``kept``
    (:func:`~.spool.keep_aside`) in, each record once, and hold each line still not a record
    in the ``quarantine`` table (source ``spool``: its bytes exactly, as JSON ``{"line":
    HEX}``, the file named in ``why``; a file that cannot be read at all, one row
    ``{"file": NAME, "line": null}``), all in one transaction; then rename the file
    ``spool.jsonl.folded-...`` (kept, no longer blocking). A held line keeps the gates
    closed until a person discards it. The records stored and the rows now held (the same
    bytes held before are not held twice).

    Raises:
        StoreError: the store cannot be written (nothing was stored or renamed);
        OSError: the rename failed (every line is stored or held: the next fix renames it).
    """
    import json

    name = os.path.basename(kept)
    try:
        lines: list[tuple[int, bytes]] | None = _kept_lines(kept)
        trouble = ""
    except OSError as exc:
        lines, trouble = None, f"{name} cannot be read: {exc.strerror or exc}"
    recs, bad = read_lines(lines or ())
    unread: list[tuple[int | None, str | None, str]]
    unread = [(n, raw.hex(), f"{name}: {why}") for n, raw, why in bad]
    if lines is None:
        unread = [(None, None, trouble)]
    held: list[QuarantineRecord] = []
    with led._write() as conn:
        stored = store_lines(conn, recs)
        for number, line, why in unread:
            # the same bytes kept twice (a fold killed after it kept them) are held once
            row = json.dumps({"line": line} if line else {"file": name, "line": None})
            seen = conn.execute(
                "SELECT 1 FROM quarantine WHERE source = ? AND row = ?", (SPOOL_SOURCE, row)
            ).fetchone()
            if seen is None:
                rec = QuarantineRecord(SPOOL_SOURCE, number, why, row, recorded_at=led._clock())
                held.append(replace(rec, id=insert(conn, rec)))
    rest = name[len(SPOOL_FILE + spool.BAD_SUFFIX) :]  # "-<time>-<random>"
    os.rename(kept, os.path.join(os.path.dirname(kept), f"{SPOOL_FILE}.folded{rest}"))
    return stored, held


def _kept_lines(kept: str) -> list[tuple[int, bytes]]:
    """The lines of a kept-aside spool file (a regular file, never through a link, at most
    :data:`~.spool.MAX_LINE` bytes), numbered, blank ones left out.

    Raises:
        OSError: not a regular file, too large, or unreadable.
    """
    import stat

    fd = os.open(kept, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file")
        data = b""
        while len(data) <= spool.MAX_LINE:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > spool.MAX_LINE:
        raise OSError(0, f"larger than {spool.MAX_LINE} bytes")
    return [(n, raw) for n, raw in enumerate(data.split(b"\n"), 1) if raw.strip()]
