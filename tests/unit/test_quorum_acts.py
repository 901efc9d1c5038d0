"""A ``whatIChecked`` that cites evidence but names no act of checking is no evidence
(seed ``003_0245072c02421c57.txt`` "What counts as reproducing evidence": "File and line |
Open it", "A count or metric | Re-run the query or the grep", "A quote | Found verbatim in
the cited source"; "Independently re-open the cited evidence").

One row per shape: a bare citation refuting abstains, naming what is missing; upholding,
it is refuted (step 4 of :func:`~gentle_hooks.quorum.votes.classify_verdict`: "Uphold ONLY
if you re-opened the evidence yourself"); with the act stated it counts as the verifier
said.
"""

from __future__ import annotations

import pytest

from gentle_hooks.quorum.audit import audit
from gentle_hooks.quorum.ruling import build_record
from gentle_hooks.quorum.votes import VoteKind, classify_verdict

CLAIM = "handler() returns the user's input to the caller unescaped"
EVIDENCE = "opened app.py:12: the line is `return html(x)`, escaped"

#: (row id, a bare citation, what the reason names as cited, the same with its act).
ROWS: list[tuple[str, str, str, str]] = [
    (
        "file:line and a command",
        "app.py:12 `return html(x)`",
        "app.py:12, `return html(x)`",
        "Opened app.py:12 `return html(x)`",
    ),
    (
        "file:line and a quote",
        'app.py:12 "return html(x)"',
        'app.py:12, "return html(x)"',
        'Read app.py:12 "return html(x)"',
    ),
    (
        "file:line and a description",
        "app.py:12 escapes x before it is returned",
        "app.py:12",
        "opened app.py:12: escapes x before it is returned",
    ),
    ("a path", "src/web/app.py escapes it", "src/web/app.py", "grepped src/web/app.py: escapes it"),
    (
        "a command without what it gave",
        "`grep -n html app.py`",
        "`grep -n html app.py`",
        "`grep -n html app.py` printed 12: return html(x)",
    ),
    (
        "an act word only inside the quote",
        'app.py:12 "opened = html(x)"',
        'app.py:12, "opened = html(x)"',
        'found "opened = html(x)" at app.py:12',
    ),
]
IDS = [r[0] for r in ROWS]


def _verdict(refuted: bool, checked: str) -> dict[str, object]:
    return {"refuted": refuted, "reason": "escaped", "whatIChecked": checked}


@pytest.mark.parametrize(("bare", "cited", "acted"), [r[1:] for r in ROWS], ids=IDS)
def test_a_refuting_bare_citation_abstains_naming_what_is_missing(
    bare: str, cited: str, acted: str
) -> None:
    vote = classify_verdict(_verdict(True, bare), CLAIM)
    assert vote.vote is VoteKind.ABSTAINED, vote
    assert vote.abstention == (
        f"whatIChecked names no act of checking: it cites {cited} but does not say it "
        "opened, ran, grepped or read them (seed 003: independently re-open the cited "
        "evidence)"
    )
    assert classify_verdict(_verdict(True, acted), CLAIM).vote is VoteKind.REFUTED


@pytest.mark.parametrize(("bare", "cited", "acted"), [r[1:] for r in ROWS], ids=IDS)
def test_an_upholding_bare_citation_is_refuted_and_confirms_nothing(
    bare: str, cited: str, acted: str
) -> None:
    vote = classify_verdict(_verdict(False, bare), CLAIM)
    assert vote.vote is VoteKind.REFUTED and vote.overruled is not None, vote
    assert build_record([_verdict(False, bare)], CLAIM).ruling != "CONFIRMED"
    assert classify_verdict(_verdict(False, acted), CLAIM).vote is VoteKind.UPHELD


def test_a_bare_refutation_does_not_contest_a_reproduced_finding_yet_is_audited() -> None:
    """One verifier re-opened the evidence and upholds; another refutes with a bare
    citation: no evidence on that side (an abstention, never a refutation), and the
    audit lists it with the restating verdicts."""
    verdicts = [
        _verdict(False, "opened app.py:12: `return x` with no escaping"),
        _verdict(True, "app.py:12 `return html(x)`"),
    ]
    record = build_record(verdicts, CLAIM)
    assert (record.tally.upheld, record.tally.refuted, record.tally.abstained) == (1, 0, 1)
    report = audit([record], seed=1)
    (finding,) = report.restating
    (flagged,) = finding.votes
    assert flagged.whatIChecked == "app.py:12 `return html(x)`"


def test_without_citation_the_other_rules_judge() -> None:
    """No citation: the restatement rules judge (words beyond the claim), not this one."""
    vote = classify_verdict(_verdict(True, "the template layer escapes every value"), CLAIM)
    assert vote.vote is VoteKind.REFUTED, vote
    assert classify_verdict(_verdict(True, EVIDENCE), CLAIM).vote is VoteKind.REFUTED
