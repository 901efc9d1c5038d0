"""What is missing, in words, and the exact command that supplies it (SPEC §5 "Decision", §7).

Room ``report``. The one place that writes a fix command: every gate, ``assess``,
``status`` and the range gate render a shortfall (:mod:`gentle_hooks.policy.shortfall`) and
a binding (:class:`gentle_hooks.values.binding.Binding`) through these functions, and print
or serialise the strings they return. Pure string building; nothing here parses a string.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.policy.selfcheck import Disagreement, RefusedReceipt, report_argv, row_text
from gentle_hooks.policy.shortfall import (
    NoValidNote,
    Shortfall,
    SpotCheckShortfall,
    StaleRecords,
    VerifierShortfall,
)
from gentle_hooks.values.binding import Binding

#: What a gate says after the command that makes the writer's report.
NO_RECEIPT = "no report that counts is recorded for this candidate yet"


def binding_flags(binding: Binding) -> str:
    """The flags another command needs to bind to the same candidate, each with a leading
    space (``""`` for the default binding: the snapshot of the current directory).

    Returns:
        ``--cwd DIR``, ``--staged``/``--committed`` and ``--base-ref REF`` in that order,
        ``DIR`` and ``REF`` quoted for a POSIX shell (:meth:`Binding.flags`).
    """
    return binding.flags()


def reason(s: Shortfall) -> str:
    """One line: what is missing and why (the ``missing:`` line)."""
    if isinstance(s, VerifierShortfall):
        items = ", ".join(f"{i.number} {i.slug}" for i in s.items)
        majority = " with a majority of pass" if s.majority else ""
        critical = ", critical" if s.critical else ""
        line = (
            f"plan risk high (escalated: {items}) needs {s.needed} accepted "
            f"gentle-ai-verify verdict(s) for this candidate{majority} (stakes "
            f"{s.stakes.value}{critical}), found {s.found}"
        )
        if s.majority:
            line += f" of {s.ruled} verifier verdict(s)"
        if s.rejected:
            line += "; not accepted: " + "; ".join(s.rejected)
        return line
    if isinstance(s, SpotCheckShortfall):
        if s.disagreements:
            return "a spot check failed after the writer reported success: " + "; ".join(
                disagreement_text(d) for d in s.disagreements
            )
        line = (
            f"no spot check for this candidate (required in every tier; plan risk {s.risk.value})"
        )
        if s.refused:
            line += "; receipts that cannot count: " + "; ".join(
                refusal_text(r, s.declared) for r in s.refused
            )
        return line
    if isinstance(s, NoValidNote):
        what = (
            "its note records another tree (rewritten after verification: stale)"
            if s.stale
            else "it has no gentle-hooks note for its tree"
        )
        return f"delegated, but {what}: no spot check can count"
    assert isinstance(s, StaleRecords)
    return (
        "its note also holds records for an earlier tree: the commit was rewritten with a "
        "changed tree, so they are stale"
    )


def command(s: Shortfall, binding: Binding) -> str:
    """The exact command (or, where the change itself must change, the steps) that
    supplies ``s`` for the candidate ``binding`` names."""
    flags = binding_flags(binding)
    if isinstance(s, VerifierShortfall):
        # the command that produces the verdict; its output names the `verdict add` to run
        return f"gentle-hook verify run{flags} --brief <brief.json>"
    if isinstance(s, SpotCheckShortfall):
        if s.disagreements:
            # A disagreement stays with this candidate: only a changed candidate, reported
            # again and spot-checked again, can satisfy the requirement.
            again = runnable(s.disagreements[-1].command)
            return (
                f"fix the change, then: gentle-hook receipt run{flags} -- {again} && "
                f"gentle-hook spot-check{flags}"
            )
        readback = f"  (or: gentle-hook spot-check --readback{flags})" if s.readback else ""
        return f"gentle-hook spot-check{flags}{readback}"
    if isinstance(s, NoValidNote):
        return (
            "record and spot-check the change for this commit in the writer's clone "
            f"(gentle-hook receipt run / spot-check{flags}), then gentle-hook sync push"
        )
    assert isinstance(s, StaleRecords)
    return (
        f"re-verify the rewritten commit (gentle-hook receipt run and spot-check{flags} with "
        "it checked out), then gentle-hook sync push"
    )


def first_command(s: Shortfall, binding: Binding) -> str | None:
    """What to run before :func:`command`: the writer's report, when a spot check is
    missing, no report that counts is recorded for the candidate, and the report to make is
    known — the first declared verification command, else the command of a receipt that
    reported failure (reported again once the change is fixed). None otherwise: then
    :func:`report_prefix` gives the words the writer's own test command follows (no
    placeholder ever stands in a command).
    """
    if not (isinstance(s, SpotCheckShortfall) and s.no_receipt):
        return None
    flags = binding_flags(binding)
    if s.declared:
        return f"gentle-hook receipt run{flags} -- {runnable(s.declared[0])}"
    failed = [r for r in s.refused if r.standing.row == "S-failed"]
    if failed:
        return f"gentle-hook receipt run{flags} -- {runnable(failed[-1].command)}"
    return None


def report_prefix(s: Shortfall, binding: Binding) -> str | None:
    """When a report must be made first and no command can be named for it: the command
    the writer's own test command follows (``gentle-hook receipt run --staged --``), printed
    on its own labelled line; else None."""
    if not (isinstance(s, SpotCheckShortfall) and s.no_receipt):
        return None
    if first_command(s, binding) is not None:
        return None
    return f"gentle-hook receipt run{binding_flags(binding)} --"


#: Says what the ``prefix:`` line is for (the line itself is only the command's words).
PREFIX_NOTE = (
    "the writer reports the command that tests this change: that command, after the words "
    "on the prefix line (declare verification.commands to have it named here)"
)


def runnable(command: str) -> str:
    """A receipt's command as the shell words to put after ``gentle-hook receipt run --``
    (:func:`gentle_hooks.policy.selfcheck.report_argv`, quoted for a POSIX shell)."""
    return _join(report_argv(command))


def _join(words: Sequence[str]) -> str:
    import shlex  # off the gates' pass path: only a block renders a receipt

    return shlex.join(words)


def disagreement_text(d: Disagreement) -> str:
    """One disagreeing re-run: which spot check, which receipt and command, both results."""
    return (
        f"spot check #{d.spot_check_id} re-ran receipt #{d.receipt_id} ({d.command}): "
        f"reported exit {d.reported_exit}, observed exit {d.observed_exit}"
    )


def refusal_text(r: RefusedReceipt, declared: Sequence[str] = ()) -> str:
    """Why one receipt cannot count (its standing row, in words)."""
    head = f"receipt #{r.receipt_id} ({r.command})"
    return f"{head} {standing_text(r.standing.row, r.exit_code, r.standing.no_check, declared)}"


def standing_text(
    row: str, exit_code: int | None, no_check: Sequence[str], declared: Sequence[str]
) -> str:
    """A standing row that refuses a receipt, in words (after the receipt's name)."""
    if row == "S-failed":
        return f"reported exit {exit_code}: a failure report is not self-verification"
    if row == "S-undeclared":
        return "is not one of the declared verification.commands (" + ", ".join(declared) + ")"
    rows = "; ".join(f"{row_text(i)} ({i})" for i in no_check)
    return f"verifies nothing: {rows}"


def reasons(shortfalls: Sequence[Shortfall]) -> list[str]:
    """:func:`reason` of each shortfall, in order (JSON ``reasons``)."""
    return [reason(s) for s in shortfalls]


def commands(shortfalls: Sequence[Shortfall], binding: Binding) -> list[str]:
    """:func:`command` of each shortfall, in order (JSON ``fixes``)."""
    return [command(s, binding) for s in shortfalls]


def receipt_hints(shortfalls: Sequence[Shortfall], binding: Binding) -> list[str]:
    """``status``'s first hint, when a missing spot check needs a report made first."""
    for s in shortfalls:
        first = first_command(s, binding)
        if first is not None:
            return [
                "no receipt that counts is recorded for this candidate: the writer reports a "
                f"command first: {first}"
            ]
        prefix = report_prefix(s, binding)
        if prefix is not None:
            return [
                "no receipt that counts is recorded for this candidate: the writer reports the "
                f"command that tests the change after: {prefix}"
            ]
    return []
