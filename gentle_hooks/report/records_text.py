"""Human output for ledger records, recording commands and ``status`` (SPEC §6, §7).

Room ``report``. Pure string building from records and results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gentle_hooks.errors import shown_field, shown_writer
from gentle_hooks.ledger.records import (
    EscalationRecord,
    PendingMutation,
    Receipt,
    Record,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
)
from gentle_hooks.policy.plan import Plan
from gentle_hooks.policy.shellwords import shown
from gentle_hooks.policy.shortfall import SpotCheckShortfall
from gentle_hooks.report.fixes import reason, receipt_hints, step_lines, steps
from gentle_hooks.report.program_text import program
from gentle_hooks.values.ruled import without_rule_id

if TYPE_CHECKING:
    from gentle_hooks.services.status import StatusResult


#: How a verdict line says its run was let start programs from a shared place.
ALLOWED_SHARED = "ran with --allow-shared-programs, programs from a temporary or shared directory"


def short_identity(identity: str) -> str:
    """``sha256:`` and the first 12 hex digits of an identity, with an ellipsis."""
    return identity[:19] + "…"


#: What a record's number says while it has none: a spooled record (the ledger was busy,
#: :mod:`gentle_hooks.ledger.spool`) is numbered when it is folded into the ledger.
UNNUMBERED = "(spooled, numbered when folded into the ledger)"


def number(record_id: int) -> str:
    """``#N`` of a stored record; :data:`UNNUMBERED` for a spooled one (id 0)."""
    return f"#{record_id}" if record_id > 0 else UNNUMBERED


def describe(rec: Record, explain: bool = False) -> str:
    """One line describing a record, starting with its kind and number (:func:`number`).
    A verdict not accepted says why in words; its rule ids (``V2``, ``R1``) only with ``explain``.
    Stored text (a model, a reason, an observed result) is echoed bounded
    (:func:`~gentle_hooks.errors.shown_field`): a row written around the recorder's
    limits never prints whole."""
    if isinstance(rec, PendingMutation):
        via = f" via {shown_field(rec.source)}" if rec.source else ""
        paths = f", {len(rec.paths)} path(s)" if rec.paths else ""
        return (
            f"pending mutation {number(rec.id)}: {shown_writer(rec.model, rec.effort)}{via}{paths}"
        )
    if isinstance(rec, EscalationRecord):
        return (
            f"escalation {number(rec.id)}: item {rec.item} {shown_field(rec.slug)}: "
            f"{shown_field(rec.reason)}"
        )
    if isinstance(rec, Receipt):
        how = (
            f"ran it, {rec.duration_ms} ms"
            if rec.kind == "run"
            else f"reported, exit {rec.exit_code}"
        )
        return f"receipt {number(rec.id)}: {rec.line}  ({how})"
    if isinstance(rec, SpotCheck):
        if rec.kind == "readback":
            head = (rec.readback or "").split("\n", 1)[0]
            return f"readback {number(rec.id)}: {shown_field(head)}"
        verdict = "agreed" if rec.agreed else "DISAGREED"
        line = (
            f"spot check {number(rec.id)}: re-ran receipt #{rec.receipt_id} "
            f"({shown(rec.command)}): "
            f"reported exit {rec.reported_exit}, observed exit {rec.observed_exit}: {verdict}"
        )
        return line if rec.counts else f"{line}; does not count: {rec.note}"
    if isinstance(rec, VerdictRecord):
        said = rec.reasons if explain else tuple(without_rule_id(r) for r in rec.reasons)
        state = "accepted" if rec.accepted else "not accepted: " + "; ".join(said)
        line = (
            f"verdict {number(rec.id)}: brief {shown_field(rec.brief_id)}, "
            f"status {shown_field(rec.status)}: {state}"
        )
        from gentle_hooks.artifacts.verdict import stored_shared_programs

        shared = stored_shared_programs(rec.json)
        if shared:
            line += f"; {ALLOWED_SHARED}: {', '.join(shared)}"
        return line if rec.artifact_ref is None else f"{line}  (artifact {rec.artifact_ref})"
    assert isinstance(rec, ReviewFact)
    if rec.outcome == "acknowledged":  # what `review ack` records: never the review's closure
        return f"review {number(rec.id)}: acknowledged by a caller (review ack), not closed"
    return f"review {number(rec.id)}: {shown_field(rec.outcome)}"


