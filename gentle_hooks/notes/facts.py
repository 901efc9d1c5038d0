"""A note's records as facts for the policy (SPEC §8 "Notes"): what the range and server
gates judge a commit by, in place of the local ledger.

Room ``notes``. Reads only typed lines (:mod:`gentle_hooks.notes.lines`) and builds the
ledger's value types, so :func:`gentle_hooks.services.assess.evaluate` re-derives the plan
from a note exactly as from the ledger — never from a field that states it.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.errors import GentleError
from gentle_hooks.ledger.facts import NOTE_PATH, OBSERVED_RULE, LedgerFacts
from gentle_hooks.ledger.records import (
    FORMER_REVIEW_OUTCOMES,
    REVIEW_FACT_OUTCOMES,
    EscalationRecord,
    PendingMutation,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
)
from gentle_hooks.notes.codec import ParsedNote
from gentle_hooks.notes.lines import (
    EscalationLine,
    NoteLine,
    ReceiptLine,
    ReviewLine,
    SpotCheckLine,
    VerdictLine,
    WriterLine,
)
from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.artifacts.verdict import DelegationVerdict


def facts_from_note(
    note: ParsedNote,
    identity: str,
    root: str,
    counts: Callable[[NoteLine], bool] | None = None,
    require_observed: bool = False,
) -> LedgerFacts:
    """The note's records for the candidate ``identity`` as the ledger's value types, so
    the policy sees the same facts it would see in the ledger.

    Every writer and escalation line counts; a re-run counts only when it is consistent
    with a receipt of the same command, run in the same directory, for ``identity``
    (:func:`note_reruns`); a verdict's acceptance is
    recomputed from the verdict itself (a malformed one verifies nothing); review facts
    count only with a known outcome.

    Args:
        note: the parsed note; identity: the candidate judged; root: the work tree root
            (or git dir) the facts are attributed to.
        counts: when given, a spot-check or verdict line counts only when it answers True
            (``gate.require_signed``: signed by an allowed principal). Escalations always
            count: they only add requirements.
        require_observed: ``verification.require_observed`` of the configuration judging
            (the range's base): a verdict is accepted only when its line says a ``verify
            run`` wrote it (:func:`observed_fault`); others are kept, not accepted, with
            the reason.
    """
    from gentle_hooks.artifacts.verdict import verdict_acceptance, verdict_json

    mutations = tuple(
        PendingMutation(root=root, model=w.model, effort=w.effort, source=w.source)
        for w in note.of(WriterLine)
    )
    escalations = tuple(
        EscalationRecord(root, identity, e.item, e.slug, e.reason, critical=e.critical)
        for e in note.of(EscalationLine)
    )
    reruns = note_reruns(note, identity, counts)
    spots = tuple(
        SpotCheck(
            root=root,
            identity=identity,
            kind=s.check,
            command=s.command,
            agreed=s.agreed,
            counts=s.counts,
            reported_exit=s.reported_exit,
            observed_exit=s.observed_exit,
        )
        for s in reruns
        if s.consistent
    )
    # a re-run that agreed, left out only for want of its receipt: the block says so
    unbacked = tuple(
        dict.fromkeys(s.command for s in reruns if s.check == "rerun" and s.agreed and not s.backed)
    )
    verdicts = []
    for v in note.of(VerdictLine, identity):
        if counts is not None and not counts(v):
            continue
        try:
            parsed = note_verdict(v.verdict)
        except GentleError:
            continue  # a malformed verdict in a note verifies nothing
        accepted, reasons = verdict_acceptance(parsed)
        fault = observed_fault(v, parsed, identity) if require_observed and accepted else None
        if fault is not None:
            accepted, reasons = False, (*reasons, fault)
        verdicts.append(
            VerdictRecord(
                root=root,
                identity=identity,
                brief_id=parsed.briefId,
                status=parsed.status,
                accepted=accepted,
                reasons=reasons,
                json=verdict_json(parsed),
                markdown="",
            )
        )
    # a note an older gentle-hooks wrote says 'consumed' for a review ack
    outcomes = (
        FORMER_REVIEW_OUTCOMES.get(r.outcome, r.outcome) for r in note.of(ReviewLine, identity)
    )
    reviews = tuple(
        ReviewFact(root=root, identity=identity, outcome=outcome)
        for outcome in outcomes
        if outcome in REVIEW_FACT_OUTCOMES
    )
    return LedgerFacts(
        path=NOTE_PATH,
        present=True,
        root=root,
        identity=identity,
        mutations=mutations,
        escalations=escalations,
        spot_checks=spots,
        verdicts=tuple(verdicts),
        review_facts=reviews,
        unbacked=unbacked,
    )


@frozen
class NoteRerun:
    """A spot-check line of a note as the gates read it: the line's fields, ``cwd`` the
    directory it re-ran its receipt in (``.``: the top); ``backed``: the note holds a
    receipt of the same command in the same directory for its identity; ``consistent``:
    it counts only when it could have been recorded (:func:`note_reruns`)."""

    check: str
    command: str
    cwd: str
    reported_exit: int | None
    observed_exit: int | None
    agreed: bool
    counts: bool
    backed: bool
    consistent: bool


def note_reruns(
    note: ParsedNote, identity: str, counts: Callable[[NoteLine], bool] | None = None
) -> list[NoteRerun]:
    """The note's re-runs and readbacks of ``identity`` (those ``counts`` answers True for,
    when given), in note order. A re-run is consistent only as it could have been recorded:
    both statuses integers, equal when it says it agreed, and a receipt of the same command
    *in the same directory* for this identity (a report made elsewhere tests something else:
    it backs no re-run here). A readback is always consistent."""
    receipts = {(r.command, r.cwd or ".") for r in note.of(ReceiptLine, identity)}
    out = []
    for s in note.of(SpotCheckLine, identity):
        if s.check not in ("rerun", "readback") or (counts is not None and not counts(s)):
            continue
        cwd = s.cwd or "."
        backed = (s.command, cwd) in receipts
        rep, obs = s.reported_exit, s.observed_exit
        consistent = s.check == "readback" or (
            rep is not None and obs is not None and (rep == obs) == s.agreed and backed
        )
        out.append(
            NoteRerun(s.check, s.command, cwd, rep, obs, s.agreed, s.counts, backed, consistent)
        )
    return out


def note_verdict(text: str) -> DelegationVerdict:
    """The verdict a :class:`VerdictLine` holds (``text``: its canonical JSON object),
    forward compatible as the line is (docs/ci.md "The notes format"): a top-level field
    :class:`DelegationVerdict` does not have (a newer gentle-hooks's optional field) is
    ignored; every field it has is checked as ``verdict add`` checks it.

    Raises:
        ArtifactInputError: not a verdict for the fields this reader knows (exit 2).
    """
    import json

    from gentle_hooks.artifacts.verdict import DelegationVerdict, parse_verdict

    obj = json.loads(text)  # the line's decoder made it: a JSON object
    known = {k: val for k, val in obj.items() if k in DelegationVerdict.model_fields}
    return parse_verdict(json.dumps(known) if len(known) < len(obj) else text, "note verdict")


def _text_digest(text: str) -> str:
    """``sha256:`` of a line's verdict as :func:`~gentle_hooks.artifacts.verdict.verdict_digest`
    writes it (keys sorted, compact, UTF-8), fields this reader does not know included."""
    import hashlib
    import json

    canonical = json.dumps(
        json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def observed_fault(line: VerdictLine, verdict: DelegationVerdict, identity: str) -> str | None:
    """Why the note's verdict ``line`` (``verdict`` parsed from it) is not one a ``gentle-hook
    verify run`` observed for ``identity``, or None when the line says it is: its
    ``observed`` digest is this verdict's digest, and the verdict names ``identity`` as the
    candidate it judged. An unsigned line's ``observed`` is the word of whoever wrote the
    note (``gate.require_signed`` makes it a signer's); a verdict written by hand, edited
    or re-bound after the run carries none that matches."""
    from gentle_hooks.artifacts.verdict import binding_fault, verdict_digest

    if line.observed is None:
        return (
            f"{OBSERVED_RULE} not observed: its note line does not say a gentle-hook verify run "
            "wrote it (verification.require_observed)"
        )
    # a verdict with a field this reader does not know was digested with that field
    if line.observed not in (verdict_digest(verdict), _text_digest(line.verdict)):
        return (
            f"{OBSERVED_RULE} not observed: it is not the verdict its note line says a verify "
            "run wrote; an edited verdict is not evidence (verification.require_observed)"
        )
    bound = binding_fault(verdict, identity)
    if bound is not None:
        return f"{OBSERVED_RULE} not observed: {bound} (verification.require_observed)"
    return None
