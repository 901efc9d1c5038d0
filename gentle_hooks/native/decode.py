"""The typed decode of ``gentle-ai review assess --json`` (SPEC §4 ``gentle-ai``).

Layer: native (pydantic). Imported by :mod:`gentle_hooks.native.binary` only once the binary has
answered with exit 0, so neither the built-in provider nor ``auto`` without the binary
ever imports pydantic.

The model follows the real binary's ``gentle-ai.review-assessment/v1`` envelope:
``changed_paths`` is a count (SPEC §4's list of paths also decodes), a reason's ``path``
and ``detail`` are optional, ``candidate.consumed``, ``review_due``,
``review_due_reason`` and ``next_transition`` are optional and, when present, relayed
verbatim (:func:`to_native`). Unknown fields are ignored and never projected.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from gentle_hooks.native.message import one_line
from gentle_hooks.native.result import (
    ABSENT,
    REVIEW_ASSESSMENT_SCHEMA,
    NativeAssessment,
    NativeCandidate,
    NativeReason,
)

#: review_due_reason values that mean a review is due (seed 000; the upstream schema).
DUE_REASONS = frozenset({"high_risk", "slice_budget_reached"})

DueReason = Literal[
    "already_reviewed", "high_risk", "slice_budget_reached", "under_budget", "passive"
]


class _Decoded(BaseModel):
    # Unknown fields are ignored, not refused, and never projected: a newer binary may add
    # fields to the v1 envelope (the upstream host decoder does the same).
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)


class GentleAiReason(_Decoded):
    """One reason: ``code`` required; ``path`` and ``detail`` optional (the binary omits
    them when empty)."""

    code: StrictStr = Field(min_length=1)
    path: StrictStr | None = None
    detail: StrictStr | None = None


class GentleAiCandidate(_Decoded):
    """The candidate the binary assessed: ``kind`` (``base-diff`` / ``current-changes``),
    ``base_ref`` for a base comparison, ``consumed`` when the binary reports it."""

    kind: StrictStr = Field(min_length=1)
    base_ref: StrictStr | None = None
    consumed: StrictBool | None = None

    @model_validator(mode="before")
    @classmethod
    def _consumed_is_not_null(cls, data: Any) -> Any:
        if isinstance(data, dict) and "consumed" in data and data["consumed"] is None:
            raise ValueError("candidate.consumed is null")
        return data


class GentleAiAssessment(_Decoded):
    """The ``gentle-ai.review-assessment/v1`` envelope as the binary prints it.

    ``changed_paths`` is a count in the real binary (a list of paths in SPEC §4's builtin
    shape; both decode). ``review_due``/``review_due_reason`` come together or not at all,
    agree with each other (due exactly for ``high_risk`` and ``slice_budget_reached``),
    ``already_reviewed`` is reported exactly when ``candidate.consumed`` is true, and
    ``next_transition`` (opaque, any JSON object) only with ``review_due: true``: a
    contradictory envelope cannot be trusted as closure evidence, so it does not decode.
    Optional projections present as ``null`` do not decode either.
    """

    schema_: Literal["gentle-ai.review-assessment/v1"] = Field(alias="schema")
    risk: Literal["passive", "medium", "high"]
    reasons: tuple[GentleAiReason, ...]
    changed_paths: Annotated[StrictInt, Field(ge=0)] | tuple[StrictStr, ...]
    changed_lines: Annotated[StrictInt, Field(ge=0)]
    candidate: GentleAiCandidate
    review_due: StrictBool | None = None
    review_due_reason: DueReason | None = None
    next_transition: dict[str, JsonValue] | None = None

    @model_validator(mode="before")
    @classmethod
    def _projections_are_not_null(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in ("review_due", "review_due_reason", "next_transition"):
                if key in data and data[key] is None:
                    raise ValueError(f"{key} is null")
        return data

    @model_validator(mode="after")
    def _consistent(self) -> GentleAiAssessment:
        has_due = "review_due" in self.model_fields_set
        has_reason = "review_due_reason" in self.model_fields_set
        if has_due != has_reason:
            raise ValueError("review_due and review_due_reason must come together")
        if has_reason:
            due = self.review_due_reason in DUE_REASONS
            if self.review_due is not due:
                raise ValueError(
                    f"review_due {self.review_due} contradicts review_due_reason "
                    f"{self.review_due_reason}"
                )
            if (self.review_due_reason == "already_reviewed") != (self.candidate.consumed is True):
                raise ValueError(
                    "review_due_reason already_reviewed is reported exactly when "
                    "candidate.consumed is true"
                )
        if "next_transition" in self.model_fields_set and self.review_due is not True:
            raise ValueError("next_transition comes only with review_due: true")
        return self


class DecodeError(Exception):
    """The binary's output is not a usable envelope; the message says why, in one line."""


def to_native(m: GentleAiAssessment) -> NativeAssessment:
    """The plain-value envelope of a decoded answer.

    Optional projections the binary did not report stay :data:`ABSENT`; ``relayed`` holds
    the decoded envelope (unknown fields dropped, everything else as printed, key order of
    ``next_transition`` kept) for the ``native.assessment`` output.
    """
    fields = m.model_fields_set
    paths = m.changed_paths if isinstance(m.changed_paths, tuple) else ()
    return NativeAssessment(
        risk=m.risk,
        reasons=tuple(NativeReason(r.code, r.path, r.detail or "") for r in m.reasons),
        changed_paths=paths,
        changed_lines=m.changed_lines,
        candidate=NativeCandidate(
            kind=m.candidate.kind,
            base_ref=m.candidate.base_ref,
            consumed=m.candidate.consumed,
        ),
        review_due=m.review_due if "review_due" in fields else ABSENT,
        review_due_reason=m.review_due_reason if "review_due_reason" in fields else ABSENT,
        next_transition=m.next_transition if "next_transition" in fields else ABSENT,
        relayed=m.model_dump(mode="json", by_alias=True, exclude_unset=True),
    )


def decode_assessment(stdout: bytes) -> NativeAssessment:
    """Decode the binary's ``--json`` output with the typed model.

    Raises:
        DecodeError: empty, not UTF-8, not one JSON object, another schema, or a shape or
            combination the model refuses; the message names the first problem.
    """
    if not stdout.strip():
        raise DecodeError("printed nothing on stdout")
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise DecodeError("printed output that is not UTF-8") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DecodeError(
            f"printed undecodable output ({exc.msg}): {one_line(text, 200)}"
        ) from None
    if not isinstance(data, dict):
        raise DecodeError(f"printed JSON that is not an object: {one_line(text, 200)}")
    if data.get("schema") != REVIEW_ASSESSMENT_SCHEMA:
        raise DecodeError(
            f"printed schema {data.get('schema')!r}, expected {REVIEW_ASSESSMENT_SCHEMA!r}"
        )
    try:
        return to_native(GentleAiAssessment.model_validate(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "envelope"
        raise DecodeError(
            f"printed an envelope the typed model refuses: {where}: {err['msg']}"
        ) from None
