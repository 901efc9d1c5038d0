"""How the gate counts receipts and re-runs for one candidate (SPEC §5 "Spot check"):
``LedgerFacts.satisfaction`` over records as the ledger or a note holds them, and the
decision it leads to. A stored ``agreed`` flag is never trusted: records written before
satisfaction meant success (a failure "agreed" with a failing re-run, a re-run of ``true``)
must not satisfy anything now.
"""

from __future__ import annotations

import pytest

from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.records import Receipt, SpotCheck
from gentle_hooks.policy.selfcheck import Disagreement, RefusedReceipt, Standing

ID = "sha256:" + "2" * 64


def _receipt(i: int, command: str, exit_code: int) -> Receipt:
    return Receipt("/r", ID, "add", command, f"exit {exit_code}", exit_code, id=i)


def _rerun(i: int, command: str, reported: int, observed: int, *, agreed: bool = True) -> SpotCheck:
    return SpotCheck(
        "/r",
        ID,
        "rerun",
        command,
        agreed=agreed,
        counts=True,
        receipt_id=i,
        reported_exit=reported,
        observed_exit=observed,
        id=i,
    )


def _facts(receipts: tuple[Receipt, ...], reruns: tuple[SpotCheck, ...]) -> LedgerFacts:
    return LedgerFacts(
        path="/l", present=True, root="/r", identity=ID, receipts=receipts, spot_checks=reruns
    )


CASES = [
    pytest.param(
        (_receipt(1, "pytest -q", 0),),
        (_rerun(1, "pytest -q", 0, 0),),
        (),
        True,
        id="success-reported-and-re-run",
    ),
    pytest.param(
        (_receipt(1, "pytest -q", 1),),
        (_rerun(1, "pytest -q", 1, 1),),
        (),
        False,
        id="failure-reported-and-re-run-agreed-is-not-verification",
    ),
    pytest.param(
        (_receipt(1, "true", 0),),
        (_rerun(1, "true", 0, 0),),
        (),
        False,
        id="a-re-run-of-true",
    ),
    pytest.param(
        (_receipt(1, "no-such-runner", 127),),
        (_rerun(1, "no-such-runner", 127, 127),),
        (),
        False,
        id="exit-127-agreed",
    ),
    pytest.param(
        (_receipt(1, "make lint", 0),),
        (_rerun(1, "make lint", 0, 0),),
        ("pytest -q",),
        False,
        id="undeclared-command",
    ),
    pytest.param(
        (_receipt(1, "pytest  -q", 0),),
        (_rerun(1, "pytest  -q", 0, 0),),
        ("pytest -q",),
        True,
        id="declared-command",
    ),
    pytest.param(
        (_receipt(1, "pytest -q", 0),),
        (_rerun(1, "pytest -q", 0, 0, agreed=False),),
        (),
        True,
        id="agreement-re-derived-from-the-statuses",
    ),
]


@pytest.mark.parametrize(("receipts", "reruns", "declared", "agreed"), CASES)
def test_a_re_run_counts_only_after_two_successes_of_a_receipt_that_counts(
    receipts: tuple[Receipt, ...],
    reruns: tuple[SpotCheck, ...],
    declared: tuple[str, ...],
    agreed: bool,
) -> None:
    done = _facts(receipts, reruns).satisfaction(declared)
    assert done.spot_check_agreed is agreed
    assert done.receipts == (1 if agreed else 0)
    assert done.declared == declared
    assert done.disagreements == ()


def test_receipts_that_cannot_count_are_listed_with_their_row() -> None:
    receipts = (
        _receipt(1, "pytest -q", 1),
        _receipt(2, "true", 0),
        _receipt(3, "make lint", 0),
        _receipt(4, "pytest -q", 0),
    )
    done = _facts(receipts, ()).satisfaction(("pytest -q",))
    assert done.receipts == 1
    # each carries its recorded result, which a block reads back (a file the run lacked)
    assert done.refused == (
        RefusedReceipt(1, "pytest -q", 1, Standing(False, "S-failed"), ".", "exit 1"),
        RefusedReceipt(2, "true", 0, Standing(False, "S-undeclared"), ".", "exit 0"),
        RefusedReceipt(3, "make lint", 0, Standing(False, "S-undeclared"), ".", "exit 0"),
    )
    assert _facts((_receipt(2, "true", 0),), ()).satisfaction().refused == (
        RefusedReceipt(2, "true", 0, Standing(False, "S-no-check", ("N-true",)), ".", "exit 0"),
    )


def test_a_failing_re_run_after_a_success_report_is_a_disagreement() -> None:
    done = _facts(
        (_receipt(1, "pytest -q", 0),), (_rerun(1, "pytest -q", 0, 1, agreed=False),)
    ).satisfaction()
    assert not done.spot_check_agreed
    assert done.disagreements == (Disagreement(1, 1, "pytest -q", 0, 1),)
