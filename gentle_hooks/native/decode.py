"""The typed decode of ``gentle-ai review assess --json`` (SPEC §4 ``gentle-ai``).

Room ``native`` (pydantic). Imported by :mod:`gentle_hooks.native.binary` only once the
binary has answered with exit 0, so neither the built-in provider nor ``auto`` without the
binary ever imports pydantic.

The model refuses what upstream's host decoder refuses (gentle-pi / gentle-shell
``lib/review-risk-assessment.ts``, ``decodeReviewAssessmentV1``; rows ported in
``tests/unit/test_upstream_decoder_rows.py``): another schema or risk word; ``reasons`` not
an array; a reason without a non-empty ``code``, or with a ``path`` or ``detail`` that is
present but empty or not a string; ``changed_paths``/``changed_lines`` that are not
non-negative safe integers (a count: a list of paths is refused); a ``candidate.kind``
other than ``current-changes``/``base-diff``; a ``base_ref`` present but empty. The
additive fields of later binaries are optional and, when present, must be well formed:
``candidate.consumed`` a boolean, ``review_due`` a boolean with its ``review_due_reason``,
``next_transition`` an object with ``operation``, ``command`` and ``arguments``
(:func:`check_next_transition`), relayed unchanged. On top, an envelope that contradicts
itself is refused (it could not be trusted as closure evidence): ``review_due`` must agree
with its reason, ``candidate.consumed: true`` needs ``already_reviewed`` and
``already_reviewed`` needs ``candidate.consumed`` reported (``false`` is accepted: an
acknowledged predecessor followed by a passive delta), and ``next_transition`` comes only
with ``review_due: true``. The rules are santiago-ramos-02/gentle-shell's
``lib/review-risk-assessment.ts`` at 2a49a2a12e1494cc23b2a7314ced3df2f7ece082. Unknown
fields are ignored and never projected (:func:`to_native`).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from gentle_hooks.native.message import relay
from gentle_hooks.native.result import (
    ABSENT,
    REVIEW_ASSESSMENT_SCHEMA,
    NativeAssessment,
    NativeCandidate,
    NativeReason,
)

#: review_due_reason values that mean a review is due (seed 000; the upstream docs).
DUE_REASONS = frozenset({"high_risk", "slice_budget_reached"})
#: The largest integer a JSON number carries exactly (JavaScript's ``Number.isSafeInteger``).
MAX_SAFE_INTEGER = 2**53 - 1

DueReason = Literal[
    "already_reviewed", "high_risk", "slice_budget_reached", "under_budget", "passive"
]


def _safe_count(value: Any) -> Any:
    """A non-negative safe integer, as upstream's decoder accepts it (``2.0`` is ``2``; a
    boolean, a fraction or a number beyond 2**53 - 1 is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a non-negative integer")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("must be a non-negative integer")
        value = int(value)
    if not 0 <= value <= MAX_SAFE_INTEGER:
        raise ValueError("must be a non-negative safe integer")
    return value


Count = Annotated[int, BeforeValidator(_safe_count)]
NonEmpty = Annotated[StrictStr, Field(min_length=1)]


class _Decoded(BaseModel):
    # Unknown fields are ignored, not refused, and never projected: a newer binary may add
    # fields to the v1 envelope (upstream's host decoder does the same).
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)
    #: What to call this object in a message, and its optional fields that may be absent
    #: but never null.
    NEVER_NULL: ClassVar[tuple[str, tuple[str, ...]]] = ("", ())

    @model_validator(mode="before")
    @classmethod
    def _not_null(cls, data: Any) -> Any:
        what, keys = cls.NEVER_NULL
        if isinstance(data, dict):
            for key in keys:
                if key in data and data[key] is None:
                    raise ValueError(f"{what}.{key} is null")
        return data


