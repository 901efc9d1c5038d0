"""Survival report over stored tallies: overall, per lens, and calibration flags (SPEC §9).

Room ``quorum``, models + pure functions; no I/O. Seed ``003_0245072c02421c57.txt`` "Reading
survival rates": ~86% uniform across lenses is healthy; 100%, under 50% and sharp variation
by lens each mean something is wrong with the verify or mining phase.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Final, Literal

from pydantic import Field

from gentle_hooks.errors import PolicyInputError
from gentle_hooks.quorum.ruling import TallyRecord
from gentle_hooks.quorum.votes import QuorumModel

REPORT_SCHEMA: Final = "gentle-hooks.quorum-report/v1"

MIN_LENS_FINDINGS = 3
#: Survival "varies sharply by lens" when the best and worst lens differ by more than this
#: (the seed's healthy corpus spans 83-89%).
LENS_SPREAD_LIMIT = Fraction(1, 4)

FlagCode = Literal["all-survived", "low-survival", "lens-variation"]

#: One line per flag: what it most likely means (seed 003 "Reading survival rates").
FLAG_MEANINGS: dict[FlagCode, str] = {
    "all-survived": "100% survival: the verifiers were not adversarial; re-prompt them to "
    "refute and check that whatIChecked is populated",
    "low-survival": "under 50% survival: the miners are padding, or the evidence contract "
    "was never stated",
    "lens-variation": "survival varies sharply by lens: one lens is speculating while the "
    "others cite; fix that miner's prompt",
}


class LensSurvival(QuorumModel):
    """Survival of one lens (``lens`` None groups findings without one): counts and rate."""

    lens: str | None
    findings: int
    survived: int
    rate: float


class SurvivalFlag(QuorumModel):
    """A raised calibration flag: its code, its one-line meaning, and the numbers behind it."""

    code: FlagCode
    meaning: str
    detail: str


class SurvivalReport(QuorumModel):
    """``quorum report --json``: survival overall and per lens, and the raised flags.

    Attributes:
        findings / survived: records read and how many survive (CONFIRMED).
        rate: survived / findings, or None with no findings.
        lenses: per lens, sorted by name; findings without a lens are one group
            (``lens: null``) that is reported but never compared.
        flags: raised flags in the order of :data:`FLAG_MEANINGS`.
    """

    schema_: Literal["gentle-hooks.quorum-report/v1"] = Field(default=REPORT_SCHEMA, alias="schema")
    findings: int
    survived: int
    rate: float | None
    lenses: tuple[LensSurvival, ...]
    flags: tuple[SurvivalFlag, ...]


def _pct(rate: Fraction) -> str:
    return f"{float(rate) * 100:.0f}%"


def survival_report(records: Iterable[TallyRecord]) -> SurvivalReport:
    """Survival overall and per lens over stored tallies, with flags (seed 003; SPEC §9).

    Flags: ``all-survived`` (every finding survived), ``low-survival`` (under half
    survived), ``lens-variation`` (among lenses with at least :data:`MIN_LENS_FINDINGS`
    findings, best minus worst survival exceeds :data:`LENS_SPREAD_LIMIT`). No records:
    no rate and no flags.

    Raises:
        PolicyInputError: a finding counted twice pads the rate, so (exit 2): the same
            finding id in more than one record, or the same claim (compared up to case and
            whitespace) in more than one record, whatever their ids: identical records,
            repeats of a finding without an id, and one finding under two ids. Seed 003
            verifies *deduplicated* findings. Refused rather than counted once, because
            two records of one finding may disagree and neither can be chosen.
    """
    items = list(records)
    refuse_repeated_findings(items)
    total = len(items)
    survived = sum(1 for r in items if r.tally.survives)
    groups: dict[str | None, list[TallyRecord]] = {}
    for r in items:
        groups.setdefault(r.lens, []).append(r)
    lenses = tuple(
        LensSurvival(
            lens=lens,
            findings=len(group),
            survived=sum(1 for r in group if r.tally.survives),
            rate=sum(1 for r in group if r.tally.survives) / len(group),
        )
        for lens, group in sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))
    )
    flags: list[SurvivalFlag] = []
    if total:
        rate = Fraction(survived, total)
        numbers = f"{survived} of {total} findings survived ({_pct(rate)})"
        if rate == 1:
            flags.append(_flag("all-survived", numbers))
        if rate < Fraction(1, 2):
            flags.append(_flag("low-survival", numbers))
    compared = [
        (Fraction(ls.survived, ls.findings), ls)
        for ls in lenses
        if ls.lens is not None and ls.findings >= MIN_LENS_FINDINGS
    ]
    if len(compared) >= 2:
        low = min(compared, key=lambda c: (c[0], c[1].lens or ""))
        high = max(compared, key=lambda c: (c[0], c[1].lens or ""))
        if high[0] - low[0] > LENS_SPREAD_LIMIT:
            flags.append(
                _flag(
                    "lens-variation",
                    f"{high[1].lens} {_pct(high[0])} vs {low[1].lens} {_pct(low[0])} "
                    f"(limit {_pct(LENS_SPREAD_LIMIT)} apart)",
                )
            )
    return SurvivalReport(
        findings=total,
        survived=survived,
        rate=survived / total if total else None,
        lenses=lenses,
        flags=tuple(flags),
    )


def _claim_key(claim: str) -> str:
    return " ".join(claim.split()).casefold()


def refuse_repeated_findings(items: list[TallyRecord]) -> None:
    """One tally per finding: no finding id and no claim in two records."""
    ids: dict[str, int] = {}
    claims: dict[str, list[str]] = {}
    for r in items:
        if r.finding is not None:
            ids[r.finding] = ids.get(r.finding, 0) + 1
        claims.setdefault(_claim_key(r.claim), []).append(r.claim)
    repeated = sorted(f for f, n in ids.items() if n > 1)
    if repeated:
        raise PolicyInputError(
            f"finding {repeated[0]!r} appears in {ids[repeated[0]]} tally records; "
            "report one tally per finding"
        )
    twice = sorted(min(texts) for texts in claims.values() if len(texts) > 1)
    if twice:
        clipped = " ".join(twice[0].split())
        clipped = clipped if len(clipped) <= 60 else clipped[:59] + "…"
        raise PolicyInputError(
            f"claim {clipped!r} appears in {len(claims[_claim_key(twice[0])])} tally records; "
            "report one tally per finding (deduplicate findings before verifying them)"
        )


def _flag(code: FlagCode, detail: str) -> SurvivalFlag:
    return SurvivalFlag(code=code, meaning=FLAG_MEANINGS[code], detail=detail)
