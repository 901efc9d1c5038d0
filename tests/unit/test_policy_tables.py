"""Every row of seed 000's tables, and SPEC §5's rules, as a parametrized test."""

from __future__ import annotations

import pytest

from gentle_hooks.errors import PolicyInputError
from gentle_hooks.policy.escalation import ESCALATION_ITEMS, make_escalation, parse_item
from gentle_hooks.policy.plan import (
    PLAN_RISK_ROWS,
    VERIFICATION_ROWS,
    PlanInputs,
    Satisfaction,
    build_plan,
    decide,
)
from gentle_hooks.policy.rdd import ResolvedRdd
from gentle_hooks.policy.review import (
    REVIEW_OUTCOME_ROWS,
    ReviewEvidence,
    resolve_review_outcome,
)
from gentle_hooks.policy.selfcheck import Disagreement
from gentle_hooks.policy.shortfall import SpotCheckShortfall
from gentle_hooks.policy.vocabulary import (
    Effort,
    Missing,
    NativeRisk,
    OutcomeSource,
    PlanRisk,
    RddMode,
    RddSource,
    ReviewOutcome,
    Verification,
    WriterSource,
)
from gentle_hooks.policy.writer import WriterProfile, is_small, resolve_writer
from gentle_hooks.report.fixes import commands, reasons, steps
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection

RDD_UNKNOWN = ResolvedRdd(RddMode.UNKNOWN, RddSource.DEFAULT)
SEC = make_escalation("security", "touches token validation")


def plan_for(native: NativeRisk, escalated: bool = False, **kw: object):
    return build_plan(
        PlanInputs(
            native_risk=native,
            escalations=(SEC,) if escalated else (),
            review=kw.pop("review", ReviewEvidence()),  # type: ignore[arg-type]
            runtime_writers=kw.pop("runtime", ()),  # type: ignore[arg-type]
            caller_writer=kw.pop("caller", None),  # type: ignore[arg-type]
            rdd=kw.pop("rdd", RDD_UNKNOWN),  # type: ignore[arg-type]
        )
    )


# -- seed 000 tier table: one case per row -------------------------------------------------

TIER_ROWS = [
    pytest.param(
        NativeRisk.PASSIVE,
        False,
        PlanRisk.PASSIVE,
        "T-passive",
        (Verification.STRUCTURAL_READBACK, Verification.SPOT_CHECK),
        0,
        id="passive",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        False,
        PlanRisk.MEDIUM,
        "T-medium",
        (Verification.SELF_VERIFICATION, Verification.SPOT_CHECK),
        0,
        id="medium",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        True,
        PlanRisk.HIGH,
        "T-high",
        (
            Verification.SELF_VERIFICATION,
            Verification.INDEPENDENT_VERIFIER,
            Verification.SPOT_CHECK,
        ),
        1,
        id="high-only-via-escalation",
    ),
    pytest.param(
        NativeRisk.HIGH,
        False,
        PlanRisk.MEDIUM,
        "T-informs",
        (Verification.SELF_VERIFICATION, Verification.SPOT_CHECK),
        0,
        id="native-high-informs-only",
    ),
    pytest.param(
        NativeRisk.UNKNOWN,
        False,
        PlanRisk.MEDIUM,
        "T-informs",
        (Verification.SELF_VERIFICATION, Verification.SPOT_CHECK),
        0,
        id="native-unknown-informs-only",
    ),
    pytest.param(
        NativeRisk.UNASSESSABLE,
        False,
        PlanRisk.MEDIUM,
        "T-informs",
        (Verification.SELF_VERIFICATION, Verification.SPOT_CHECK),
        0,
        id="assess-failed-informs-only",
    ),
]


@pytest.mark.parametrize(("native", "escalated", "risk", "row", "required", "verifiers"), TIER_ROWS)
def test_tier_table_row(native, escalated, risk, row, required, verifiers) -> None:
    plan = plan_for(native, escalated)
    assert plan.risk is risk
    assert plan.native_risk is native
    assert row in plan.rows
    assert plan.verification == required
    assert plan.verifiers == verifiers


