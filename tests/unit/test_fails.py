"""ledger/fails.py: an observed ``verify run`` fail stands until a later pass of the same
brief runs every check it ran (refuter r18x F4)."""

from __future__ import annotations

import json

import pytest

from gentle_hooks.ledger.fails import (
    STARTED,
    brief_faults,
    carried_checks,
    carried_fail_reason,
    carried_fails,
    is_observed_failure,
    mixed_failures,
    standing_fail_reason,
    standing_fails,
)
from gentle_hooks.ledger.records import VerifyRun

SUITE = ("suite", "python3 -m pytest -q tests")
CRIT = ("criterion", "grep -q 'def mul' app.py")


NEG = ("negative", "python3 -c 'import m; assert m.f() == 7'")
NEG_FIXED = ("negative", "python3 -c 'import m; assert m.f() == 0'")


def judged(
    check: tuple[str, str], row: str, result: str, evidence: bool = True
) -> dict[str, object]:
    """One check as ``verify run`` records it now: its row, result and evidence."""
    kind, command = check
    return {"kind": kind, "command": command, "row": row, "result": result, "evidence": evidence}


#: A negative test that fails on the base tree too (C2-base): no evidence.
FAULT = judged(NEG, "C2-base", "fail", evidence=False)
#: A criterion the candidate passes, as do its base and the change emptied (C4-nothing).
NOTHING = judged(("criterion", "pytest -q"), "C4-nothing", "fail", evidence=False)
CRIT_OK = judged(CRIT, "C4", "pass")
CRIT_FAILED = judged(CRIT, "C5", "fail")
SUITE_OK = judged(SUITE, "C4", "pass")
NEG_OK = judged(NEG_FIXED, "C2", "pass")
#: A criterion that fails on every tree, the candidate's too (C4-nothing-failed): evidence,
#: so an observed failure, but no run of its brief can ever pass it.
NOWHERE = ("criterion", "test -e nonexistent")
EVERYWHERE = judged(NOWHERE, "C4-nothing-failed", "fail")
#: The refuter's suite that fails on the base tree too (app not importable from tests/).
BASE_SUITE = ("suite", "cd tests && python3 -m unittest")


def run(
    n: int, brief: str, status: str, *checks: tuple[str, str] | dict[str, object], digest: str = ""
) -> VerifyRun:
    seen = [
        c if isinstance(c, dict) else {"kind": c[0], "command": c[1], "exitCode": 0} for c in checks
    ]
    return VerifyRun(
        root="/r",
        identity="sha256:x",
        brief_id=brief,
        status=status,
        caller="me",
        room="/tmp/room",
        artifact_ref="a.json",
        verdict_digest=digest or "sha256:d",
        observations=json.dumps(seen),
        id=n,
    )


