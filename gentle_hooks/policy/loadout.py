"""The review tool loadout a harness declares to the parent agent (SPEC §9; seed 000, first
paragraph): full, or lean while the session's pinned RDD line reads ``off``.

Room ``policy``, data (standard library and the policy vocabulary only). :func:`build_tools` returns
plain values; :mod:`gentle_hooks.report.rdd_models` is their JSON schema (``gentle-hook schema
rdd-loadout``).

Lean differs from full in exactly two ways, and nothing else:

* ``gentle_review`` keeps its name and its parameter schema (every operation stays
  callable), but its description, snippet and guidelines cover only ``assess``;
* ``gentle_review_capture``, ``gentle_review_capture_group`` and ``gentle_review_scope`` are
  ``hidden``: the harness leaves their declarations out of the request, while they stay
  ``registered`` and ``active`` (a continuation that names one still runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gentle_hooks.policy.rddline import Loadout
from gentle_hooks.values.frozen import frozen, replace

if TYPE_CHECKING:
    from gentle_hooks.values.json import Json

REVIEW_TOOL = "gentle_review"
CAPTURE_TOOL = "gentle_review_capture"
CAPTURE_GROUP_TOOL = "gentle_review_capture_group"
SCOPE_TOOL = "gentle_review_scope"
#: Every operation ``gentle_review`` accepts; its schema is the same in both loadouts.
REVIEW_OPERATIONS: tuple[str, ...] = ("assess", "inspect", "status", "answer-consent")


@frozen
class ToolDecl:
    """One tool declaration of the loadout.

    Attributes:
        name: the tool name; registered / active: always True (lean hides, never removes).
        hidden: True when the harness leaves the declaration out of the request.
        operations: the operations the text describes (``gentle_review`` only).
        description / snippet / guidelines: the declared text.
        parameters: the JSON Schema of the tool's input (kept in both loadouts).
    """

    name: str
    hidden: bool
    operations: tuple[str, ...]
    description: str
    snippet: str
    guidelines: tuple[str, ...]
    parameters: dict[str, Json]
    registered: bool = True
    active: bool = True


def _closed(required: tuple[str, ...], **properties: Json) -> dict[str, Json]:
    """The JSON Schema of an object with exactly ``properties``, ``required`` among them."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(required),
        "properties": properties,
    }


def _text(**more: Json) -> dict[str, Json]:
    """The JSON Schema of a non-empty string (``more``: further keywords)."""
    return {"type": "string", "minLength": 1, **more}


_REVIEW_SCHEMA = _closed(
    ("operation",),
    operation={"type": "string", "enum": list(REVIEW_OPERATIONS)},
    baseRef=_text(),
    committedOnly={"type": "boolean"},
    escalateItem={"type": "integer", "minimum": 1, "maximum": 6},
    escalateReason=_text(maxLength=500),
    reviewOutcome={"type": "string", "enum": ["declined", "unavailable", "unknown", "closed"]},
    writerModelId=_text(),
    writerEffort={
        "type": "string",
        "enum": ["off", "minimal", "low", "medium", "high", "xhigh"],
    },
    lineageId=_text(),
    workspaceRoot=_text(),
    consentBinding=_text(),
    answer=_text(),
)

_ASSESS_GUIDELINES: tuple[str, ...] = (
    "Call gentle_review with operation `assess` after a bounded writer returns, and follow "
    "its risk tier: passive needs a structural readback; medium keeps the writer's "
    "self-verification; high comes only from an escalation naming a Task Size high-risk "
    "item, and adds one separate gentle-ai-verify run.",
    "`assess` reads the live RDD mode. The parent's spot check (re-running one reported "
    "command) stays required in every tier; a closed review never removes a verifier the "
    "tier requires, and no review outcome authorizes delivery.",
    "Relay `nextTransition` from `assess` unchanged; never rebuild it.",
)