def test_tier_table_has_exactly_the_seed_rows() -> None:
    assert [r.id for r in VERIFICATION_ROWS] == ["T-passive", "T-high", "T-informs", "T-medium"]
    texts = {r.id: r.text for r in VERIFICATION_ROWS}
    assert texts["T-passive"] == "structural readback by the parent; no separate verifier, no tests"
    assert texts["T-medium"] == (
        "writer self-verification stands; no separate verifier, whatever model wrote the change"
    )


# -- plan risk: high only with an escalation -----------------------------------------------


@pytest.mark.parametrize("native", list(NativeRisk), ids=lambda n: n.value)
@pytest.mark.parametrize("escalated", [False, True], ids=["plain", "escalated"])
def test_plan_risk_rule(native: NativeRisk, escalated: bool) -> None:
    plan = plan_for(native, escalated)
    if escalated:
        expected = PlanRisk.HIGH
    elif native is NativeRisk.PASSIVE:
        expected = PlanRisk.PASSIVE
    else:
        expected = PlanRisk.MEDIUM
    assert plan.risk is expected
    assert plan.native_risk is native


def test_plan_risk_rows_in_order() -> None:
    assert [(r.id, r.risk) for r in PLAN_RISK_ROWS] == [
        ("P1", PlanRisk.HIGH),
        ("P2", PlanRisk.PASSIVE),
        ("P3", PlanRisk.MEDIUM),
    ]


# -- seed 000 review outcome table: one case per row, plus precedence ------------------------

REVIEW_CASES = [
    pytest.param(
        ReviewEvidence(caller=ReviewOutcome.DECLINED),
        ReviewOutcome.DECLINED,
        OutcomeSource.EXPLICIT,
        "O1",
        id="O1-caller-declined",
    ),
    pytest.param(
        ReviewEvidence(caller=ReviewOutcome.UNAVAILABLE),
        ReviewOutcome.UNAVAILABLE,
        OutcomeSource.EXPLICIT,
        "O1",
        id="O1-caller-unavailable",
    ),
    pytest.param(
        ReviewEvidence(caller=ReviewOutcome.UNKNOWN, consumed=True),
        ReviewOutcome.UNKNOWN,
        OutcomeSource.EXPLICIT,
        "O1",
        id="O1-caller-unknown-beats-consumed",
    ),
    pytest.param(
        ReviewEvidence(recorded=ReviewOutcome.DECLINED, consumed=True),
        ReviewOutcome.DECLINED,
        OutcomeSource.DERIVED,
        "O2",
        id="O2-recorded-declined-wins-over-closure",
    ),
    pytest.param(
        ReviewEvidence(recorded=ReviewOutcome.UNAVAILABLE),
        ReviewOutcome.UNAVAILABLE,
        OutcomeSource.DERIVED,
        "O2",
        id="O2-recorded-unavailable",
    ),
    pytest.param(
        ReviewEvidence(consumed=True),
        ReviewOutcome.CLOSED,
        OutcomeSource.DERIVED,
        "O3",
        id="O3-consumed-closed",
    ),
    pytest.param(
        ReviewEvidence(caller=ReviewOutcome.CLOSED, consumed=True),
        ReviewOutcome.CLOSED,
        OutcomeSource.DERIVED,
        "O3",
        id="O3-caller-closed-with-consumed-fact",
    ),
    pytest.param(
        ReviewEvidence(caller=ReviewOutcome.CLOSED),
        ReviewOutcome.UNKNOWN,
        OutcomeSource.UNKNOWN,
        "O4",
        id="O4-bare-caller-closed-is-unknown",
    ),
    pytest.param(
        ReviewEvidence(), ReviewOutcome.UNKNOWN, OutcomeSource.UNKNOWN, "O4", id="O4-nothing"
    ),
]


