"""A refused receipt and a disagreeing re-run, in words (SPEC §7 "Standing").

Room ``report``: the words :func:`gentle_hooks.report.fixes.reason` puts after
``receipts that cannot count`` and ``a spot check failed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.policy.selfcheck import Disagreement, RefusedReceipt, row_text
from gentle_hooks.policy.shellwords import shown


def disagreement_text(d: Disagreement) -> str:
    """One disagreeing re-run: which spot check, which receipt and command, both results
    (``a re-run of`` the command when the ids are not known: a note's, or CI's own)."""
    who = f"spot check #{d.spot_check_id} re-ran" if d.spot_check_id else "a re-run of"
    what = f"receipt #{d.receipt_id} ({shown(d.command)})" if d.receipt_id else shown(d.command)
    return f"{who} {what}: reported exit {d.reported_exit}, observed exit {d.observed_exit}"


def refusal_text(r: RefusedReceipt, declared: Sequence[str] = ()) -> str:
    """Why one receipt cannot count (its standing row, in words)."""
    head = f"receipt #{r.receipt_id} ({shown(r.command)})"
    return f"{head} {standing_text(r.standing.row, r.exit_code, r.standing.no_check, declared)}"


def standing_text(
    row: str, exit_code: int | None, no_check: Sequence[str], declared: Sequence[str]
) -> str:
    """A standing row that refuses a receipt, in words (after the receipt's name)."""
    if row == "S-failed":
        return f"reported exit {exit_code}: a failure report is not self-verification"
    if row == "S-undeclared":
        return "is not one of the declared verification.commands (" + ", ".join(declared) + ")"
    if row == "S-load-env":
        return (
            "sets a variable that changes what its test runner loads: report the command without it"
        )
    if row == "S-rewrites":
        return (
            "changed the candidate's files when the spot check re-ran it, so it tests "
            "something else: report a command that leaves tracked files alone"
        )
    if row == "S-own":
        return (
            "runs a file the change adds or changes, so its re-run would be the change's own "
            "word: report a command that tests it"
        )
    if row == "S-no-tests":
        return "ran no tests (its test runner says so): a run of no tests verifies nothing"
    rows = "; ".join(row_text(i) for i in no_check)
    return f"verifies nothing: {rows}"
