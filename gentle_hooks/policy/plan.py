"""The verification plan and the gate decision (SPEC §5; seed 000 tier table).

Room ``policy`` (pure). Every rule is a row with a stable id; the plan records the ids of the
rows that produced it, so "why" is a render of data, not a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.policy.escalation import Escalation
from gentle_hooks.policy.rdd import ResolvedRdd
from gentle_hooks.policy.review import ResolvedReview, ReviewEvidence, resolve_review_outcome
from gentle_hooks.policy.selfcheck import Disagreement, RefusedReceipt
from gentle_hooks.policy.stakes import Stakes, stakes_satisfied, verifiers_required
from gentle_hooks.policy.vocabulary import Missing, NativeRisk, PlanRisk, Verification
from gentle_hooks.policy.writer import ResolvedWriter, WriterProfile, resolve_writer
from gentle_hooks.values.frozen import field, frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.policy.shortfall import CreatedFiles, PlanShortfall


@frozen
class RiskRow:
    """One plan-risk rule: id, the condition in words, predicate, resulting plan risk."""

    id: str
    when: str
    matches: Callable[[NativeRisk, bool], bool]
    risk: PlanRisk


#: Plan risk (SPEC §5): high only with an escalation; native passive stays passive;
#: anything else is medium. First match wins.
PLAN_RISK_ROWS: tuple[RiskRow, ...] = (
    RiskRow("P1", "an escalation names a Task Size high-risk item", lambda n, e: e, PlanRisk.HIGH),
    RiskRow(
        "P2",
        "native passive, not escalated",
        lambda n, e: n is NativeRisk.PASSIVE,
        PlanRisk.PASSIVE,
    ),
    RiskRow("P3", "any other native tier, not escalated", lambda n, e: True, PlanRisk.MEDIUM),
)


@frozen
class VerificationRow:
    """One row of the seed's tier table.

    Attributes:
        id: stable row id (``T-passive`` ...).
        tier: the tier column as the seed writes it.
        applies: predicate over (plan risk, native risk).
        required: the verification kinds this row requires (spot check is in every row).
        verifiers: separate ``gentle-ai-verify`` runs required (before stakes scaling).
        text: the verification column, verbatim from the seed.
    """

    id: str
    tier: str
    applies: Callable[[PlanRisk, NativeRisk], bool]
    required: tuple[Verification, ...]
    verifiers: int
    text: str


_INFORMS = (NativeRisk.HIGH, NativeRisk.UNKNOWN, NativeRisk.UNASSESSABLE)

#: Seed 000's tier table, one row per line; the parent's spot check is in every row
#: ("stays required in every tier").
VERIFICATION_ROWS: tuple[VerificationRow, ...] = (
    VerificationRow(
        "T-passive",
        "passive",
        lambda p, n: p is PlanRisk.PASSIVE,
        (Verification.STRUCTURAL_READBACK, Verification.SPOT_CHECK),
        0,
        "structural readback by the parent; no separate verifier, no tests",
    ),
    VerificationRow(
        "T-high",
        "high",
        lambda p, n: p is PlanRisk.HIGH,
        (
            Verification.SELF_VERIFICATION,
            Verification.INDEPENDENT_VERIFIER,
            Verification.SPOT_CHECK,
        ),
        1,
        "only through escalate naming a Task Size high-risk item: writer self-verification "
        "plus one separate gentle-ai-verify run",
    ),
    VerificationRow(
        "T-informs",
        "native high, unknown, or assess failed",
        lambda p, n: p is PlanRisk.MEDIUM and n in _INFORMS,
        (Verification.SELF_VERIFICATION, Verification.SPOT_CHECK),
        0,
        "informs only: writer self-verification stands; escalate when a named high-risk "
        "item applies",
    ),
    VerificationRow(
        "T-medium",
        "medium",
        lambda p, n: p is PlanRisk.MEDIUM,
        (Verification.SELF_VERIFICATION, Verification.SPOT_CHECK),
        0,
        "writer self-verification stands; no separate verifier, whatever model wrote the change",
    ),
)


@frozen
class PlanInputs:
    """Everything the plan depends on, as values.

    Attributes:
        native_risk: the native tier of the candidate.
        escalations: escalations recorded or requested for the candidate's work.
        review: review outcome evidence for this exact candidate.
        runtime_writers: writer profiles recorded by runtime hooks (pending mutations).
        caller_writer: ``--writer-model``/``--writer-effort`` when given.
        rdd: the resolved RDD mode (reported; never changes verification).
        stakes: ordinary | shipping | audit: how many accepted verdicts, with a majority of
            pass, the high tier needs (SPEC §9; a critical escalation counts at shipping).
    """

    native_risk: NativeRisk
    escalations: tuple[Escalation, ...]
    review: ReviewEvidence
    runtime_writers: tuple[WriterProfile, ...]
    caller_writer: WriterProfile | None
    rdd: ResolvedRdd
    stakes: Stakes = Stakes.ORDINARY


@frozen
class Plan:
    """The verification plan for one candidate (the seed's ``assess`` answer).

    Attributes:
        risk: plan risk (``risk``); native_risk: ``nativeRisk``.
        verification: required verification kinds; verifiers: separate verifier runs needed
            (0 below high; else :func:`verifiers_required` of the stakes and criticality).
        stakes / critical: the stakes and whether any escalation is critical.
        text: the tier table's verification sentence.
        rows: ids of every row that produced the plan, in evaluation order.
    """

    risk: PlanRisk
    native_risk: NativeRisk
    verification: tuple[Verification, ...]
    verifiers: int
    text: str
    escalations: tuple[Escalation, ...]
    review: ResolvedReview
    stakes: Stakes
    critical: bool
    writer: ResolvedWriter
    rdd: ResolvedRdd
    rows: tuple[str, ...]


def resolve_plan_risk(native: NativeRisk, escalated: bool) -> RiskRow:
    """Return the first :data:`PLAN_RISK_ROWS` row matching (native tier, escalated)."""
    for row in PLAN_RISK_ROWS:
        if row.matches(native, escalated):
            return row
    raise AssertionError("the last risk row matches everything")  # pragma: no cover


def resolve_verification(risk: PlanRisk, native: NativeRisk) -> VerificationRow:
    """Return the first :data:`VERIFICATION_ROWS` row for (plan risk, native tier)."""
    for row in VERIFICATION_ROWS:
        if row.applies(risk, native):
            return row
    raise AssertionError("every plan risk has a row")  # pragma: no cover


def build_plan(inputs: PlanInputs) -> Plan:
    """Build the plan: risk, verification, review outcome, writer profile, RDD (SPEC §5).

    The RDD mode, review outcome and writer profile are resolved and reported; none of
    them changes the risk or removes a requirement.
    """
    risk_row = resolve_plan_risk(inputs.native_risk, bool(inputs.escalations))
    ver_row = resolve_verification(risk_row.risk, inputs.native_risk)
    review = resolve_review_outcome(inputs.review)
    writer = resolve_writer(inputs.runtime_writers, inputs.caller_writer)
    critical = any(e.critical for e in inputs.escalations)
    verifiers = verifiers_required(inputs.stakes, critical) if ver_row.verifiers else 0
    return Plan(
        risk=risk_row.risk,
        native_risk=inputs.native_risk,
        verification=ver_row.required,
        verifiers=verifiers,
        text=ver_row.text,
        escalations=inputs.escalations,
        review=review,
        stakes=inputs.stakes,
        critical=critical,
        writer=writer,
        rdd=inputs.rdd,
        rows=(risk_row.id, ver_row.id, review.row, writer.row),
    )


@frozen
class Satisfaction:
    """What was done for this exact candidate (from the ledger or notes).

    Attributes:
        spot_check_agreed: a spot check gentle-hooks ran itself re-ran a receipt that counts
            (:func:`gentle_hooks.policy.selfcheck.receipt_standing`) and the report and the
            re-run both succeeded (:func:`gentle_hooks.policy.selfcheck.rerun_agrees`).
        readback: a structural readback was recorded (satisfies the passive tier only).
        disagreements: re-runs that failed after a report of success (they block).
        accepted_verdicts: verdicts accepted for the gate (SPEC §6 "verdict").
        rejected_verdicts: why each other stored verdict was not accepted.
        repeated_verdicts: stored verdicts that count as no further verifier: another run
            by the same caller of the same brief with the same commands, one sentence each.
        verdict_statuses: one entry per verifier for this candidate: ``pass`` for an
            accepted one, ``fail``/``blocked`` for a verifier that said so, ``abstain`` for
            a pass that was not accepted (no evidence, no full suite: it verified nothing).
            Audit stakes rule by majority over the non-abstaining ones.
        receipts: writer reports recorded for this candidate that count (None when
            unknown); with none, a gate names the report to make before the spot check.
        refused: the receipts recorded for this candidate that cannot count, and why.
        declared: the repository's declared verification commands (empty: none), so a
            fix can name the command to report.
        earlier: with no receipt for this candidate, the command that counts the work tree
            last reported successfully for another candidate (empty: none), so a fix can
            name the command to report again.
        created: files a counting report's run created that this candidate holds (None:
            none), so a fix keeps them out before the spot check.
        brief_faults: the (kind, command) of the checks the latest ``verify run`` of this
            candidate failed on without evidence, when it failed on nothing else
            (:func:`gentle_hooks.ledger.fails.brief_faults`; kind ``negative`` or
            ``criterion``): its brief is to be corrected.
        change_fails / everywhere_fails: the checks the latest ``verify run`` failed on
            with the change at fault, and those that fail on every tree, when it failed on
            both (:func:`gentle_hooks.ledger.fails.mixed_failures`); else both empty.
        unbacked: the commands of a note's re-runs of this candidate left out for want of
            the receipt they re-ran (:attr:`SpotCheckShortfall.unbacked`).
    """

    spot_check_agreed: bool = False
    readback: bool = False
    disagreements: tuple[Disagreement, ...] = ()
    accepted_verdicts: int = 0
    rejected_verdicts: tuple[str, ...] = ()
    repeated_verdicts: tuple[str, ...] = ()
    verdict_statuses: tuple[str, ...] = ()
    receipts: int | None = None
    refused: tuple[RefusedReceipt, ...] = ()
    declared: tuple[str, ...] = ()
    earlier: tuple[str, ...] = ()
    created: CreatedFiles | None = None
    brief_faults: tuple[tuple[str, str], ...] = ()
    change_fails: tuple[tuple[str, str], ...] = ()
    everywhere_fails: tuple[tuple[str, str], ...] = ()
    unbacked: tuple[str, ...] = ()


@frozen
class Decision:
    """The gate's answer for one candidate (SPEC §5 "Decision").

    Attributes:
        applies: the gate applies (the candidate is delegated, or applies_to = all).
        blocked: applies and something required is missing.
        spot_check_satisfied / verifier_satisfied: the satisfied flags.
        shortfalls: one value per missing item (verifier first, then spot check), with the
            facts :mod:`gentle_hooks.report.fixes` renders as the reason and the command.
    """

    applies: bool
    blocked: bool
    spot_check_satisfied: bool
    verifier_satisfied: bool
    shortfalls: tuple[PlanShortfall, ...] = field(default=())

    @property
    def missing(self) -> tuple[Missing, ...]:
        """What is missing, one kind per shortfall, in order."""
        return tuple(s.what for s in self.shortfalls)


def decide(plan: Plan, done: Satisfaction, applies: bool) -> Decision:
    """Blocked ⇔ applies and ((plan high and the verdicts do not meet the stakes) or no
    satisfying spot check). A disagreeing re-run blocks, naming both results.

    The verdicts meet the stakes (SPEC §9): ordinary and shipping need ``plan.verifiers``
    accepted verdicts for this candidate (1; 2 for a critical escalation at shipping);
    audit needs at least three verifier verdicts with a strict majority of accepted passes,
    abstentions left out, so a tie is never a pass
    (:func:`gentle_hooks.policy.stakes.stakes_satisfied`).

    Args:
        plan: the candidate's plan.
        done: what was done for this exact candidate.
        applies: whether the gate applies (delegated evidence or ``applies_to = all``).

    Returns:
        The decision, whose shortfalls are a :class:`VerifierShortfall` and/or a
        :class:`SpotCheckShortfall` (in that order): values, no words, no commands.
    """
    passive = plan.risk is PlanRisk.PASSIVE
    spot_ok = (done.spot_check_agreed or (passive and done.readback)) and not done.disagreements
    statuses = [s for s in done.verdict_statuses if s != "abstain"] or [
        "pass"
    ] * done.accepted_verdicts
    if plan.verifiers == 0:
        verifier_ok = True
    elif plan.stakes is Stakes.AUDIT:
        verifier_ok = stakes_satisfied(plan.stakes, plan.critical, statuses)
    else:
        verifier_ok = done.accepted_verdicts >= plan.verifiers
    shortfalls: list[PlanShortfall] = []
    # the shortfall types are imported where one is built: a gate that passes builds none
    if not verifier_ok:
        from gentle_hooks.policy.shortfall import VerifierShortfall

        shortfalls.append(
            VerifierShortfall(
                items=tuple(e.item for e in plan.escalations),
                needed=plan.verifiers,
                found=done.accepted_verdicts,
                ruled=len(statuses),
                stakes=plan.stakes,
                critical=plan.critical,
                rejected=done.rejected_verdicts,
                brief_faults=done.brief_faults,
                change_fails=done.change_fails,
                everywhere_fails=done.everywhere_fails,
                repeated=done.repeated_verdicts,
            )
        )
    if not spot_ok:
        from gentle_hooks.policy.shortfall import SpotCheckShortfall

        shortfalls.append(
            SpotCheckShortfall(
                risk=plan.risk,
                disagreements=done.disagreements,
                readback=passive and not done.disagreements,
                no_receipt=done.receipts == 0,
                refused=done.refused,
                declared=done.declared,
                earlier=done.earlier,
                created=done.created,
                unbacked=done.unbacked,
            )
        )
    return Decision(
        applies=applies,
        blocked=applies and bool(shortfalls),
        spot_check_satisfied=spot_ok,
        verifier_satisfied=verifier_ok,
        shortfalls=tuple(shortfalls),
    )
