"""The native assessment as plain values: the ``gentle-ai.review-assessment/v1`` envelope.

Layer: pure value types (standard library only). Both providers produce these: the built-in
classifier directly, the external ``gentle-ai`` binary through a typed pydantic decode.
:class:`gentle_hooks.report.models.ReviewAssessment` is the schema of the same envelope; a contract
test proves :meth:`NativeAssessment.to_json` validates against it. Plain values keep
pydantic (about 150 ms of import and first-model build, measured) off the hook path.
"""

from __future__ import annotations

from gentle_hooks.values.frozen import field, frozen

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from typing import Any, Final

REVIEW_ASSESSMENT_SCHEMA: Final = "gentle-ai.review-assessment/v1"

#: Marks an optional projection the native answer did not report (absent, not null).
ABSENT: Any = object()


@frozen
class NativeReason:
    """One reason behind the native tier: stable code, path (or None), detail line."""

    code: str
    path: str | None
    detail: str


@frozen
class NativeCandidate:
    """The candidate as native reports it: projection kind, base ref, consumed fact
    (None when native did not report one)."""

    kind: str
    base_ref: str | None
    consumed: bool | None = None


@frozen
class NativeAssessment:
    """The review-assessment envelope (SPEC §4).

    Attributes:
        risk: ``passive`` | ``medium`` | ``high``.
        reasons: why; changed_paths: every changed path; changed_lines: added + deleted
            lines without binary, mode-only and generated golden files.
        candidate: kind, base_ref, consumed.
        review_due / review_due_reason / next_transition: :data:`ABSENT` when not reported;
            ``next_transition`` is opaque JSON relayed unchanged.
        relayed: the external binary's envelope as decoded (:mod:`gentle_hooks.native.binary`),
            which :meth:`to_json` prints as it is; None for the built-in classifier.
    """

    risk: str
    reasons: tuple[NativeReason, ...]
    changed_paths: tuple[str, ...]
    changed_lines: int
    candidate: NativeCandidate
    review_due: Any = ABSENT
    review_due_reason: Any = ABSENT
    next_transition: Any = ABSENT
    extra: dict[str, Any] = field(default_factory=dict)
    relayed: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The envelope as a JSON-ready dict; absent projections are left out.

        A relayed external envelope is returned as decoded (a copy), never rebuilt.
        """
        if self.relayed is not None:
            return dict(self.relayed)
        cand: dict[str, Any] = {"kind": self.candidate.kind, "base_ref": self.candidate.base_ref}
        if self.candidate.consumed is not None:
            cand["consumed"] = self.candidate.consumed
        out: dict[str, Any] = {
            "schema": REVIEW_ASSESSMENT_SCHEMA,
            "risk": self.risk,
            "reasons": [{"code": r.code, "path": r.path, "detail": r.detail} for r in self.reasons],
            "changed_paths": list(self.changed_paths),
            "changed_lines": self.changed_lines,
            "candidate": cand,
        }
        for name in ("review_due", "review_due_reason", "next_transition"):
            value = getattr(self, name)
            if value is not ABSENT:
                out[name] = value
        return out
