"""Receipts of commands that test nothing satisfy no spot check (SPEC §5 "Spot check": a
command that verifies nothing does not count; rows N-no-run, N-git-read and N-same-file of
:mod:`gentle_hooks.policy.nocheck`): real git, ``gentle-hook install``.

With the project's own test failing, the writer reports a command that succeeds anyway
(a test runner's ``--version`` or ``--co`` read through ``sh -c``, ``git status``, a
``git diff --quiet`` of a test file, a file ``diff``-ed with itself): the receipt is noted
as unable to count, ``spot-check`` refuses it, and the commit stays blocked.
"""

from __future__ import annotations

import sys

import pytest

from tests.e2e.conftest import World

PY = sys.executable
NOTHING = [
    [PY, "-m", "unittest", "--help"],
    ["sh", "-c", f"{PY} -m pytest --co -q"],
    ["git", "status"],
    ["git", "diff", "--quiet", "HEAD", "--", "tests/test_app.py"],
    ["diff", "src/app.py", "src/app.py"],
]


@pytest.mark.parametrize(
    "argv", NOTHING, ids=["unittest --help", "sh -c pytest --co", "git status", "git diff", "diff"]
)
def test_a_receipt_that_tests_nothing_satisfies_no_spot_check(
    native: World, argv: list[str]
) -> None:
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a - b\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "run", "--", *argv)
    assert made.code == 0, made
    assert any("cannot count as self-verification: it verifies nothing" in x for x in made.lines)
    refused = w.gh("spot-check")
    assert refused.code == 2 and "cannot count: it verifies nothing" in refused.err, refused
    assert w.ledger("SELECT count(*) FROM spot_check") == [(0,)]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked
