"""The pinned RDD line's transition table and the loadout that follows it, row by row
(SPEC §9 "RDD line"; seed 000, first paragraph)."""

from __future__ import annotations

import itertools

import pytest

from gentle_hooks.policy.rdd import ResolvedRdd
from gentle_hooks.policy.rddline import (
    LINE_ROWS,
    LOADOUT_ROWS,
    LineAction,
    Loadout,
    PinnedLine,
    advance_line,
    loadout_row,
)
from gentle_hooks.policy.vocabulary import RddMode, RddSource

ON, OFF, UNKNOWN = RddMode.ON, RddMode.OFF, RddMode.UNKNOWN
RENDER, KEEP = LineAction.RENDER, LineAction.KEEP

#: The table as the seed states it, independently of the module: (row id, pinned mode or
#: None for a new session, live mode, action).
EXPECTED = [
    ("L-new-on", None, ON, RENDER),
    ("L-new-off", None, OFF, RENDER),
    ("L-new-unknown", None, UNKNOWN, RENDER),
    ("L-on-on", ON, ON, KEEP),
    ("L-on-off", ON, OFF, RENDER),  # RDD turns off
    ("L-on-unknown", ON, UNKNOWN, KEEP),  # not off: the first line stays
    ("L-off-on", OFF, ON, RENDER),  # back on after being off
    ("L-off-off", OFF, OFF, KEEP),
    ("L-off-unknown", OFF, UNKNOWN, KEEP),  # not back on
    ("L-unknown-on", UNKNOWN, ON, KEEP),  # the seed: unknown -> on keeps the text
    ("L-unknown-off", UNKNOWN, OFF, RENDER),  # RDD turns off
    ("L-unknown-unknown", UNKNOWN, UNKNOWN, KEEP),
]

SOURCES = list(RddSource)


def test_the_table_has_exactly_one_row_per_transition() -> None:
    pairs = [(r.pinned, r.live) for r in LINE_ROWS]
    assert len(pairs) == len(set(pairs)) == 3 + 3 * 3
    assert [(r.id, r.pinned, r.live, r.action) for r in LINE_ROWS] == EXPECTED


@pytest.mark.parametrize(
    ("row_id", "pinned", "live", "action"), EXPECTED, ids=[e[0] for e in EXPECTED]
)
@pytest.mark.parametrize(
    ("pinned_source", "live_source"),
    list(itertools.product(SOURCES, SOURCES)),
    ids=lambda s: s.value,
)
def test_each_transition_row(
    row_id: str,
    pinned: RddMode | None,
    live: RddMode,
    action: LineAction,
    pinned_source: RddSource,
    live_source: RddSource,
) -> None:
    before = PinnedLine(pinned, pinned_source) if pinned is not None else None
    step = advance_line(before, ResolvedRdd(live, live_source))
    assert step.row.id == row_id
    assert step.rendered is (action is RENDER)
    assert step.previous == before
    assert step.live == ResolvedRdd(live, live_source)
    if action is RENDER:
        # the live line, with the live source: the text changes with the mode
        assert step.pinned == PinnedLine(live, live_source)
        assert step.pinned.line == f"Receipt-driven development: {live.value}"
    else:
        # kept: the same text *and* the source it was rendered from, whatever the live
        # source is now (a change of deciding source keeps the original text)
        assert step.pinned == before
        assert before is not None
        assert step.pinned.line == f"Receipt-driven development: {before.mode.value}"


@pytest.mark.parametrize(
    ("mode", "loadout", "contract", "row_id"),
    [
        (ON, Loadout.FULL, True, "LO-on"),
        (OFF, Loadout.LEAN, False, "LO-off"),
        (UNKNOWN, Loadout.FULL, True, "LO-unknown"),
    ],
    ids=["on-full", "off-lean", "unknown-full"],
)
def test_each_loadout_row(mode: RddMode, loadout: Loadout, contract: bool, row_id: str) -> None:
    row = loadout_row(mode)
    assert (row.id, row.loadout, row.review_contract) == (row_id, loadout, contract)
    assert [r.pinned for r in LOADOUT_ROWS] == [ON, OFF, UNKNOWN]


def _run(modes: list[tuple[RddMode, RddSource]]) -> list[tuple[str, str, bool]]:
    pinned: PinnedLine | None = None
    out = []
    for mode, source in modes:
        step = advance_line(pinned, ResolvedRdd(mode, source))
        pinned = step.pinned
        out.append((step.row.id, step.pinned.line, step.rendered))
    return out


def test_a_session_keeps_its_first_line_through_source_changes_and_unknown_flips() -> None:
    got = _run(
        [
            (UNKNOWN, RddSource.DEFAULT),
            (ON, RddSource.ENV),  # unknown -> on: kept
            (ON, RddSource.GIT_CONFIG),  # source change: kept
            (UNKNOWN, RddSource.DEFAULT),
        ]
    )
    assert [line for _, line, _ in got] == ["Receipt-driven development: unknown"] * 4
    assert [rendered for _, _, rendered in got] == [True, False, False, False]


def test_off_and_back_on_re_render_each_time() -> None:
    got = _run(
        [
            (ON, RddSource.CONFIG_FILE),
            (OFF, RddSource.ENV),  # turns off: re-render
            (UNKNOWN, RddSource.DEFAULT),  # not back on: off stays
            (ON, RddSource.GIT_CONFIG),  # back on: re-render
            (ON, RddSource.ENV),  # source change: kept
        ]
    )
    assert got == [
        ("L-new-on", "Receipt-driven development: on", True),
        ("L-on-off", "Receipt-driven development: off", True),
        ("L-off-unknown", "Receipt-driven development: off", False),
        ("L-off-on", "Receipt-driven development: on", True),
        ("L-on-on", "Receipt-driven development: on", False),
    ]


def test_advancing_twice_against_the_same_live_mode_changes_nothing() -> None:
    """Idempotent: `rdd line` and `rdd loadout` both advance at the start of a run."""
    for pinned, live, source in itertools.product([None, ON, OFF, UNKNOWN], RddMode, SOURCES):
        before = PinnedLine(pinned, RddSource.DEFAULT) if pinned is not None else None
        first = advance_line(before, ResolvedRdd(live, source))
        second = advance_line(first.pinned, ResolvedRdd(live, source))
        assert not second.rendered
        assert second.pinned == first.pinned
