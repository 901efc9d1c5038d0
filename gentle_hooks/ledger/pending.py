"""Pending writer work (SPEC §3 "Attribution follows content", §5 "Escalation", §6):
mutations, the entries they wrote, the commits that took them, sticky escalations, discards.

Room ``ledger``. Keyed by work tree root and by path, never by "the next commit": an entry
says what a writer wrote; which change carries it is decided from content
(:mod:`gentle_hooks.policy.attribution`) by whoever judges a change.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.ledger.connection import IN_CHUNK, LedgerConnection, insert
from gentle_hooks.ledger.records import (
    ENDED_STATES,
    LIVE_STATES,
    CommitRecord,
    CommitWorktree,
    DiscardRecord,
    EntryTake,
    EscalationRecord,
    PendingMutation,
    WriterEntryRecord,
)
from gentle_hooks.values.frozen import replace


class PendingWork(LedgerConnection):
    """Queries of the pending writer work in a ledger."""

    def pending_mutations(self, root: str) -> list[PendingMutation]:
        """The root's pending (unconsumed) mutations, oldest first."""
        return self._select(PendingMutation, "root = ? AND consumed_by IS NULL", (root,))

    def last_pending_mutation(self, root: str) -> PendingMutation | None:
        """The root's newest pending (unconsumed) mutation, or None."""
        return self._select_one(
            PendingMutation,
            "id = (SELECT MAX(id) FROM pending_mutation WHERE root = ? AND consumed_by IS NULL)",
            (root,),
        )

    def pending_escalations(self, root: str) -> list[EscalationRecord]:
        """The root's pending (unconsumed) escalations, oldest first (sticky, SPEC §5)."""
        return self._select(EscalationRecord, "root = ? AND consumed_by IS NULL", (root,))

    def delivered_work(
        self, commit_ids: Sequence[str]
    ) -> tuple[list[PendingMutation], list[EscalationRecord]]:
        """The writer mutations and escalations the given commits delivered: those whose
        entries a commit was recorded as carrying (:meth:`take_entries`), and those a
        commit consumed before contents were kept (``consumed_by``)."""
        if not commit_ids:
            return [], []
        ids = list(commit_ids)
        marks = ", ".join("?" for _ in ids)
        taken = f"SELECT entry_id FROM entry_take WHERE commit_id IN ({marks})"
        return (
            self._select(
                PendingMutation,
                f"consumed_by IN ({marks}) OR id IN "
                f"(SELECT mutation_id FROM writer_entry WHERE id IN ({taken}))",
                ids + ids,
            ),
            self._select(
                EscalationRecord,
                f"consumed_by IN ({marks}) OR id IN "
                f"(SELECT escalation_id FROM escalation_entry WHERE entry_id IN ({taken}))",
                ids + ids,
            ),
        )

    def escalated_commit_records(self) -> list[CommitRecord]:
        """Commit records whose commit (or the commit it was rewritten from) delivered an
        escalation: one consumed by it, or one linked to an entry it took; oldest first."""
        delivered = (
            "SELECT consumed_by FROM escalation WHERE consumed_by IS NOT NULL "
            "UNION SELECT t.commit_id FROM entry_take t "
            "JOIN escalation_entry l ON l.entry_id = t.entry_id"
        )
        return self._select(CommitRecord, f"commit_id IN ({delivered}) OR origin IN ({delivered})")

    def delivered_work_each(
        self, commit_ids: Sequence[str]
    ) -> dict[str, tuple[list[PendingMutation], list[EscalationRecord]]]:
        """:meth:`delivered_work` of each commit on its own (keyed by commit id, each
        given id present), every table read once for all of them."""
        heads = list(dict.fromkeys(commit_ids))
        taken: dict[str, set[int]] = {h: set() for h in heads}
        for start in range(0, len(heads), IN_CHUNK):
            chunk = heads[start : start + IN_CHUNK]
            marks = ", ".join("?" for _ in chunk)
            sql = f"SELECT commit_id, entry_id FROM entry_take WHERE commit_id IN ({marks})"
            for row in self._query(sql, chunk):
                taken[row[0]].add(self._ids("entry_take", ("entry_id",), row[1:])[0])
        entries = sorted({e for es in taken.values() for e in es})
        mutation_of: dict[int, int] = {}
        for start in range(0, len(entries), IN_CHUNK):
            ids = entries[start : start + IN_CHUNK]
            marks = ", ".join("?" for _ in ids)
            sql = f"SELECT id, mutation_id FROM writer_entry WHERE id IN ({marks})"
            for r in self._query(sql, ids):
                entry, mutation = self._ids("writer_entry", ("id", "mutation_id"), r)
                mutation_of[entry] = mutation
        links = self.escalation_links(entries)
        muts = {m.id: m for m in self._select_in(PendingMutation, "consumed_by", heads)}
        muts.update((m.id, m) for m in self.mutations(sorted(set(mutation_of.values()))))
        escs = {e.id: e for e in self._select_in(EscalationRecord, "consumed_by", heads)}
        escs.update((e.id, e) for e in self.escalations_by_id(sorted({a for a, _ in links})))
        out = {}
        for h in heads:
            mids = {mutation_of[e] for e in taken[h] if e in mutation_of}
            eids = {a for a, b in links if b in taken[h]}
            out[h] = (
                [m for _, m in sorted(muts.items()) if m.consumed_by == h or m.id in mids],
                [e for _, e in sorted(escs.items()) if e.consumed_by == h or e.id in eids],
            )
        return out

    def escalations_for_identities(
        self, root: str, identities: Sequence[str]
    ) -> list[EscalationRecord]:
        """:meth:`escalations_for_identity` of many identities at once, oldest first."""
        return self._select_in(EscalationRecord, "identity", identities, "root = ?", (root,))

    def escalations_by_id(self, ids: Sequence[int]) -> list[EscalationRecord]:
        """Escalations by id, oldest first."""
        return self._select_in(EscalationRecord, "id", ids)

    def escalation_links(self, entry_ids: Sequence[int]) -> list[tuple[int, int]]:
        """(escalation id, entry id) of every escalation linked to any of these entries."""
        out: list[tuple[int, int]] = []
        ids = list(dict.fromkeys(entry_ids))
        for start in range(0, len(ids), IN_CHUNK):
            chunk = ids[start : start + IN_CHUNK]
            marks = ", ".join("?" for _ in chunk)
            sql = (
                "SELECT escalation_id, entry_id FROM escalation_entry "
                f"WHERE entry_id IN ({marks}) ORDER BY escalation_id, entry_id"
            )
            for r in self._query(sql, chunk):
                link, entry = self._ids("escalation_entry", ("escalation_id", "entry_id"), r)
                out.append((link, entry))
        return out

    def escalations_for_identity(self, root: str, identity: str) -> list[EscalationRecord]:
        """Escalations the work tree ``root`` recorded for this exact candidate, oldest first
        (another work tree's escalation reaches a change through the writer work it
        carries, never through an identity alone)."""
        return self._select(EscalationRecord, "root = ? AND identity = ?", (root, identity))

    def unlinked_escalations(self, root: str) -> list[EscalationRecord]:
        """The root's sticky escalations made while no writer work was in flight (linked to
        no entry yet), oldest first: they stay with the root until a commit takes them."""
        return self._select(
            EscalationRecord,
            "root = ? AND consumed_by IS NULL AND id NOT IN "
            "(SELECT escalation_id FROM escalation_entry)",
            (root,),
        )

    def consume_unlinked_escalations(self, root: str, commit_id: str, identity: str) -> None:
        """A commit of the root takes its unlinked sticky escalations (SPEC §5: they move
        into the commit's record)."""
        from gentle_hooks.ledger.spool_fold import consume_unlinked_in

        with self._write() as conn:
            consume_unlinked_in(conn, root, commit_id, identity)

    def _fold_spool(self) -> None:
        """Fold spooled writer records in (:func:`gentle_hooks.ledger.spool_fold.fold`)."""
        from gentle_hooks.ledger.spool_fold import fold  # the writers' side: not a gate's

        fold(self)

    def add_mutation(
        self, mutation: PendingMutation, entries: Sequence[WriterEntryRecord]
    ) -> tuple[PendingMutation, tuple[WriterEntryRecord, ...]]:
        """Record a mutation and its entries in one transaction; link each entry to the
        root's open escalations (an escalation is sticky for the writer work that follows
        it until a commit takes that work, SPEC §5).

        Returns:
            The mutation and its entries as stored (ids and times filled).
        """
        from gentle_hooks.ledger.spool_fold import insert_mutation

        now = self._clock()
        mutation = replace(mutation, recorded_at=mutation.recorded_at or now)
        with self._write() as conn:
            return insert_mutation(conn, mutation, entries, now)

    def mutation_for_call(
        self, source: str | None, session_id: str | None, tool_call_id: str
    ) -> PendingMutation | None:
        """The mutation recorded for this runtime tool call (source, session and call id),
        or None."""
        return self._select_one(
            PendingMutation,
            "tool_call_id = ? AND source IS ? AND session_id IS ?",
            (tool_call_id, source, session_id),
        )

    def entries_of_mutation(self, mutation_id: int) -> list[WriterEntryRecord]:
        """Every entry of one mutation, whatever its state, oldest first."""
        return self._select(WriterEntryRecord, "mutation_id = ?", (mutation_id,))

    def add_mutation_once(
        self, mutation: PendingMutation, entries: Sequence[WriterEntryRecord]
    ) -> tuple[PendingMutation, tuple[WriterEntryRecord, ...], bool]:
        """:meth:`add_mutation`, except that a tool call already recorded (same source,
        session and ``tool_call_id``) records nothing (SPEC §6: a replay records once).
        The check and the insert are one transaction, so two replays racing still record
        once; the schema's ``pending_mutation_call_once`` trigger refuses a second row
        anyway.

        Returns:
            (the mutation as stored, its entries, True) when recorded; (the earlier
            mutation, (), False) for a replay.
        """
        if mutation.tool_call_id is None:
            stored, kept = self.add_mutation(mutation, entries)
            return stored, kept, True
        from gentle_hooks.ledger.spool_fold import insert_mutation

        now = self._clock()
        mutation = replace(mutation, recorded_at=mutation.recorded_at or now)
        with self._write() as conn:
            row = conn.execute(
                "SELECT id FROM pending_mutation WHERE tool_call_id = ? AND source IS ? "
                "AND session_id IS ? ORDER BY id LIMIT 1",
                (mutation.tool_call_id, mutation.source, mutation.session_id),
            ).fetchone()
            if row is None:
                stored, kept = insert_mutation(conn, mutation, entries, now)
                return stored, kept, True
        earlier = self.mutations([int(row[0])])
        return earlier[0], (), False

    def live_entries(
        self, paths: Sequence[str] | None = None, *, root: str | None = None
    ) -> list[WriterEntryRecord]:
        """Entries that still attribute content (open or taken), of ``paths`` (None: all)
        and of ``root`` (None: any work tree), oldest first."""
        # every state but the ended ones: a state no code writes is read (and refused by the
        # row decoder) instead of hiding the writer work it belongs to
        where = f"state NOT IN {ENDED_STATES!r}"
        params: list[object] = []
        if root is not None:
            where += " AND root = ?"
            params.append(root)
        if paths is None:
            return self._select(WriterEntryRecord, where, params)
        out: list[WriterEntryRecord] = []
        for start in range(0, len(paths), 500):
            chunk = list(paths[start : start + 500])
            marks = ", ".join("?" for _ in chunk)
            out.extend(
                self._select(WriterEntryRecord, f"{where} AND path IN ({marks})", params + chunk)
            )
        return sorted(out, key=lambda e: e.id)

    def open_entries(
        self, root: str, paths: Sequence[str] | None = None
    ) -> list[WriterEntryRecord]:
        """The root's entries no commit has taken yet: its pending writer work (of
        ``paths`` only, when given, so a damaged entry of another path is not read), oldest
        first."""
        ended = ("taken", *ENDED_STATES)  # an unknown state is refused, never skipped
        where = f"root = ? AND state NOT IN {ended!r}"
        if paths is None:
            return self._select(WriterEntryRecord, where, (root,))
        return self._select_in(WriterEntryRecord, "path", paths, where, (root,))

    def expired_entries_of_blobs(self, blobs: Sequence[str]) -> list[WriterEntryRecord]:
        """Expired entries whose writer blob is one of ``blobs``, oldest first: content
        that was nowhere (expired) and came back is the writer's again."""
        if not blobs:
            return []
        return self._select_in(WriterEntryRecord, "blob", blobs, "state = 'expired'")

    def expired_entries_of_paths(self, paths: Sequence[str]) -> list[WriterEntryRecord]:
        """Expired entries of ``paths``, oldest first (the ``(path, state)`` index): their
        distinctive writer lines brought back make a change of the path the writer's again
        (:func:`~gentle_hooks.policy.distinctive.brought_back`)."""
        if not paths:
            return []
        return self._select_in(WriterEntryRecord, "path", paths, "state = 'expired'")

    def take_entries(
        self, entry_ids: Sequence[int], commit_id: str, identity: str, hook: str
    ) -> None:
        """Record that ``commit_id`` carried these entries (once per entry and commit); an
        open entry becomes ``taken``. Mutations and escalations whose entries are all taken
        are no longer pending (``consumed_by`` is set to the commit)."""
        if not entry_ids:
            return
        from gentle_hooks.ledger.spool_fold import take_in

        now = self._clock()
        with self._write() as conn:
            take_in(conn, entry_ids, commit_id, identity, hook, now)

    def settled_entries(self, paths: Sequence[str]) -> list[WriterEntryRecord]:
        """Entries of ``paths`` a push settled (their content delivered), oldest first:
        what a pushed commit may re-apply onto another base (one indexed read per chunk
        of paths)."""
        return self._select_in(WriterEntryRecord, "path", paths, "state = 'settled'")

    def live_elsewhere(self, root: str) -> bool:
        """Whether another work tree than ``root`` has live writer entries (one indexed
        row read)."""
        found = self._query(
            f"SELECT 1 FROM writer_entry WHERE state IN {LIVE_STATES!r} AND root != ? LIMIT 1",
            (root,),
        )
        return bool(found)

    def record_worktree(self, commit_ids: Sequence[str], root: str, hook: str) -> None:
        """Record that ``root``'s git made these commits (once per commit and root)."""
        if not commit_ids:
            return
        now = self._clock()
        with self._write() as conn:
            for commit_id in dict.fromkeys(commit_ids):
                seen = conn.execute(
                    "SELECT 1 FROM commit_worktree WHERE commit_id = ? AND root = ?",
                    (commit_id, root),
                ).fetchone()
                if seen is None:
                    insert(conn, CommitWorktree(commit_id, root, hook, recorded_at=now))

    def commit_worktrees(self, commit_ids: Sequence[str]) -> dict[str, frozenset[str]]:
        """The work tree roots recorded as making each of ``commit_ids`` (a commit without
        a record is left out)."""
        out: dict[str, set[str]] = {}
        for rec in self._select_in(CommitWorktree, "commit_id", commit_ids):
            out.setdefault(rec.commit_id, set()).add(rec.root)
        return {k: frozenset(v) for k, v in out.items()}

    def entries_taken_by(self, commit_ids: Sequence[str]) -> list[WriterEntryRecord]:
        """The entries (in any state) the given commits were recorded as carrying, oldest
        first."""
        if not commit_ids:
            return []
        marks = ", ".join("?" for _ in commit_ids)
        taken = f"SELECT entry_id FROM entry_take WHERE commit_id IN ({marks})"
        return self._select(WriterEntryRecord, f"id IN ({taken})", list(commit_ids))

    def entry_takes(self, entry_ids: Sequence[int]) -> list[EntryTake]:
        """The commits recorded as carrying these entries, oldest first."""
        if not entry_ids:
            return []
        marks = ", ".join("?" for _ in entry_ids)
        return self._select(EntryTake, f"entry_id IN ({marks})", list(entry_ids))

    def set_entry_state(self, entry_ids: Sequence[int], state: str) -> None:
        """Move live entries to ``settled`` or ``expired`` (discarding is
        :meth:`discard_entries`, which records who and why)."""
        if not entry_ids:
            return
        marks = ", ".join("?" for _ in entry_ids)
        with self._write() as conn:
            conn.execute(
                f"UPDATE writer_entry SET state = ? WHERE state IN {LIVE_STATES!r} "
                f"AND id IN ({marks})",
                [state, *entry_ids],
            )

    def discard_entries(
        self,
        root: str,
        paths: Sequence[str],
        who: str,
        reason: str,
        *,
        others: Sequence[int] = (),
        claimed: Sequence[int] = (),
    ) -> DiscardRecord:
        """Abandon the root's live entries (open, or taken by a commit) of ``paths`` (every
        path when empty) on purpose, in one transaction with the record of who did it and
        why; of the other worktrees' entries only the open ones whose ids are in
        ``others``; ``claimed``: ids of entries (live, or expired) whose writer content
        the work tree or index holds again after it had gone, discarded as claimed by a
        human. A commit that took one keeps its commit record and its trailer."""
        with self._write() as conn:
            where = f"((root = ? AND state IN {LIVE_STATES!r})"
            params: list[object] = [root]
            if others:
                where += f" OR (state = 'open' AND id IN ({', '.join('?' for _ in others)}))"
                params += others
            if claimed:
                where += f" OR (state = 'expired' AND id IN ({', '.join('?' for _ in claimed)}))"
                params += claimed
            where += ")"
            if paths:
                where += f" AND path IN ({', '.join('?' for _ in paths)})"
                params += list(paths)
            ids = [
                int(r[0])
                for r in conn.execute(f"SELECT id FROM writer_entry WHERE {where}", params)
            ]
            if ids:
                marks = ", ".join("?" for _ in ids)
                conn.execute(
                    f"UPDATE writer_entry SET state = 'discarded' WHERE id IN ({marks})", ids
                )
            held = tuple(i for i in ids if i in set(claimed))
            rec = DiscardRecord(
                root, who, reason, tuple(paths), tuple(ids), held, recorded_at=self._clock()
            )
            rec = replace(rec, id=insert(conn, rec))
        return rec

    def discarded_untaken(self) -> list[WriterEntryRecord]:
        """Discarded entries no commit was recorded as carrying yet, oldest first."""
        return self._select(
            WriterEntryRecord,
            "state = 'discarded' AND id NOT IN (SELECT entry_id FROM entry_take)",
        )

    def discarded_to_note(self) -> list[WriterEntryRecord]:
        """The discarded entries a commit holding their content must note, oldest first:
        those no commit was recorded as carrying yet, and the claimed ones whatever took
        them before (a writer commit thrown away whose content came back)."""
        claimed = self.claimed_entry_ids()
        untaken = {e.id for e in self.discarded_untaken()}
        found = self._select(WriterEntryRecord, "state = 'discarded'")
        return [e for e in found if e.id in untaken or e.id in claimed]

    def claimed_entry_ids(self) -> frozenset[int]:
        """The ids of the entries every discard claimed (:attr:`DiscardRecord.claimed`); a
        claim of paths (no entries ended) claims its entries only at those paths."""
        return frozenset(i for d in self.discards() if d.entries for i in d.claimed)

    def discards(self) -> list[DiscardRecord]:
        """Every discard, oldest first."""
        return self._select(DiscardRecord, "1 = 1")

    def writer_names(self) -> frozenset[str]:
        """``model/effort`` of every recorded mutation, as a ``Gentle-Writer`` trailer names
        it (:func:`~gentle_hooks.errors.shown_writer`)."""
        from gentle_hooks.errors import shown_writer

        return frozenset(
            shown_writer(m.model, m.effort) for m in self._select(PendingMutation, "1 = 1")
        )

    def mutations(self, mutation_ids: Sequence[int]) -> list[PendingMutation]:
        """Mutations by id, oldest first."""
        if not mutation_ids:
            return []
        marks = ", ".join("?" for _ in mutation_ids)
        return self._select(PendingMutation, f"id IN ({marks})", list(mutation_ids))

    def escalations_for_entries(self, entry_ids: Sequence[int]) -> list[EscalationRecord]:
        """Escalations linked to any of these entries, oldest first."""
        if not entry_ids:
            return []
        marks = ", ".join("?" for _ in entry_ids)
        return self._select(
            EscalationRecord,
            f"id IN (SELECT escalation_id FROM escalation_entry WHERE entry_id IN ({marks}))",
            list(entry_ids),
        )

    def add_escalation(self, rec: EscalationRecord, entry_ids: Sequence[int]) -> EscalationRecord:
        """Record an escalation sticky for these entries in one transaction: both are
        stored, or neither (a refused escalation must not take effect).

        Raises:
            StoreError: the store cannot be written; nothing was stored.
        """
        if not rec.recorded_at:
            rec = replace(rec, recorded_at=self._clock())
        with self._write() as conn:
            rec = replace(rec, id=insert(conn, rec))
            conn.executemany(
                "INSERT OR IGNORE INTO escalation_entry (escalation_id, entry_id) VALUES (?, ?)",
                [(rec.id, e) for e in entry_ids],
            )
        return rec

    def link_escalation(self, escalation_id: int, entry_ids: Sequence[int]) -> None:
        """Make an escalation sticky for these entries."""
        with self._write() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO escalation_entry (escalation_id, entry_id) VALUES (?, ?)",
                [(escalation_id, e) for e in entry_ids],
            )
