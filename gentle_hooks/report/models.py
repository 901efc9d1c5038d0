"""The JSON boundary: pydantic models of every envelope gentle-hooks prints (SPEC §7).

Room ``report``. Imports pydantic, the policy vocabulary and plain value types only. Frozen,
``extra="forbid"``. These models are the schemas (``gentle-hook schema``) and the decoders
of untrusted input; the hot paths emit plain dicts that tests validate against them.
Field names are the seeds' spellings (``nativeRisk``, ``outcome_source``...). Optional
projections of the native answer (``reviewDue``, ``reviewDueReason``, ``nextTransition``,
``candidate.consumed``) are absent, not null, when native does not report them: dump with
``exclude_unset=True``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from gentle_hooks.native.result import REVIEW_ASSESSMENT_SCHEMA
from gentle_hooks.policy.vocabulary import (
    Effort,
    Missing,
    NativeRisk,
    OutcomeSource,
    PlanRisk,
    RddMode,
    RddSource,
    ReviewOutcome,
    Verification,
    WriterSource,
)
from gentle_hooks.report.assess_json import ASSESS_SCHEMA
from gentle_hooks.report.outbase import FrozenOut, schema_field

ReviewDueReason = Literal[
    "already_reviewed", "high_risk", "slice_budget_reached", "under_budget", "passive"
]
#: A JSON count: a non-negative integer a JSON number carries exactly.
Count = Annotated[int, Field(ge=0, le=2**53 - 1)]
NonEmpty = Annotated[str, Field(min_length=1)]


class AssessmentReason(FrozenOut):
    """One reason behind a native tier: a stable code, and the path and a detail line when
    there are (upstream leaves them out rather than empty)."""

    code: NonEmpty
    path: NonEmpty | SkipJsonSchema[None] = None
    detail: NonEmpty | SkipJsonSchema[None] = None


class AssessmentCandidate(FrozenOut):
    """The candidate as native reports it: ``current-changes`` or ``base-diff``, the base
    ref of a base comparison, and whether its review was acknowledged (``consumed``)."""

    kind: Literal["current-changes", "base-diff"]
    base_ref: NonEmpty | SkipJsonSchema[None] = None
    consumed: bool | SkipJsonSchema[None] = None


class TransitionArgument(BaseModel):
    """One argument of a native continuation: name, value and, when argv, its token (no
    other key, as upstream's host decoder checks it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: NonEmpty
    value: str
    token: NonEmpty | SkipJsonSchema[None] = None


class NextTransition(BaseModel):
    """The native preflight continuation (``next_transition``): opaque, relayed unchanged;
    only its shape is checked, as upstream's host decoder checks it: operation
    ``review.status``, command, arguments, and no other key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    operation: Literal["review.status"]
    command: NonEmpty
    arguments: tuple[TransitionArgument, ...]


class ReviewAssessment(FrozenOut):
    """The ``gentle-ai.review-assessment/v1`` envelope (SPEC §4), upstream's shape field for
    field (``docs/review-integration.md`` of gentle-ai).

    Attributes:
        risk: passive | medium | high.
        reasons: why, upstream's canonical list (one per code and signal).
        changed_paths: how many paths changed.
        changed_lines: added + deleted lines, excluding binary, mode-only and generated
            golden files.
        candidate: kind, base_ref, consumed.
        review_due / review_due_reason / next_transition: present when known (an older
            binary leaves them out; the built-in provider never invents a continuation).
    """

    schema_: Literal["gentle-ai.review-assessment/v1"] = schema_field(REVIEW_ASSESSMENT_SCHEMA)
    risk: Literal["passive", "medium", "high"]
    reasons: tuple[AssessmentReason, ...]
    changed_paths: Count
    changed_lines: Count
    candidate: AssessmentCandidate
    review_due: bool | SkipJsonSchema[None] = None
    review_due_reason: ReviewDueReason | SkipJsonSchema[None] = None
    next_transition: NextTransition | SkipJsonSchema[None] = None


class CandidateOut(FrozenOut):
    """``candidate``: identity, projection and how the base was found."""

    identity: str
    projection: Literal["committed", "staged", "snapshot"]
    base_ref: str | None
    base_source: str
    base_commit: str | None
    base_tree: str
    tree: str
    head: str | None
    object_format: Literal["sha1", "sha256"]
    note: str
    consumed: bool | None = None


class PathChangeOut(FrozenOut):
    """Per-path diff stats (SPEC §3 "Diff stats"), equal to ``git diff --numstat``.

    ``additions``/``deletions`` are null for binary files.
    """

    path: str
    old_path: str | None
    status: Literal["A", "C", "D", "M", "R", "T", "U", "X"]
    old_mode: str
    new_mode: str
    additions: int | None
    deletions: int | None
    binary: bool
    mode_only: bool
    submodule: bool


class WriterOut(FrozenOut):
    """One writer profile: model id, effort and whether it is small."""

    model: str | None
    effort: Effort | None
    small: bool


class WriterProfileOut(FrozenOut):
    """``writerProfile``: the profiles behind the candidate and whether any is small."""

    small: bool
    profiles: tuple[WriterOut, ...]


class RddOut(FrozenOut):
    """``rdd``: mode, deciding source and the rendered line."""

    mode: RddMode
    source: RddSource
    line: str


class EscalationOut(FrozenOut):
    """One escalation: item number, slug and the one-line reason."""

    item: int = Field(ge=1, le=6)
    slug: str
    reason: str


class VerificationOut(FrozenOut):
    """``verification``: what the tier requires and the rows that produced the plan."""

    required: tuple[Verification, ...]
    verifiers: int = Field(ge=0)
    spot_check_required: bool
    text: str
    rows: tuple[str, ...]


class StepOut(FrozenOut):
    """One labelled line of a fix (:data:`gentle_hooks.report.fixes.LABELS`): ``run`` a
    command that runs as printed, ``prefix`` the start of the writer's report (its test
    command goes after it), ``write`` the file to write before the ``run`` lines after it
    (the verifier's brief), ``do``/``where`` words."""

    label: str
    text: str


class DecisionOut(FrozenOut):
    """``decision``: blocked, missing, one reason per missing item, the fix commands.

    ``fixes``: per missing item, the command that supplies it (the last ``run`` of its
    first way); ``fix_steps``: per missing item, that whole way in order, the writer's
    report (``prefix``/``run``) and the brief's file (``write``) included.
    """

    applies: bool
    blocked: bool
    spot_check_satisfied: bool
    verifier_satisfied: bool
    missing: tuple[Missing, ...]
    reasons: tuple[str, ...]
    fixes: tuple[str, ...]
    fix_steps: tuple[tuple[StepOut, ...], ...]


class NativeOut(FrozenOut):
    """The native assessment: the provider, its envelope, or why there is none; ``note``
    (only when there is one) says why the envelope is not the provider's whole answer: a
    ``passive`` answer not taken, or a failed escalated call."""

    provider: str
    assessment: ReviewAssessment | None = None
    error: str | None = None
    note: str | None = None


class AssessEnvelope(FrozenOut):
    """``gentle-hook assess --json`` (SPEC §7). Validate with ``gentle-hook schema assess``."""

    schema_: Literal["gentle-hooks.assess/v1"] = schema_field(ASSESS_SCHEMA)
    risk: PlanRisk
    nativeRisk: NativeRisk
    nativeReviewOutcome: ReviewOutcome
    outcome_source: OutcomeSource
    writerProfile: WriterProfileOut
    writerProfileSource: WriterSource
    candidate: CandidateOut
    rdd: RddOut
    escalations: tuple[EscalationOut, ...]
    verification: VerificationOut
    decision: DecisionOut
    native: NativeOut
    changes: tuple[PathChangeOut, ...]
    reviewDue: bool | SkipJsonSchema[None] = None
    reviewDueReason: ReviewDueReason | SkipJsonSchema[None] = None
    nextTransition: NextTransition | SkipJsonSchema[None] = None
