"""The block's last words before the override (:func:`gentle_hooks.hooks.outcome.retry_lines`):
a merge git keeps in progress is concluded with ``git commit --no-edit``, after a ``then``
line worded for the number of ways printed above it (issue 14)."""

from __future__ import annotations

import pytest

from gentle_hooks.hooks.outcome import retry_lines

CONCLUDE = (
    "conclude the merge git kept in progress with git commit --no-edit: the gate judges it again"
)


@pytest.mark.parametrize(
    ("hook", "several", "lines"),
    [
        pytest.param(
            "pre-merge-commit",
            False,
            [f"then, {CONCLUDE}", "  run: git commit --no-edit"],
            id="merge-one-way",
        ),
        pytest.param(
            "pre-merge-commit",
            True,
            [f"then, either way, {CONCLUDE}", "  run: git commit --no-edit"],
            id="merge-several-ways",
        ),
        pytest.param(
            "pre-commit",
            True,
            ["after that, run the same git commit again: the gate judges it again"],
            id="commit",
        ),
        pytest.param(
            "pre-push",
            False,
            ["after that, run the same git push again: the gate judges it again"],
            id="push",
        ),
    ],
)
def test_the_retry_line_words_the_ways_printed_above_it(
    hook: str, several: bool, lines: list[str]
) -> None:
    assert retry_lines(hook, several) == lines
