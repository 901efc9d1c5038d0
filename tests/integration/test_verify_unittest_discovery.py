"""``gentle-hook verify run``: a change that steers ``python -m unittest``'s discovery does
not run the full suite (seed 001 "Rules": "A pass verdict requires the full suite to have
run"; SPEC §9; rows P-unittest-load-tests, C1-suite-part).

Refuter finding r17 of issue 18 (HIGH): the repository declares ``python3 -m unittest -v``
as its full suite; the candidate breaks ``sub`` and adds to ``tests/__init__.py`` a
``load_tests`` that collects ``test_a`` and ``test_new`` only, so the "full suite" ran two
tests, passed, and the verdict passed while ``tests/test_b.py`` failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import commit_all, git, write
from tests.integration.test_verify import Env

BRIEF: dict[str, Any] = {
    "id": "mul-1",
    "objective": "mul(a, b) multiplies",
    "outputFormat": "a patch to app.py",
    "boundaries": ["app.py and tests/ only"],
    "stopCondition": "every check has run",
    "readOnly": False,
    "sideEffects": ["write-repo"],
    "successCriteria": [
        {"criterion": "mul test passes", "run": "python3 -m unittest -v tests.test_new"}
    ],
    "negativeTests": [{"criterion": "old marker gone", "run": "grep -q old_marker app.py"}],
    "fullSuite": "python3 -m unittest -v",
}
#: The refuter's ``load_tests``: discovery collects what it returns, test_b left out.
NARROWING = """import os


def load_tests(loader, standard_tests, pattern):
    here = os.path.dirname(__file__)
    top = os.path.dirname(here)
    for name in ("test_a", "test_new"):
        standard_tests.addTests(loader.discover(here, pattern=name + ".py", top_level_dir=top))
    return standard_tests
"""


def _test(name: str, func: str, call: str, want: int) -> str:
    return (
        f"import unittest\n\nfrom app import {func}\n\n\nclass T(unittest.TestCase):\n"
        f"    def test_{func}(self):\n        self.assertEqual({call}, {want})\n"
    )


def _env(repo: Path, tmp_path: Path, *, base_narrows: bool) -> Env:
    """The base: ``add`` and ``sub`` with a unittest test each, ``python3 -m unittest -v``
    declared as the full suite, and ``tests/__init__.py`` (empty, or ``base_narrows``: the
    narrowing one already); the candidate breaks ``sub``, adds ``mul`` and its test, and
    writes the narrowing ``tests/__init__.py``; recorded and escalated."""
    e = Env(repo, tmp_path)
    e.brief(BRIEF)
    git(repo, "rm", "-q", "-r", "src", "tests")
    write(repo / ".gitignore", "__pycache__/\n")
    write(repo / ".gentle-hooks.toml", '[verification]\nfull_suite = "python3 -m unittest -v"\n')
    write(repo / "app.py", "def add(a, b):\n    return a + b  # old_marker\n\n\n")
    with (repo / "app.py").open("a") as fh:
        fh.write("def sub(a, b):\n    return a - b\n")
    write(repo / "tests" / "__init__.py", NARROWING if base_narrows else "")
    write(repo / "tests" / "test_a.py", _test("a", "add", "add(2, 3)", 5))
    write(repo / "tests" / "test_b.py", _test("b", "sub", "sub(5, 3)", 2))
    commit_all(repo, "base")
    write(
        repo / "app.py",
        "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n\n\n"
        "def mul(a, b):\n    return a * b\n",
    )
    write(repo / "tests" / "test_new.py", _test("new", "mul", "mul(2, 3)", 6))
    write(repo / "tests" / "__init__.py", NARROWING)
    assert e.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert e.gh("escalate", "--item", "security", "--reason", "x").returncode == 0
    return e


def test_a_load_tests_the_change_adds_makes_the_suite_a_part(repo: Path, tmp_path: Path) -> None:
    """r17: the change's ``load_tests`` narrows discovery: the declared suite ran, passed,
    and does not count (C1-suite-part; its evidence names the file); blocked, not
    accepted."""
    env = _env(repo, tmp_path, base_narrows=False)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = next(o for o in out["outcomes"] if o["kind"] == "suite")
    assert (suite["command"], suite["row"]) == ("python3 -m unittest -v", "C1-suite-part"), suite
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    evidence = next(
        c["evidence"] for c in out["verdict"]["criteria"] if c["criterion"] == "full suite"
    )
    assert "(the change adds or changes tests/__init__.py, which steers which tests " in evidence
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def test_a_load_tests_identical_on_the_base_is_the_base_word(repo: Path, tmp_path: Path) -> None:
    """The same narrowing ``tests/__init__.py`` committed at the base: the base's tree
    chose what discovery collects, so the declared suite counts (row C4) and the verdict
    passes."""
    env = _env(repo, tmp_path, base_narrows=True)
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    suite = next(o for o in out["outcomes"] if o["kind"] == "suite")
    assert suite["row"] == "C4", suite
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("pass", True), out["outcomes"]
