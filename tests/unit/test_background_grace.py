"""The grace a window kept past the end of the agent's turn stays open
(:func:`gentle_hooks.services.agent_windows.grace`; docs/agents/codex.md, "A command that sent
no ``PostToolUse``"): ``GENTLE_HOOKS_BACKGROUND_GRACE`` seconds from 0 to 600, else the
default of 10 and a line naming the value. Issue 17, h17d."""

from __future__ import annotations

import pytest

from gentle_hooks.services.agent_windows import GRACE, GRACE_VAR, grace


@pytest.mark.parametrize(
    ("given", "seconds"),
    [
        (None, GRACE),
        ("", GRACE),
        ("  ", GRACE),
        ("0", 0.0),
        ("2.5", 2.5),
        (" 30 ", 30.0),
        ("600", 600.0),
    ],
)
def test_a_grace_of_seconds_is_taken(given: str | None, seconds: float) -> None:
    env = {} if given is None else {GRACE_VAR: given}
    assert grace(env) == (seconds, None)


@pytest.mark.parametrize("given", ["soon", "-1", "600.5", "nan", "inf", "1e9", "10s"])
def test_a_grace_that_is_not_seconds_is_named_and_the_default_used(given: str) -> None:
    seconds, said = grace({GRACE_VAR: given})
    assert seconds == GRACE
    assert said == f"{GRACE_VAR}: {given!r} is not seconds (0 to 600): 10 s used"
    assert "\n" not in said


def test_a_long_value_is_shown_cut() -> None:
    _, said = grace({GRACE_VAR: "x" * 500})
    assert said is not None and len(said) < 120 and "..." in said
