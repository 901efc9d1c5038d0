"""The ledger's records for one candidate, turned into the pure policy's inputs (SPEC §5, §6).

Room: ledger (imports :mod:`gentle_hooks.policy`, :mod:`gentle_hooks.values`,
:mod:`gentle_hooks.errors` and :mod:`.store`). Reads the store read-only and builds the
policy's value types: runtime writer profiles, sticky escalations, review evidence and
:class:`~gentle_hooks.policy.plan.Satisfaction`. The policy stays pure; this is where
"for this exact candidate" is enforced: every candidate-bound record is selected by
identity, never by repository.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gentle_hooks.errors import PolicyInputError
from gentle_hooks.ledger.fails import (
    brief_faults,
    carried_fail_reason,
    carried_fails,
    mixed_failures,
    standing_fail_reason,
    standing_fails,
)
from gentle_hooks.ledger.records import (
    EscalationRecord,
    PendingMutation,
    Receipt,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
    VerifyRun,
    WriterEntryRecord,
)
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.ledger.verifiers import verdict_name, verifier_key
from gentle_hooks.policy.escalation import Escalation, parse_item
from gentle_hooks.policy.plan import Satisfaction
from gentle_hooks.policy.review import ReviewEvidence
from gentle_hooks.policy.selfcheck import (
    Disagreement,
    RefusedReceipt,
    Report,
    Standing,
    is_disagreement,
    receipt_standing,
    rerun_agrees,
)
from gentle_hooks.policy.vocabulary import ReviewOutcome
from gentle_hooks.policy.writer import WriterProfile, parse_effort
from gentle_hooks.values.frozen import frozen, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    R = TypeVar("R", Receipt, SpotCheck, VerdictRecord, ReviewFact, VerifyRun)


#: :func:`~gentle_hooks.policy.selfcheck.receipt_standing` of (command, exit status,
#: declared commands), a pure function, remembered for up to this many reports.
_MAX_STANDINGS = 1024
_STANDINGS: dict[tuple[str, int | None, tuple[str, ...], str], Standing] = {}

#: The ``path`` of facts read from a git note rather than this clone's ledger.
NOTE_PATH = "note"
#: The rule id of a verdict no ``gentle-hook verify run`` observed, under
#: ``verification.require_observed``.
OBSERVED_RULE = "R1"
_UNOBSERVED = "not observed: no gentle-hook verify run wrote it"


@frozen
class LedgerFacts:
    """Everything the ledger holds that bears on one candidate of one work tree.

    Attributes:
        path: the ledger file; present: False when no ledger exists yet (all empty then).
        root: the work tree root; identity: the candidate identity.
        entries: the writer entries the judged change carries (SPEC §3 "Attribution");
        mutations / escalations: their mutations (writer profiles) and the escalations
            sticky for them or recorded for this candidate.
        receipts / spot_checks / verdicts / review_facts: records bound to ``identity``.
        other_candidates: (table, count) of the root's records bound to other identities.
        earlier_commands: with no receipt bound to ``identity``, the command of the root's
            latest successful receipt since the change's first write, bound to another
            candidate (the one to report again); earlier_created: the files that
            receipt's run created that git does not ignore (the candidate holds them,
            staged or as untracked files of its snapshot), to keep out before reporting
            again.
        verify_runs: the ``verify run`` records bound to ``identity`` (this clone's ledger
            only: a note carries the verdicts, not the runs).
        earlier_runs: the ``verify run`` records of the other candidates of the change
            the ``escalations`` apply to (:func:`earlier_runs`): their standing failures
            carry forward
            (:func:`~gentle_hooks.ledger.fails.carried_fails`).
        own_lines: ids of the ``entries`` the change holds by the writer's own lines (rows
            A1 and A2 of a write that added lines): no ``discard`` makes those a human's.
        held_at: (an entry's path, a path the change holds it at), as the attribution
            found them (``git mv`` holds it elsewhere): what a block names.
        unbacked: a note's re-runs of ``identity`` left out because the note holds no
            receipt of their command for it (their commands; a ledger has none).
    """

    path: str
    present: bool
    root: str
    identity: str
    entries: tuple[WriterEntryRecord, ...] = ()
    mutations: tuple[PendingMutation, ...] = ()
    escalations: tuple[EscalationRecord, ...] = ()
    receipts: tuple[Receipt, ...] = ()
    spot_checks: tuple[SpotCheck, ...] = ()
    verdicts: tuple[VerdictRecord, ...] = ()
    review_facts: tuple[ReviewFact, ...] = ()
    other_candidates: tuple[tuple[str, int], ...] = ()
    earlier_commands: tuple[str, ...] = ()
    earlier_created: tuple[str, ...] = ()
    verify_runs: tuple[VerifyRun, ...] = ()
    earlier_runs: tuple[VerifyRun, ...] = ()
    own_lines: frozenset[int] = frozenset()
    held_at: tuple[tuple[str, str], ...] = ()
    unbacked: tuple[str, ...] = ()

    @property
    def delegated(self) -> bool:
        """True when the judged change carries writer content (the gate applies)."""
        return bool(self.entries)

    def writer_paths(self) -> tuple[str, ...]:
        """The paths whose writer content the change carries, sorted."""
        return tuple(sorted({e.path for e in self.entries}))

    def runtime_writers(self) -> tuple[WriterProfile, ...]:
        """Writer profiles of the pending mutations, oldest first (``runtime`` source)."""
        out = []
        for m in self.mutations:
            try:
                effort = parse_effort(m.effort)
            except PolicyInputError:
                effort = None
            out.append(WriterProfile(None if m.model == "unknown" else m.model, effort))
        return tuple(out)

    def policy_escalations(self) -> tuple[Escalation, ...]:
        """Pending escalations as the policy's values, one per item (first reason kept)."""
        out: dict[int, Escalation] = {}
        for e in self.escalations:
            item = parse_item(str(e.item))
            if item.number in out:
                if e.critical and not out[item.number].critical:
                    out[item.number] = Escalation(item, out[item.number].reason, True)
                continue
            out[item.number] = Escalation(item, e.reason, e.critical)
        return tuple(out.values())

    def review_evidence(
        self, caller: ReviewOutcome | None, native_consumed: bool
    ) -> ReviewEvidence:
        """Review evidence for this candidate: the caller's value, the latest recorded
        declined/unavailable, and native's consumed fact. A recorded ``review ack`` is not
        a consumed fact (seed 000 "How assess resolves the review outcome": native writes
        it when the approved review is acknowledged; a caller's word is not authority)."""
        recorded = None
        for f in self.review_facts:
            if f.outcome in ("declined", "unavailable"):
                recorded = ReviewOutcome(f.outcome)
        return ReviewEvidence(caller=caller, recorded=recorded, consumed=native_consumed)

    def gate_verdicts(self, require_observed: bool) -> tuple[VerdictRecord, ...]:
        """The stored verdicts as the gate counts them. With ``require_observed``
        (``verification.require_observed``) a verdict no ``gentle-hook verify run`` wrote
        is not accepted, whenever it was stored: turning the key on later does not let an
        earlier hand-written verdict through. Facts read from a note (``path`` ``"note"``:
        the CI and server gates) are judged when they are read, from what the note's line
        says a verify run observed
        (:func:`~gentle_hooks.notes.facts.facts_from_note`), and returned as they are.
        While a ``verify run`` of this candidate that failed stands (no later pass of the
        same brief and checks: :func:`~gentle_hooks.ledger.fails.standing_fails`), no
        verdict is accepted: a pass of other checks does not override an observed fail."""
        verdicts = self.verdicts
        if require_observed and self.path != NOTE_PATH:
            verdicts = tuple(
                v
                if v.observed_run is not None or not v.accepted
                else replace(
                    v,
                    accepted=False,
                    reasons=(*v.reasons, f"{OBSERVED_RULE} {_UNOBSERVED}"),
                )
                for v in verdicts
            )
        fails = standing_fails(self.verify_runs)
        carried = () if fails else carried_fails(self.earlier_runs, self.verify_runs)
        if not fails and not carried:
            return verdicts
        held = standing_fail_reason(fails[0]) if fails else carried_fail_reason(carried[0])
        return tuple(
            replace(v, accepted=False, reasons=(*v.reasons, held)) if v.accepted else v
            for v in verdicts
        )

    def satisfaction(
        self, declared: tuple[str, ...] = (), require_observed: bool = True
    ) -> Satisfaction:
        """What was done for this exact candidate.

        Args:
            declared: the repository's ``verification.commands`` (empty: none declared;
                the range gate reads them from the base).
            require_observed: ``verification.require_observed``: a verdict counts only
                when a ``verify run`` wrote it (:meth:`gate_verdicts`).

        A receipt counts only when it reports success of a command that checks something
        (and is declared, when commands are declared): the policy's standing rows
        (:func:`~gentle_hooks.policy.selfcheck.receipt_standing`). A re-run counts only
        when gentle-hooks ran it, it re-ran a receipt that counts, the report and the
        re-run both succeeded, and the re-run left the candidate's files as they were;
        the stored ``agreed`` flag is not trusted, it is re-derived from the two exit
        statuses. A receipt whose re-run changed the candidate's files cannot count (row
        ``S-rewrites``): it tests something else, so another report resolves it. Every
        re-run that failed after a report of success is listed (and blocks). A verdict
        counts only when it was accepted when stored.
        """
        verdicts = self.gate_verdicts(require_observed)

        def standing(command: str, exit_code: int | None, observed: str = "") -> Standing:
            # a push judges many candidates whose receipts repeat one command: parsed once
            key = (command, exit_code, declared, observed)
            known = _STANDINGS.get(key)
            if known is None:
                if len(_STANDINGS) >= _MAX_STANDINGS:
                    _STANDINGS.clear()
                report = Report(command, exit_code, declared, observed)
                known = _STANDINGS[key] = receipt_standing(report)
            return known

        reruns = [s for s in self.spot_checks if s.kind == "rerun"]
        # a receipt whose re-run changed the candidate's files tests something else
        rewrites = {
            s.receipt_id
            for s in reruns
            if not s.counts and s.identity_after is not None and s.identity_after != s.identity
        }

        def stands(r: Receipt) -> Standing:
            if r.id in rewrites:
                return Standing(False, "S-rewrites")
            return standing(r.command, r.exit_code, r.observed)

        usable = [r for r in self.receipts if stands(r).counts]
        refused = tuple(
            RefusedReceipt(r.id, r.command, r.exit_code, stands(r), r.cwd, r.observed)
            for r in self.receipts
            if not stands(r).counts
        )
        agreed = any(
            s.counts
            and rerun_agrees(s.reported_exit, s.observed_exit)
            and standing(s.command, s.reported_exit).counts
            for s in reruns
        )
        readback = any(s.kind == "readback" and s.counts for s in self.spot_checks)
        disagreements = tuple(
            Disagreement(s.id, s.receipt_id, s.command, s.reported_exit, s.observed_exit)
            for s in reruns
            if is_disagreement(s.reported_exit, s.observed_exit)
        )
        turned_down = [v for v in verdicts if not v.accepted]
        if turned_down:  # the words of a refused verdict's reasons (most verdicts are accepted)
            from gentle_hooks.values.ruled import without_rule_id
        # a note's verdicts have no ledger id (0): named by their place there, from 1
        place = {id(v): n for n, v in enumerate(verdicts, 1)}
        rejected = tuple(
            f"{verdict_name(v, place[id(v)])} (brief {v.brief_id}, status {v.status}): "
            + "; ".join(without_rule_id(r) for r in v.reasons)
            for v in turned_down
        )
        # Stakes count verifiers, not runs: the same verdict stored twice, or one caller's
        # accepted verdicts (whatever brief, objective or flags), are one verifier's answer
        # (seed 003 "a second" verifier; seed 001: no same-role reviewers). Verdicts not
        # accepted keep their content as key (verifier_key).
        groups: dict[tuple[str, ...], list[VerdictRecord]] = {}
        for v in verdicts:
            groups.setdefault(verifier_key(v), []).append(v)
        distinct = [
            next((v for v in group if not v.accepted), group[0]) for group in groups.values()
        ]
        repeats = tuple(
            f"{verdict_name(v, place[id(v)])} is another verdict by caller {v.caller!r} "
            f"(brief {v.brief_id})"
            for group in groups.values()
            if group[0].caller
            for v in group[1:]
            if v.json != group[0].json
        )
        mixed = mixed_failures(self.verify_runs)
        made = [(r.created, r.command, r.cwd) for r in usable if r.created and r.exit_code == 0]
        earlier = tuple(c for c in self.earlier_commands if standing(c, 0).counts)
        if not usable and earlier and self.earlier_created:
            # the report to make again wrote files the candidate now holds: a report of this
            # candidate rewrites them and is refused, unless they are kept out first
            made = [(self.earlier_created, earlier[-1], ".")]
        creating = made[-1] if made else None
        if creating is not None:  # a counting report that created files (most create none)
            from gentle_hooks.policy.shortfall import CreatedFiles
        return Satisfaction(
            repeated_verdicts=repeats,
            spot_check_agreed=agreed,
            readback=readback,
            disagreements=disagreements,
            accepted_verdicts=sum(1 for v in distinct if v.accepted),
            verdict_statuses=tuple(
                "pass" if v.accepted else ("abstain" if v.status == "pass" else v.status)
                for v in distinct
            ),
            rejected_verdicts=rejected,
            brief_faults=brief_faults(self.verify_runs),
            change_fails=mixed[0],
            everywhere_fails=mixed[1],
            receipts=len(usable),
            refused=refused,
            declared=declared,
            earlier=earlier,
            created=None if creating is None else CreatedFiles(*creating),
            unbacked=self.unbacked,
        )


def facts_from(
    led: Ledger,
    root: str,
    identity: str,
    entries: tuple[WriterEntryRecord, ...] = (),
    *,
    own_root: bool = True,
    commit: str | None = None,
) -> LedgerFacts:
    """The facts for one candidate from an open ledger (many candidates read through one
    connection: the push gate).

    Args:
        led: the open ledger; root: the work tree root; identity: the candidate identity.
        entries: the writer entries the judged change carries (they make it delegated;
            their mutations give the runtime writer profiles).
        own_root: the candidate is this work tree's own change in flight (its snapshot or
            staged tree): the root's sticky escalations made while no writer work was in
            flight apply too. A pushed commit is judged by what it carries alone.
        commit: the commit whose committed candidate this is, or None: the escalations it
            (or the writer's commit it rewrote) delivered apply too, as
            :func:`facts_of_commits` reads them for the push gate.

    Raises:
        StoreError: a read failed.
    """
    ids = [e.id for e in entries]
    carried: dict[int, set[str]] = {}
    for e in entries:
        carried.setdefault(e.mutation_id, set()).add(e.path)
    escalations = {e.id: e for e in led.escalations_for_entries(ids)}
    escalations.update((e.id, e) for e in led.escalations_for_identity(root, identity))
    if own_root:
        escalations.update((e.id, e) for e in led.unlinked_escalations(root))
    if commit:
        escalations.update((e.id, e) for e in led.delivered_with_origins([commit])[commit][1])
    receipts = tuple(led.receipts(identity))
    earlier = None  # a command reported before the change's first write was other work's
    if own_root and entries and not receipts:
        earlier = led.last_receipt_elsewhere(root, identity, min(e.recorded_at for e in entries))
    return LedgerFacts(
        path=led.path,
        present=True,
        root=root,
        identity=identity,
        entries=entries,
        mutations=tuple(
            # each mutation names the paths of it the change carries: a path a partial
            # commit took (its entry taken, or ended) is no longer this change's
            replace(m, paths=tuple(p for p in m.paths if p in carried.get(m.id, ())))
            if m.paths and carried.get(m.id)
            else m
            for m in led.mutations(sorted(carried))
        ),
        escalations=tuple(sorted(escalations.values(), key=lambda e: e.id)),
        receipts=receipts,
        spot_checks=tuple(led.spot_checks(identity)),
        verdicts=tuple(led.verdicts(identity)),
        review_facts=tuple(led.review_facts(identity)),
        other_candidates=tuple(led.other_candidate_counts(root, identity).items()),
        earlier_commands=(earlier.command,) if earlier else (),
        earlier_created=earlier.created or () if earlier else (),
        verify_runs=tuple(led.verify_runs(identity)),
        earlier_runs=earlier_runs(led, identity, escalations.values()),
    )


def earlier_runs(
    led: Ledger, identity: str, escalations: Iterable[EscalationRecord]
) -> tuple[VerifyRun, ...]:
    """The verify runs of the other candidates of the change ``escalations`` apply to:
    those of each escalation's work tree recorded since the oldest of them there (while
    the change's writer work was in flight: a ``--staged`` candidate and the work tree's
    snapshot alike), oldest first.

    Raises:
        StoreError: a read failed.
    """
    since: dict[str, float] = {}
    for e in escalations:
        since[e.root] = min(since.get(e.root, e.recorded_at), e.recorded_at)
    found = {r.id: r for root, t in since.items() for r in led.verify_runs_since(root, t)}
    return tuple(r for _, r in sorted(found.items()) if r.identity != identity)


def facts_of_commits(
    led: Ledger,
    root: str,
    items: Sequence[tuple[str, tuple[WriterEntryRecord, ...], str | None]],
) -> list[LedgerFacts]:
    """The facts of many pushed commits' candidates, each record table read once for all
    of them: for each item, :func:`facts_from` with ``own_root=False``; when it names a
    commit, the escalations that commit was recorded as delivering, or the commit its
    records were first made for (:meth:`~gentle_hooks.ledger.store.Ledger.delivered_with_origins`:
    an amend or rebase of an escalated writer commit stays escalated, as its note says),
    and when its entries are empty, that work's mutations in place of the entries' (a
    commit recorded before contents were kept).

    Args:
        led: the open ledger; root: the work tree root;
        items: (candidate identity, the writer entries its commit carries, the commit id
            or None), one per candidate.

    Raises:
        StoreError: a read failed.
    """
    identities = [identity for identity, _, _ in items]
    entry_ids = sorted({e.id for _, entries, _ in items for e in entries})
    links = led.escalation_links(entry_ids)
    linked = {e.id: e for e in led.escalations_by_id(sorted({a for a, _ in links}))}
    own: dict[str, list[EscalationRecord]] = {}
    for e in led.escalations_for_identities(root, identities):
        own.setdefault(e.identity, []).append(e)
    mutations = {
        m.id: m for m in led.mutations(sorted({e.mutation_id for _, es, _ in items for e in es}))
    }
    receipts, spot_checks, verdicts, reviews = led.bound_records(identities)
    # the verify runs hold a failed run's verdicts back (R2) and name a faulty brief
    runs = _by_identity(led.verify_runs_of(identities))
    bound = (
        _by_identity(receipts),
        _by_identity(spot_checks),
        _by_identity(verdicts),
        _by_identity(reviews),
    )
    counts = led.candidate_counts(root)
    totals = {table: sum(per.values()) for table, per in counts.items()}
    heads = [head for _, _, head in items if head is not None]
    delivered = led.delivered_with_origins(heads) if heads else {}
    out = []
    for identity, entries, head in items:
        ids = {e.id for e in entries}
        escalations = {a: linked[a] for a, b in links if b in ids and a in linked}
        escalations.update((e.id, e) for e in own.get(identity, ()))
        more_mutations, more_escalations = delivered[head] if head is not None else ([], [])
        escalations.update((e.id, e) for e in more_escalations)
        facts = LedgerFacts(
            path=led.path,
            present=True,
            root=root,
            identity=identity,
            entries=entries,
            mutations=tuple(
                mutations[i] for i in sorted({e.mutation_id for e in entries}) if i in mutations
            ),
            escalations=tuple(sorted(escalations.values(), key=lambda e: e.id)),
            receipts=tuple(bound[0].get(identity, ())),
            spot_checks=tuple(bound[1].get(identity, ())),
            verdicts=tuple(bound[2].get(identity, ())),
            review_facts=tuple(bound[3].get(identity, ())),
            other_candidates=tuple(
                (table, totals[table] - per.get(identity, 0)) for table, per in counts.items()
            ),
            verify_runs=tuple(runs.get(identity, ())),
            earlier_runs=earlier_runs(led, identity, escalations.values()),
        )
        if not entries and more_mutations:
            facts = replace(facts, mutations=tuple(more_mutations))
        out.append(facts)
    return out


def _by_identity(records: Sequence[R]) -> dict[str, list[R]]:
    """Records grouped by their ``identity``, each group in the given order."""
    out: dict[str, list[R]] = {}
    for r in records:
        out.setdefault(r.identity, []).append(r)
    return out