@pytest.mark.parametrize(("evidence", "outcome", "source", "row"), REVIEW_CASES)
def test_review_outcome_row(evidence, outcome, source, row) -> None:
    resolved = resolve_review_outcome(evidence)
    assert (resolved.outcome, resolved.source, resolved.row) == (outcome, source, row)


def test_review_rows_are_the_seed_rows_in_order() -> None:
    assert [r.id for r in REVIEW_OUTCOME_ROWS] == ["O1", "O2", "O3", "O4"]


@pytest.mark.parametrize("outcome", list(ReviewOutcome), ids=lambda o: o.value)
def test_no_review_outcome_removes_the_verifier(outcome: ReviewOutcome) -> None:
    plan = plan_for(NativeRisk.HIGH, True, review=ReviewEvidence(caller=outcome, consumed=True))
    assert plan.risk is PlanRisk.HIGH
    assert plan.verifiers == 1
    decision = decide(plan, Satisfaction(spot_check_agreed=True), applies=True)
    assert decision.blocked and decision.missing == (Missing.VERIFIER,)


# -- writer profile ---------------------------------------------------------------------------

O4_MINI_LOW = WriterProfile("o4-mini", Effort.LOW)
BIG = WriterProfile("claude-opus-4", Effort.HIGH)


@pytest.mark.parametrize(
    ("runtime", "caller", "source", "row", "profiles"),
    [
        pytest.param(
            (O4_MINI_LOW,),
            BIG,
            WriterSource.RUNTIME,
            "W1",
            (O4_MINI_LOW,),
            id="W1-runtime-wins-over-caller",
        ),
        pytest.param((), BIG, WriterSource.CALLER, "W2", (BIG,), id="W2-caller-without-runtime"),
        pytest.param(
            (), None, WriterSource.FALLBACK, "W3", (WriterProfile(None, None),), id="W3-fallback"
        ),
    ],
)
def test_writer_profile_row(runtime, caller, source, row, profiles) -> None:
    resolved = resolve_writer(runtime, caller)
    assert (resolved.source, resolved.row, resolved.profiles) == (source, row, profiles)


def test_fallback_writer_is_small() -> None:
    assert resolve_writer((), None).small is True


@pytest.mark.parametrize(
    ("model", "effort", "small"),
    [
        ("o4-mini", Effort.HIGH, True),
        ("gpt-4o-mini-2024-07-18", None, True),
        ("gemini-2.5-pro", Effort.HIGH, False),
        ("minimax-m1", Effort.HIGH, False),
        ("claude-opus-4", Effort.LOW, True),
        ("claude-opus-4", Effort.MINIMAL, False),
        ("claude-opus-4", Effort.XHIGH, False),
        (None, Effort.HIGH, False),  # upstream: a known non-low effort is not small
        ("GPT-5-MINI", Effort.MEDIUM, True),
    ],
)
def test_small_writer_rule(model, effort, small) -> None:
    assert is_small(WriterProfile(model, effort)) is small


@pytest.mark.parametrize("writer", [O4_MINI_LOW, BIG, None], ids=["small", "big", "none"])
@pytest.mark.parametrize("native", list(NativeRisk), ids=lambda n: n.value)
def test_writer_never_adds_a_verifier(writer, native) -> None:
    with_writer = plan_for(native, runtime=(writer,) if writer else ())
    without = plan_for(native)
    assert (with_writer.risk, with_writer.verification, with_writer.verifiers) == (
        without.risk,
        without.verification,
        without.verifiers,
    )
    assert with_writer.verifiers == 0


# -- RDD: verification is the same in every state ---------------------------------------------


@pytest.mark.parametrize("mode", list(RddMode), ids=lambda m: m.value)
@pytest.mark.parametrize("native", list(NativeRisk), ids=lambda n: n.value)
@pytest.mark.parametrize("escalated", [False, True], ids=["plain", "escalated"])
def test_rdd_never_changes_verification(mode, native, escalated) -> None:
    off = plan_for(native, escalated, rdd=ResolvedRdd(RddMode.OFF, RddSource.ENV))
    other = plan_for(native, escalated, rdd=ResolvedRdd(mode, RddSource.ENV))
    assert (other.risk, other.verification, other.verifiers) == (
        off.risk,
        off.verification,
        off.verifiers,
    )


