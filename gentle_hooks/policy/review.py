"""Review outcome resolution (seed 000 "How assess resolves the review outcome"; SPEC §5).

Room ``policy`` (pure). Rows apply in order; the first match wins. ``unknown`` is never
``closed``, and no outcome authorizes delivery or removes a verifier.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.policy.vocabulary import OutcomeSource, ReviewOutcome
from gentle_hooks.values.frozen import frozen

_EXPLICIT_VALUES = (ReviewOutcome.DECLINED, ReviewOutcome.UNAVAILABLE, ReviewOutcome.UNKNOWN)
_RECORDED_VALUES = (ReviewOutcome.DECLINED, ReviewOutcome.UNAVAILABLE)


@frozen
class ReviewEvidence:
    """What is known about the review of one exact candidate.

    Attributes:
        caller: the outcome the caller passed (``--review-outcome``), or None.
        recorded: ``declined``/``unavailable`` recorded for this exact candidate, or None.
        consumed: True only when native reports ``candidate.consumed: true`` for it.
    """

    caller: ReviewOutcome | None = None
    recorded: ReviewOutcome | None = None
    consumed: bool = False


@frozen
class ReviewRow:
    """One row of the outcome table: id, evidence it matches, the outcome it picks from that
    evidence (None: the row does not match), and the outcome's source."""

    id: str
    evidence: str
    pick: Callable[[ReviewEvidence], ReviewOutcome | None]
    source: OutcomeSource


REVIEW_OUTCOME_ROWS: tuple[ReviewRow, ...] = (
    ReviewRow(
        "O1",
        "caller passes declined, unavailable or unknown",
        lambda e: e.caller if e.caller in _EXPLICIT_VALUES else None,
        OutcomeSource.EXPLICIT,
    ),
    ReviewRow(
        "O2",
        "declined/unavailable recorded for this exact candidate (wins over closure)",
        lambda e: e.recorded if e.recorded in _RECORDED_VALUES else None,
        OutcomeSource.DERIVED,
    ),
    ReviewRow(
        "O3",
        "native reports candidate.consumed: true for this candidate",
        lambda e: ReviewOutcome.CLOSED if e.consumed else None,
        OutcomeSource.DERIVED,
    ),
    ReviewRow(
        "O4",
        "anything else, including a bare caller closed",
        lambda e: ReviewOutcome.UNKNOWN,
        OutcomeSource.UNKNOWN,
    ),
)


@frozen
class ResolvedReview:
    """The resolved ``nativeReviewOutcome``, its ``outcome_source`` and the row id."""

    outcome: ReviewOutcome
    source: OutcomeSource
    row: str


def resolve_review_outcome(evidence: ReviewEvidence) -> ResolvedReview:
    """Apply :data:`REVIEW_OUTCOME_ROWS` in order; the first row that picks an outcome wins."""
    for row in REVIEW_OUTCOME_ROWS:
        outcome = row.pick(evidence)
        if outcome is not None:
            return ResolvedReview(outcome, row.source, row.id)
    raise AssertionError("the last review row matches everything")  # pragma: no cover