#: (id, runs, the ids of the fails that stand).
CASES: list[tuple[str, list[VerifyRun], list[int]]] = [
    ("no-fail", [run(1, "b", "pass", CRIT, SUITE)], []),
    ("fail-alone", [run(1, "b", "fail", CRIT, SUITE)], [1]),
    ("other-brief-pass", [run(1, "b", "fail", CRIT, SUITE), run(2, "c", "pass", CRIT)], [1]),
    (
        "same-brief-fewer-checks",
        [run(1, "b", "fail", CRIT, SUITE), run(2, "b", "pass", CRIT)],
        [1],
    ),
    ("same-brief-pass-before", [run(1, "b", "pass", CRIT, SUITE), run(2, "b", "fail", CRIT)], [2]),
    (
        "same-brief-pass-after",
        [run(1, "b", "fail", CRIT, SUITE), run(2, "b", "pass", SUITE, CRIT)],
        [],
    ),
    (
        "same-brief-more-checks",
        [run(1, "b", "fail", SUITE), run(2, "b", "pass", SUITE, CRIT)],
        [],
    ),
    ("blocked-is-no-fail", [run(1, "b", "blocked", SUITE)], []),
    # the brief's fault (C2-base: a negative test failing on the base too) is no observed
    # failure of the candidate, and a settling run need not run it again
    ("brief-fault-only", [run(1, "b", "fail", CRIT_OK, FAULT, SUITE_OK)], []),
    # a criterion that observes nothing of the change (C4-nothing) is the brief's fault
    # too: a corrected brief, a new brief id, is the way out (refuter r14a F1)
    ("nothing-criterion-only", [run(1, "b", "fail", NOTHING, NEG_OK, SUITE_OK)], []),
    (
        "nothing-criterion-then-a-corrected-brief",
        [run(1, "b", "fail", NOTHING, NEG_OK, SUITE_OK), run(2, "c", "pass", CRIT_OK, SUITE_OK)],
        [],
    ),
    (
        "brief-fault-and-real-fail",
        [run(1, "b", "fail", CRIT_FAILED, FAULT, SUITE_OK)],
        [1],
    ),
    (
        "brief-fault-and-real-fail-settled-by-the-corrected-brief",
        [
            run(1, "b", "fail", CRIT_FAILED, FAULT, SUITE_OK),
            run(2, "b", "pass", CRIT_OK, NEG_OK, SUITE_OK),
        ],
        [],
    ),
    (
        "brief-fault-and-real-fail-not-settled-without-the-failed-criterion",
        [
            run(1, "b", "fail", CRIT_FAILED, FAULT, SUITE_OK),
            run(2, "b", "pass", NEG_OK, SUITE_OK),
        ],
        [1],
    ),
    (
        "a-fail-without-the-evidence-key-counts",
        [run(1, "b", "fail", CRIT_OK, {**FAULT, "evidence": None}, SUITE_OK)],
        [1],
    ),
    (
        "a-fail-without-results-counts",
        [run(1, "b", "fail", CRIT_OK, {k: v for k, v in FAULT.items() if k != "result"})],
        [1],
    ),
    # a criterion failing on every tree: the failure stands (same brief, other briefs with
    # fewer checks), but a corrected brief under a new id that runs every other check and
    # passes settles it
    ("fails-everywhere-stands", [run(1, "b", "fail", EVERYWHERE, NEG_OK, SUITE_OK)], [1]),
    (
        "fails-everywhere-settled-by-a-corrected-brief",
        [
            run(1, "b", "fail", EVERYWHERE, NEG_OK, SUITE_OK),
            run(2, "c", "pass", CRIT_OK, NEG_OK, SUITE_OK),
        ],
        [],
    ),
    (
        "fails-everywhere-not-settled-by-a-brief-dropping-another-check",
        [
            run(1, "b", "fail", EVERYWHERE, NEG_OK, SUITE_OK),
            run(2, "c", "pass", CRIT_OK, SUITE_OK),
        ],
        [1],
    ),
    (
        "fails-everywhere-not-settled-by-the-same-brief-without-it",
        [
            run(1, "b", "fail", EVERYWHERE, NEG_OK, SUITE_OK),
            run(2, "b", "pass", CRIT_OK, NEG_OK, SUITE_OK),
        ],
        [1],
    ),
    (
        "fails-everywhere-and-a-real-fail-need-the-real-check-to-pass",
        [
            run(1, "b", "fail", EVERYWHERE, CRIT_FAILED, SUITE_OK),
            run(2, "c", "pass", NEG_OK, SUITE_OK),
        ],
        [1],
    ),
    (
        "fails-everywhere-and-a-real-fail-settled-when-it-passes",
        [
            run(1, "b", "fail", EVERYWHERE, CRIT_FAILED, SUITE_OK),
            run(2, "c", "pass", CRIT_OK, SUITE_OK),
        ],
        [],
    ),
    (
        "another-brief-does-not-settle-a-fail-without-a-check-failing-everywhere",
        [run(1, "b", "fail", CRIT_FAILED, SUITE_OK), run(2, "c", "pass", CRIT_OK, SUITE_OK)],
        [1],
    ),
    # issue 18, r18s finding 3 (rule R2): a suite failing the same way on the base tree
    # (row C5-base) is the brief's; a corrected brief under a new id that passes settles it
    (
        "suite-failing-on-the-base-settled-by-a-corrected-brief",
        [
            run(1, "b", "fail", CRIT_OK, judged(BASE_SUITE, "C5-base", "fail")),
            run(2, "c", "pass", CRIT_OK, SUITE_OK),
        ],
        [],
    ),
    (
        "suite-failing-on-the-change-alone-stands",
        [
            run(1, "b", "fail", CRIT_OK, judged(BASE_SUITE, "C5", "fail")),
            run(2, "c", "pass", CRIT_OK, SUITE_OK),
        ],
        [1],
    ),
    (
        "the-start-row-of-a-brief-fault-is-ended",
        [
            run(1, "b", "fail", NEG, CRIT, SUITE, digest=STARTED),
            run(2, "b", "fail", CRIT_OK, FAULT, SUITE_OK),
        ],
        [],
    ),
]


