"""The built-in classifier called on a diff in one step, for tests: fold the changes, then
classify the fold, as :mod:`gentle_hooks.native.builtin` does for a candidate."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.classifier import (
    PASSIVE_PROOF_LIMIT,
    assessment,
    fold_changes,
    proof_within,
)
from gentle_hooks.native.result import NativeAssessment
from gentle_hooks.values.candidate import PathChange


def classify(
    changes: Sequence[PathChange],
    blobs: Mapping[str, bytes],
    added: Iterable[AddedLine],
    s: RiskSettings,
    *,
    kind: str,
    base_ref: str | None,
    consumed: bool = False,
    escalation: tuple[int, str, str] | None = None,
    proof_limit: int = PASSIVE_PROOF_LIMIT,
) -> NativeAssessment:
    """:func:`~gentle_hooks.native.classifier.assessment` of ``changes`` folded with the
    documents' ``blobs``, at most ``proof_limit`` bytes of them read."""
    folded = fold_changes(changes, blobs, s, proof_within(blobs, proof_limit))
    return assessment(
        folded, added, s, kind=kind, base_ref=base_ref, consumed=consumed, escalation=escalation
    )
