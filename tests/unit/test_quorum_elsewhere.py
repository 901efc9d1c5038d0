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

from gentle_hooks.quorum.checkable import CheckSource
from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import VoteKind, classify_verdict
from tests.quorum_tree import CHECKED, TREE, supported_unchecked
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
    assert supported_unchecked(build_record([up(checked)], CLAIM))


#: Refuter r18p's phrases (issue 18), each after a quote that is at workflow.js:142 of
#: :data:`tests.quorum_tree.TREE`: on mrgS each one CONFIRMED, with a tree or without.
R18P_PLACES = [
    "on the deployed box",
    "in the customer's environment",
    "per the CI artifacts",
    "in the release candidate",
]
R18P_LATER = [
    "needs double-checking",
    "should be re-checked",
    "needs a second look",
    "pending review",
    "not yet reproduced here",
]
#: :data:`TREE` with a clean-room record that ran nothing (``--observed``).
ROOM = CheckSource(TREE.tree, TREE.lines, ())
R18P = [f"opened workflow.js:142 {p}: `spawnAgent(task)` in the loop" for p in R18P_PLACES] + [
    f"{CHECKED}, {p}" for p in R18P_LATER
]


@pytest.mark.parametrize("checked", R18P)
@pytest.mark.parametrize("tree", [None, TREE, ROOM], ids=["no-tree", "tree", "observed"])
def test_r18p_a_check_placed_elsewhere_or_left_for_later_refutes(
    checked: str, tree: CheckSource | None
) -> None:
    """Seed 003 "Uphold ONLY if you re-opened the evidence yourself and it reproduces": a
    quote found at the cited line does not make evidence seen elsewhere, or left for a
    later check, a reproduction in the candidate's tree."""
    record = build_record([up(checked)], CLAIM, source=tree)
    (vote,) = record.votes
    assert vote.vote is VoteKind.REFUTED, vote
    assert "elsewhere than the candidate" in (vote.overruled or ""), vote.overruled
    assert record.ruling == "REFUTED"


def test_r18p_the_quote_alone_confirms_in_the_tree() -> None:
    """The rows above without their phrase: the same quote confirms with the tree."""
    assert build_record([up(CHECKED)], CLAIM, source=TREE).ruling == "CONFIRMED"


@pytest.mark.parametrize(
    ("checked", "tree", "ruling", "shown"),
    [
        (
            "opened zzz_nonexistent.js:9999: the loop has no budget check",
            None,
            "PLAUSIBLE",
            "not checked against the candidate's tree",
        ),
        (
            "opened zzz_nonexistent.js:9999: the loop has no budget check",
            TREE,
            "REFUTED",
            "the candidate's tree holds no zzz_nonexistent.js",
        ),
        (
            "I ran `grep -n budget workflow.js` on the deployed box: no match",
            None,
            "REFUTED",
            "deployed box",
        ),
        (
            "I ran `grep -n budget workflow.js`: no match",
            TREE,
            "PLAUSIBLE",
            "its command was checked by no clean room (`grep -n budget workflow.js`)",
        ),
    ],
    ids=["nonexistent-no-tree", "nonexistent-tree", "deployed-box", "command-tree"],
)
def test_r18p_evidence_nobody_checked_does_not_confirm(
    checked: str, tree: CheckSource | None, ruling: str, shown: str
) -> None:
    """Issue 18 (r18p): "CONFIRMED | Evidence independently reproduced"; "PLAUSIBLE | ...
    could not be reproduced with available access". A file:line that does not exist
    refutes once the tree is read; unread, it is at most PLAUSIBLE; a command no clean
    room recorded is not a reproduction either."""
    record = build_record([up(checked)], CLAIM, source=tree)
    assert record.ruling == ruling, record
    (vote,) = record.votes
    assert shown in (vote.overruled or vote.unchecked or ""), vote
