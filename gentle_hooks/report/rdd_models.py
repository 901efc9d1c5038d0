"""The JSON boundary of ``gentle-hook rdd``: line, status and loadout envelopes (SPEC §9).

Room ``report``. Imports pydantic, the policy and :mod:`gentle_hooks.policy.loadout` /
:mod:`gentle_hooks.services.rdd` value types. Frozen, ``extra="forbid"``; exported by
``gentle-hook schema rdd-line|rdd-status|rdd-loadout``. The ``rdd`` commands are not on a
hook path, so they build their output through these models directly.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field, JsonValue

from gentle_hooks.ledger.records import RddRender
from gentle_hooks.policy.loadout import ToolDecl, build_tools
from gentle_hooks.policy.rdd import ResolvedRdd
from gentle_hooks.policy.rddline import LineStep, Loadout, LoadoutRow, PinnedLine, loadout_row
from gentle_hooks.policy.vocabulary import RddMode, RddSource
from gentle_hooks.report.outbase import FrozenOut, schema_field
from gentle_hooks.services.rdd import SessionLine

RDD_LINE_SCHEMA: Final = "gentle-hooks.rdd-line/v1"
RDD_STATUS_SCHEMA: Final = "gentle-hooks.rdd-status/v1"
RDD_LOADOUT_SCHEMA: Final = "gentle-hooks.rdd-loadout/v1"


class RddStateOut(FrozenOut):
    """An RDD mode, the source that decided it, and its line."""

    mode: RddMode
    source: RddSource
    line: str


class RddLineEnvelope(FrozenOut):
    """``gentle-hook rdd line --session ID --json``: the session's pinned line after this
    step, the live mode it was decided against, and the transition row that applied.

    Attributes:
        session: the session id; line: the pinned line (what the harness renders).
        pinned / live: the pinned line's mode and source, and the live ones.
        previous: the pinned line before this step, or None for a new session.
        rendered: True when this step (re-)rendered the line.
        row / why: the transition row (``gentle_hooks.policy.rddline.LINE_ROWS``).
        loadout: ``full`` or ``lean``; review_contract: whether the review execution
            contract goes with the line (False while it reads ``off``).
        renders: lines the session rendered so far, the first included.
    """

    schema_: Literal["gentle-hooks.rdd-line/v1"] = schema_field(RDD_LINE_SCHEMA)
    session: str
    line: str
    pinned: RddStateOut
    live: RddStateOut
    previous: RddStateOut | None
    rendered: bool
    row: str
    why: str
    loadout: Loadout
    review_contract: bool
    renders: int = Field(ge=1)


class RddSessionOut(FrozenOut):
    """A session's pinned line as ``rdd status --session`` reports it (None when the
    session rendered no line yet)."""

    id: str
    pinned: RddStateOut | None
    renders: int = Field(ge=0)


class RddStatusEnvelope(FrozenOut):
    """``gentle-hook rdd status --json``: the live mode and its deciding source (what review
    tools read), and a session's pinned line when ``--session`` is given."""

    schema_: Literal["gentle-hooks.rdd-status/v1"] = schema_field(RDD_STATUS_SCHEMA)
    mode: RddMode
    source: RddSource
    line: str
    session: RddSessionOut | None = None


class ToolOut(FrozenOut):
    """One tool declaration of the review loadout (see :mod:`gentle_hooks.policy.loadout`).

    Attributes:
        name: tool name; registered / active: always true (lean hides, never removes).
        hidden: true when the harness must leave the declaration out of the request.
        operations: the operations its text describes (``gentle_review``: every operation
            when full, only ``assess`` when lean).
        description / snippet / guidelines: the declared text.
        parameters: the JSON Schema of its input; the same in both loadouts.
    """

    name: str
    registered: bool
    active: bool
    hidden: bool
    operations: tuple[str, ...]
    description: str
    snippet: str
    guidelines: tuple[str, ...]
    parameters: dict[str, JsonValue]


class RddLoadout(FrozenOut):
    """``gentle-hook rdd loadout --session ID --json``: the review tool loadout that follows
    the session's pinned line (seed 000).

    ``loadout`` is ``full`` when the pinned line reads ``on`` or ``unknown`` and ``lean``
    when it reads ``off``; ``tools`` lists ``gentle_review``, ``gentle_review_capture``,
    ``gentle_review_capture_group`` and ``gentle_review_scope``, in that order, every one
    registered. A harness declares the tools whose ``hidden`` is false.
    """

    schema_: Literal["gentle-hooks.rdd-loadout/v1"] = schema_field(RDD_LOADOUT_SCHEMA)
    session: str
    line: str
    mode: RddMode
    live: RddStateOut
    loadout: Loadout
    row: str
    review_contract: bool
    tools: tuple[ToolOut, ...]


def state_out(mode: RddMode, source: RddSource) -> RddStateOut:
    """An :class:`RddStateOut` for a mode and source (the line rendered from them)."""
    return RddStateOut(mode=mode, source=source, line=ResolvedRdd(mode, source).line())


def _pinned_out(p: PinnedLine) -> RddStateOut:
    return state_out(p.mode, p.source)


def _step_parts(s: SessionLine) -> tuple[LineStep, LoadoutRow, RddStateOut]:
    """A session step, the loadout row of its pinned mode, and its live state."""
    step = s.step
    return step, loadout_row(step.pinned.mode), state_out(step.live.mode, step.live.source)


def line_envelope(s: SessionLine) -> RddLineEnvelope:
    """The ``rdd line --json`` envelope of one session step."""
    step, lo, live = _step_parts(s)
    return RddLineEnvelope(
        session=s.session_id,
        line=s.render.line,
        pinned=_pinned_out(step.pinned),
        live=live,
        previous=_pinned_out(step.previous) if step.previous is not None else None,
        rendered=step.rendered,
        row=step.row.id,
        why=step.row.why,
        loadout=lo.loadout,
        review_contract=lo.review_contract,
        renders=s.renders,
    )


def status_envelope(
    live: ResolvedRdd, session_id: str | None, renders: list[RddRender]
) -> RddStatusEnvelope:
    """The ``rdd status --json`` envelope: live mode, and the session's pinned line."""
    session = None
    if session_id is not None:
        pinned = None
        if renders:
            last = renders[-1]
            pinned = state_out(RddMode(last.mode), RddSource(last.source))
        session = RddSessionOut(id=session_id, pinned=pinned, renders=len(renders))
    return RddStatusEnvelope(mode=live.mode, source=live.source, line=live.line(), session=session)


def _tool_out(t: ToolDecl) -> ToolOut:
    return ToolOut.model_validate(t, from_attributes=True)


def loadout_envelope(s: SessionLine) -> RddLoadout:
    """The ``rdd loadout --json`` envelope: the loadout that follows the pinned line."""
    step, lo, live = _step_parts(s)
    return RddLoadout(
        session=s.session_id,
        line=s.render.line,
        mode=step.pinned.mode,
        live=live,
        loadout=lo.loadout,
        row=lo.id,
        review_contract=lo.review_contract,
        tools=tuple(_tool_out(t) for t in build_tools(lo.loadout)),
    )