def _verifier_line(plan: Plan, accepted: int) -> str:
    if plan.verifiers == 0:
        return f"verifier: not required (plan risk {plan.risk.value})"
    state = "satisfied" if accepted >= plan.verifiers else "MISSING"
    return f"verifier: {state} ({accepted} of {plan.verifiers} accepted verdict(s))"


def render_status(s: StatusResult, explain: bool = False) -> str:
    """Render ``status``: the plan, the records, what is satisfied and what is missing
    (``explain``: with the decision rows and sources, :func:`plan_lines`)."""
    from gentle_hooks.report.text import plan_lines  # the assess stack: only for status

    r, f = s.assessment, s.facts
    counted = f.gate_verdicts(r.config.settings.verification.require_observed)
    # nothing delegated, nothing required: a requirement line would contradict the
    # "not delegated" line below
    lines = plan_lines(r, explain, requirement=r.decision.applies)
    lines.append(f"ledger: {f.path}" + ("" if f.present else " (not created yet)"))
    records: list[Record] = [
        *f.mutations,
        *f.escalations,
        *f.receipts,
        *f.spot_checks,
        *counted,
        *f.review_facts,
    ]
    lines.append("records:" if records else "records: none for this candidate")
    lines.extend(f"  {describe(rec, explain)}" for rec in records)
    d = r.decision
    # the same verdict added again, or the same caller's run of the same brief and
    # commands, is one verifier's answer: counted as the gate counts it
    # (LedgerFacts.satisfaction)
    from gentle_hooks.ledger.verifiers import accepted_verifiers

    accepted = accepted_verifiers([v for v in counted if isinstance(v, VerdictRecord)])
    if not d.applies:
        # No writer content here: what the plan would require is not missing from a human's
        # change, and printing it as missing would label the change as AI work.
        unneeded = "not needed (no writer content in this candidate)"
        lines.append("spot check: " + ("satisfied" if d.spot_check_satisfied else unneeded))
        verifier = _verifier_line(r.plan, accepted)
        lines.append(verifier if "MISSING" not in verifier else f"verifier: {unneeded}")
        if s.unchecked_head is None:
            lines.append("status: not delegated; the gate does not apply")
        else:  # the push gate will block: saying "does not apply" would contradict it
            lines.append(
                "status: this candidate is not delegated, but the push gate blocks commit "
                f"{s.unchecked_head[:12]} (writer work committed without its checks)"
            )
        lines.extend(f"note: {h}" for h in _own_hints(s))
        return "\n".join(lines)
    refuted = any(isinstance(m, SpotCheckShortfall) and m.disagreements for m in s.missing)
    # an agreeing spot check after a disagreeing one changes nothing: the candidate is refuted
    missing = "REFUTED (a re-run of this change disagreed)" if refuted else "MISSING"
    lines.append("spot check: " + ("satisfied" if d.spot_check_satisfied else missing))
    lines.append(_verifier_line(r.plan, accepted))
    if s.satisfied:
        lines.append("status: satisfied")
    else:
        lines.append("status: missing " + ", ".join(m.what.value for m in s.missing))
        for m in s.missing:
            lines.append(f"  missing: {reason(m)}")
            lines.extend(step_lines(steps(m, r.binding)))
    if d.applies:
        lines.append("gate: applies (" + ("would block" if d.blocked else "would pass") + ")")
    lines.extend(f"note: {h}" for h in status_hints(s))
    return "\n".join(lines)


def status_hints(s: StatusResult) -> tuple[str, ...]:
    """``status``'s hints: the report to make first (when a missing spot check needs one),
    then the service's own."""
    return (*receipt_hints(s.missing, s.assessment.binding), *_own_hints(s))


def _own_hints(s: StatusResult) -> tuple[str, ...]:
    """The service's hints, then the line for the unchecked writer commit of ``HEAD``'s
    unpushed ones, if any (``HEAD`` itself: ``status --committed`` shows what it misses)."""
    if s.unchecked_head is None:
        return s.hints
    short = s.unchecked_head[:12]
    if s.unchecked_head == s.assessment.candidate.head:
        return (
            *s.hints,
            f"this candidate carries no writer work, but HEAD (commit {short}) does, "
            "committed without what its plan requires: the push gate blocks it; "
            f"{program()} status --committed shows what is missing",
        )
    return (
        *s.hints,
        f"this candidate carries no writer work, but unpushed commit {short} under HEAD "
        "does, committed without what its plan requires: the push gate blocks it and names "
        "what is missing",
    )
