"""Who gave a verdict, as the stakes count verifiers, and how a block names one (SPEC §5
"Decision", §6 "verdict"; seed 003 "a second" verifier).

Room: ledger (imports :mod:`gentle_hooks.policy` for a caller's identity). Pure functions
over :class:`~.records.VerdictRecord`: :mod:`.facts` judges a candidate's verdicts with
them, the reports count and name them.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.ledger.records import VerdictRecord
from gentle_hooks.policy.stakes import verifier_identity


def verdict_name(v: VerdictRecord, place: int) -> str:
    """How a block names verdict ``v``: ``verdict #N``, the id ``gentle-hook verdict show``
    takes, for a stored one; for one read from a note (no ledger id: ``id`` 0, never a
    stored one) ``the note's verdict N``, ``place`` its position among the verdicts read
    for the candidate from that note, counted from 1."""
    return f"verdict #{v.id}" if v.id > 0 else f"the note's verdict {place}"


def verifier_key(v: VerdictRecord) -> tuple[str, ...]:
    """Who gave a verdict, as the stakes count verifiers: its caller's identity
    (:func:`~gentle_hooks.policy.stakes.verifier_identity`: trimmed, case-folded) when it
    names a caller, whatever brief id (a tweaked objective, ``--check`` flags) or commands
    it ran; else its content, status and acceptance (a verdict stored twice is one), as
    for any verdict not accepted. One identity is one verifier."""
    content = ("content", v.json, v.status, str(v.accepted))
    if not v.caller or not v.accepted or not v.caller.strip():
        return content  # only accepted verdicts are a verifier's answer the stakes count
    return ("caller", verifier_identity(v.caller))


def accepted_verifiers(verdicts: Sequence[VerdictRecord]) -> int:
    """How many verifiers (:func:`verifier_key`) gave accepted verdicts: what the stakes
    count as accepted verdicts."""
    groups: dict[tuple[str, ...], bool] = {}
    for v in verdicts:
        key = verifier_key(v)
        groups[key] = groups.get(key, True) and v.accepted
    return sum(groups.values())
