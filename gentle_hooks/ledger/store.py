"""The ledger store (SPEC §6): typed records in and out of one SQLite database.

Room: ledger. Imports the standard library, :mod:`gentle_hooks.values` and its own room:
:mod:`.sqlite_file` (the file, its opening, migration and write transactions), :mod:`.records`
and :mod:`.rows` (the record types and their row codec); never pydantic, click or the
policy. Services (:mod:`gentle_hooks.services.record`) decide what to record; this module
only keeps it.

Where: ``<git-common-dir>/gentle-hooks/ledger.sqlite3``
(:func:`gentle_hooks.ledger.location.ledger_path`), shared by linked worktrees, never in a
work tree. Every write is one ``BEGIN IMMEDIATE`` transaction; every error reading or
writing the store is a :class:`~gentle_hooks.ledger.sqlite_file.StoreError` (exit 2).
Nothing is ever deleted or recreated here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gentle_hooks.ledger.kept import refuse_kept
from gentle_hooks.ledger.pending import PendingWork
from gentle_hooks.ledger.quarantine import Quarantine
from gentle_hooks.ledger.records import (
    CommitRecord,
    EscalationRecord,
    OverrideRecord,
    PendingMutation,
    RddRender,
    Receipt,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
    VerifyRun,
)
from gentle_hooks.ledger.rows import RowError, from_row, to_row
from gentle_hooks.ledger.seal import KeyFault, is_sealed, key_path, ledger_key, run_mac
from gentle_hooks.ledger.sqlite_file import StoreError
from gentle_hooks.values.frozen import replace

#: The tables of records bound to a candidate identity (:meth:`Ledger.other_candidate_counts`).
CANDIDATE_TABLES = ("receipt", "spot_check", "verdict", "review_fact")

#: The spot checks that speak for the candidate they are bound to: a readback, a re-run of
#: a receipt of that candidate (its own tree, whatever the re-run saw), and a re-run of
#: another candidate's receipt only when the report and the re-run both succeeded (a
#: snapshot's check of the work tree without the files its reported run created, SPEC §3
#: "Binding"). A failure re-running another candidate's receipt happened on that
#: candidate's tree: it refutes that tree alone (SPEC §5 "Spot check": "on the
#: candidate's exact tree"), never this one.
_ON_ITS_TREE = (
    "NOT (kind = 'rerun' AND NOT (coalesce(reported_exit, -1) = 0 "
    "AND coalesce(observed_exit, -1) = 0) AND EXISTS (SELECT 1 FROM receipt AS r "
    "WHERE r.id = spot_check.receipt_id AND r.identity != spot_check.identity))"
)


class Ledger(PendingWork, Quarantine):
    """An open ledger: pending writer work (:class:`~.pending.PendingWork`), rows held in
    quarantine (:class:`~.quarantine.Quarantine`), records bound to a candidate, commit
    records and RDD lines. Use :meth:`open` or :meth:`open_existing`.
    """

    def receipts(self, identity: str) -> list[Receipt]:
        """Receipts recorded for one candidate identity, oldest first."""
        return self._select(Receipt, "identity = ?", (identity,))

    def last_receipt_elsewhere(
        self, root: str, identity: str, since: float = 0.0
    ) -> Receipt | None:
        """The root's latest successful receipt run from its top bound to another identity
        than ``identity`` and recorded at or after ``since`` (seconds since the epoch: the
        change's first write, so that the command is one the writer reported for an
        earlier candidate of this change, not for work delivered before it), or None."""
        found = self._select(
            Receipt,
            "id = (SELECT max(id) FROM receipt WHERE root = ? AND identity != ? "
            "AND exit_code = 0 AND cwd = '.' AND recorded_at >= ?)",
            (root, identity, since),
        )
        return found[0] if found else None

    def receipt(self, receipt_id: int) -> Receipt | None:
        """One receipt by id, or None."""
        return self._select_one(Receipt, "id = ?", (receipt_id,))

    def spot_checks(self, identity: str) -> list[SpotCheck]:
        """Spot checks and readbacks recorded for one candidate identity that speak for it
        (:data:`_ON_ITS_TREE`), oldest first."""
        return self._select(SpotCheck, f"identity = ? AND {_ON_ITS_TREE}", (identity,))

    def verdicts(
        self, identity: str | None = None, *, root: str | None = None
    ) -> list[VerdictRecord]:
        """Verdicts for one candidate identity, or every verdict recorded from ``root``."""
        if identity is not None:
            return self._select(VerdictRecord, "identity = ?", (identity,))
        return self._select(VerdictRecord, "root = ?", (root,))

    def verdict(self, verdict_id: int) -> VerdictRecord | None:
        """One verdict by id, or None."""
        return self._select_one(VerdictRecord, "id = ?", (verdict_id,))

    def verify_runs(self, identity: str) -> list[VerifyRun]:
        """``gentle-hook verify run`` records for one candidate identity that this ledger
        sealed (:func:`~.seal.is_sealed`), oldest first: a row whose seal does not verify
        (another clone's, hand-written, edited) is not an observation here."""
        runs = self._select(VerifyRun, "identity = ?", (identity,))
        key = self._seal_key() if runs else None
        return [r for r in runs if is_sealed(key, r)]

    def verify_runs_of(self, identities: Sequence[str]) -> list[VerifyRun]:
        """:meth:`verify_runs` of many identities at once (oldest first; group by
        ``identity``)."""
        runs = self._select_in(VerifyRun, "identity", identities)
        key = self._seal_key() if runs else None
        return [r for r in runs if is_sealed(key, r)]

    def verify_runs_since(self, root: str, since: float) -> list[VerifyRun]:
        """:meth:`verify_runs` of every candidate of the work tree ``root`` recorded at or
        after ``since`` (oldest first)."""
        runs = self._select(VerifyRun, "root = ? AND recorded_at >= ?", (root, since))
        key = self._seal_key() if runs else None
        return [r for r in runs if is_sealed(key, r)]

    def unsealed_runs(self, identity: str) -> list[VerifyRun]:
        """The ``verify_run`` rows of one identity :meth:`verify_runs` leaves out, oldest
        first (for the line that says why a verdict is not observed)."""
        runs = self._select(VerifyRun, "identity = ?", (identity,))
        key = self._seal_key() if runs else None
        return [r for r in runs if not is_sealed(key, r)]

    def add_run(self, run: VerifyRun) -> VerifyRun:
        """Record a verify run sealed with this ledger's key (made on the first one:
        :func:`~.seal.ledger_key`).

        Raises:
            StoreError: the key there is not usable, or the store cannot be written.
        """
        try:
            key = ledger_key(self.path, create=True)
        except (KeyFault, OSError) as exc:
            why = str(exc) if isinstance(exc, KeyFault) else f"{key_path(self.path)}: {exc}"
            raise StoreError(self.path, f"its verify runs cannot be sealed: {why}") from None
        assert key is not None  # create=True makes one or raises
        if not run.recorded_at:
            run = replace(run, recorded_at=self._clock())
        return self.add(replace(run, mac=run_mac(key, run)))

    def sealed_run_count(self) -> int:
        """How many ``verify_run`` rows carry a seal (whatever key made it): the rows a new
        key would leave unverified."""
        return int(self._query("SELECT count(*) FROM verify_run WHERE mac IS NOT NULL")[0][0])

    def _seal_key(self) -> bytes | None:
        """This ledger's key, or None (none made yet, or not usable: nothing is sealed)."""
        try:
            return ledger_key(self.path, create=False)
        except (KeyFault, OSError):
            return None

    def review_facts(self, identity: str) -> list[ReviewFact]:
        """Review outcome facts recorded for one candidate identity, oldest first."""
        return self._select(ReviewFact, "identity = ?", (identity,))

    def overrides(self, identity: str) -> list[OverrideRecord]:
        """Overrides recorded for one candidate identity, oldest first."""
        return self._select(OverrideRecord, "identity = ?", (identity,))

    def other_candidate_counts(self, root: str, identity: str) -> dict[str, int]:
        """Candidate-bound records of ``root`` bound to other identities, per table."""
        out: dict[str, int] = {}
        for table in CANDIDATE_TABLES:
            row = self._query(
                f"SELECT count(*) FROM {table} WHERE root = ? AND identity != ?", (root, identity)
            )[0]
            out[table] = int(row[0])
        return out

    def bound_records(
        self, identities: Sequence[str]
    ) -> tuple[list[Receipt], list[SpotCheck], list[VerdictRecord], list[ReviewFact]]:
        """:meth:`receipts`, :meth:`spot_checks`, :meth:`verdicts` and :meth:`review_facts`
        of many identities at once (each list oldest first; group by ``identity``)."""
        return (
            self._select_in(Receipt, "identity", identities),
            self._select_in(SpotCheck, "identity", identities, _ON_ITS_TREE),
            self._select_in(VerdictRecord, "identity", identities),
            self._select_in(ReviewFact, "identity", identities),
        )

    def candidate_counts(self, root: str) -> dict[str, dict[str, int]]:
        """Per table of :meth:`other_candidate_counts`, the root's records per identity:
        what that method answers for every identity at once."""
        out: dict[str, dict[str, int]] = {}
        for table in CANDIDATE_TABLES:
            rows = self._query(
                f"SELECT identity, count(*) FROM {table} WHERE root = ? GROUP BY identity",
                (root,),
            )
            out[table] = {str(r[0]): int(r[1]) for r in rows if r[0] is not None}
        return out

    def commit_records(self, commit_ids: Sequence[str]) -> list[CommitRecord]:
        """Commit records of the given commits (any root), oldest first."""
        out: list[CommitRecord] = []
        for start in range(0, len(commit_ids), 500):
            chunk = list(commit_ids[start : start + 500])
            marks = ", ".join("?" for _ in chunk)
            out.extend(self._select(CommitRecord, f"commit_id IN ({marks})", chunk))
        return out

    def delivered_with_origins(
        self, commit_ids: Sequence[str]
    ) -> dict[str, tuple[list[PendingMutation], list[EscalationRecord]]]:
        """For each commit (every given id a key), the writer mutations and escalations it
        delivered (:meth:`~.pending.PendingWork.delivered_work_each`) together with those
        the commit each of its commit records names as ``origin`` delivered — the writer's
        commit an amend or a rebase rewrote, as its note carries them
        (:func:`gentle_hooks.notes.sync.note_records`): an escalation stays with the
        writer's change through a rewrite (SPEC §5 "Escalation"). Oldest first.

        Raises:
            StoreError: a read failed.
        """
        heads = list(dict.fromkeys(commit_ids))
        ids: dict[str, set[str]] = {h: {h} for h in heads}
        for rec in self.commit_records(heads):
            ids[rec.commit_id].add(rec.origin)
        each = self.delivered_work_each(sorted({c for cs in ids.values() for c in cs}))
        out = {}
        for head, cs in ids.items():
            muts = {m.id: m for c in cs for m in each[c][0]}
            escs = {e.id: e for c in cs for e in each[c][1]}
            out[head] = (
                [m for _, m in sorted(muts.items())],
                [e for _, e in sorted(escs.items())],
            )
        return out

    def all_commit_records(self) -> list[CommitRecord]:
        """Every commit record, oldest first (what the notes must carry)."""
        return self._select(CommitRecord, "1 = 1")

    def rerun_elsewhere_commit_records(self) -> list[CommitRecord]:
        """Commit records whose candidate holds a spot check that re-ran a receipt bound to
        another snapshot (their notes carry that receipt:
        :func:`gentle_hooks.notes.sync.note_records`); oldest first."""
        other = (
            "SELECT s.identity FROM spot_check AS s JOIN receipt AS r "
            "ON r.id = s.receipt_id WHERE r.identity != s.identity"
        )
        return self._select(CommitRecord, f"identity IN ({other})")

    def commits_with_identity(self, identity: str) -> list[CommitRecord]:
        """Commit records whose committed candidate is ``identity``, oldest first."""
        return self._select(CommitRecord, "identity = ?", (identity,))

    def rdd_advance(
        self, session_id: str, decide: Callable[[RddRender | None], RddRender | None]
    ) -> tuple[RddRender, bool]:
        """Apply one step of a session's pinned RDD line (SPEC §9): keep it, or render anew.

        ``decide`` gets the session's pinned render (None for a new session) and returns the
        render to record, or None to keep the pinned one. A kept line writes nothing and
        takes no write lock; a new render is decided again inside one ``BEGIN IMMEDIATE``
        transaction, so two processes advancing the same session at once record it once.

        Args:
            session_id: the harness session; decide: the pure transition (the caller's policy:
                this store imports none).

        Returns:
            (the session's pinned render after the step, True when this call recorded it).

        Raises:
            StoreError: the store cannot be read or written.
            ValueError: ``decide`` kept a session that has no render yet.
        """
        pinned = self.rdd_pinned(session_id)
        if pinned is not None and decide(pinned) is None:
            return pinned, False
        with self._write() as conn:
            row = conn.execute(
                "SELECT * FROM rdd_render WHERE session_id = ? ORDER BY id DESC LIMIT 1",
                (session_id,),
            ).fetchone()
            try:
                pinned = from_row(RddRender, row) if row is not None else None
            except RowError as exc:
                raise StoreError(self.path, f"cannot be read: {exc}") from None
            new = decide(pinned)
            if new is None:
                if pinned is None:
                    raise ValueError("a session without a rendered line must render one")
                return pinned, False
            if not new.recorded_at:
                new = replace(new, recorded_at=self._clock())
            values = to_row(new)
            cur = conn.execute(
                f"INSERT INTO rdd_render ({', '.join(values)}) "
                f"VALUES ({', '.join('?' for _ in values)})",
                tuple(values.values()),
            )
            stored = replace(new, id=int(cur.lastrowid or 0))
        return stored, True

    def rdd_pinned(self, session_id: str) -> RddRender | None:
        """The line a session rendered last (its pinned line), or None for a new session."""
        return self._select_one(
            RddRender, "id = (SELECT max(id) FROM rdd_render WHERE session_id = ?)", (session_id,)
        )

    def rdd_renders(self, session_id: str) -> list[RddRender]:
        """Every line a session rendered, oldest first (its first line, then re-renders)."""
        return self._select(RddRender, "session_id = ?", (session_id,))


def open_for_gate(path: str) -> Ledger | None:
    """Open the ledger at ``path`` for a commit or push gate's judgement: a waiting spool
    folded in first (its unreadable lines kept aside), then the kept-aside check (SPEC §6
    "An unreadable or corrupt store fails closed"; docs/robustness.md "Kept aside").

    Returns the open ledger (the caller closes it), or None when no ledger exists.

    Raises:
        StoreError: as :meth:`Ledger.open_existing`; or a file kept aside beside it holds
            writer records no command has read (:func:`~gentle_hooks.ledger.kept.refuse_kept`),
            the ledger closed first.
    """
    led = Ledger.open_existing(path)
    try:
        refuse_kept(path)  # writer records kept aside, never read: closed, naming them
    except StoreError:
        if led is not None:
            led.close()
        raise
    return led
