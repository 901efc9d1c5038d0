"""``gentle-hook verify run``: a full suite narrowed by an assignment in front of its
command is not the full suite (issue 18; seed 001 "Rules": "A pass verdict requires the
full suite to have run"; brief rule B5).

Refuter h18c (HIGH): ``PYTEST_ADDOPTS="--ignore=... -p no:cacheprovider" pytest -q`` or
``["env", "PYTEST_ADDOPTS=... -o python_functions=...", "pytest", "-q"]`` as ``fullSuite``
gave ``verify run: pass (... the full suite ran)`` while a test failed; the same variable in
the brief's ``env`` was refused and the same flags on the command line blocked the verdict.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.integration.test_verify import BRIEF, Env, make_env

#: Each form of setting the variable for the suite's command: (id, fullSuite).
FORMS: list[tuple[str, Any]] = [
    (
        "prefix",
        'PYTEST_ADDOPTS="--ignore=tests/test_mul.py -p no:cacheprovider" '
        "python3 -m pytest -q tests",
    ),
    (
        "env-argv",
        [
            "env",
            "PYTEST_ADDOPTS=-p no:cacheprovider -o python_functions=test_add",
            "python3",
            "-m",
            "pytest",
            "-q",
            "tests",
        ],
    ),
    (
        "env-S",
        'env -S \'PYTEST_ADDOPTS="--ignore=tests/test_mul.py -p no:cacheprovider" '
        "python3 -m pytest -q tests'",
    ),
    (
        "export",
        'export PYTEST_ADDOPTS="--ignore=tests/test_mul.py -p no:cacheprovider" && '
        "python3 -m pytest -q tests",
    ),
]


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """The escalated change, with a failing test the narrowed suite leaves out."""
    e = make_env(repo, tmp_path)
    write(repo / "tests" / "test_mul.py", "def test_mul():\n    assert 2 * 3 == 5\n")
    return e


def test_the_failing_test_fails_the_full_suite(env: Env) -> None:
    """The control row: the brief's plain suite sees the failing test."""
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert proc.returncode == 1 and "verify run: fail" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("n", range(len(FORMS)), ids=[f[0] for f in FORMS])
def test_a_suite_narrowed_by_an_assignment_is_refused(env: Env, n: int) -> None:
    """Rule B5 for the command: nothing runs, no verdict is written, one line names the
    variable; ``brief check`` rejects the same brief."""
    env.brief({**BRIEF, "fullSuite": FORMS[n][1]})
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(
        f"{env.brief_path}: brief rejected: B5 the full suite sets PYTEST_ADDOPTS: "
    ), lines[0]
    checked = env.gh("brief", "check", str(env.brief_path))
    assert checked.returncode == 1 and "B5 the full suite sets PYTEST_ADDOPTS" in checked.stderr
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_a_flags_suite_narrowed_by_an_assignment_is_refused(env: Env) -> None:
    """The same through ``--suite``: refused as the brief's own suite would be."""
    suite = 'PYTEST_ADDOPTS="--ignore=tests/test_mul.py -p no:cacheprovider" python3 -m pytest -q'

    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--suite", suite)
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stdout + proc.stderr
    assert proc.stderr.startswith(
        f"gentle-hook: check refused: --suite `{suite}` sets PYTEST_ADDOPTS: "
    ), proc.stderr
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]