class GentleAiReason(_Decoded):
    """One reason: ``code`` required; ``path`` and ``detail`` optional, never empty (the
    binary leaves them out when it has none)."""

    NEVER_NULL = ("reason", ("path", "detail"))

    code: NonEmpty
    path: NonEmpty | None = None
    detail: NonEmpty | None = None


class GentleAiCandidate(_Decoded):
    """The candidate the binary assessed: ``kind`` (``current-changes`` / ``base-diff``),
    ``base_ref`` (never empty) for a base comparison, ``consumed`` when reported."""

    NEVER_NULL = ("candidate", ("base_ref", "consumed"))

    kind: Literal["current-changes", "base-diff"]
    base_ref: NonEmpty | None = None
    consumed: StrictBool | None = None


#: The one operation a ``next_transition`` may name (upstream's
#: ``REVIEW_ASSESSMENT_NEXT_TRANSITION_OPERATION``).
NEXT_TRANSITION_OPERATION = "review.status"
_TRANSITION_KEYS = frozenset({"operation", "command", "arguments"})
_ARGUMENT_KEYS = frozenset({"name", "value", "token"})


def check_next_transition(value: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """A ``next_transition`` exactly as upstream's host decoder accepts it
    (``decodeNextTransition``): an object with only ``operation``, ``command`` and
    ``arguments``; ``operation`` is ``review.status``; ``command`` a non-empty string;
    ``arguments`` a list of objects with only ``name`` (non-empty string), ``value``
    (string) and, when present, ``token`` (non-empty string). Returned unchanged (the
    continuation is opaque).

    Raises:
        ValueError: the first malformed part.
    """
    extra = sorted(set(value) - _TRANSITION_KEYS)
    if extra:
        raise ValueError(
            f"next_transition must hold only operation, command and arguments (not {extra[0]})"
        )
    if value.get("operation") != NEXT_TRANSITION_OPERATION:
        raise ValueError(f"next_transition.operation must be {NEXT_TRANSITION_OPERATION}")
    if not isinstance(value.get("command"), str) or not value["command"]:
        raise ValueError("next_transition.command must be a non-empty string")
    arguments = value.get("arguments")
    if not isinstance(arguments, list):
        raise ValueError("next_transition.arguments must be an array")
    for i, arg in enumerate(arguments):
        if not isinstance(arg, dict):
            raise ValueError(f"next_transition.arguments.{i} must be an object")
        extra = sorted(set(arg) - _ARGUMENT_KEYS)
        if extra:
            raise ValueError(
                f"next_transition.arguments.{i} must hold only name, value and token "
                f"(not {extra[0]})"
            )
        if not isinstance(arg.get("name"), str) or not arg["name"]:
            raise ValueError(f"next_transition.arguments.{i}.name must be a non-empty string")
        if not isinstance(arg.get("value"), str):
            raise ValueError(f"next_transition.arguments.{i}.value must be a string")
        if "token" in arg and (not isinstance(arg["token"], str) or not arg["token"]):
            raise ValueError(
                f"next_transition.arguments.{i}.token must be a non-empty string when present"
            )
    return value


class GentleAiAssessment(_Decoded):
    """The ``gentle-ai.review-assessment/v1`` envelope as the binary prints it (module
    docstring: what is refused)."""

    schema_: Literal["gentle-ai.review-assessment/v1"] = Field(alias="schema")
    risk: Literal["passive", "medium", "high"]
    reasons: list[GentleAiReason]
    changed_paths: Count
    changed_lines: Count
    candidate: GentleAiCandidate
    review_due: StrictBool | None = None
    review_due_reason: DueReason | None = None
    next_transition: dict[str, JsonValue] | None = None

    @field_validator("next_transition")
    @classmethod
    def _transition(cls, value: dict[str, JsonValue] | None) -> dict[str, JsonValue] | None:
        return value if value is None else check_next_transition(value)

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
            already = self.review_due_reason == "already_reviewed"
            if self.candidate.consumed is True and not already:
                raise ValueError(
                    "candidate.consumed true requires review_due_reason already_reviewed"
                )
            # already_reviewed may also describe an acknowledged predecessor followed by a
            # passive delta: it needs the consumed fact reported, true or false
            if already and self.candidate.consumed is None:
                raise ValueError(
                    "review_due_reason already_reviewed requires an explicit candidate.consumed"
                )
        if "next_transition" in self.model_fields_set and self.review_due is not True:
            raise ValueError("next_transition comes only with review_due: true")
        return self


class DecodeError(Exception):
    """The binary's output is not a usable envelope; the message says why, in one line."""


def tier_from_reasons(reasons: list[GentleAiReason]) -> str:
    """The tier public reasons explain (upstream ``riskLevelFromReasons``): ``high`` when a
    reason names a signal, ``passive`` for ``non_executable_only`` alone, else ``medium``."""
    if any(r.detail and "signal: " in r.detail for r in reasons):
        return "high"
    if [r.code for r in reasons] == ["non_executable_only"]:
        return "passive"
    return "medium"


def to_native(m: GentleAiAssessment) -> NativeAssessment:
    """The plain-value envelope of a decoded answer.

    Optional projections the binary did not report stay :data:`ABSENT`; ``relayed`` holds
    the decoded envelope (unknown fields dropped, everything else as printed, key order of
    ``next_transition`` kept) for the ``native.assessment`` output. An ``agent_escalation``
    reason means the binary raised ``risk`` for the escalation it was passed; the tier before
    it is what the other reasons explain (``unescalated``).
    """
    fields = m.model_fields_set
    own = [r for r in m.reasons if r.code != "agent_escalation"]
    unescalated = tier_from_reasons(own) if len(own) < len(m.reasons) else None
    return NativeAssessment(
        risk=m.risk,
        reasons=tuple(NativeReason(r.code, r.path, r.detail) for r in m.reasons),
        changed_paths=m.changed_paths,
        changed_lines=m.changed_lines,
        candidate=NativeCandidate(
            kind=m.candidate.kind,
            base_ref=m.candidate.base_ref,
            consumed=m.candidate.consumed,
        ),
        review_due=m.review_due if "review_due" in fields else ABSENT,
        review_due_reason=m.review_due_reason if "review_due_reason" in fields else ABSENT,
        next_transition=m.next_transition if "next_transition" in fields else ABSENT,
        unescalated=unescalated,
        relayed=m.model_dump(mode="json", by_alias=True, exclude_unset=True),
    )


def decode_assessment(stdout: bytes) -> NativeAssessment:
    """Decode the binary's ``--json`` output with the typed model.

    Raises:
        DecodeError: empty, not UTF-8, not one JSON object, another schema, or a shape or
            combination the model refuses; the message names the first problem (what the
            binary printed is quoted redacted).
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
        raise DecodeError(f"printed undecodable output ({exc.msg}): {relay(text, 200)}") from None
    except RecursionError:  # the parser recurses per level: deep nesting is no envelope
        raise DecodeError(f"printed JSON nested too deeply: {relay(text, 200)}") from None
    except ValueError:  # a number longer than Python converts (4300 digits)
        raise DecodeError(
            "printed undecodable output (a number longer than "
            f"{sys.get_int_max_str_digits()} digits): {relay(text, 200)}"
        ) from None
    if not isinstance(data, dict):
        raise DecodeError(f"printed JSON that is not an object: {relay(text, 200)}")
    if data.get("schema") != REVIEW_ASSESSMENT_SCHEMA:
        schema = data.get("schema")
        shown = repr(relay(schema, 80)) if isinstance(schema, str) else repr(schema)
        raise DecodeError(f"printed schema {shown}, expected {REVIEW_ASSESSMENT_SCHEMA!r}")
    try:
        return to_native(GentleAiAssessment.model_validate(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "envelope"
        raise DecodeError(
            f"printed an envelope the typed model refuses: {where}: {relay(err['msg'], 200)}"
        ) from None
