"""``gentle-hook verify run``: a unittest ``discover`` narrowed to part of the test tree is
not the full suite (seed 001 "Rules": "A pass verdict requires the full suite to have run";
SPEC §9; rows P-operand, C1-suite-part).

Refuter r18y ``v13.sh`` (``b-p.json``, ``b-s.json``, ``b-s2.json``): the candidate fixes
``add`` and carries ``tests/test_bad.py``, which fails; a brief whose ``fullSuite`` was
``python3 -m unittest discover -p 'test_app*'`` (or ``--pattern=``, or a start directory
below the test tree) left it out, the verdict passed "the full suite ran", and the commit
went through. Fixed in selection (``policy/selection.py``); these re-run the refuter's cases
end to end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, write
from tests.integration.test_verify import Env

#: A unittest test module whose one test checks ``add(2, 2) == want``.
CASE = (
    "import unittest\n\nimport app\n\n\nclass {name}(unittest.TestCase):\n"
    "    def test_it(self):\n        self.assertEqual(app.add(2, 2), {want})\n"
)

BRIEF: dict[str, Any] = {
    "id": "add-ut",
    "objective": "add() adds",
    "outputFormat": "a patch to src/app.py",
    "boundaries": ["src/ only"],
    "stopCondition": "tests pass",
    "readOnly": False,
    "sideEffects": ["write-repo"],
    "successCriteria": [
        {"criterion": "add adds", "run": "python3 -c 'import app; assert app.add(2, 3) == 5'"}
    ],
    "negativeTests": [
        {
            "criterion": "the old subtraction is gone",
            "run": ["python3", "-c", "import app; assert app.add(2, 3) == -1"],
        }
    ],
    "fullSuite": "python3 -m unittest discover -s tests",
    "env": {"PYTHONPATH": "src"},
}


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """At the base ``add`` subtracts; the candidate fixes it and holds
    ``tests/test_app.py`` and ``tests/unit/test_unit.py`` (pass) and ``tests/test_bad.py``
    (fails); recorded, escalated."""
    e = Env(repo, tmp_path)
    e.brief(BRIEF)
    (repo / "tests" / "test_app.py").unlink()  # the fixture's pytest test: not unittest's
    write(repo / "src" / "app.py", "def add(a, b):\n    return a - b\n")
    commit_all(repo, "base: add subtracts")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b\n")
    write(repo / "tests" / "test_app.py", CASE.format(name="TestApp", want=4))
    write(repo / "tests" / "unit" / "test_unit.py", CASE.format(name="TestUnit", want=4))
    write(repo / "tests" / "test_bad.py", CASE.format(name="TestBad", want=5))
    assert e.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert e.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    return e


@pytest.mark.parametrize(
    "suite",
    [
        "python3 -m unittest discover -s tests -p 'test_app*'",
        "python3 -m unittest discover -v -s tests --pattern=test_app.py",
        "python3 -m unittest discover -s tests/unit",
        "python3 -m unittest discover tests/unit",
    ],
    ids=["pattern", "pattern-long", "start-subdir", "start-subdir-positional"],
)
def test_a_discover_narrowed_to_a_part_is_not_the_full_suite(env: Env, suite: str) -> None:
    env.brief({**BRIEF, "fullSuite": suite})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    last = out["outcomes"][-1]
    assert (last["command"], last["exit_code"], last["row"]) == (suite, 0, "C1-suite-part")
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def test_the_whole_discover_runs_the_failing_test(env: Env) -> None:
    """The control: ``discover -s tests`` is the full suite; ``test_bad`` fails it."""
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    last = out["outcomes"][-1]
    assert (last["command"], last["result"]) == (BRIEF["fullSuite"], "fail"), out["outcomes"]
    assert out["status"] == "fail"
