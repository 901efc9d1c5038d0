"""What a shortfall misses, in plain words: a block's first line and its ``missing:``
lines (SPEC §5 "Decision", §7).

Room ``report``. Pure string building over :mod:`gentle_hooks.policy.shortfall`; the
commands that supply a shortfall are :mod:`gentle_hooks.report.fixes`' (which re-exports
these two functions).
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.policy.shortfall import (
    NoValidNote,
    Shortfall,
    SpotCheckShortfall,
    StaleRecords,
    VerifierShortfall,
)
from gentle_hooks.report.refusal_text import disagreement_text, refusal_text

#: What a gate says after the command that makes the writer's report.
NO_RECEIPT = "no report that counts is recorded for this candidate yet"

#: Says what the ``prefix:`` line is for (the line itself is only the command's words).
PREFIX_NOTE = (
    "the writer reports the command that tests this change: that command, after the words "
    "on the prefix line (declare verification.commands to have it named here)"
)


def headline(shortfalls: Sequence[Shortfall]) -> str:
    """What is missing, in a few plain words (the first line of a block)."""
    parts = []
    for s in shortfalls:
        if isinstance(s, VerifierShortfall):
            parts.append("a separate verifier run (gentle-ai-verify) of this exact change")
        elif isinstance(s, SpotCheckShortfall):
            if s.disagreements:
                parts.append("a change whose own test passes (the re-run failed)")
            elif s.job_lacks:
                parts.append("a re-run this CI job can run (it could not verify the commit)")
            elif s.unbacked:
                parts.append(
                    "the writer's report in its note: the note holds a spot check but not "
                    "the receipt it re-ran"
                )
            else:
                parts.append("a passing re-run of the writer's test on this exact change")
        elif isinstance(s, NoValidNote):
            parts.append(
                "the record of its verification ("
                + (
                    "its note's base is beyond this shallow clone"
                    if s.shallow
                    else "no gentle-hooks note reached here"
                )
                + ")"
            )
        else:
            parts.append("a verification of the rewritten commit")
    return "missing " + " and ".join(parts) if parts else "nothing missing"


def restates_headline(s: Shortfall) -> bool:
    """Whether :func:`reason` of ``s`` says only what :func:`headline` said (a spot check
    missing, nothing refused or disagreeing): a block then leaves its ``missing:`` line
    out, so one line says it once."""
    return (
        isinstance(s, SpotCheckShortfall)
        and not s.disagreements
        and not s.job_lacks
        and not s.refused
        and not s.unbacked
    )


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
        if s.repeated:
            line += (
                "; counted once: " + "; ".join(s.repeated) + " (the same verifier): a "
                "different caller must run the next verifier (seed 003 a second verifier; "
                "seed 001 no same-role reviewers)"
            )
        return line
    if isinstance(s, SpotCheckShortfall):
        if s.disagreements:
            return "a spot check failed after the writer reported success: " + "; ".join(
                disagreement_text(d) for d in s.disagreements
            )
        if s.job_lacks:
            return (
                "the re-run could not run in this CI job, which lacks what the command needs: "
                + "; ".join(s.job_lacks)
                + " (that says where it ran, not that the commit is wrong)"
            )
        line = (
            f"no spot check for this candidate (required in every tier; plan risk {s.risk.value})"
        )
        if s.unbacked:
            line = (
                "its note holds a re-run that agreed of "
                + ", ".join(f"`{c}`" for c in s.unbacked[:3])
                + " but no receipt of that command for this candidate, and a re-run counts "
                f"only with the report it re-ran (plan risk {s.risk.value}); gentle-hook sync "
                "push in the clone that recorded them adds the receipt to the note"
            )
        if s.refused:
            line += "; receipts that cannot count: " + "; ".join(
                refusal_text(r, s.declared) for r in s.refused
            )
        return line
    if isinstance(s, NoValidNote) and s.shallow:
        return (
            "delegated; its note records this tree against a base commit this shallow "
            "clone does not hold, so it cannot be checked here: fetch the history"
        )
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