_REVIEW_FULL = ToolDecl(
    name=REVIEW_TOOL,
    hidden=False,
    operations=REVIEW_OPERATIONS,
    description=(
        "Gentle AI native review. `assess`: the read-only risk assessment of the current "
        "candidate and its verification plan. `inspect`: the review integration's state for "
        "this work tree. `status`: preflight or continue a review lineage by its exact "
        "`lineageId`. `answer-consent`: relay the human's answer to a consent envelope with "
        "its exact `consentBinding`."
    ),
    snippet=(
        "gentle_review: assess a candidate's risk and verification plan; inspect, status "
        "and answer-consent drive the native review."
    ),
    guidelines=(
        *_ASSESS_GUIDELINES,
        "Call `status` with the exact retained `lineageId`, and route only from the "
        "`next_transition` it returns.",
        "Collect reviewer results with gentle_review_capture (one returned slot) or "
        "gentle_review_capture_group (the complete current group); declare scope with "
        "gentle_review_scope.",
        "Answer consent only with the exact `consentBinding` and the human's own choice.",
    ),
    parameters=_REVIEW_SCHEMA,
)

_REVIEW_LEAN = ToolDecl(
    name=REVIEW_TOOL,
    hidden=False,
    operations=("assess",),
    description=(
        "Gentle AI native review. `assess`: the read-only risk assessment of the current "
        "candidate and its verification plan."
    ),
    snippet="gentle_review: assess a candidate's risk and verification plan.",
    guidelines=_ASSESS_GUIDELINES,
    parameters=_REVIEW_SCHEMA,
)

_CAPTURE = ToolDecl(
    name=CAPTURE_TOOL,
    hidden=False,
    operations=(),
    description=(
        "Capture the result of one current reviewer slot returned by gentle_review status, "
        "bound to that slot exactly."
    ),
    snippet="gentle_review_capture: submit one reviewer slot's result.",
    guidelines=("Capture only a slot the latest status returned; never invent a binding.",),
    parameters=_closed(("binding", "result"), binding=_text(), result=_text()),
)

_CAPTURE_GROUP = ToolDecl(
    name=CAPTURE_GROUP_TOOL,
    hidden=False,
    operations=(),
    description=(
        "Capture the complete current reviewer group returned by gentle_review status in one call."
    ),
    snippet="gentle_review_capture_group: submit the whole current reviewer group.",
    guidelines=(
        "Submit every slot of the current group together; resubmit the same binding with "
        "`reviewerRunAcknowledged: true` after the reviewers ran.",
    ),
    parameters=_closed(
        ("binding", "results"),
        binding=_text(),
        results={
            "type": "array",
            "items": _closed(("slot", "result"), slot=_text(), result=_text()),
        },
        reviewerRunAcknowledged={"type": "boolean"},
    ),
)

_SCOPE = ToolDecl(
    name=SCOPE_TOOL,
    hidden=False,
    operations=(),
    description=(
        "Declare the review scope of the current candidate: the untracked paths it intends "
        "to include and the untracked inventory digest status reported."
    ),
    snippet="gentle_review_scope: declare which untracked paths a review includes.",
    guidelines=("Declare only paths the writer created for this task.",),
    parameters=_closed(
        ("intendedUntracked", "expectedUntrackedInventory"),
        intendedUntracked={"type": "array", "items": _text()},
        expectedUntrackedInventory=_text(),
    ),
)


def build_tools(loadout: Loadout) -> tuple[ToolDecl, ...]:
    """The tool declarations of a loadout, ``gentle_review`` first.

    Args:
        loadout: ``full`` (pinned line ``on`` or ``unknown``) or ``lean`` (``off``).

    Returns:
        Four declarations. Full: every text describes every operation, nothing hidden.
        Lean: ``gentle_review``'s text covers only ``assess`` (same schema), and the
        capture, capture-group and scope declarations are hidden but registered.
    """
    if loadout is Loadout.FULL:
        return (_REVIEW_FULL, _CAPTURE, _CAPTURE_GROUP, _SCOPE)
    hidden = tuple(replace(t, hidden=True) for t in (_CAPTURE, _CAPTURE_GROUP, _SCOPE))
    return (_REVIEW_LEAN, *hidden)