@pytest.mark.parametrize(("runs", "standing"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_standing_fails(runs: list[VerifyRun], standing: list[int]) -> None:
    assert [r.id for r in standing_fails(runs)] == standing


def test_the_reason_names_the_run_the_brief_and_the_way_out() -> None:
    reason = standing_fail_reason(run(7, "add-1", "fail", SUITE))
    assert reason.startswith("R2 verify run #7 of brief 'add-1' failed for this candidate")
    assert "re-run brief 'add-1' until it passes" in reason and "GENTLE_HOOKS_SKIP" in reason


def test_a_brief_fault_is_named_and_no_observed_failure() -> None:
    fault = run(1, "b", "fail", CRIT_OK, FAULT, SUITE_OK)
    assert not is_observed_failure(fault)
    assert brief_faults([fault]) == (NEG,)
    # a later run that fails on the candidate is no brief fault: nothing is named
    assert brief_faults([fault, run(2, "b", "fail", CRIT_FAILED, FAULT)]) == ()
    # a start row after it is not the latest ended run
    started = run(3, "b", "fail", NEG, digest=STARTED)
    assert brief_faults([fault, started]) == (NEG,)
    assert brief_faults([run(1, "b", "fail", CRIT_FAILED, SUITE_OK)]) == ()
    assert brief_faults([]) == ()


def test_a_check_failing_everywhere_is_named_with_a_new_brief_id_as_the_way_out() -> None:
    failed = run(4, "add-1", "fail", EVERYWHERE, NEG_OK, SUITE_OK)
    assert is_observed_failure(failed)
    reason = standing_fail_reason(failed)
    assert reason.startswith("R2 verify run #4 of brief 'add-1' failed for this candidate")
    assert "`test -e nonexistent` fails on every tree" in reason
    assert "no run of brief 'add-1' can pass" in reason and "until it passes" not in reason
    assert "under a new brief id" in reason and "GENTLE_HOOKS_SKIP" in reason
    # the block sends the agent to correct the brief: the check is named
    assert brief_faults([failed]) == (NOWHERE,)
    assert brief_faults([run(1, "b", "fail", EVERYWHERE, FAULT, SUITE_OK)]) == (NOWHERE, NEG)
    # a real failure besides it: the brief alone is not at fault
    assert brief_faults([run(1, "b", "fail", EVERYWHERE, CRIT_FAILED)]) == ()


def test_a_run_failing_on_the_change_and_everywhere_names_both() -> None:
    # the change's own failure and a criterion failing on every tree: the reason names the
    # change's check (to fix) and the other (fails on every tree), in one sentence
    failed = run(5, "add-1", "fail", EVERYWHERE, CRIT_FAILED, SUITE_OK)
    reason = standing_fail_reason(failed)
    assert reason.startswith(
        "R2 verify run #5 of brief 'add-1' failed for this candidate on "
        "`grep -q 'def mul' app.py`, and its `test -e nonexistent` fails on every tree"
    ), reason
    assert "fix the change, then verify again under a new brief id" in reason
    assert mixed_failures([failed]) == ((CRIT,), (NOWHERE,))
    # the brief alone at fault, or the change alone: no mixed failure to name
    assert mixed_failures([run(1, "b", "fail", EVERYWHERE, SUITE_OK)]) == ((), ())
    assert mixed_failures([run(1, "b", "fail", CRIT_FAILED, SUITE_OK)]) == ((), ())


@pytest.mark.parametrize(
    "failed",
    [
        run(7, "add-1", "fail", CRIT_FAILED, SUITE_OK),
        run(4, "add-1", "fail", EVERYWHERE, NEG_OK, SUITE_OK),
        run(5, "add-1", "fail", EVERYWHERE, CRIT_FAILED),
        run(6, "add-1", "fail", CRIT, digest=STARTED),
    ],
    ids=["change", "everywhere", "both", "started"],
)
def test_the_reason_is_one_sentence_naming_the_check_and_the_way_out(failed: VerifyRun) -> None:
    reason = standing_fail_reason(failed)
    words = reason.removeprefix("R2 ")
    assert ". " not in words and "<" not in words and ">" not in words, reason
    assert words.endswith(
        "or let it through on purpose with GENTLE_HOOKS_SKIP set to the reason (recorded)"
    )
    if failed.verdict_digest != STARTED:
        assert "`" in words, reason  # the check it failed on is named


def test_an_earlier_candidates_fail_carries_forward_until_its_checks_pass_here() -> None:
    """Rule R2 across candidates of one change: run #1 failed ``CRIT`` on an earlier
    candidate; a pass here of other checks (any brief id) leaves it standing, a later pass
    here that ran ``CRIT`` ends it; a fail the earlier candidate settled itself does not
    carry."""
    from gentle_hooks.values.frozen import replace

    earlier = replace(run(1, "b+flags-1", "fail", CRIT_FAILED, SUITE_OK), identity="sha256:e")
    assert carried_checks((earlier,)) == (CRIT,)
    assert carried_fails([earlier], [run(2, "b", "pass", SUITE)]) == (earlier,)
    assert carried_fails([earlier], [run(3, "b+flags-2", "pass", CRIT, SUITE)]) == ()
    settled = replace(run(2, "b+flags-1", "pass", CRIT, SUITE), identity="sha256:e")
    assert carried_fails([earlier, settled], [run(3, "b", "pass", SUITE)]) == ()
    reason = carried_fail_reason(earlier)
    assert reason.startswith("R2 verify run #1") and f"`{CRIT[1]}`" in reason, reason
    assert "earlier candidate of this change" in reason, reason


def test_a_suite_failing_on_the_base_is_named_as_a_suite() -> None:
    """Issue 18 (rule R2's words, row C5-base): a full suite failing the same way on the
    base tree ran on no other tree and cannot be dropped: the reason says so and asks for a
    corrected brief under a new brief id with a full suite run as the repository runs it."""
    failed = run(6, "add-1", "fail", CRIT_OK, judged(BASE_SUITE, "C5-base", "fail"))
    reason = standing_fail_reason(failed)
    assert (
        "its full suite `cd tests && python3 -m unittest` fails the same way on the base tree, "
        "so no run of brief 'add-1' can pass: verify again under a new brief id, with a full "
        "suite run as the repository runs its tests (from the tree's top; on a red base, "
        "with a --deselect of the base's own failing tests: the suite line verify run "
        "prints) and with every other check it ran"
    ) in reason, reason
    assert "emptied" not in reason and "without what fails" not in reason, reason
