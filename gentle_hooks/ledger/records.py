"""The ledger's typed records (SPEC §6 "Records"): frozen value types in and out of the store.

Room: ledger (value types; imports only :mod:`gentle_hooks.values`). Each record's field
names are its table's columns (:mod:`gentle_hooks.ledger.schema`); ``id`` and
``recorded_at`` are 0 going into :meth:`gentle_hooks.ledger.store.Ledger.add` and filled
coming out. How a record becomes a row is :mod:`gentle_hooks.ledger.rows`.
"""

from __future__ import annotations

from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.values.candidate import Candidate


@frozen
class PendingMutation:
    """A writer's change not yet committed (SPEC §6 "pending mutation").

    Attributes:
        root: absolute work tree root; model: writer model id; effort: effort level value.
        source: the runtime hook that recorded it; session_id / tool_call_id: its ids.
        paths: root-relative paths it touched (may be empty).
        consumed_by / consumed_identity: the commit and its candidate identity that
            consumed it, or None while pending.
    """

    KIND = "pending_mutation"

    root: str
    model: str
    effort: str
    source: str | None = None
    session_id: str | None = None
    tool_call_id: str | None = None
    paths: tuple[str, ...] = ()
    id: int = 0
    recorded_at: float = 0.0
    consumed_by: str | None = None
    consumed_identity: str | None = None


@frozen
class EscalationRecord:
    """An escalation (SPEC §5): sticky for the root's pending work until consumed.

    Attributes:
        root: work tree root; identity: the candidate current when it was recorded.
        item: 1..6; slug: the item's slug; reason: the one-line reason.
        critical: marked critical (shipping stakes then need a second verifier).
    """

    KIND = "escalation"

    root: str
    identity: str
    item: int
    slug: str
    reason: str
    id: int = 0
    recorded_at: float = 0.0
    consumed_by: str | None = None
    consumed_identity: str | None = None
    critical: bool = False


@frozen
class Receipt:
    """A writer's report ``<command>: <observed result>`` with its exit status.

    Attributes:
        kind: ``run`` (gentle-hooks ran it: argv, duration, digest known) or ``add``
            (reported from elsewhere: re-run with ``sh -c command``).
        command / observed: the two halves of the line.
        argv: the argument vector for ``run``; None for ``add``.
        cwd: directory relative to root where it ran (``.`` for the root).
        exit_code: reported exit status; duration_ms: wall time in ms; output_digest:
            ``sha256:`` digest of the output (see :mod:`gentle_hooks.services.runner`).
        created: the files the run created or wrote again that git neither tracks nor
            ignores, when this receipt is bound to the work tree holding them (None: none);
            a re-run rewrites them.
    """

    KIND = "receipt"

    root: str
    identity: str
    kind: str
    command: str
    observed: str
    exit_code: int
    cwd: str = "."
    argv: tuple[str, ...] | None = None
    duration_ms: int | None = None
    output_digest: str | None = None
    created: tuple[str, ...] | None = None
    id: int = 0
    recorded_at: float = 0.0

    @property
    def line(self) -> str:
        """The receipt line, ``<command>: <observed result>``, on one line (the command
        :func:`~gentle_hooks.policy.shellwords.shown`, the result
        :func:`~gentle_hooks.errors.shown_field`: each bounded)."""
        from gentle_hooks.errors import shown_field
        from gentle_hooks.policy.shellwords import shown

        return f"{shown(self.command)}: {shown_field(self.observed)}"


@frozen
class SpotCheck:
    """The parent's spot check: a receipt re-run by gentle-hooks, or a structural readback.

    Attributes:
        identity: the candidate computed before the re-run (what it counts for).
        kind: ``rerun`` or ``readback``; receipt_id: the receipt re-run (None for readback).
        command: what was re-run (``readback`` for a readback).
        reported_exit / observed_exit: the two statuses compared (None for readback).
        agreed: observed == reported (True for a readback).
        counts: False when the re-run changed the candidate (then ``note`` says so).
        identity_after: candidate after the re-run; readback: the readback text.
    """

    KIND = "spot_check"

    root: str
    identity: str
    kind: str
    command: str
    agreed: bool
    counts: bool
    receipt_id: int | None = None
    reported_exit: int | None = None
    observed_exit: int | None = None
    identity_after: str | None = None
    note: str | None = None
    duration_ms: int | None = None
    output_digest: str | None = None
    readback: str | None = None
    id: int = 0
    recorded_at: float = 0.0


@frozen
class VerdictRecord:
    """A stored ``DelegationVerdict`` with its acceptance (SPEC §6 "verdict").

    Attributes:
        brief_id / status: from the verdict (status ``blocked`` when its full suite did
            not run); accepted: accepted for the gate;
        reasons: why not accepted (empty when accepted); json: the verdict JSON as given;
        markdown: its Markdown view.
        artifact_ref: its JSON artifact (the Markdown view beside it), or None (recorded
            before artifacts were written).
        caller: who the verdict names as its caller (or who added it), or None.
        observed_run: the :class:`VerifyRun` that wrote exactly this verdict, or None.
    """

    KIND = "verdict"

    root: str
    identity: str
    brief_id: str
    status: str
    accepted: bool
    reasons: tuple[str, ...]
    json: str
    markdown: str
    id: int = 0
    recorded_at: float = 0.0
    artifact_ref: str | None = None
    caller: str | None = None
    observed_run: int | None = None


