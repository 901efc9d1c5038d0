"""services/room_failures.deselect_reach: the passing tests a ``--deselect`` of a red base's
failing ids would hide too, pytest's ``--deselect`` being a prefix match (issue 18, refuter
r18u MED 2; its
``test_p[1]`` / ``test_p[10]`` case is none: a parameter id ends with its ``]``)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.suite_coverage import Session
from gentle_hooks.services.room_failures import deselect_reach

TREE = "/room/tree"


def _run(*selected: str) -> tuple[Session, ...]:
    return (Session(TREE, "python3", False, 1, selected=selected),)


@pytest.mark.parametrize(
    ("selected", "failed", "expected"),
    [
        (
            ("t.py::test_broken", "t.py::test_broken_edge"),
            ("t.py::test_broken",),
            ("t.py::test_broken_edge",),
        ),
        (
            ("t.py::T::test_a", "t.py::T::test_ab", "t.py::TT::test_a"),
            ("t.py::T::test_a",),
            ("t.py::T::test_ab",),
        ),
        # a parameter id ends with its bracket: test_p[1] is no prefix of test_p[10]
        (("t.py::test_p[1]", "t.py::test_p[10]"), ("t.py::test_p[1]",), ()),
        # both failing: deselecting both hides nothing else
        (("t.py::test_b", "t.py::test_b_edge"), ("t.py::test_b", "t.py::test_b_edge"), ()),
        (("t.py::test_a", "t.py::test_b"), ("t.py::test_a",), ()),
        (("t.py::test_a",), (), ()),
    ],
    ids=[
        "name-prefix",
        "method-prefix",
        "parameter-closed",
        "both-failing",
        "no-prefix",
        "none-failed",
    ],
)
def test_deselect_reach(
    selected: tuple[str, ...], failed: tuple[str, ...], expected: tuple[str, ...]
) -> None:
    assert deselect_reach(_run(*selected), failed, TREE) == expected


def test_a_collect_only_session_is_not_the_run() -> None:
    whole = Session(TREE, "python3", True, 0, selected=("t.py::test_broken_edge",))
    assert deselect_reach((whole,), ("t.py::test_broken",), TREE) == ()
