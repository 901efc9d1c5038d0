"""Verifying a verification: what a human re-checks in a finished verify phase (SPEC §9).

Room ``quorum``, models + pure functions; no I/O, no clock, no randomness of its own (the
caller passes the sample's seed). Seed ``003_0245072c02421c57.txt``, "Verifying a
verification": "For anything genuinely high-stakes, spot-check the verifiers themselves:
Sample two upheld findings and re-check them yourself. Look for whatIChecked that merely
restates the claim. Look for verdicts returned faster than the evidence could have been
opened." :func:`audit` answers the three over stored tally records, and names the
narrative verdicts it overruled ("It is well known that…": not evidence).

Upheld means CONFIRMED ("Verdict meanings": "Evidence independently reproduced,
uncontested | State it as fact"). A PLAUSIBLE finding is never upheld, whatever its votes
(a tie, a contest, too few verifiers or lenses, or upheld votes whose evidence no tree
checked: row ``Q6U``): the report already states it as unverified, with what would settle
it, so there is no upheld claim in it to re-check. The sample is :data:`SAMPLE_SIZE`
CONFIRMED findings, or all of them when fewer exist (the report says so).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Final, Literal

from pydantic import Field

from gentle_hooks.quorum.ruling import TallyRecord
from gentle_hooks.quorum.survival import refuse_repeated_findings
from gentle_hooks.quorum.votes import QuorumModel, Vote, VoteKind

AUDIT_SCHEMA: Final = "gentle-hooks.quorum-audit/v1"

#: Seed 003: "Sample two upheld findings".
SAMPLE_SIZE: Final = 2

#: The abstentions of a ``whatIChecked`` that showed no check
#: (:func:`gentle_hooks.quorum.restatement.restatement_reason`,
#: :func:`~gentle_hooks.quorum.restatement.undescribed_artifact_reason`,
#: :func:`~gentle_hooks.quorum.narrative.unacted_reason`).
_RESTATING = (
    "whatIChecked restates the claim",
    "whatIChecked names no evidence",
    "whatIChecked names a screenshot or artifact but describes nothing",
    "whatIChecked names no act of checking",
)


class CheckedVote(QuorumModel):
    """One vote of an audited finding: who, how it counted, what it says it opened, and
    what made it worth a look."""

    verifier: str | None
    lens: str | None
    vote: VoteKind
    whatIChecked: str | None
    note: str | None = None


class AuditedFinding(QuorumModel):
    """A finding the audit names: its id, claim, ruling and the votes that matter."""

    finding: str | None
    claim: str
    ruling: str
    votes: tuple[CheckedVote, ...]


class AuditReport(QuorumModel):
    """``quorum audit --json``: the sample to re-check and the verdicts to look at.

    Attributes:
        findings: tally records read; upheld: how many were upheld (CONFIRMED; a
            PLAUSIBLE finding never is).
        seed: the sample's seed (the same seed and records give the same sample).
        wanted: how many upheld findings the audit samples (:data:`SAMPLE_SIZE`); a
            ``sample`` shorter than it holds every upheld finding there is.
        sample: :data:`SAMPLE_SIZE` upheld findings (all of them when fewer), each with
            its upholding votes' ``whatIChecked``: what to re-open yourself.
        restating: findings with a ``whatIChecked`` that restated the claim, named no
            evidence, or cited it with no act of checking (they abstained; a verify
            phase full of them is rubber-stamping).
        too_fast: findings with a verdict returned faster than its evidence could have been
            opened (``tooFast``).
        narrative: findings with an upheld verdict overruled (a narrative, no act of
            checking, or a check that failed or never happened).
    """

    schema_: Literal["gentle-hooks.quorum-audit/v1"] = Field(default=AUDIT_SCHEMA, alias="schema")
    findings: int
    upheld: int
    seed: int
    wanted: int = SAMPLE_SIZE
    sample: tuple[AuditedFinding, ...]
    restating: tuple[AuditedFinding, ...]
    too_fast: tuple[AuditedFinding, ...]
    narrative: tuple[AuditedFinding, ...]


def _checked(vote: Vote, note: str | None) -> CheckedVote:
    return CheckedVote(
        verifier=vote.verifier,
        lens=vote.lens,
        vote=vote.vote,
        whatIChecked=vote.whatIChecked,
        note=note,
    )


def _finding(record: TallyRecord, votes: Iterable[CheckedVote]) -> AuditedFinding:
    return AuditedFinding(
        finding=record.finding, claim=record.claim, ruling=record.ruling, votes=tuple(votes)
    )


def _picked(
    records: list[TallyRecord], note: Callable[[Vote], str | None]
) -> tuple[AuditedFinding, ...]:
    out: list[AuditedFinding] = []
    for record in records:
        votes = [(v, note(v)) for v in record.votes]
        flagged = [_checked(v, n) for v, n in votes if n is not None]
        if flagged:
            out.append(_finding(record, flagged))
    return tuple(out)


def _upholds(vote: Vote) -> bool:
    return vote.vote is VoteKind.UPHELD


def _restating(vote: Vote) -> str | None:
    text = vote.abstention or ""
    return text if text.startswith(_RESTATING) else None


def audit(records: Iterable[TallyRecord], seed: int) -> AuditReport:
    """Audit a verify phase from its stored tally records (seed 003 "Verifying a
    verification"; SPEC §9).

    Args:
        records: tally records as ``quorum tally --json`` writes them.
        seed: the sample's seed; the sample is drawn from the upheld findings in their
            given order, so the same records and seed give the same sample.

    Returns:
        The :class:`AuditReport`: :data:`SAMPLE_SIZE` upheld (CONFIRMED) findings to
        re-check yourself (every one when fewer exist; never a PLAUSIBLE one), with what
        each upholding verifier says it opened; findings with a restating
        ``whatIChecked``; findings with a too-fast verdict; findings with an upheld verdict
        overruled (narrative, no act of checking, failed check).

    Raises:
        PolicyInputError: a finding id or claim in two records (the sample would draw one
            finding twice): :func:`~gentle_hooks.quorum.survival.refuse_repeated_findings`.
    """
    items = list(records)
    refuse_repeated_findings(items)
    upheld = [r for r in items if r.ruling == "CONFIRMED"]
    chosen = sorted(random.Random(seed).sample(range(len(upheld)), min(SAMPLE_SIZE, len(upheld))))
    sample = tuple(
        _finding(upheld[i], (_checked(v, None) for v in upheld[i].votes if _upholds(v)))
        for i in chosen
    )
    return AuditReport(
        findings=len(items),
        upheld=len(upheld),
        seed=seed,
        sample=sample,
        restating=_picked(items, _restating),
        too_fast=_picked(items, lambda v: v.tooFast),
        narrative=_picked(items, lambda v: v.overruled),
    )