@frozen
class VerifyRun:
    """One ``gentle-hook verify run`` (SPEC §9): what it observed in the clean room and the
    verdict it wrote.

    Attributes:
        root / identity: the work tree and the candidate the room held.
        brief_id / status / caller: the verdict's.
        room: the clean room's directory; artifact_ref: the verdict's JSON.
        verdict_digest: ``sha256:`` of the verdict's canonical JSON
            (:func:`gentle_hooks.artifacts.verdict.verdict_digest`).
        observations: JSON list, one object per check: ``kind``, ``command``,
            ``exitCode``, ``durationMs``, ``outputDigest``.
        mac: this ledger's seal on the other fields (:mod:`.seal`); None on a row
            recorded before rows were sealed.
    """

    root: str
    identity: str
    brief_id: str
    status: str
    caller: str
    room: str
    artifact_ref: str
    verdict_digest: str
    observations: str
    id: int = 0
    recorded_at: float = 0.0
    mac: str | None = None


#: The outcomes a review fact records: ``acknowledged`` is a caller's ``review ack``, never
#: native's ``candidate.consumed`` (seed 000: that fact is native's, "written when an
#: approved review is acknowledged").
REVIEW_FACT_OUTCOMES = ("declined", "unavailable", "acknowledged")
#: Outcomes an older gentle-hooks recorded, read as the word recorded now (``review ack``
#: was stored as native's word, ``consumed``).
FORMER_REVIEW_OUTCOMES = {"consumed": "acknowledged"}


@frozen
class ReviewFact:
    """A review outcome fact for one candidate: one of :data:`REVIEW_FACT_OUTCOMES`."""

    KIND = "review_fact"

    root: str
    identity: str
    outcome: str
    id: int = 0
    recorded_at: float = 0.0


@frozen
class CommitRecord:
    """What a commit delivered (SPEC §6 "commit record"): written by post-commit when it
    consumed pending writer work, and carried to the new commit by post-rewrite.

    Attributes:
        commit_id: the commit; identity / tree / base_tree: its committed candidate.
        origin: the commit whose pending work was consumed (the writer work's key: the
            consumed mutations and escalations name it in ``consumed_by``).
        rewritten_from: the commit this one replaced (amend, rebase), or None.
        stale: the rewrite changed the tree, so records of the old candidate do not count.
        hook: ``post-commit`` or ``post-rewrite``.
    """

    root: str
    commit_id: str
    identity: str
    tree: str
    base_tree: str
    origin: str
    hook: str
    rewritten_from: str | None = None
    stale: bool = False
    id: int = 0
    recorded_at: float = 0.0


def commit_record(
    root: str,
    commit_id: str,
    cand: Candidate,
    hook: str,
    *,
    origin: str,
    rewritten_from: str | None = None,
    stale: bool = False,
) -> CommitRecord:
    """The (unsaved) :class:`CommitRecord` of ``commit_id``, whose committed candidate is
    ``cand``, recorded from the work tree (or git dir) ``root`` by ``hook``."""
    return CommitRecord(
        root=root,
        commit_id=commit_id,
        identity=cand.identity,
        tree=cand.tree,
        base_tree=cand.base.tree,
        origin=origin,
        hook=hook,
        rewritten_from=rewritten_from,
        stale=stale,
    )


@frozen
class OverrideRecord:
    """A ``GENTLE_HOOKS_SKIP`` override (SPEC §5 "Overrides"): who let what through, why.

    Attributes:
        identity: the candidate let through; hook: the gate; target: the pushed ref or
        commit (None for a commit gate); who: the committer ident; reason: the text of
        ``GENTLE_HOOKS_SKIP``; missing: what the gate found missing.
    """

    root: str
    identity: str
    hook: str
    who: str
    reason: str
    missing: tuple[str, ...]
    target: str | None = None
    id: int = 0
    recorded_at: float = 0.0


@frozen
class RddRender:
    """One ``Receipt-driven development: …`` line a harness session rendered (SPEC §9).

    Append-only: a session's pinned line is its latest row (:meth:`Ledger.rdd_pinned`);
    a line kept as it was writes nothing.

    Attributes:
        session_id: the harness session's own id; root: the work tree it rendered from.
        mode / source: the rendered RDD mode and the source that decided it.
        line: exactly the rendered line.
        previous_mode: the pinned mode it replaced, or None for the session's first line.
        row: the id of the transition row that rendered it
            (:data:`gentle_hooks.policy.rddline.LINE_ROWS`).
    """

    session_id: str
    root: str
    mode: str
    source: str
    line: str
    row: str
    previous_mode: str | None = None
    id: int = 0
    recorded_at: float = 0.0


