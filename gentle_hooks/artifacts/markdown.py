"""The Markdown view of a verdict, stored next to its JSON (seed 001, "Artifact"; SPEC §9).

Room: artifacts (imports :mod:`.verdict`); a pure function of the verdict, no I/O: the
caller decides where the text goes (the ledger, and the artifact pair at seed 001's
``.agents/skills/platform/artifacts/verify-delegation/{id}.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.artifacts.changed import changed_words
from gentle_hooks.artifacts.verdict import (
    DelegationVerdict,
    has_evidence,
    recorded_status,
    verdict_acceptance,
)
from gentle_hooks.errors import shown


def _cell(text: str) -> str:
    """Make text safe for one Markdown table cell: no row breaks, no column breaks, and
    no control character (:func:`_plain`)."""
    return " ".join(_plain(text).replace("\\", "\\\\").replace("|", "\\|").split()) or "—"


def _plain(text: str) -> str:
    """``text`` with every control character but newline and tab (ESC, CR, BEL, DEL, C1)
    and every other line break written ``\\xHH`` or ``\\uXXXX``, as human output shows
    them (:func:`gentle_hooks.errors.shown`, never cut): a caller or criterion name cannot
    drive the terminal of whoever prints the view (``verdict show``, ``cat``)."""
    return shown(text, None)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def render_verdict_markdown(
    verdict: DelegationVerdict,
    refused: Sequence[str] = (),
    caller: str | None = None,
    *,
    added: bool = True,
) -> str:
    """The Markdown view stored next to a verdict's JSON (seed 001, "Artifact"; SPEC §9).

    Sections: a header with status (:func:`~.verdict.recorded_status`: ``blocked`` when
    the full suite did not run, the reported status beside it), gate acceptance (and every
    failing rule), the candidate and caller when named, the criteria table with evidence,
    negative tests, suite status, and the summary. The
    summary is quoted line by line and table cells are escaped, so text inside a verdict
    cannot forge a heading or a row of the view.

    Args:
        verdict: the verdict; refused: reasons the gate refuses it beyond the verdict's own
            rules (``R1 not observed``); caller: who added it, when the verdict names no
            caller itself; added: the view of a verdict ``verdict add`` judged (False: the
            one ``verify run`` writes before any ``verdict add``, which says whether the
            verdict's own rules let ``gentle-hook verdict add`` accept it; that command,
            in the clone where the run was, decides).

    Returns:
        Markdown text ending in a newline; a pure function of its arguments.
    """
    accepted, reasons = verdict_acceptance(verdict)
    accepted, reasons = accepted and not refused, (*reasons, *refused)
    caller = verdict.caller if verdict.caller is not None else caller
    status = recorded_status(verdict)
    reported = (
        ""
        if status == verdict.status
        else f" (reported {verdict.status}; the full suite did not run)"
    )
    lines = [
        f"# DelegationVerdict for brief `{_cell(verdict.briefId)}`",
        "",
        f"- **Status:** {status}{reported}",
        f"- **Accepted for the gate:** {_yes(accepted)}"
        if added
        else f"- **To be accepted by `gentle-hook verdict add`:** {_yes(accepted)} (written "
        "by `verify run`; `verdict add`, in the clone where it ran, decides what the gate "
        "counts)",
    ]
    lines += [f"  - not accepted: {_plain(reason)}" for reason in reasons]
    if verdict.candidate is not None:
        cand = verdict.candidate
        lines.append(
            f"- **Candidate:** `{cand.identity}` (base tree `{cand.baseTree}`, tree `{cand.tree}`)"
        )
    if caller is not None:
        lines.append(f"- **Caller:** {_cell(caller)}")
    if verdict.artifactRef is not None:
        lines.append(f"- **Artifact:** `{_cell(verdict.artifactRef)}`")
    if verdict.tokensUsed is not None:
        lines.append(f"- **Tokens used:** {verdict.tokensUsed}")
    if verdict.durationMs is not None:
        lines.append(f"- **Duration:** {verdict.durationMs} ms")
    if verdict.changedArtifact is not None:
        stop = changed_words(verdict.changedArtifact)
        lines.append(f"- **Stopped:** {_cell(stop)} in the clean room; no check after it ran")
    lines += ["", "## Criteria", ""]
    if verdict.criteria:
        lines += ["| # | Criterion | Result | Evidence |", "|---|---|---|---|"]
        for n, c in enumerate(verdict.criteria, 1):
            evidence = _cell(c.evidence) if has_evidence(c) else "**none**"
            lines.append(f"| {n} | {_cell(c.criterion)} | {c.result or '—'} | {evidence} |")
    else:
        lines.append("No criteria were re-checked.")
    lines += [
        "",
        "## Negative tests",
        "",
        f"{verdict.negativeTestsRun} run; artifact mutating: {_yes(verdict.artifactMutating)}.",
        "",
        "## Suite",
        "",
        "The full suite ran." if verdict.fullSuiteRun else "The full suite did **not** run.",
        "",
        "## Summary",
        "",
    ]
    summary = _plain(verdict.summary).strip()
    lines += [f"> {line}".rstrip() for line in summary.splitlines()] if summary else ["> —"]
    return "\n".join(lines) + "\n"
