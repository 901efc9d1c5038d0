"""The suite observer's digest of how a pytest test failed, from real pytest runs: "the same
way" is the crash line and message *and* the test's own failing line (issue 18, refuter
r18v HIGH 1; SPEC §9 rule R2, row C5-base).

Each row runs pytest twice in one directory with the observer plugin loaded, the base's
files and then the candidate's, and compares the two digests
(:func:`~gentle_hooks.policy.suite_coverage.failure_hows`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.policy.suite_coverage import failure_hows, parse_sessions
from gentle_hooks.services.suite_observer import _PLUGIN, OBSERVED_VAR, PLUGIN_MODULE

#: A shared assert helper: every failure below crashes at its one line.
HELPER = "def check(x):\n    assert x == 2\n"
#: The base's code under test: f(1) is wrong (5), f(2) right.
BASE_F = "def f(x):\n    return 5 if x == 1 else 2\n"
#: The candidate's: f(1) fixed, f(2) broken, with the very same message.
SWAPPED_F = "def f(x):\n    return 2 if x == 1 else 5\n"
#: A test reaching the helper from two lines of the same text.
TWICE = (
    "from helper import check\nfrom calc import f\n\n\n"
    "def test_a():\n    x = f(1)\n    check(x)\n    x = f(2)\n    check(x)\n"
)
#: The same test as a unittest TestCase method, its helper a method.
TWICE_TC = (
    "import unittest\nfrom calc import f\n\n\nclass T(unittest.TestCase):\n"
    "    def check(self, x):\n        self.assertEqual(x, 2)\n\n"
    "    def test_a(self):\n        x = f(1)\n        self.check(x)\n"
    "        x = f(2)\n        self.check(x)\n"
)
#: Another test above: every line of the one below moves, none of its text changes.
ABOVE = "\n\ndef test_zero():\n    assert True\n\n\n"


def _how(where: Path, files: dict[str, str]) -> dict[str, str]:
    """The observer's ``id -> digest`` of a real pytest run in ``where`` holding ``files``."""
    for name, text in files.items():
        (where / name).write_text(text)
    plug, observed = where.parent / "plug", where.parent / "observed.jsonl"
    plug.mkdir(exist_ok=True)
    (plug / f"{PLUGIN_MODULE}.py").write_text(_PLUGIN)
    observed.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        PYTHONPATH=os.pathsep.join((str(plug), str(where))),
        PYTEST_PLUGINS=PLUGIN_MODULE,
        PYTHONDONTWRITEBYTECODE="1",
        PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",  # the observer alone: faster, and no xdist
        **{OBSERVED_VAR: str(observed)},
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    hows = failure_hows(parse_sessions(observed.read_text()), (str(where),))
    assert hows, done.stdout
    return hows


@pytest.mark.parametrize(
    ("base", "candidate", "same"),
    [
        # r18v HIGH 1: the helper raises at its line with the same message on both trees,
        # reached from the test's first check(x) on the base and its second here
        (
            {"helper.py": HELPER, "calc.py": BASE_F, "test_h.py": TWICE},
            {"calc.py": SWAPPED_F},
            False,
        ),
        # the same, a TestCase method reaching its own helper method
        ({"calc.py": BASE_F, "test_h.py": TWICE_TC}, {"calc.py": SWAPPED_F}, False),
        # the control rows: nothing changes, or the test only moves down its file
        ({"helper.py": HELPER, "calc.py": BASE_F, "test_h.py": TWICE}, {}, True),
        (
            {"helper.py": HELPER, "calc.py": BASE_F, "test_h.py": TWICE},
            {"test_h.py": TWICE.replace("\n\n\ndef test_a", ABOVE + "def test_a")},
            True,
        ),
        (
            {"calc.py": BASE_F, "test_h.py": TWICE_TC},
            {"test_h.py": TWICE_TC.replace("\n\n\nclass T", ABOVE + "class T")},
            True,
        ),
    ],
    ids=["helper-another-test-line", "testcase-another-line", "unchanged", "moved", "tc-moved"],
)
def test_the_digest_names_the_tests_own_failing_line(
    tmp_path: Path, base: dict[str, str], candidate: dict[str, str], same: bool
) -> None:
    where = tmp_path / "tree"
    where.mkdir()
    theirs = _how(where, base)
    mine = _how(where, candidate)
    assert set(mine) == set(theirs) and len(mine) == 1, (mine, theirs)
    assert (mine == theirs) is same
