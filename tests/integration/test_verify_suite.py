"""``gentle-hook verify run``: the full suite is the full suite, and an observed fail stands
(seed 001 "Rules": "A pass verdict requires the full suite to have run"; SPEC §9).

Refuter r18x F3: a "full suite" of ``pytest -q -k test_add`` passed with fullSuiteRun true.
F4: after the brief's real suite failed, another brief's passing suite was accepted and
the commit went through.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """:func:`~tests.integration.test_verify.make_env`'s repository with a failing test."""
    e = make_env(repo, tmp_path)
    write(repo / "tests" / "test_bad.py", "def test_bad():\n    assert False\n")
    return e


@pytest.mark.parametrize(
    "suite",
    [
        "python3 -m pytest -q -k test_add tests",
        "python3 -m pytest -q tests --deselect tests/test_bad.py::test_bad",
        "python3 -m pytest -q tests/test_app.py::test_add",
    ],
    ids=["k", "deselect", "node-id"],
)
def test_a_suite_that_selects_tests_is_not_the_full_suite(env: Env, suite: str) -> None:
    """F3: blocked (row C1-suite-part), fullSuiteRun false; ``verdict add`` does not
    accept it."""
    env.brief({**BRIEF, "fullSuite": suite})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    assert (out["outcomes"][-1]["result"], out["outcomes"][-1]["row"]) == (
        "blocked",
        "C1-suite-part",
    )
    assert "not the full suite" in out["verdict"]["criteria"][-1]["evidence"]
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def _bad_beside(env: Env) -> None:
    """The failing test in a top-level directory of its own, ``extra/``, and the brief's
    suite ``pytest -q tests extra``."""
    (env.repo / "tests" / "test_bad.py").unlink()
    write(env.repo / "extra" / "test_bad.py", "def test_bad():\n    assert False\n")
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests extra"})


#: A criterion the candidate fails and its base passes (the base subtracts): observed
#: evidence that the candidate fails the brief that holds it.
FAILING = {
    "criterion": "add(2, 3) is -1",
    "run": "python3 -c 'import app; assert app.add(2, 3) == -1'",
}


def _failing_brief(env: Env) -> None:
    """Brief ``add-1`` with :data:`FAILING` among its criteria: its run fails, while a
    brief without it passes on the same candidate (a suite leaving a failing test out no
    longer does: it is observed, row C1-suite-unrun)."""
    env.brief({**BRIEF, "successCriteria": [*BRIEF["successCriteria"], FAILING]})


def test_an_observed_fail_is_not_overridden_by_another_briefs_pass(env: Env) -> None:
    """F4: the brief fails; a second brief without its failing check passes, but neither
    ``verdict add`` nor ``status`` accepts it while the failed run stands, and the reason
    names the run, its brief and what settles it."""
    (env.repo / "tests" / "test_bad.py").unlink()
    _failing_brief(env)
    failed = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert failed["status"] == "fail", failed["outcomes"]
    env.brief({**BRIEF, "id": "add-2"})
    passed = env.json("verify", "run", "--brief", str(env.brief_path))
    assert passed["status"] == "pass", passed["outcomes"]
    added = env.gh("verdict", "add", passed["json_path"])
    assert added.returncode == 1, added.stdout + added.stderr
    assert "not accepted" in added.stdout
    status = env.gh("status")
    assert "verifier: MISSING" in status.stdout, status.stdout
    said = status.stdout + status.stderr
    assert "brief 'add-1' failed for this candidate" in said, said
    assert "re-run brief 'add-1' until it passes" in said


def test_a_failed_suites_run_reads_as_failed_and_its_view_claims_no_acceptance(env: Env) -> None:
    """F7: the status line is not cut mid-word; a suite that exited 1 reporting failed tests
    "failed" (not "it exited 0, but..."); the Markdown view ``verify run`` writes says what
    ``verdict add`` would do, not that the gate accepted it."""
    _bad_beside(env)
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert proc.returncode == 1, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("verify run: fail (a check failed); ") and "…" not in first, first
    assert first.endswith("suite 0/1 passed"), first
    assert "it exited 0, but" not in proc.stdout, proc.stdout
    assert "fail    full suite: python3 -m pytest -q tests extra  (exit 1, " in proc.stdout
    [view] = (env.repo / ".agents/skills/platform/artifacts/verify-delegation").glob("*.md")
    text = view.read_text()
    assert "Accepted for the gate" not in text
    assert "- **To be accepted by `gentle-hook verdict add`:** no (written by `verify run`" in text
    write(env.repo / "extra" / "test_bad.py", "def test_bad():\n    assert True\n")
    passed = env.gh("verify", "run", "--brief", str(env.brief_path))
    first = passed.stdout.splitlines()[0]
    assert first.startswith("verify run: pass (every criterion passed, "), passed.stdout
    assert first.endswith("suite 1/1 passed") and "…" not in first, first


def test_a_held_back_pass_is_not_vouched_for_in_the_note(env: Env) -> None:
    """F4 past the local gate: committed with ``--no-verify``, the note's line of the other
    brief's pass does not say a ``verify run`` wrote it while the observed fail stands, so
    ``gate --range`` (CI) does not count it either."""
    import json

    from tests.conftest import git

    (env.repo / "tests" / "test_bad.py").unlink()
    _failing_brief(env)
    assert env.gh("install").returncode == 0
    receipt = env.gh("receipt", "run", "--", "python3", "-m", "pytest", "-q", "tests/test_app.py")
    assert receipt.returncode == 0, receipt.stdout + receipt.stderr
    assert env.gh("spot-check").returncode == 0
    assert env.json("verify", "run", "--brief", str(env.brief_path), code=1)["status"] == "fail"
    env.brief({**BRIEF, "id": "add-2"})
    passed = env.json("verify", "run", "--brief", str(env.brief_path))
    assert env.gh("verdict", "add", passed["json_path"]).returncode == 1
    git(env.repo, "add", "-A")
    git(env.repo, "commit", "-q", "--no-verify", "-m", "writer: add")
    note = git(env.repo, "notes", "--ref=refs/notes/gentle-hooks", "show", "HEAD")
    verdicts = [x for x in map(json.loads, note.splitlines()) if x.get("kind") == "verdict"]
    assert verdicts and all("observed" not in x for x in verdicts), verdicts
    gate = env.gh("gate", "--range", "HEAD~1..HEAD")
    assert gate.returncode == 1, gate.stdout + gate.stderr
