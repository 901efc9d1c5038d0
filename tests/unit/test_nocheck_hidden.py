"""Row N-hidden (policy/nocheck.py :func:`judge_hidden`): a success criterion or full suite
that can succeed while one of its commands fails hides a failure (seed 001 "Completion
criteria": "every declared criterion has evidence, not an assertion")."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.hidden import judge_hidden
from gentle_hooks.policy.nocheck import SHAPE_ROWS, row_text

HIDES = [
    "pytest -q || pytest -q test_app.py",
    "pytest -q test_bad.py; pytest -q test_app.py",
    "pytest -q test_bad.py\npytest -q test_app.py",
    "pytest -q test_bad.py & pytest -q test_app.py",
    "pytest -q | grep passed",
    "pytest -q | tee log",
    "set -e -o pipefail; pytest -q || pytest -q test_app.py",
    "set -e; pytest -q || make test",
    "sh -c 'pytest a; pytest b'",
    "(pytest a; pytest b)",
    "pytest a && pytest b || pytest c",
]

HOLDS = [
    "pytest -q",
    "pytest a && pytest b",
    "cd sub && pytest -q",
    "set -e; pytest a; pytest b",
    "set -o pipefail; pytest -q | tee log",
    "bash -o pipefail -c 'pytest | tee log'",
    "make test",
    "if pytest; then :; fi",  # unreadable: the re-run still has to succeed
]


@pytest.mark.parametrize("line", HIDES)
def test_a_line_that_can_succeed_while_a_check_fails_hides_it(line: str) -> None:
    got = judge_hidden(line)
    assert (got.checks, got.rows) == (False, ("N-hidden",))


@pytest.mark.parametrize("line", HOLDS)
def test_a_line_that_fails_whenever_a_check_fails_holds(line: str) -> None:
    assert judge_hidden(line).checks


def test_the_row_says_what_to_write_instead() -> None:
    assert "N-hidden" in [r.id for r in SHAPE_ROWS]
    assert "write one command, or a && b" in row_text("N-hidden")


# -- reports_failures: a runner's summary reporting failed tests (row C4-failed) ----------

from gentle_hooks.policy.testcount import reports_failures  # noqa: E402

FAILED_OUTPUTS = [
    (
        "pytest -q || pytest -q test_app.py",
        "F.\n1 failed, 1 passed in 0.02s\n.\n1 passed in 0.01s\n",
    ),
    ("python3 -m pytest", "===== 1 failed, 2 passed in 0.10s =====\n"),
    ("python3 -m pytest", "==== 2 errors in 0.10s ====\n"),
    ("python3 -m unittest", "Ran 2 tests in 0.001s\n\nFAILED (failures=1)\n"),
    ("cargo test", "test result: FAILED. 1 passed; 1 failed; 0 ignored\n"),
    ("go test -v ./...", "--- FAIL: TestAdd (0.00s)\nok  pkg 0.1s\n"),
    ("npx jest", "Tests:       1 failed, 3 passed, 4 total\n"),
    ("npx mocha", "  3 passing\n  1 failing\n"),
]


@pytest.mark.parametrize(("command", "output"), FAILED_OUTPUTS)
def test_a_runner_summary_reporting_failures_is_seen(command: str, output: str) -> None:
    assert reports_failures(command, output)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("python3 -m pytest", "3 passed in 0.10s\n"),
        ("python3 -m pytest", "0 failed is what the docstring says\n3 passed in 0.1s\n"),
        ("python3 -m unittest", "Ran 2 tests in 0.001s\n\nOK\n"),
        ("sha256sum x", "1 failed, 1 passed in 0.02s\n"),  # no test runner: not its summary
    ],
)
def test_a_clean_summary_or_no_runner_reports_none(command: str, output: str) -> None:
    assert not reports_failures(command, output)
