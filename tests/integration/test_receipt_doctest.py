"""A receipt of ``python -m doctest FILE`` counts only when doctest ran a test (SPEC §5
"Spot check", row S-no-tests of :mod:`gentle_hooks.policy.selfcheck`): real git, the real
CLI. doctest exits 0 silently on a file holding no example (``>>>``), and ``-v`` says
``0 tests in N items``: such a run verifies nothing, like ``Ran 0 tests`` of unittest
(tests/integration/test_record_commands.py)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

Cli = Callable[..., CliResult]
PY = sys.executable

PLAIN = 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n'
DOCTESTED = 'def add(a, b):\n    """Add.\n\n    >>> add(2, 3)\n    5\n    """\n    return a + b\n'


def observed(cli: Cli, repo: Path) -> str:
    listed = json.loads(cli("receipt", "list", "--json", cwd=repo).out)
    (rec,) = listed["records"]
    return str(rec["observed"])


@pytest.mark.parametrize(
    "argv",
    [
        [PY, "-m", "doctest", "src/app.py"],
        [PY, "-m", "doctest", "-v", "src/app.py"],
        [PY, "-m", "doctest", "README.md"],
    ],
    ids=["doctest FILE", "doctest -v FILE", "doctest text file"],
)
def test_a_doctest_run_of_a_file_with_no_example_cannot_count(
    cli: Cli, repo: Path, argv: list[str]
) -> None:
    (repo / "src" / "app.py").write_text(PLAIN + "x = 1\n", encoding="utf-8")
    r = cli("receipt", "run", "--", *argv, cwd=repo)
    assert r.code == 0, r
    assert "ran no tests" in r.err, r
    assert observed(cli, repo) == "exit 0, its test runner ran no tests"
    refused = cli("spot-check", cwd=repo)
    assert refused.code == 2 and "ran no tests" in refused.err, refused


@pytest.mark.parametrize("verbose", [False, True], ids=["doctest FILE", "doctest -v FILE"])
def test_a_doctest_run_that_ran_an_example_counts(cli: Cli, repo: Path, verbose: bool) -> None:
    (repo / "src" / "app.py").write_text(DOCTESTED, encoding="utf-8")
    flags = ["-v"] if verbose else []
    r = cli("receipt", "run", "--", PY, "-m", "doctest", *flags, "src/app.py", cwd=repo)
    assert r.code == 0, r
    assert "ran no tests" not in r.err, r
    assert observed(cli, repo) == "exit 0"
    agreed = cli("spot-check", cwd=repo)
    assert agreed.code == 0 and agreed.err.splitlines()[-1].endswith(": agreed"), agreed
