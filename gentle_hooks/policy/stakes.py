"""Stakes: how many verifier verdicts a decision needs (SPEC §9; seed 003 "How many verifiers").

Room ``policy`` (pure). Standard library and :mod:`gentle_hooks.errors` only, so the plan can
size the high tier from config ``stakes`` without importing pydantic. Re-exported by
:mod:`gentle_hooks.quorum`.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from gentle_hooks.errors import PolicyInputError
from gentle_hooks.values.frozen import frozen


class Stakes(str, Enum):
    """How much rides on a decision (seed 003 "How many verifiers").

    The gate's config ``stakes`` takes the first three; ``lens-diverse`` sizes a finding's
    quorum only (a DelegationVerdict names no lens).
    """

    ORDINARY = "ordinary"
    SHIPPING = "shipping"
    AUDIT = "audit"
    LENS_DIVERSE = "lens-diverse"


@frozen
class StakesRow:
    """One row of the seed's verifier-count table: id, stakes, count, count when critical,
    and whether each verifier must hold a different lens."""

    id: str
    stakes: Stakes
    verifiers: int
    verifiers_critical: int
    text: str
    distinct_lenses: bool = False


#: Seed 003 "How many verifiers", one row per stakes level.
STAKES_ROWS: tuple[StakesRow, ...] = (
    StakesRow("S-ordinary", Stakes.ORDINARY, 1, 1, "Ordinary review: 1"),
    StakesRow(
        "S-shipping", Stakes.SHIPPING, 1, 2, "Shipping to others: 1, plus a second on critical"
    ),
    StakesRow("S-audit", Stakes.AUDIT, 3, 3, "Audit, irreversible decision: 3, majority ruling"),
    StakesRow(
        "S-lens-diverse",
        Stakes.LENS_DIVERSE,
        3,
        3,
        "Where failure modes differ in kind: 3, each with a different lens",
        distinct_lenses=True,
    ),
)


def parse_stakes(value: str | Stakes) -> Stakes:
    """Resolve a stakes name (``ordinary``, ``shipping``, ``audit``; any case).

    Raises:
        PolicyInputError: anything else, listing the three (exit 2).
    """
    try:
        return Stakes(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        names = ", ".join(s.value for s in Stakes)
        raise PolicyInputError(f"unknown stakes {value!r}: one of {names}") from None


def stakes_row(stakes: str | Stakes) -> StakesRow:
    """The :data:`STAKES_ROWS` row of ``stakes``.

    Raises:
        PolicyInputError: unknown stakes.
    """
    level = parse_stakes(stakes)
    return next(r for r in STAKES_ROWS if r.stakes is level)


def verifiers_required(stakes: str | Stakes, critical: bool = False) -> int:
    """How many accepted verifier verdicts the stakes need (SPEC §9; seed 003).

    Args:
        stakes: ordinary, shipping or audit.
        critical: the change or finding is marked critical.

    Returns:
        ordinary 1; shipping 1, or 2 when critical; audit 3; lens-diverse 3 (each with a
        different lens, :attr:`StakesRow.distinct_lenses`).

    Raises:
        PolicyInputError: unknown stakes.
    """
    row = stakes_row(stakes)
    return row.verifiers_critical if critical else row.verifiers


def stakes_satisfied(stakes: str | Stakes, critical: bool, verdict_statuses: Iterable[str]) -> bool:
    """Whether the verdicts recorded for one candidate meet the stakes (SPEC §9; seed 003).

    Every recorded verdict counts; only a ``"pass"`` counts for. Satisfied when at least
    :func:`verifiers_required` verdicts were recorded *and* passes are a strict majority of
    them. So a tie is never a pass (``pass, fail`` fails at any stakes), audit needs three
    verdicts with a majority of pass, and shipping-critical needs two with no dissent (or a
    majority of a larger count). Counting every verdict, not only passes, is what stops a
    caller re-running verifiers until one says pass.

    Args:
        stakes: ordinary, shipping or audit.
        critical: the change is marked critical.
        verdict_statuses: one status per recorded verifier verdict. Pass ``"pass"`` only for
            a verdict :func:`gentle_hooks.artifacts.verdict.verdict_acceptance` accepted; any other
            value (``fail``, ``blocked``, a rejected pass given as ``"rejected"``) counts
            against.

    Raises:
        PolicyInputError: unknown stakes.
    """
    statuses = list(verdict_statuses)
    passes = sum(1 for s in statuses if s == "pass")
    return len(statuses) >= verifiers_required(stakes, critical) and 2 * passes > len(statuses)


def verifier_identity(name: str) -> str:
    """Who a verifier is, as verifiers are counted (seed 003 "How many verifiers": a second
    verifier is another one; seed 001: no same-role reviewers): its name with whitespace
    trimmed and collapsed, case-folded, so ``"Alice <a@x>"`` and ``" alice  <A@X> "`` are
    one verifier. One identity is one vote, whatever brief, objective or flags it ran."""
    return " ".join(name.split()).casefold()
