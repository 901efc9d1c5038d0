"""``quorum audit`` samples upheld findings only: upheld is CONFIRMED (issue 18, LOW).

Seed ``003_0245072c02421c57.txt`` "Verifying a verification": "Sample two upheld findings
and re-check them yourself"; "Verdict meanings": CONFIRMED is "Evidence independently
reproduced, uncontested", PLAUSIBLE is "Contested, or could not be reproduced with available
access | State it as unverified, with what would settle it". A PLAUSIBLE finding is never
upheld, so the audit never samples one; with fewer than two upheld findings it samples them
all. One row per ruling a finding can have.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.quorum.audit import SAMPLE_SIZE, audit
from gentle_hooks.quorum.ruling import TallyRecord, build_record
from tests.quorum_tree import TREE, checked_up

#: A refutation whose evidence is the quoted line of :data:`~tests.quorum_tree.TREE`.
DOWN = {
    "refuted": True,
    "reason": "the caller guards it",
    "whatIChecked": "opened workflow.js:142: `spawnAgent(task)` is guarded by the caller",
}


def _up(name: str, reason: str = "reproduces") -> dict[str, Any]:
    return checked_up(verifier=name, reason=reason)


def _down(name: str) -> dict[str, Any]:
    return {**DOWN, "verifier": name}


def record(kind: str, n: int) -> TallyRecord:
    """One finding ``F{n}`` (its own claim) ruled as ``kind`` says."""
    claim, finding = f"claim {n}", f"F{n}"
    if kind == "confirmed":  # Q6: upheld, checked against the tree, uncontested
        return build_record([_up("a")], claim, finding=finding, source=TREE)
    if kind == "unchecked":  # Q6U: upheld and uncontested, but no tree checked it
        return build_record([_up("a")], claim, finding=finding)
    if kind == "tie":  # Q3
        return build_record([_up("a"), _down("b")], claim, finding=finding, source=TREE)
    if kind == "contested":  # Q4: two uphold, one refutes
        votes = [_up("a"), _up("c", "also reproduces"), _down("b")]
        return build_record(votes, claim, finding=finding, source=TREE)
    if kind == "too-few":  # Q5: shipping, critical: two verifiers needed, one voted
        return build_record(
            [_up("a")], claim, finding=finding, source=TREE, stakes="shipping", critical=True
        )
    if kind == "none-valid":  # Q1: no valid verdict
        return build_record([], claim, finding=finding)
    assert kind == "refuted"  # Q2
    return build_record([_down("b")], claim, finding=finding, source=TREE)


#: (id, the rulings' row each record must get, kinds of the records): every ruling but
#: CONFIRMED is not upheld, so none of them is sampled.
NOT_UPHELD = [
    ("Q6U-upheld-unchecked", "Q6U", "unchecked"),
    ("Q3-tie", "Q3", "tie"),
    ("Q4-contested", "Q4", "contested"),
    ("Q5-too-few", "Q5", "too-few"),
    ("Q1-none-valid", "Q1", "none-valid"),
    ("Q2-refuted", "Q2", "refuted"),
]


@pytest.mark.parametrize(
    ("row", "kind"), [r[1:] for r in NOT_UPHELD], ids=[r[0] for r in NOT_UPHELD]
)
def test_a_finding_not_confirmed_is_not_upheld(row: str, kind: str) -> None:
    """Seed 003 "Verdict meanings": only CONFIRMED is stated as fact; the audit's
    "upheld findings" are those, never a PLAUSIBLE or REFUTED one."""
    records = [record(kind, n) for n in range(3)]
    assert {r.row for r in records} == {row}
    report = audit(records, seed=5)
    assert (report.findings, report.upheld, report.sample) == (3, 0, ())


def test_two_confirmed_findings_are_sampled_among_plausible_ones() -> None:
    """Seed 003: "Sample two upheld findings": the two come from the CONFIRMED ones."""
    records = [record("confirmed", n) for n in range(3)] + [
        record(kind, n) for n, kind in enumerate(("unchecked", "tie", "contested"), start=3)
    ]
    for seed in range(20):
        report = audit(records, seed)
        assert (report.upheld, report.wanted, len(report.sample)) == (3, SAMPLE_SIZE, 2)
        assert {f.finding for f in report.sample} <= {"F0", "F1", "F2"}
        assert all(f.ruling == "CONFIRMED" for f in report.sample)


def test_one_confirmed_finding_is_the_whole_sample() -> None:
    """Fewer upheld findings than two: the audit samples every one (and says so: the
    sample is shorter than ``wanted``), never a PLAUSIBLE finding to make up the count."""
    records = [record("unchecked", 0), record("confirmed", 1), record("tie", 2)]
    report = audit(records, seed=3)
    assert (report.upheld, report.wanted) == (1, 2)
    assert [f.finding for f in report.sample] == ["F1"]


@given(
    st.integers(min_value=0, max_value=2**31),
    st.lists(st.sampled_from(["confirmed", "unchecked", "tie", "refuted"]), max_size=6),
)
def test_the_sample_is_always_confirmed(seed: int, kinds: list[str]) -> None:
    records = [record(kind, n) for n, kind in enumerate(kinds)]
    report = audit(records, seed)
    confirmed = kinds.count("confirmed")
    assert report.upheld == confirmed
    assert len(report.sample) == min(SAMPLE_SIZE, confirmed)
    assert all(f.ruling == "CONFIRMED" for f in report.sample)