# -- escalation -------------------------------------------------------------------------------


@pytest.mark.parametrize("item", ESCALATION_ITEMS, ids=lambda i: i.slug)
def test_escalation_by_number_and_slug(item) -> None:
    assert parse_item(str(item.number)) is item
    assert parse_item(item.slug.upper()) is item


def test_the_six_items() -> None:
    assert [(i.number, i.slug) for i in ESCALATION_ITEMS] == [
        (1, "data"),
        (2, "security"),
        (3, "contracts"),
        (4, "concurrency"),
        (5, "delivery"),
        (6, "untested"),
    ]


@pytest.mark.parametrize("bad", ["7", "0", "size", "big-change", ""])
def test_unknown_item_refused_listing_the_six(bad: str) -> None:
    with pytest.raises(PolicyInputError) as exc:
        parse_item(bad)
    assert exc.value.exit_code == 2
    assert "1 data, 2 security, 3 contracts, 4 concurrency, 5 delivery, 6 untested" in str(
        exc.value
    )


@pytest.mark.parametrize("reason", [None, "", "   ", "two\nlines", "x" * 301])
def test_escalation_reason_required_one_line_bounded(reason) -> None:
    with pytest.raises(PolicyInputError):
        make_escalation("2", reason)


def test_escalation_only_raises() -> None:
    assert plan_for(NativeRisk.PASSIVE, True).risk is PlanRisk.HIGH


# -- decision ---------------------------------------------------------------------------------

DECISION_CASES = [
    pytest.param(
        NativeRisk.MEDIUM,
        False,
        Satisfaction(),
        True,
        True,
        (Missing.SPOT_CHECK,),
        id="medium-no-spot-check-blocks",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        False,
        Satisfaction(spot_check_agreed=True),
        True,
        False,
        (),
        id="medium-spot-checked-passes",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        False,
        Satisfaction(),
        False,
        False,
        (Missing.SPOT_CHECK,),
        id="not-delegated-never-blocks",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        False,
        Satisfaction(readback=True),
        True,
        True,
        (Missing.SPOT_CHECK,),
        id="readback-does-not-satisfy-medium",
    ),
    pytest.param(
        NativeRisk.PASSIVE,
        False,
        Satisfaction(readback=True),
        True,
        False,
        (),
        id="readback-satisfies-passive",
    ),
    pytest.param(
        NativeRisk.HIGH,
        False,
        Satisfaction(spot_check_agreed=True),
        True,
        False,
        (),
        id="native-high-unescalated-needs-no-verifier",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        True,
        Satisfaction(spot_check_agreed=True),
        True,
        True,
        (Missing.VERIFIER,),
        id="escalated-without-verdict-blocks",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        True,
        Satisfaction(spot_check_agreed=True, accepted_verdicts=1),
        True,
        False,
        (),
        id="escalated-with-verdict-passes",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        True,
        Satisfaction(),
        True,
        True,
        (Missing.VERIFIER, Missing.SPOT_CHECK),
        id="escalated-missing-both",
    ),
    pytest.param(
        NativeRisk.MEDIUM,
        False,
        Satisfaction(spot_check_agreed=True, disagreements=(Disagreement(2, 1, "pytest", 0, 1),)),
        True,
        True,
        (Missing.SPOT_CHECK,),
        id="disagreeing-rerun-blocks",
    ),
]


