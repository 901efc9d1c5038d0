"""ledger/fails.py: an observed ``verify run`` fail stands until a later pass of the same
brief runs every check it ran (refuter r18x F4)."""

from __future__ import annotations

import json

import pytest

from gentle_hooks.ledger.fails import standing_fail_reason, standing_fails
from gentle_hooks.ledger.records import VerifyRun

SUITE = ("suite", "python3 -m pytest -q tests")
CRIT = ("criterion", "grep -q 'def mul' app.py")


def run(n: int, brief: str, status: str, *checks: tuple[str, str]) -> VerifyRun:
    seen = [{"kind": k, "command": c, "exitCode": 0} for k, c in checks]
    return VerifyRun(
        root="/r",
        identity="sha256:x",
        brief_id=brief,
        status=status,
        caller="me",
        room="/tmp/room",
        artifact_ref="a.json",
        verdict_digest="sha256:d",
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
]


@pytest.mark.parametrize(("runs", "standing"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_standing_fails(runs: list[VerifyRun], standing: list[int]) -> None:
    assert [r.id for r in standing_fails(runs)] == standing


def test_the_reason_names_the_run_the_brief_and_the_way_out() -> None:
    reason = standing_fail_reason(run(7, "add-1", "fail", SUITE))
    assert reason.startswith("R2 verify run #7 of brief 'add-1' failed for this candidate")
    assert "re-run brief 'add-1' until it passes" in reason and "GENTLE_HOOKS_SKIP" in reason
