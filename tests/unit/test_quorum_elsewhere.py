"""A ``whatIChecked`` that places what it saw elsewhere than the candidate's tree, or
leaves it for later, refutes (:mod:`gentle_hooks.quorum.elsewhere`;
seed 003 "Independently re-open the cited evidence", "A finding whose evidence is a
plausible narrative refutes"; issue 18, refuter r18o finding 3).

Each phrase r18o found confirming is set beside evidence that supports on its own: the
vote is refuted, with the place in its ``overruled`` reason, and the finding does not confirm.
A real verifier's ordinary evidence still supports (rows).
"""

from __future__ import annotations

import pytest

from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import VoteKind, classify_verdict
from tests.unit.test_quorum_seed003_rows import CLAIM, up

GOOD = "opened workflow.js:142: the line is `for (t of tasks) spawn(t)`, no budget check"

#: r18o's phrases, each in a whatIChecked otherwise good.
ELSEWHERE = [
    f"{GOOD}, in my clone from last month",
    f"{GOOD} in the base branch",
    f"{GOOD}, before the writer's last push",
    f"{GOOD} in production",
    f"Read the CI log: {GOOD}",
    f"{GOOD}, or so the log says",
    f"{GOOD}; to be confirmed",
]

#: Ordinary evidence of a verifier that re-opened the source itself: it supports.
ORDINARY = [
    GOOD,
    "re-ran `grep -c 'spawned agent' run-2026-08-14.log`: 41",
    'found "for (const t of tasks) spawn(t)" verbatim at workflow.js:142',
    "ran `node run.js --tasks 41 --cap 16`: 41 agents spawned (log line 'spawned 41')",
    "opened run-2026-08-14.png: the agents panel lists 41 rows, header 'cap: 16'",
    "read scheduler.py:40-58: spawn() takes no budget and nothing above it counts agents",
    "ran `pytest -q tests/test_budget.py` in the room: 1 failed, `assert spawned <= cap` (41 > 16)",
]


@pytest.mark.parametrize("checked", ELSEWHERE)
def test_a_check_placed_elsewhere_refutes(checked: str) -> None:
    assert classify_verdict(up(checked), CLAIM).vote is VoteKind.UPHELD  # on its words alone
    record = build_record([up(checked)], CLAIM)
    (vote,) = record.votes
    assert vote.vote is VoteKind.REFUTED, vote
    assert "elsewhere than the candidate" in (vote.overruled or ""), vote.overruled
    assert record.ruling == "REFUTED"


@pytest.mark.parametrize("checked", ORDINARY)
def test_ordinary_evidence_still_supports(checked: str) -> None:
    vote = classify_verdict(up(checked), CLAIM)
    assert vote.vote is VoteKind.UPHELD, vote
    assert build_record([up(checked)], CLAIM).ruling == "CONFIRMED"