@pytest.mark.parametrize(
    ("native", "escalated", "done", "applies", "blocked", "missing"), DECISION_CASES
)
def test_decision_row(native, escalated, done, applies, blocked, missing) -> None:
    d = decide(plan_for(native, escalated), done, applies)
    staged = Binding(projection=Projection.STAGED)
    fixes = [" ".join(t for _, t in steps(s, staged)) for s in d.shortfalls]
    assert len(commands(d.shortfalls, staged)) == len(fixes)
    assert d.blocked is blocked
    assert d.missing == missing
    assert len(reasons(d.shortfalls)) == len(fixes) == len(missing)
    for item, fix, s in zip(missing, fixes, d.shortfalls, strict=True):
        expected = (
            "verify run --staged --brief" if item is Missing.VERIFIER else "spot-check --staged"
        )
        if isinstance(s, SpotCheckShortfall) and s.disagreements:
            # a refuted candidate is offered no spot check of itself (it cannot satisfy)
            assert expected not in fix and "is refuted" in fix
        else:
            assert expected in fix


def test_disagreement_names_both_results() -> None:
    d = decide(
        plan_for(NativeRisk.MEDIUM),
        Satisfaction(disagreements=(Disagreement(2, 1, "pytest -q", 0, 1),)),
        True,
    )
    assert "reported exit 0, observed exit 1" in reasons(d.shortfalls)[0]


def test_rejected_verdict_reasons_are_shown() -> None:
    d = decide(
        plan_for(NativeRisk.MEDIUM, True),
        Satisfaction(spot_check_agreed=True, rejected_verdicts=("fullSuiteRun is false",)),
        True,
    )
    assert "fullSuiteRun is false" in reasons(d.shortfalls)[0]


# -- stakes (SPEC §9, seed 003): how many verdicts, majority of pass, a tie never passes -------


def high_plan(stakes: str, critical: bool = False):
    from gentle_hooks.policy.stakes import Stakes

    esc = make_escalation("data", "drops a column", critical=critical)
    return build_plan(
        PlanInputs(
            native_risk=NativeRisk.MEDIUM,
            escalations=(esc,),
            review=ReviewEvidence(),
            runtime_writers=(),
            caller_writer=None,
            rdd=RDD_UNKNOWN,
            stakes=Stakes(stakes),
        )
    )


@pytest.mark.parametrize(
    ("stakes", "critical", "verifiers"),
    [
        ("ordinary", False, 1),
        ("ordinary", True, 1),
        ("shipping", False, 1),
        ("shipping", True, 2),
        ("audit", False, 3),
        ("audit", True, 3),
    ],
)
def test_stakes_set_the_verifier_count(stakes: str, critical: bool, verifiers: int) -> None:
    assert high_plan(stakes, critical).verifiers == verifiers
    assert plan_for(NativeRisk.HIGH).verifiers == 0  # below high, stakes add nothing


@pytest.mark.parametrize(
    ("stakes", "critical", "statuses", "ok"),
    [
        ("ordinary", False, ("pass",), True),
        ("ordinary", False, ("fail",), False),
        ("ordinary", False, ("fail", "abstain", "pass"), True),
        ("shipping", False, ("pass",), True),
        ("shipping", True, ("pass",), False),
        ("shipping", True, ("pass", "pass"), True),
        ("audit", False, ("pass", "pass"), False),
        ("audit", False, ("pass", "pass", "fail"), True),
        ("audit", False, ("pass", "pass", "fail", "fail"), False),
        ("audit", False, ("pass", "pass", "pass", "fail", "fail", "fail", "fail"), False),
        ("audit", False, ("pass", "pass", "abstain", "abstain"), False),
        ("audit", False, ("pass", "pass", "abstain", "fail"), True),
    ],
    ids=lambda v: "-".join(v) if isinstance(v, tuple) else str(v),
)
def test_stakes_majority_and_ties(stakes, critical, statuses, ok) -> None:
    done = Satisfaction(
        spot_check_agreed=True, accepted_verdicts=statuses.count("pass"), verdict_statuses=statuses
    )
    d = decide(high_plan(stakes, critical), done, applies=True)
    assert d.verifier_satisfied is ok and d.blocked is (not ok)
    if not ok:
        assert ("with a majority of pass" in reasons(d.shortfalls)[0]) is (stakes == "audit")
