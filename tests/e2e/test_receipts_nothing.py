"""Receipts of commands that test nothing satisfy no spot check (SPEC §5 "Spot check": a
command that verifies nothing does not count; rows N-no-run, N-git-read, N-same-file of
:mod:`gentle_hooks.policy.nocheck`, N-probe, N-compile and N-grep of
:mod:`gentle_hooks.policy.probes`): real git, ``gentle-hook install``.

With the project's own test failing, the writer reports a command that succeeds anyway
(a test runner's ``--version`` or ``--co`` read through ``sh -c``, ``git status``, a
``git diff --quiet`` of a test file, a file ``diff``-ed with itself): the receipt is noted
as unable to count, ``spot-check`` refuses it, and the commit stays blocked. So does a
probe of a file the candidate holds (``test -f``, ``[ -e ... ]``, ``stat``, ``wc -l``,
``file``, ``ls``, also inside ``sh -c``), while a command that runs the project's tests
(``pytest -q``, ``python -m pytest``, ``make test``, ``sh run_tests.sh``) still counts. A
failing check hidden by ``{ check; } 2>/dev/null; true`` verifies nothing either (N-masked).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World

PY = sys.executable
NOTHING = [
    [PY, "-m", "unittest", "--help"],
    ["sh", "-c", f"{PY} -m pytest --co -q"],
    ["git", "status"],
    ["git", "diff", "--quiet", "HEAD", "--", "tests/test_app.py"],
    ["diff", "src/app.py", "src/app.py"],
    # file probes: they succeed on any tree that holds the file (row N-probe)
    ["test", "-f", "src/app.py"],
    ["test", "-e", "src/app.py"],
    ["[", "-f", "src/app.py", "]"],
    ["sh", "-c", "test -f src/app.py"],
    ["sh", "-c", "[ -e src/app.py ] && wc -l src/app.py"],
    ["stat", "src/app.py"],
    ["wc", "-l", "src/app.py"],
    ["file", "src/app.py"],
    ["ls", "src/app.py"],
    # a byte-compile or a text search runs none of the code (rows N-compile, N-grep)
    [PY, "-m", "compileall", "-q", "."],
    ["grep", "-q", "add", "src/app.py"],
    # a failing check hidden by a brace group with its stderr redirected (row N-masked)
    [
        "sh",
        "-c",
        f"{{ {PY} -c 'from src.app import add; assert add(2, 3) == 5'; }} 2>/dev/null; true",
    ],
    ["sh", "-c", "{ false; } 2>/dev/null; true"],
]
NOTHING_IDS = ["unittest --help", "sh -c pytest --co", "git status", "git diff", "diff"]
NOTHING_IDS += ["test -f", "test -e", "[ -f ]", "sh -c test -f", "sh -c [ -e ] && wc"]
NOTHING_IDS += ["stat", "wc -l", "file", "ls", "compileall", "grep -q"]
NOTHING_IDS += ["{ check; } 2>/dev/null; true", "{ false; } 2>/dev/null; true"]


@pytest.mark.parametrize("argv", NOTHING, ids=NOTHING_IDS)
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


#: The project's tests run four ways, each a command that counts (SPEC §5 "Spot check").
RUN_THE_TESTS = [
    ["pytest", "-q", "tests"],
    [PY, "-m", "pytest", "-q", "tests"],
    ["make", "test"],
    ["sh", "run_tests.sh"],
]


@pytest.mark.parametrize(
    "argv", RUN_THE_TESTS, ids=["pytest -q", "python -m pytest", "make test", "sh run_tests.sh"]
)
def test_a_receipt_that_runs_the_tests_satisfies_the_spot_check(
    native: World, argv: list[str]
) -> None:
    w = native
    # pytest on PATH as the writer's environment has it (this interpreter's bin)
    env = {"PATH": f"{Path(PY).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    w.write("Makefile", f"test:\n\t{PY} -m unittest discover -s tests\n")
    w.write("run_tests.sh", f"set -e\n{PY} -m unittest discover -s tests\n")
    # the project's own ways to run its tests, pushed before the writer's change (a
    # Makefile or script the change adds defines its check: it cannot count)
    w.ok("add", "Makefile", "run_tests.sh")
    w.ok("commit", "-q", "-m", "human: test runners")
    w.ok("push", "-q", "origin", "main")  # the base the writer's change is judged against
    w.write("src/app.py", "def add(a, b):\n    return b + a\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "run", "--", *argv, env=env)
    assert made.code == 0, made
    assert not any("cannot count" in x for x in made.lines), made
    checked = w.gh("spot-check", env=env)
    assert checked.code == 0 and checked.err.splitlines()[-1].endswith(": agreed"), checked
    w.ok("add", "-A")
    passed = w.git("commit", "-m", "writer")
    assert passed.code == 0, passed


#: Reports a refuter (r13y) found counted as the writer's self-verification: they ask tools
#: for their version or location, list what is installed, show files, print a make plan, or
#: force the line's success after the tests fail (``|| [ $? -eq 5 ]``: exit 5 is pytest's
#: "no tests collected"). Reported as ``receipt add``, since npm, go or ruff need not be
#: installed for a report to name them.
REPORTED_NOTHING = [
    "git --version",
    "make -n",
    "make --dry-run",
    "pip list",
    "pip freeze",
    "which pytest",
    "type pytest",
    "command -v pytest",
    "npm -v",
    "npm --version",
    "ruff --version",
    "mypy --version",
    "cargo --help",
    "head src/app.py",
    "cat src/app.py",
    "ls",
    "echo ok",
    "pytest -k nomatch || [ $? -eq 5 ]",
    "pytest -q; true",
    "pytest -q || exit 0",
]


@pytest.mark.parametrize("line", REPORTED_NOTHING)
def test_a_reported_command_that_checks_nothing_is_refused(native: World, line: str) -> None:
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a - b\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "add", f"{line}: ok", "--exit-code", "0")
    assert made.code == 0, made
    assert any("cannot count as self-verification: it verifies nothing" in x for x in made.lines)
    refused = w.gh("spot-check")
    assert refused.code == 2, refused
    assert "cannot count: it verifies nothing" in refused.err and "BLOCKED" not in refused.err
    assert "Traceback" not in refused.err
    assert w.ledger("SELECT count(*) FROM spot_check") == [(0,)]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked


#: Reports whose command sets ``PYTEST_ADDOPTS=--co`` for the run (inline, through ``env``,
#: inside ``sh -c``, exported): pytest then collects the failing test and runs nothing, and
#: a re-run would repeat that (standing row S-load-env of :mod:`gentle_hooks.policy.selfcheck`).
LOADING = [
    f"PYTEST_ADDOPTS=--co {PY} -m pytest -q tests",
    f"env PYTEST_ADDOPTS=--co {PY} -m pytest -q tests",
    f"sh -c 'env PYTEST_ADDOPTS=--co {PY} -m pytest -q tests'",
    f"export PYTEST_ADDOPTS=--co; {PY} -m pytest -q tests",
]


@pytest.mark.parametrize("line", LOADING, ids=["inline", "env", "sh -c env", "export"])
def test_a_report_that_sets_the_runners_options_is_refused(native: World, line: str) -> None:
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a - b\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "add", f"{line}: 1 test collected", "--exit-code", "0")
    assert made.code == 0, made
    assert any("cannot count as self-verification: it sets a variable" in x for x in made.lines)
    refused = w.gh("spot-check")
    assert refused.code == 2 and "cannot count: it sets a variable" in refused.err, refused
    assert w.ledger("SELECT count(*) FROM spot_check") == [(0,)]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked


def test_the_callers_runner_options_reach_neither_the_run_nor_the_re_run(native: World) -> None:
    """``PYTEST_ADDOPTS=--co`` in the writer's environment: ``receipt run`` runs the tests
    without it (they fail: a failure report), and a spot check run under it re-runs a
    reported success without it (it disagrees): the commit stays blocked both ways."""
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a - b\n")
    test = "import sys\n\nsys.path.insert(0, 'src')\nfrom app import add\n\n\n"
    w.write("tests/test_add.py", test + "def test_add():\n    assert add(2, 3) == 5\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    co = {"PYTEST_ADDOPTS": "--co"}
    made = w.gh("receipt", "run", "--", "sh", "-c", f"{PY} -m pytest -q tests", env=co)
    assert made.code == 1, made  # the run's own exit: the test failed
    assert any("ran without PYTEST_ADDOPTS" in x for x in made.lines), made
    assert any("a failure report is not self-verification" in x for x in made.lines), made
    w.gh("receipt", "add", f"{PY} -m pytest -q tests: 1 passed", "--exit-code", "0")
    rerun = w.gh("spot-check", env=co)
    assert rerun.code == 1 and rerun.err.splitlines()[-1].endswith(": DISAGREED"), rerun
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.err, blocked
