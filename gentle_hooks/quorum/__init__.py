"""Quorum: verifier verdicts per finding, their tally and ruling, survival, stakes (SPEC §9).

Layer: models + pure functions (pydantic and the standard library); no I/O, no clock, no
environment. Seed ``003_0245072c02421c57.txt`` is the source of every rule.

* :mod:`.votes` — a verifier's ``{refuted, reason, whatIChecked, correctedImpact?}`` and how
  it counts; errored, timed-out, malformed, empty or restating ``whatIChecked`` abstain.
* :mod:`.ballot` — a verdict file, optionally ``{"claim", "verdicts"}``, the one claim a
  tally is about, and each distinct verdict once (copies count once).
* :mod:`.restatement` — whether a ``whatIChecked`` shows a check or restates the claim.
* :mod:`.ruling` — ``{survives, upheld, refuted, abstained, contested}``, the ruling
  (CONFIRMED, PLAUSIBLE, REFUTED) and the stored :class:`TallyRecord`.
* :mod:`.survival` — survival overall and per lens, with the three calibration flags.
* stakes (:mod:`gentle_hooks.policy.stakes`, pure) — verifiers each stakes level needs.
"""

from __future__ import annotations

from gentle_hooks.policy.stakes import (
    STAKES_ROWS,
    Stakes,
    parse_stakes,
    stakes_satisfied,
    verifiers_required,
)
from gentle_hooks.quorum.ballot import VerdictFile, VerdictSet, parse_verdict_file, resolve_claim
from gentle_hooks.quorum.restatement import is_restatement, restatement_reason, words
from gentle_hooks.quorum.ruling import (
    RULING_ROWS,
    TALLY_SCHEMA,
    Ruling,
    Tally,
    TallyRecord,
    build_record,
    parse_tally_records,
    rule,
    tally,
    tally_votes,
)
from gentle_hooks.quorum.survival import (
    FLAG_MEANINGS,
    LENS_SPREAD_LIMIT,
    MIN_LENS_FINDINGS,
    REPORT_SCHEMA,
    LensSurvival,
    SurvivalFlag,
    SurvivalReport,
    survival_report,
)
from gentle_hooks.quorum.votes import (
    VerifierVerdict,
    Vote,
    VoteKind,
    classify_verdict,
    parse_verdict_values,
)

__all__ = [
    "FLAG_MEANINGS",
    "LENS_SPREAD_LIMIT",
    "MIN_LENS_FINDINGS",
    "REPORT_SCHEMA",
    "RULING_ROWS",
    "STAKES_ROWS",
    "TALLY_SCHEMA",
    "LensSurvival",
    "Ruling",
    "Stakes",
    "SurvivalFlag",
    "SurvivalReport",
    "Tally",
    "TallyRecord",
    "VerdictFile",
    "VerdictSet",
    "VerifierVerdict",
    "Vote",
    "VoteKind",
    "build_record",
    "classify_verdict",
    "is_restatement",
    "parse_stakes",
    "parse_tally_records",
    "parse_verdict_file",
    "parse_verdict_values",
    "resolve_claim",
    "restatement_reason",
    "rule",
    "stakes_satisfied",
    "survival_report",
    "tally",
    "tally_votes",
    "verifiers_required",
    "words",
]
