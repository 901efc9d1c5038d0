"""Every row of seed 003's tables, one test each, named by its seed line.

Seed ``003_0245072c02421c57.txt``: "What counts as reproducing evidence", "Verdict
tallying", "Verdict meanings", "How many verifiers", "Reading survival rates". Each row is
run through the code that implements it (:func:`~gentle_hooks.quorum.votes.classify_verdict`,
:func:`~gentle_hooks.quorum.ruling.build_record`, :func:`~gentle_hooks.policy.stakes.stakes_row`,
:func:`~gentle_hooks.quorum.survival.survival_report`), with a case that satisfies the row
and one that does not.
"""

from __future__ import annotations

from typing import Any

import pytest

from gentle_hooks.policy.stakes import stakes_row
from gentle_hooks.quorum.audit import audit
from gentle_hooks.quorum.ruling import TallyRecord, build_record
from gentle_hooks.quorum.survival import survival_report
from gentle_hooks.quorum.votes import VoteKind, classify_verdict
from tests.quorum_tree import CHECKED, TREE

CLAIM = (
    "Subagents inherit no budget cap, so a fan-out can exceed the run budget; run "
    "2026-08-14 shows 41 agents against a stated cap of 16"
)


def up(checked: str, **more: Any) -> dict[str, Any]:
    return {"refuted": False, "reason": "reproduces", "whatIChecked": checked, **more}


def down(checked: str = "read pool.js:88: spawn() checks the cap") -> dict[str, Any]:
    return {"refuted": True, "reason": "a cap exists", "whatIChecked": checked}


# --- "What counts as reproducing evidence" ---------------------------------------------------

#: (seed row, an upheld whatIChecked that reproduces it, one that does not, how that counts).
EVIDENCE_ROWS: list[tuple[str, str, str, VoteKind]] = [
    (
        "File and line | Open it. The line exists and says what was claimed",
        "opened workflow.js:142: the line is `for (t of tasks) spawn(t)`, no budget check",
        "I could not open workflow.js:142 (permission denied)",
        VoteKind.ABSTAINED,
    ),
    (
        "A count or metric | Re-run the query or the grep. The number matches",
        "re-ran `grep -c 'spawned agent' run-2026-08-14.log`: 41",
        "I did not re-run `grep -c 'spawned agent' run-2026-08-14.log`; the 41 holds",
        VoteKind.REFUTED,
    ),
    (
        "A quote | Found verbatim in the cited source",
        'found "for (const t of tasks) spawn(t)" verbatim at workflow.js:142',
        "the quote is in the finding, so it holds",
        VoteKind.ABSTAINED,
    ),
    (
        "A behaviour | Reproduce the sequence, or cite where the code makes it inevitable",
        "ran `node run.js --tasks 41 --cap 16`: 41 agents spawned (log line 'spawned 41')",
        "couldn't reproduce with `node run.js --tasks 41 --cap 16`",
        VoteKind.REFUTED,
    ),
    (
        "A screenshot or artifact | Open it and describe what is visible independently",
        "opened run-2026-08-14.png: the agents panel lists 41 rows, header 'cap: 16'",
        "opened run-2026-08-14.png: it shows the fan-out exceeding the budget",
        VoteKind.ABSTAINED,
    ),
    (
        '"It is well known that…" | Not evidence. Refute',
        "opened workflow.js:142: spawn(t) runs in the loop with no budget argument",
        "It is well known that fan-outs are unbounded",
        VoteKind.REFUTED,
    ),
]


@pytest.mark.parametrize(
    ("good", "bad", "bad_counts"),
    [r[1:] for r in EVIDENCE_ROWS],
    ids=[r[0].split(" |")[0] for r in EVIDENCE_ROWS],
)
def test_what_counts_as_reproducing_evidence(good: str, bad: str, bad_counts: VoteKind) -> None:
    """Seed 003 "What counts as reproducing evidence", each row: the evidence re-opened as
    the row says is support; the same evidence not re-opened is not."""
    assert classify_verdict(up(good), CLAIM).vote is VoteKind.UPHELD
    vote = classify_verdict(up(bad), CLAIM)
    assert vote.vote is bad_counts, vote
    assert build_record([up(bad)], CLAIM).ruling != "CONFIRMED"


# --- "Verdict tallying": three rules -----------------------------------------------------------

GOOD = "opened workflow.js:142: the line spawns in a loop, no budget check"


def test_abstentions_are_not_support() -> None:
    """Seed 003: "Abstentions are not support. A verifier that errored, timed out, or
    returned a malformed verdict has produced no evidence for the finding"."""
    abstaining = [{"error": "exit 137"}, {"timedOut": True}, {"refuted": "no"}]
    record = build_record(abstaining, CLAIM)
    assert (record.tally.abstained, record.tally.survives, record.ruling) == (3, False, "PLAUSIBLE")
    with_one = build_record([*abstaining, down()], CLAIM)
    assert with_one.ruling == "REFUTED"  # abstentions never outweigh one refutation


def test_a_tie_fails() -> None:
    """Seed 003: "A tie fails. Two refute, two uphold means the evidence is contested.
    Contested evidence is reported PLAUSIBLE, never CONFIRMED"."""
    verdicts = [
        up(GOOD),
        up("ran `grep -n budget workflow.js`: no match"),
        down(),
        down("opened x.py:1: it caps the fan-out"),
    ]
    record = build_record(verdicts, CLAIM, stakes="audit")
    assert (record.tally.upheld, record.tally.refuted, record.tally.contested) == (2, 2, True)
    assert (record.ruling, record.row) == ("PLAUSIBLE", "Q3")


