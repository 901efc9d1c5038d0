"""Ledger facts -> policy inputs (SPEC §5, §6): what counts, for which candidate."""

from __future__ import annotations

from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.records import (
    EscalationRecord,
    PendingMutation,
    ReviewFact,
    SpotCheck,
    VerdictRecord,
    WriterEntryRecord,
)
from gentle_hooks.policy.plan import Satisfaction
from gentle_hooks.policy.selfcheck import Disagreement
from gentle_hooks.policy.vocabulary import Effort, ReviewOutcome
from gentle_hooks.policy.writer import WriterProfile

ID = "sha256:" + "1" * 64


def _facts(**kw: object) -> LedgerFacts:
    return LedgerFacts(path="/l", present=True, root="/r", identity=ID, **kw)  # type: ignore[arg-type]


def _rerun(i: int, *, agreed: bool, counts: bool = True, reported: int = 0) -> SpotCheck:
    return SpotCheck(
        root="/r",
        identity=ID,
        kind="rerun",
        command="pytest -q",
        agreed=agreed,
        counts=counts,
        receipt_id=1,
        reported_exit=reported,
        observed_exit=reported if agreed else 1 - reported,
        id=i,
    )


def test_nothing_recorded_satisfies_nothing() -> None:
    f = _facts()
    assert f.satisfaction() == Satisfaction(receipts=0)
    assert not f.delegated and not f.review_facts
    assert f.runtime_writers() == () and f.policy_escalations() == ()


def test_only_an_agreeing_rerun_that_counts_satisfies() -> None:
    assert _facts(spot_checks=(_rerun(1, agreed=True),)).satisfaction().spot_check_agreed
    moved = _facts(spot_checks=(_rerun(1, agreed=True, counts=False),)).satisfaction()
    assert not moved.spot_check_agreed and moved.disagreements == ()


def test_a_disagreement_is_named_with_both_results() -> None:
    s = _facts(spot_checks=(_rerun(1, agreed=True), _rerun(2, agreed=False))).satisfaction()
    assert s.spot_check_agreed
    assert s.disagreements == (Disagreement(2, 1, "pytest -q", 0, 1),)


def test_readback_is_recorded_as_readback() -> None:
    rb = SpotCheck(
        root="/r", identity=ID, kind="readback", command="readback", agreed=True, counts=True
    )
    s = _facts(spot_checks=(rb,)).satisfaction()
    assert s.readback and not s.spot_check_agreed


def test_verdicts_count_only_when_accepted_and_rejections_carry_reasons() -> None:
    ok = VerdictRecord("/r", ID, "b", "pass", True, (), "{}", "", id=1, observed_run=7)
    bad = VerdictRecord(
        "/r", ID, "b", "fail", False, ("V1 status is fail, not pass",), "{}", "", id=2
    )
    s = _facts(verdicts=(ok, bad)).satisfaction()
    assert s.accepted_verdicts == 1
    assert s.rejected_verdicts == ("verdict #2 (brief b, status fail): status is fail, not pass",)


def test_a_verdict_no_verify_run_wrote_counts_only_where_the_repository_opts_out() -> None:
    """Seed 001 "Completion criteria": "every declared criterion has evidence, not an
    assertion". By default (``verification.require_observed`` on) an accepted verdict no
    ``verify run`` wrote does not count: its claims cannot be checked. Only the explicit
    opt-out counts it."""
    hand = VerdictRecord("/r", ID, "b", "pass", True, (), "{}", "", id=1)
    facts = _facts(verdicts=(hand,))
    by_default = facts.satisfaction()
    assert by_default.accepted_verdicts == 0
    assert by_default.rejected_verdicts == (
        "verdict #1 (brief b, status pass): not observed: no gentle-hook verify run wrote it",
    )
    assert facts.satisfaction(require_observed=False).accepted_verdicts == 1


def test_runtime_writers_and_sticky_escalations() -> None:
    entry = WriterEntryRecord(1, "/r", "app.py", "b1", None, None, ("k1",), (), False, id=1)
    f = _facts(
        entries=(entry,),
        mutations=(
            PendingMutation("/r", "o4-mini", "low"),
            PendingMutation("/r", "gpt-5", "high"),
        ),
        escalations=(
            EscalationRecord("/r", ID, 2, "security", "first"),
            EscalationRecord("/r", ID, 2, "security", "again"),
            EscalationRecord("/r", ID, 4, "concurrency", "locks"),
        ),
    )
    assert f.delegated and f.writer_paths() == ("app.py",)
    assert not _facts(mutations=f.mutations).delegated  # a writer's profile is not content
    assert f.runtime_writers() == (
        WriterProfile("o4-mini", Effort.LOW),
        WriterProfile("gpt-5", Effort.HIGH),
    )
    assert [(e.item.slug, e.reason) for e in f.policy_escalations()] == [
        ("security", "first"),
        ("concurrency", "locks"),
    ]


