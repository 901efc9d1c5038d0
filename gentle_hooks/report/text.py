"""Human output: a few lines a developer reads at a glance (SPEC §7).

Room ``report``. Pure string building from results; the CLI decides where it goes.
"""

from __future__ import annotations

from gentle_hooks.errors import shown_field, shown_writer
from gentle_hooks.policy.vocabulary import ReviewOutcome, Verification

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.services.assess import AssessResult

_KIND = {
    Verification.STRUCTURAL_READBACK: "structural readback by the parent",
    Verification.SELF_VERIFICATION: "writer self-verification",
    Verification.INDEPENDENT_VERIFIER: "one separate gentle-ai-verify run",
    Verification.SPOT_CHECK: "the parent's spot check",
}


def short(oid: str | None) -> str:
    """The first 12 characters of an id (``-`` for None)."""
    return oid[:12] if oid else "-"


def render_assess(r: AssessResult, explain: bool = False) -> str:
    """Render an assessment for people: tier and why, what is required, the candidate,
    and the gate's answer (``explain``: with the decision rows and sources)."""
    return "\n".join([*plan_lines(r, explain), *gate_lines(r)])


def plan_lines(r: AssessResult, explain: bool = False, requirement: bool = True) -> list[str]:
    """The plan part of :func:`render_assess`: tier, reasons, requirements, candidate,
    writer, review and RDD lines. Row ids and where each input came from only with
    ``explain`` (they are in ``--json`` always). Without ``requirement`` no ``requires:``
    lines (``status`` of a candidate the gate does not apply to: nothing is required)."""
    plan, cand = r.plan, r.candidate
    via = f" from {r.native_provider}" if r.native_provider != "builtin" else ""
    rows = f"; rows {' '.join(plan.rows)}" if explain else ""
    lines = [f"risk: {plan.risk.value}  (native {plan.native_risk.value}{via}{rows})"]
    if plan.escalations:
        for e in plan.escalations:
            said = shown_field(e.reason)  # stored text: bounded
            lines.append(f"  escalated: item {e.item.number} {e.item.slug}: {said}")
    if r.native is not None:
        from gentle_hooks.report.reason_words import reason_words

        for reason in r.native.reasons[:5]:
            said = reason_words(reason.code, reason.path, reason.detail)
            lines.append(f"  why: {said} ({reason.code})" if explain else f"  why: {said}")
        if len(r.native.reasons) > 5:
            lines.append(f"  why: ... {len(r.native.reasons) - 5} more (see --json)")
    else:
        lines.append(f"  native assessment failed: {r.native_error}")
    if r.native_note:
        lines.append(f"  note: {r.native_note}")
    kinds = dict(_KIND)
    if plan.verifiers > 1:
        kinds[Verification.INDEPENDENT_VERIFIER] = (
            f"{plan.verifiers} separate gentle-ai-verify runs, a majority passing "
            f"(stakes {plan.stakes.value}{', critical' if plan.critical else ''})"
        )
    required = " + ".join(kinds[v] for v in plan.verification)
    if requirement:
        lines.append(f"requires: {required}")
        lines.append(f"  {plan.text}")
    added = sum(c.additions or 0 for c in r.changes)
    deleted = sum(c.deletions or 0 for c in r.changes)
    changed = r.native.changed_lines if r.native is not None else added + deleted
    from gentle_hooks.report.base_text import base_words

    base = base_words(cand.base)
    lines.append(
        f"candidate: {cand.identity[:19]}…  {cand.projection.value} tree {short(cand.tree)} "
        f"vs {base}"
    )
    lines.append(
        f"  {len(r.changes)} path(s), +{added} -{deleted}, {changed} changed line(s); "
        f"base: {cand.base.note}"
    )
    w = plan.writer
    who = ", ".join(shown_writer(p.model, p.effort.value if p.effort else None) for p in w.profiles)
    if explain:
        lines.append(
            f"writer: {who} ({w.source.value}{', small' if w.small else ''}); "
            f"review: {plan.review.outcome.value} ({plan.review.source.value}); "
            f"{plan.rdd.line()} ({plan.rdd.source.value})"
        )
    else:
        lines.append(f"writer: {who}; review: {plan.review.outcome.value}; {plan.rdd.line()}")
    return lines


def gate_lines(r: AssessResult) -> list[str]:
    """The gate part of :func:`render_assess`: blocked or satisfied, each missing item with
    the command that supplies it; one informational line when the gate does not apply."""
    # the gates import this module for :func:`short` alone: the fix words load on use
    from gentle_hooks.report.fixes import reason, step_lines, steps

    lines: list[str] = []
    d = r.decision
    if d.applies:
        state = "BLOCKED" if d.blocked else "satisfied"
        lines.append(f"gate: {state}")
        for s in d.shortfalls:
            lines.append(f"  missing: {reason(s)}")
            lines.extend(step_lines(steps(s, r.binding)))
    else:
        lines.append("gate: not delegated; the gate does not apply (informational)")
    return lines


def caller_closed_note(caller: str | None, r: AssessResult) -> str | None:
    """The line ``assess`` prints on stderr when the caller passed ``--review-outcome
    closed`` and the plan did not close the review (SPEC §5, seed 000 review-outcome table,
    last row: a bare caller ``closed`` resolves to ``unknown``): why, and the values a caller
    may pass; None otherwise."""
    if caller != ReviewOutcome.CLOSED.value or r.plan.review.outcome is ReviewOutcome.CLOSED:
        return None
    return (
        f"gentle-hook: note: --review-outcome closed is a caller's word, not the review's: "
        f"resolved to {r.plan.review.outcome.value} (only the native provider's "
        "candidate.consumed fact for this candidate closes a review); a caller may pass "
        "declined, unavailable or unknown"
    )
