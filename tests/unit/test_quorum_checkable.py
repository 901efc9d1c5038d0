"""Evidence reproduces or it refutes (:mod:`gentle_hooks.quorum.checkable`; seed 003 "What
counts as reproducing evidence": "File and line | Open it. The line exists and says what
was claimed", "A quote | Found verbatim in the cited source", "A count or metric | Re-run
the query"; issue 18, refuter r18o finding 3).

With the candidate's tree and the clean room's record, an upheld verdict supports only
when a ``file:line`` quote of it is at that line, or a command of it is one the room ran;
every r18o phrase without such evidence refutes; ordinary evidence of a real verifier that
checks out still confirms.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gentle_hooks.quorum.checkable import CheckSource, checkable_reason, cited_paths
from gentle_hooks.quorum.ruling import TallyRecord, build_record
from gentle_hooks.quorum.votes import VoteKind
from tests.unit.test_quorum_seed003_rows import CLAIM, up

FILES = {
    "workflow.js": ["// spawn", *[""] * 140, "for (t of tasks) spawn(t)", ""],
    "src/pool.py": ["def spawn(t):", "    return start(t)  # no budget"],
}
OBSERVED = (("grep -c 'spawned agent' run.log", 0), ("pytest -q tests/test_budget.py", 1))


def _lines(path: str) -> Sequence[str] | None:
    return FILES.get(path)


SOURCE = CheckSource("1a2b3c4d5e6f7a8b", _lines, OBSERVED)

#: Ordinary evidence that checks out in the tree or the room's record: supports.
SUPPORTS = [
    "opened workflow.js:142: the line is `for (t of tasks) spawn(t)`, no budget check",
    'found "for (t of tasks) spawn(t)" verbatim at workflow.js:142',
    "read src/pool.py:1-2: `return start(t)` passes no budget",
    "re-ran `grep -c 'spawned agent' run.log`: 41",
    "ran `pytest -q tests/test_budget.py`: exit 1, 1 failed (41 > 16)",
]

#: (whatIChecked, what the reason names) that does not check out: refutes.
REFUTES = [
    ("opened workflow.js:141: the line is `for (t of tasks) spawn(t)`", "is not at that line"),
    ("opened workflow.js:142: the loop spawns with no budget check", "quotes nothing"),
    ("opened scheduler.js:10: `spawn(t)` with no cap", "holds no scheduler.js"),
    ("opened workflow.js:900: `spawn(t)`", "has 143 lines"),
    ("ran `make budget-test`: 3 failed", "no command the clean room ran"),
    ("ran `pytest -q tests/test_budget.py`: exit 0, all passed", "exited 1"),
    # r18o's phrases, with nothing that checks out
    ("opened workflow.js:142 in my clone from last month: no budget check", "quotes nothing"),
    ("checked the loop in the base branch: no budget check", "no file:line"),
    ("read the fan-out before the writer's last push: unbounded", "no file:line"),
    ("saw 41 agents in production against a cap of 16", "no file:line"),
    ("Read the CI log: 41 agents spawned", "no file:line"),
    ("41 agents spawned, or so the log says", "no file:line"),
    ("the fan-out exceeds the cap; to be confirmed", "no file:line"),
]


@pytest.mark.parametrize("checked", SUPPORTS)
def test_evidence_that_checks_out_supports(checked: str) -> None:
    assert checkable_reason(checked, SOURCE) is None
    record = build_record([up(checked)], CLAIM, source=SOURCE)
    assert record.ruling == "CONFIRMED", record.votes
    assert record.checkedAgainst == SOURCE.tree


@pytest.mark.parametrize(("checked", "named"), REFUTES)
def test_evidence_that_does_not_check_out_refutes(checked: str, named: str) -> None:
    why = checkable_reason(checked, SOURCE)
    assert why is not None and named in why, why
    record = build_record([up(checked)], CLAIM, source=SOURCE)
    (vote,) = record.votes  # refuted, or abstained by an earlier rule: never support
    assert vote.vote is not VoteKind.UPHELD and record.ruling != "CONFIRMED", vote
    # the stored record reads back without the tree: the refutation is taken as recorded
    again = TallyRecord.model_validate_json(record.model_dump_json(by_alias=True))
    assert again.votes == record.votes


def test_a_refutation_for_no_checkable_evidence_needs_the_record_s_tree() -> None:
    record = build_record([up("re-ran `make budget-test`: 3 failed")], CLAIM, source=SOURCE)
    assert record.votes[0].vote is VoteKind.REFUTED
    data = record.model_dump(mode="json", by_alias=True)
    data["checkedAgainst"] = None
    with pytest.raises(ValueError, match="counted as refuted"):
        TallyRecord.model_validate(data)


def test_cited_paths_are_the_files_cited_with_a_line() -> None:
    text = "opened a/b.py:3 and c.js:4-9, then a/b.py:5; see README"
    assert cited_paths(text) == ["a/b.py", "c.js"]
