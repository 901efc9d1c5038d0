"""Build the ``--json`` envelope of ``assess`` from a result (SPEC §7).

Layer: service -> models. The one place that maps policy values to the JSON boundary.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.assessment import AssessResult
from gentle_hooks.ledger_models import (
    STATUS_SCHEMA,
    MissingOut,
    StatusEnvelope,
    StatusRecordsOut,
    record_out,
)
from gentle_hooks.ledger_records import Record
from gentle_hooks.models import (
    ASSESS_SCHEMA,
    AssessEnvelope,
    CandidateOut,
    DecisionOut,
    EscalationOut,
    NativeOut,
    RddOut,
    VerificationOut,
    WriterOut,
    WriterProfileOut,
)
from gentle_hooks.policy.vocabulary import Verification
from gentle_hooks.policy.writer import is_small
from gentle_hooks.status import StatusResult


def build_envelope(r: AssessResult) -> AssessEnvelope:
    """Map an :class:`AssessResult` to the :class:`AssessEnvelope` printed by ``--json``.

    Native projections (``reviewDue``, ``reviewDueReason``, ``nextTransition``,
    ``candidate.consumed``) are set only when native reported them, so that
    ``model_dump(exclude_unset=True)`` leaves them absent otherwise.
    """
    plan, cand, native = r.plan, r.candidate, r.native
    cand_fields: dict[str, object] = dict(
        identity=cand.identity,
        projection=cand.projection.value,
        base_ref=cand.base.ref,
        base_source=cand.base.source,
        base_commit=cand.base.commit,
        base_tree=cand.base.tree,
        tree=cand.tree,
        head=cand.head,
        object_format=cand.object_format,
        note=cand.base.note,
    )
    extra: dict[str, object] = {}
    if native is not None:
        if native.candidate.consumed is not None:
            cand_fields["consumed"] = native.candidate.consumed
        if "review_due" in native.model_fields_set:
            extra["reviewDue"] = native.review_due
        if "review_due_reason" in native.model_fields_set:
            extra["reviewDueReason"] = native.review_due_reason
        if "next_transition" in native.model_fields_set:
            extra["nextTransition"] = native.next_transition
    return AssessEnvelope(
        schema_=ASSESS_SCHEMA,
        risk=plan.risk,
        nativeRisk=plan.native_risk,
        nativeReviewOutcome=plan.review.outcome,
        outcome_source=plan.review.source,
        writerProfile=WriterProfileOut(
            small=plan.writer.small,
            profiles=tuple(
                WriterOut(model=p.model, effort=p.effort, small=is_small(p))
                for p in plan.writer.profiles
            ),
        ),
        writerProfileSource=plan.writer.source,
        candidate=CandidateOut.model_validate(cand_fields),
        rdd=RddOut(mode=plan.rdd.mode, source=plan.rdd.source, line=plan.rdd.line()),
        escalations=tuple(
            EscalationOut(item=e.item.number, slug=e.item.slug, reason=e.reason)
            for e in plan.escalations
        ),
        verification=VerificationOut(
            required=plan.verification,
            verifiers=plan.verifiers,
            spot_check_required=Verification.SPOT_CHECK in plan.verification,
            text=plan.text,
            rows=plan.rows,
        ),
        decision=DecisionOut(
            applies=r.decision.applies,
            blocked=r.decision.blocked,
            spot_check_satisfied=r.decision.spot_check_satisfied,
            verifier_satisfied=r.decision.verifier_satisfied,
            missing=r.decision.missing,
            reasons=r.decision.reasons,
            fixes=r.decision.fixes,
        ),
        native=NativeOut(provider=r.native_provider, assessment=native, error=r.native_error),
        **extra,  # type: ignore[arg-type]
    )


def envelope_json(env: AssessEnvelope) -> str:
    """The envelope as compact, stable JSON (aliases, unset projections absent)."""
    return env.model_dump_json(by_alias=True, exclude_unset=True, indent=2)


def build_status_envelope(s: StatusResult) -> StatusEnvelope:
    """Map a :class:`~gentle_hooks.status.StatusResult` to ``status --json``."""
    f = s.facts
    groups: dict[str, Sequence[Record]] = {
        "pending_mutations": f.mutations,
        "escalations": f.escalations,
        "receipts": f.receipts,
        "spot_checks": f.spot_checks,
        "verdicts": f.verdicts,
        "review_facts": f.review_facts,
    }
    records = StatusRecordsOut.model_validate(
        {
            **{name: [record_out(r) for r in recs] for name, recs in groups.items()},
            "other_candidates": dict(f.other_candidates),
        }
    )
    return StatusEnvelope(
        schema_=STATUS_SCHEMA,
        assessment=build_envelope(s.assessment),
        ledger=f.path,
        ledger_present=f.present,
        records=records,
        satisfied=s.satisfied,
        missing=tuple(
            MissingOut(what=m.what, reason=m.reason, command=m.command) for m in s.missing
        ),
        hints=s.hints,
    )


def status_json(s: StatusResult) -> str:
    """``status --json`` as stable JSON (aliases, unset native projections absent)."""
    return build_status_envelope(s).model_dump_json(by_alias=True, exclude_unset=True, indent=2)