def test_zero_valid_verdicts_does_not_survive() -> None:
    """Seed 003: "Zero valid verdicts does not survive. Nothing verified it, so nothing
    confirms it"."""
    record = build_record([], CLAIM)
    assert (record.tally.survives, record.ruling, record.row) == (False, "PLAUSIBLE", "Q1")


# --- "Verdict meanings" ----------------------------------------------------------------------


def test_confirmed_means_reproduced_uncontested() -> None:
    """Seed 003: "CONFIRMED | Evidence independently reproduced, uncontested | State it as
    fact"."""
    record = build_record([up(CHECKED)], CLAIM, source=TREE)
    assert (record.ruling, record.settle) == ("CONFIRMED", None)
    assert build_record([up(CHECKED), down()], CLAIM, source=TREE).ruling != "CONFIRMED"
    # not reproduced in the candidate's tree (none given): not CONFIRMED (issue 18, r18p)
    assert build_record([up(CHECKED)], CLAIM).ruling == "PLAUSIBLE"


def test_plausible_means_contested_or_not_reproducible_with_available_access() -> None:
    """Seed 003: "PLAUSIBLE | Contested, or could not be reproduced with available access |
    State it as unverified, with what would settle it"."""
    no_access = build_record([up("I could not open workflow.js:142 (permission denied)")], CLAIM)
    contested = build_record([up(GOOD), down()], CLAIM)
    for record in (no_access, contested):
        assert record.ruling == "PLAUSIBLE"
        assert record.settle is not None and record.settle.strip()


def test_refuted_means_majority_refuted_and_keeps_why() -> None:
    """Seed 003: "REFUTED | Majority refuted on re-check | Drop from findings; record why,
    so the next round does not re-litigate it"."""
    record = build_record([down(), down("opened pool.js:90: cap enforced"), up(GOOD)], CLAIM)
    assert record.ruling == "REFUTED"
    reasons = [v.reason for v in record.votes if v.vote is VoteKind.REFUTED]
    assert reasons == ["a cap exists", "a cap exists"]
    again = TallyRecord.model_validate_json(record.model_dump_json(by_alias=True))
    assert again == record


# --- "How many verifiers" --------------------------------------------------------------------

#: (seed row, stakes, verifiers, verifiers on critical, distinct lenses).
STAKES_ROWS = [
    ("Ordinary review | 1", "ordinary", 1, 1, False),
    ("Shipping to others | 1, plus a second on anything marked critical", "shipping", 1, 2, False),
    ("Audit, irreversible decision | 3, with majority ruling", "audit", 3, 3, False),
    (
        "Where failure modes differ in kind | 3, each with a different lens",
        "lens-diverse",
        3,
        3,
        True,
    ),
]


@pytest.mark.parametrize(
    ("stakes", "n", "critical", "lenses"),
    [r[1:] for r in STAKES_ROWS],
    ids=[r[0].split(" |")[0] for r in STAKES_ROWS],
)
def test_how_many_verifiers(stakes: str, n: int, critical: int, lenses: bool) -> None:
    """Seed 003 "How many verifiers", each row."""
    row = stakes_row(stakes)
    assert (row.verifiers, row.verifiers_critical, row.distinct_lenses) == (n, critical, lenses)
    short = build_record([up(CHECKED)] * 1, CLAIM, stakes=stakes, critical=True, source=TREE)
    assert (short.ruling == "CONFIRMED") == (critical == 1)


# --- "Reading survival rates" ----------------------------------------------------------------


def _records(lens_counts: dict[str, tuple[int, int]]) -> list[TallyRecord]:
    out = []
    for lens, (survived, total) in lens_counts.items():
        for i in range(total):
            verdicts = [up(CHECKED)] if i < survived else []
            claim = f"claim {lens} {i}"
            out.append(build_record(verdicts, claim, finding=f"{lens}{i}", lens=lens, source=TREE))
    return out


#: (seed row, {lens: (survived, findings)}, flags raised).
SURVIVAL_ROWS = [
    ("~80-90% | Healthy. Matches the corpus", {"a": (6, 7), "b": (6, 7), "c": (5, 6)}, []),
    (
        "100% | Verifiers were not adversarial. Re-prompt to refute",
        {"a": (4, 4), "b": (4, 4)},
        ["all-survived"],
    ),
    (
        "Under ~50% | Miners are padding, or the evidence contract was never stated",
        {"a": (1, 4), "b": (1, 4)},
        ["low-survival"],
    ),
    (
        "Varies sharply by lens | One lens is speculating while others cite",
        {"a": (5, 5), "b": (1, 4)},
        ["lens-variation"],
    ),
]


@pytest.mark.parametrize(
    ("counts", "flags"),
    [r[1:] for r in SURVIVAL_ROWS],
    ids=[r[0].split(" |")[0] for r in SURVIVAL_ROWS],
)
def test_reading_survival_rates(counts: dict[str, tuple[int, int]], flags: list[str]) -> None:
    """Seed 003 "Reading survival rates", each row."""
    assert [f.code for f in survival_report(_records(counts)).flags] == flags


def test_audit_lists_an_undescribed_screenshot_as_restating() -> None:
    """Seed 003 "Verifying a verification": "Look for whatIChecked that merely restates the
    claim" — a screenshot named and described in the claim's words is one."""
    text = "opened run-2026-08-14.png: it shows the fan-out exceeding the budget"
    record = build_record([up(text)], CLAIM, finding="F-shot")
    assert [f.finding for f in audit([record], seed=1).restating] == ["F-shot"]