def test_review_evidence_latest_recorded_outcome_and_ack() -> None:
    """Seed 000 "How assess resolves the review outcome": "derives closed only from the
    native candidate.consumed fact"; a recorded ack is the caller's word, not that fact."""
    f = _facts(
        review_facts=(
            ReviewFact("/r", ID, "declined"),
            ReviewFact("/r", ID, "consumed"),
            ReviewFact("/r", ID, "unavailable"),
        )
    )
    ev = f.review_evidence(ReviewOutcome.CLOSED, native_consumed=False)
    assert ev.caller is ReviewOutcome.CLOSED
    assert ev.recorded is ReviewOutcome.UNAVAILABLE
    assert not ev.consumed  # the recorded ack (outcome 'consumed') is not native's fact
    assert f.review_evidence(None, native_consumed=True).consumed


def test_the_same_verdict_stored_twice_counts_once() -> None:
    from gentle_hooks.values.frozen import replace

    facts = _facts()
    from gentle_hooks.ledger.records import VerdictRecord

    v = VerdictRecord(
        root="/r",
        identity=facts.identity,
        brief_id="b",
        status="pass",
        accepted=True,
        reasons=(),
        json='{"briefId":"b"}',
        markdown="",
        observed_run=1,
    )
    again = replace(facts, verdicts=(v, replace(v, id=2), replace(v, id=3)))
    assert again.satisfaction().accepted_verdicts == 1
    other = replace(v, id=4, json='{"briefId":"b2"}')
    assert replace(facts, verdicts=(v, other)).satisfaction().accepted_verdicts == 2


def test_facts_read_from_a_note_keep_their_verdicts_whatever_require_observed_says() -> None:
    """A note carries the verdict, never the observation (README "Opting out"): the CI and
    server gates judging notes are not told to refuse every verdict."""
    from gentle_hooks.ledger.facts import NOTE_PATH
    from gentle_hooks.values.frozen import replace

    hand = VerdictRecord("/r", ID, "b", "pass", True, (), "{}", "", id=1)
    noted = replace(_facts(verdicts=(hand,)), path=NOTE_PATH)
    assert noted.satisfaction(require_observed=True).accepted_verdicts == 1


# -- one vote per verifier identity (seed 003 "How many verifiers") ----------------------

import json  # noqa: E402

import pytest  # noqa: E402

from gentle_hooks.ledger.verifiers import accepted_verifiers  # noqa: E402
from gentle_hooks.policy.stakes import verifier_identity  # noqa: E402


def _accepted(n: int, caller: str, brief: str, commands: str = "pytest -q") -> VerdictRecord:
    data = json.dumps({"criteria": [{"observed": {"command": commands}}]})
    return VerdictRecord(
        "/r", ID, brief, "pass", True, (), data, "", id=n, caller=caller, observed_run=n
    )


#: (id, the second verdict, by the caller of the first: ``Alice <a@x>`` of brief add-1).
SAME_VERIFIER = [
    ("objective-tweaked", _accepted(2, "Alice <a@x>", "add-1-tweaked")),
    ("check-flags-id", _accepted(2, "Alice <a@x>", "add-1+flags-1a2b3c4d", "pytest -q && x")),
    ("caller-case", _accepted(2, "alice <A@X>", "add-1")),
    ("caller-spaces", _accepted(2, "  Alice   <a@x> ", "add-1")),
]


@pytest.mark.parametrize("second", [c[1] for c in SAME_VERIFIER], ids=[c[0] for c in SAME_VERIFIER])
def test_one_caller_is_one_verifier_whatever_brief_or_spelling(second: VerdictRecord) -> None:
    """Seed 003 "How many verifiers": "1, plus a second on anything marked critical" — a
    second verifier, not a second run; seed 001 "Rules": "Homogeneous debate (same-role
    agents arguing in rounds) is prohibited". The verifier's identity is its caller,
    trimmed and case-folded: a tweaked objective, a ``--check`` run (``+flags`` id) or
    another spelling of the same name is the same verifier, counted once."""
    first = _accepted(1, "Alice <a@x>", "add-1")
    s = _facts(verdicts=(first, second)).satisfaction()
    assert s.accepted_verdicts == 1
    assert accepted_verifiers((first, second)) == 1
    # the status names another run as counted once (a copy of the same JSON is no run)
    assert len(s.repeated_verdicts) == (second.json != first.json)
    other = _accepted(3, "Bob <b@x>", "add-1")
    assert _facts(verdicts=(first, second, other)).satisfaction().accepted_verdicts == 2


def test_verifier_identity_trims_and_casefolds() -> None:
    assert verifier_identity("  Alice \t<A@X> ") == verifier_identity("alice <a@x>")
    assert verifier_identity("alice") != verifier_identity("alicia")
