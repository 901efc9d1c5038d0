"""The native assessment as plain values: the ``gentle-ai.review-assessment/v1`` envelope.

Room ``native``, pure value types (standard library only). Both providers produce these:
the built-in classifier directly, the external ``gentle-ai`` binary through a typed
pydantic decode. The shape is upstream gentle-ai's, field for field (``internal/cli/
review_assess.go``; its docs, ``docs/review-integration.md``): ``changed_paths`` is a
count, ``candidate.kind`` is ``current-changes`` or ``base-diff``, a reason's ``path`` and
``detail`` are left out when empty. :class:`gentle_hooks.report.models.ReviewAssessment` is
the schema of the same envelope; contract tests prove :meth:`NativeAssessment.to_json` and
:func:`failure_envelope` validate against it. Plain values, so the hook path imports no
pydantic (SPEC §2 "Start-up is part of the product").
"""

from __future__ import annotations

from gentle_hooks.values.frozen import frozen

TYPE_CHECKING = False  # importing typing costs ~10 ms; the gates load this module
if TYPE_CHECKING:
    from typing import Any, Final

    from gentle_hooks.values.json import JsonObject

REVIEW_ASSESSMENT_SCHEMA: Final = "gentle-ai.review-assessment/v1"

#: Upstream's candidate kinds: the uncommitted changes, or a comparison with a named base.
CURRENT_CHANGES, BASE_DIFF = "current-changes", "base-diff"


#: Marks an optional projection the native answer did not report (absent, not null).
ABSENT: Any = object()


@frozen
class NativeReason:
    """One reason behind the native tier: stable code, path and detail (None: absent)."""

    code: str
    path: str | None
    detail: str | None


@frozen
class NativeCandidate:
    """The candidate as native reports it: kind, base ref, consumed fact (None when an
    older binary did not report one)."""

    kind: str
    base_ref: str | None
    consumed: bool | None = None


def candidate_kind(projection: str, base_source: str, base_ref: str | None) -> NativeCandidate:
    """The candidate as upstream's envelope names it (``review assess``: ``base-diff`` with
    the base ref echoed exactly when ``--base-ref`` named one, else ``current-changes``
    with no ``base_ref``).

    Ours is ``base-diff`` when the base was named (``--base-ref``: ``base_source`` is
    ``flag``) or the candidate is HEAD's tree against a base (``committed``, upstream's
    ``--base-ref --committed-only``), and a base ref resolved; ``base_ref`` is that ref,
    whitespace trimmed as upstream trims it. Everything else is ``current-changes``.
    So ``base-diff`` comes exactly with a non-empty ``base_ref``, as upstream prints it.
    """
    ref = (base_ref or "").strip()
    if ref and (base_source == "flag" or projection == "committed"):
        return NativeCandidate(BASE_DIFF, ref)
    return NativeCandidate(CURRENT_CHANGES, None)


@frozen
class NativeAssessment:
    """The review-assessment envelope (SPEC §4).

    Attributes:
        risk: ``passive`` | ``medium`` | ``high`` (``high`` once escalated).
        reasons: why; changed_paths: how many paths changed; changed_lines: added +
            deleted lines without binary, mode-only and generated golden files.
        candidate: kind, base_ref, consumed.
        review_due / review_due_reason / next_transition: :data:`ABSENT` when not reported;
            ``next_transition`` is opaque JSON relayed unchanged.
        unescalated: the tier before an agent escalation raised ``risk``, or None when
            nothing did (see :attr:`native_risk`).
        relayed: the external binary's envelope as decoded (:mod:`gentle_hooks.native.binary`),
            which :meth:`to_json` prints as it is; None for the built-in classifier.
    """

    risk: str
    reasons: tuple[NativeReason, ...]
    changed_paths: int
    changed_lines: int
    candidate: NativeCandidate
    review_due: Any = ABSENT
    review_due_reason: Any = ABSENT
    next_transition: Any = ABSENT
    unescalated: str | None = None
    relayed: JsonObject | None = None

    @property
    def native_risk(self) -> str:
        """The native tier before any agent escalation (what ``nativeRisk`` reports)."""
        return self.unescalated or self.risk

    def to_json(self) -> JsonObject:
        """The envelope as a JSON-ready dict in upstream's field order; absent projections
        and empty reason fields are left out.

        A relayed external envelope is returned as decoded (a copy), never rebuilt.
        """
        if self.relayed is not None:
            return dict(self.relayed)
        cand: JsonObject = {"kind": self.candidate.kind}
        if self.candidate.base_ref:
            cand["base_ref"] = self.candidate.base_ref
        if self.candidate.consumed is not None:
            cand["consumed"] = self.candidate.consumed
        out: JsonObject = {
            "schema": REVIEW_ASSESSMENT_SCHEMA,
            "risk": self.risk,
            "reasons": [reason_json(r.code, r.path, r.detail) for r in self.reasons],
            "changed_paths": self.changed_paths,
            "changed_lines": self.changed_lines,
            "candidate": cand,
        }
        for name in ("review_due", "review_due_reason", "next_transition"):
            value = getattr(self, name)
            if value is not ABSENT:
                out[name] = value
        return out


def reason_json(code: str, path: str | None, detail: str | None) -> JsonObject:
    """One reason as upstream prints it: ``path`` and ``detail`` only when not empty."""
    out: JsonObject = {"code": code}
    if path:
        out["path"] = path
    if detail:
        out["detail"] = detail
    return out


def failure_envelope(kind: str, base_ref: str | None, detail: str) -> JsonObject:
    """Upstream's fail-closed envelope (``RunReviewAssess``'s ``failClosed``): what
    ``assess --json`` prints on stdout when it cannot assess, before exiting non-zero.

    Args:
        kind: ``current-changes``, or ``base-diff`` when a base comparison was asked for.
        base_ref: the base ref asked for, or None.
        detail: why, one line (already redacted).

    Returns:
        ``risk: high``, one ``unassessable`` reason, no paths or lines, the candidate not
        consumed, ``review_due: true`` with ``high_risk``.
    """
    cand: JsonObject = {"kind": kind}
    if base_ref:
        cand["base_ref"] = base_ref
    cand["consumed"] = False
    return {
        "schema": REVIEW_ASSESSMENT_SCHEMA,
        "risk": "high",
        "reasons": [reason_json("unassessable", None, detail)],
        "changed_paths": 0,
        "changed_lines": 0,
        "candidate": cand,
        "review_due": True,
        "review_due_reason": "high_risk",
    }
