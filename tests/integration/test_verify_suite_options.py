"""``verify run``: a full suite's pytest options that select nothing are not reported as a
selection (issue 18, LOW; seed 001 "Rules": "A pass verdict requires the full suite to have
run"; ``gentle_hooks.policy.selection``).

A fresh refuter's full suite ``python3 -m pytest -q -W error::DeprecationWarning -p
no:cacheprovider tests`` was blocked as one that "selected or deselected tests": ``-W
error::...`` turns warnings into failures and ``-p no:cacheprovider`` drops a cache; neither
leaves a test out. A run under options that override the configuration (``-W ignore::...``)
is still not the full suite, and its evidence says what the options did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_verify import Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """:func:`~tests.integration.test_verify.make_env`'s repository."""
    return make_env(repo, tmp_path)


@pytest.mark.parametrize(
    "suite",
    [
        "python3 -m pytest -q -W error::DeprecationWarning -p no:cacheprovider tests",
        "python3 -m pytest -q -x -p no:randomly tests",
    ],
    ids=["W-error-p-no-cacheprovider", "x-p-no-randomly"],
)
def test_harmless_options_leave_the_full_suite_whole(env: Env, suite: str) -> None:
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--suite", suite)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("pass", True), out["outcomes"]
    assert "not the full suite" not in out["verdict"]["summary"]


def test_an_option_overriding_the_configuration_says_what_it_is(env: Env) -> None:
    suite = "python3 -m pytest -q -W ignore::DeprecationWarning tests"
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--suite", suite, code=1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    assert out["verdict"]["summary"].startswith(
        "blocked (the full suite ran some of the tests, or under another configuration: it is "
        "not the full suite)"
    )
    evidence = out["verdict"]["criteria"][-1]["evidence"]
    assert "some of the tests" not in evidence and "selected" not in evidence, evidence
    assert "override the repository's pytest configuration" in evidence, evidence