@frozen
class WriterEntryRecord:
    """One path a writer's mutation wrote (SPEC §3 "Attribution follows content").

    Attributes:
        mutation_id: the pending mutation it belongs to (model, effort, source...).
        root: the work tree root that recorded it; path: root-relative path.
        blob: the blob id the writer left (None: it deleted the path).
        before_blob: the blob it started from (None: no such path;
            :data:`gentle_hooks.policy.attribution.UNKNOWN_BEFORE`: recorded before
            contents were kept, so any change of the path carries it).
        head: HEAD when recorded (None: unborn).
        added / removed: keys of the significant lines the writer added and removed
            (:func:`gentle_hooks.policy.attribution.writer_delta`); binary: either side
            is binary.
        state: ``open`` (no commit took it yet), ``taken`` (a commit carried it),
            ``settled`` (a commit that carried it is on a remote or the base ref),
            ``expired`` (its content is nowhere any more), ``discarded`` (on purpose).
    """

    mutation_id: int
    root: str
    path: str
    blob: str | None
    before_blob: str | None
    head: str | None
    added: tuple[str, ...]
    removed: tuple[str, ...]
    binary: bool
    state: str = "open"
    id: int = 0
    recorded_at: float = 0.0


#: Entry states that still attribute content to a writer.
LIVE_STATES = ("open", "taken")
#: Entry states that no longer attribute anything (every other state of the schema).
ENDED_STATES = ("settled", "expired", "discarded")


@frozen
class EntryTake:
    """A commit that carried a writer entry (post-commit, post-rewrite, a gate).

    Attributes:
        entry_id: the entry; commit_id: the commit; identity: its committed candidate;
        hook: who saw it (``post-commit``, ``post-rewrite``, ``pre-push`` ...).
    """

    entry_id: int
    commit_id: str
    identity: str
    hook: str
    id: int = 0
    recorded_at: float = 0.0


@frozen
class DiscardRecord:
    """Pending writer work abandoned on purpose (``gentle-hook discard``), like an override.

    Attributes:
        root: the work tree root; who: the committer ident; reason: why;
        paths: the paths named (empty: ``--all``); entries: the entry ids discarded;
        claimed: of those, the ids whose content came back (retyped: it delegates no change);
            no ``entries``: claimed at ``paths`` (:mod:`gentle_hooks.services.claims`);
        blobs: ``'<blob id> <path>'`` a copy claim binds."""

    root: str
    who: str
    reason: str
    paths: tuple[str, ...]
    entries: tuple[int, ...]
    claimed: tuple[int, ...] = ()
    blobs: tuple[str, ...] = ()
    id: int = 0
    recorded_at: float = 0.0


@frozen
class CommitWorktree:
    """The work tree whose git made a commit (post-commit, post-rewrite), recorded while
    another work tree has live writer entries.

    Attributes:
        commit_id: the commit; root: the work tree root that made it; hook: who recorded it.
    """

    commit_id: str
    root: str
    hook: str
    id: int = 0
    recorded_at: float = 0.0


#: The ``source`` of a held spool line no command could read (no table: it can only be
#: discarded; :func:`gentle_hooks.ledger.spool_fold.fold_kept`).
SPOOL_SOURCE = "spool"
#: The ``source`` of a damaged ledger's writer rows that could not be recovered (no table:
#: they can only be discarded; :mod:`gentle_hooks.ledger.salvage`).
DAMAGED_SOURCE = "damaged-ledger"


@frozen
class QuarantineRecord:
    """A row no command could read, moved whole into ``quarantine`` by ``doctor --fix``
    (:mod:`gentle_hooks.ledger.quarantine`): held, restored to its table, or discarded.

    Attributes:
        source: the table it came from; source_id: its rowid there; why: what the row
            decoder refused; row: its values exactly (JSON, see the quarantine module);
        state: ``held``, ``restored`` or ``discarded``; who / reason: who ended it and why;
        ended_at: when it was restored or discarded.
    """

    source: str
    source_id: int | None
    why: str
    row: str
    state: str = "held"
    who: str | None = None
    reason: str | None = None
    id: int = 0
    recorded_at: float = 0.0
    ended_at: float | None = None


#: The records the recording commands and ``status`` list; each names its kind in ``KIND``
#: (the ``type`` of its JSON form, :mod:`gentle_hooks.report.record_models`).
Listed = PendingMutation | EscalationRecord | Receipt | SpotCheck | VerdictRecord | ReviewFact

Record = (
    PendingMutation
    | EscalationRecord
    | Receipt
    | SpotCheck
    | VerdictRecord
    | ReviewFact
    | CommitRecord
    | OverrideRecord
    | RddRender
    | WriterEntryRecord
    | EntryTake
    | DiscardRecord
    | VerifyRun
    | QuarantineRecord
    | CommitWorktree
)
if TYPE_CHECKING:
    R = TypeVar(
        "R",
        PendingMutation,
        EscalationRecord,
        Receipt,
        SpotCheck,
        VerdictRecord,
        ReviewFact,
        CommitRecord,
        OverrideRecord,
        RddRender,
        WriterEntryRecord,
        EntryTake,
        DiscardRecord,
        VerifyRun,
        QuarantineRecord,
        CommitWorktree,
    )
