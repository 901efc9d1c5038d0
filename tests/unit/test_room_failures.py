"""services/room_failures.deselect_reach: the passing tests a ``--deselect`` of a red base's
failing ids would hide too, pytest's ``--deselect`` being a prefix match (issue 18, refuter
r18u MED 2; its
``test_p[1]`` / ``test_p[10]`` case is none: a parameter id ends with its ``]``)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.suite_coverage import Session
from gentle_hooks.services.room_failures import deselect_reach, gone_tests

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


@pytest.mark.parametrize(
    ("base_failed", "ran", "deselected", "expected"),
    [
        # r18u LOW 1: the change deletes a base-failing test: gone
        (("t.py::test_k", "g.py::test_g"), {"t.py::test_k"}, (), ("g.py::test_g",)),
        # a module that failed to import on the base, whose tests ran here: not gone
        (("g.py",), {"g.py::test_g"}, (), ()),
        # the suite deselects it: a selection (C1-suite-part), not the change's deletion
        (("g.py::test_g",), {"t.py::test_k"}, ("g.py::test_g",), ()),
        # not observed here, or nothing read on the base
        (("g.py::test_g",), None, (), ()),
        (None, {"t.py::test_k"}, (), ()),
    ],
    ids=["deleted", "module-ran", "deselected", "unobserved", "base-unread"],
)
def test_gone_tests(
    base_failed: tuple[str, ...] | None,
    ran: set[str] | None,
    deselected: tuple[str, ...],
    expected: tuple[str, ...],
) -> None:
    assert gone_tests(base_failed, ran, deselected) == expected
