"""``gentle-hook verify run``: a pytest full suite is judged by what it ran, observed, not by
its command's words (issue 18; seed 001 "Rules": "A pass verdict requires the full suite to
have run").

Refuter r18r (HIGH): a suite narrowed by its directory (``cd sub && pytest -q``, ``env -C
sub pytest -q``), by a variable (``A=--ignore=x && pytest -q $A``, ``set -- ... && pytest
"$@"``, ``pytest -q $OPTS`` with ``OPTS`` from the brief's ``env``) or by a file (``pytest
-q @args.txt``, ``xargs pytest -q < args.txt``) gave ``verify run: pass`` with
``fullSuiteRun: true`` while a test outside what it ran failed. The tool's observer plugin
now records the node ids each pytest session ran, and the whole suite is collected at the
tree's top with no arguments: a run that did not run all of it is ``blocked`` (row
C1-suite-unrun), one nothing observed too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.integration.test_verify import BRIEF, Env, make_env

#: Each narrowing form: (id, fullSuite, the brief's extra env). ``tests`` is the part
#: run; the failing test is in ``extra/``, outside it.
NARROWED: list[tuple[str, str, dict[str, str]]] = [
    ("cd", "cd tests && python3 -m pytest -q", {}),
    ("env-C", "env -C tests python3 -m pytest -q", {}),
    ("variable", "A=--ignore=extra && python3 -m pytest -q $A", {}),
    ("set-args", 'set -- --ignore=extra && python3 -m pytest -q "$@"', {}),
    ("brief-env", "python3 -m pytest -q $OPTS", {"OPTS": "--ignore=extra"}),
    ("at-file", "python3 -m pytest -q @args.txt", {}),
    ("xargs", "xargs python3 -m pytest -q < args.txt", {}),
    ("tests-only", "python3 -m pytest -q tests", {}),
]


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """The escalated change, with a test outside ``tests/`` that fails, and the candidate's
    ``args.txt`` telling pytest to leave it out."""
    e = make_env(repo, tmp_path)
    write(repo / "extra" / "test_bad.py", "def test_bad():\n    assert 2 * 3 == 5\n")
    write(repo / "args.txt", "--ignore=extra\n")
    return e


def _run(env: Env, suite: str, more: dict[str, str], code: int) -> dict[str, Any]:
    env.brief({**BRIEF, "fullSuite": suite, "env": {**BRIEF["env"], **more}})
    return env.json("verify", "run", "--brief", str(env.brief_path), code=code)


def test_the_whole_suite_fails(env: Env) -> None:
    """The control row: a plain ``pytest -q`` at the top runs the failing test: fail."""
    out = _run(env, "python3 -m pytest -q", {}, 1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("fail", True), out["outcomes"]
    assert out["outcomes"][-1]["row"] == "C5", out["outcomes"]


@pytest.mark.parametrize("n", range(len(NARROWED)), ids=[f[0] for f in NARROWED])
def test_a_narrowed_suite_is_blocked_never_passed(env: Env, n: int) -> None:
    """Every narrowing form: blocked (C1-suite-unrun: "1 of the 2 tests ... did not run,
    e.g. extra/test_bad.py::test_bad"), fullSuiteRun false, and ``verdict add`` does not
    accept it."""
    _, suite, more = NARROWED[n]
    out = _run(env, suite, more, 1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    last = out["outcomes"][-1]
    assert (last["result"], last["row"]) == ("blocked", "C1-suite-unrun"), out["outcomes"]
    evidence = out["verdict"]["criteria"][-1]["evidence"]
    assert "1 of the 2 tests the whole suite collects" in evidence, evidence
    assert "e.g. extra/test_bad.py::test_bad" in evidence, evidence
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def test_an_unobserved_run_is_blocked(env: Env) -> None:
    """A run that drops the observer (its ``PYTEST_PLUGINS`` unset) shows nothing of what
    it ran: blocked, saying so, even with the failing test gone."""
    (env.repo / "extra" / "test_bad.py").unlink()
    out = _run(env, "env -u PYTEST_PLUGINS python3 -m pytest -q", {}, 1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    assert out["outcomes"][-1]["row"] == "C1-suite-unrun", out["outcomes"]
    evidence = out["verdict"]["criteria"][-1]["evidence"]
    assert "the run could not be observed" in evidence, evidence


@pytest.mark.parametrize(
    "suite",
    ["python3 -m pytest -q", "pytest -q", "python -m pytest", "python3 -m pytest -q tests"],
    ids=["python3-m", "pytest", "python-m", "tests-dir"],
)
def test_the_whole_suite_passes(repo: Path, tmp_path: Path, suite: str) -> None:
    """The whole suite run, however it is started (``tests/`` is the whole suite here):
    pass, fullSuiteRun true."""
    env = make_env(repo, tmp_path)
    write(repo / "tests" / "test_more.py", "def test_more():\n    assert 1 + 1 == 2\n")
    out = _run(env, suite, {}, 0)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("pass", True), out["outcomes"]
    assert out["outcomes"][-1]["row"] == "C4", out["outcomes"]
