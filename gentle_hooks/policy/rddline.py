"""The pinned RDD line of a harness session, and the review loadout that follows it
(SPEC §9 "RDD line"; seed 000, first paragraph).

Room ``policy`` (pure). No store, no environment, no clock: the caller passes the session's
pinned line (or None) and the live mode, and records what :func:`advance_line` returns.

Seed 000: the ``Receipt-driven development: on|off|unknown`` line sits in the cached
system-prompt prefix, so a session keeps the first line it rendered and re-renders it only
when RDD turns off, or back on after being off (which also drops or restores the review
execution contract); an ``unknown`` to ``on`` flip or a deciding-source change keeps the
original text, and review tools always read the live mode. While the pinned line reads
``off`` the review loadout is lean; ``on`` and ``unknown`` keep the full loadout.

Both tables are data: :data:`LINE_ROWS` has one row per (pinned mode, live mode) pair
plus the first render of a new session; :data:`LOADOUT_ROWS` one row per pinned mode.
The deciding source never takes part in a transition: a change of source alone keeps the
text (and the pinned source, which is the source of the text).
"""

from __future__ import annotations

from enum import Enum

from gentle_hooks.policy.rdd import ResolvedRdd
from gentle_hooks.policy.vocabulary import RddMode, RddSource
from gentle_hooks.values.frozen import frozen


class LineAction(str, Enum):
    """What a transition does to the pinned line."""

    RENDER = "render"
    KEEP = "keep"


class Loadout(str, Enum):
    """The review tool loadout that follows the pinned line."""

    FULL = "full"
    LEAN = "lean"


@frozen
class LineRow:
    """One transition of the pinned line.

    Attributes:
        id: stable row id (recorded with every render, shown by ``rdd line --json``).
        pinned: the session's pinned mode, or None for a session that rendered nothing yet.
        live: the live mode now.
        action: render the live line, or keep the pinned one.
        why: the seed's reason, in words.
    """

    id: str
    pinned: RddMode | None
    live: RddMode
    action: LineAction
    why: str


_ON, _OFF, _UNKNOWN = RddMode.ON, RddMode.OFF, RddMode.UNKNOWN
_R, _K = LineAction.RENDER, LineAction.KEEP

#: Every transition of the pinned line: exactly one row per (pinned, live) pair.
LINE_ROWS: tuple[LineRow, ...] = (
    LineRow("L-new-on", None, _ON, _R, "a new session renders its first line"),
    LineRow("L-new-off", None, _OFF, _R, "a new session renders its first line"),
    LineRow("L-new-unknown", None, _UNKNOWN, _R, "a new session renders its first line"),
    LineRow("L-on-on", _ON, _ON, _K, "unchanged; a new deciding source keeps the text"),
    LineRow(
        "L-on-off",
        _ON,
        _OFF,
        _R,
        "RDD turned off: re-render, dropping the review execution contract",
    ),
    LineRow("L-on-unknown", _ON, _UNKNOWN, _K, "unknown is not off: the first line stays"),
    LineRow(
        "L-off-on",
        _OFF,
        _ON,
        _R,
        "RDD back on after being off: re-render, restoring the review execution contract",
    ),
    LineRow("L-off-off", _OFF, _OFF, _K, "unchanged; a new deciding source keeps the text"),
    LineRow("L-off-unknown", _OFF, _UNKNOWN, _K, "unknown is not back on: the off line stays"),
    LineRow("L-unknown-on", _UNKNOWN, _ON, _K, "an unknown to on flip keeps the original text"),
    LineRow("L-unknown-off", _UNKNOWN, _OFF, _R, "RDD turned off: re-render"),
    LineRow(
        "L-unknown-unknown", _UNKNOWN, _UNKNOWN, _K, "unchanged; a new deciding source keeps it"
    ),
)


@frozen
class LoadoutRow:
    """The loadout for one pinned mode: id, mode, loadout, and whether the review
    execution contract is part of the prompt."""

    id: str
    pinned: RddMode
    loadout: Loadout
    review_contract: bool


#: Seed 000: lean while the pinned line reads ``off``; ``on`` and ``unknown`` keep the full
#: registered text (and the review execution contract).
LOADOUT_ROWS: tuple[LoadoutRow, ...] = (
    LoadoutRow("LO-on", _ON, Loadout.FULL, True),
    LoadoutRow("LO-off", _OFF, Loadout.LEAN, False),
    LoadoutRow("LO-unknown", _UNKNOWN, Loadout.FULL, True),
)


@frozen
class PinnedLine:
    """A session's pinned line: the mode and deciding source it was rendered from.

    ``line`` is the exact text, ``Receipt-driven development: <mode>``.
    """

    mode: RddMode
    source: RddSource

    @property
    def line(self) -> str:
        """The pinned text, exactly as rendered."""
        return ResolvedRdd(self.mode, self.source).line()


@frozen
class LineStep:
    """One step of a session's line: the row that applied and the pinned line after it.

    Attributes:
        row: the :data:`LINE_ROWS` row that matched.
        pinned: the pinned line after the step (the live one when ``rendered``).
        previous: the pinned line before the step, or None for a new session.
        live: the live mode and source the step was decided against.
    """

    row: LineRow
    pinned: PinnedLine
    previous: PinnedLine | None
    live: ResolvedRdd

    @property
    def rendered(self) -> bool:
        """True when this step (re-)rendered the line."""
        return self.row.action is LineAction.RENDER


def line_row(pinned: RddMode | None, live: RddMode) -> LineRow:
    """The :data:`LINE_ROWS` row for (pinned mode, live mode); exactly one matches."""
    for row in LINE_ROWS:
        if row.pinned is pinned and row.live is live:
            return row
    raise AssertionError(f"no line row for {pinned} -> {live}")  # pragma: no cover


def advance_line(pinned: PinnedLine | None, live: ResolvedRdd) -> LineStep:
    """Decide one step of a session's pinned line (seed 000, first paragraph).

    Args:
        pinned: the session's pinned line, or None when it rendered none yet.
        live: the live RDD mode and its deciding source (``resolve_rdd``).

    Returns:
        The step: the row, and the pinned line after it — the live line when the row
        renders, the unchanged pinned line (text and source) when it keeps.
    """
    row = line_row(pinned.mode if pinned is not None else None, live.mode)
    if row.action is LineAction.RENDER or pinned is None:
        after = PinnedLine(live.mode, live.source)
    else:
        after = pinned
    return LineStep(row=row, pinned=after, previous=pinned, live=live)


def loadout_row(pinned: RddMode) -> LoadoutRow:
    """The :data:`LOADOUT_ROWS` row for a pinned mode."""
    for row in LOADOUT_ROWS:
        if row.pinned is pinned:
            return row
    raise AssertionError(f"no loadout row for {pinned}")  # pragma: no cover
