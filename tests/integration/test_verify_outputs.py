"""A report a verifier's check writes where its own command says (``pytest
--junitxml=out.xml``) is the check's output, not a change of the artifact it judges (issue
18, seed 001 "Guardrails"; refuter r18y): the run goes on, and the report is removed before
the next run, so no later run or check sees it. A file a check writes anywhere else still
ends the run (C0, S0: ``tests/integration/test_verify.py``).
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
    "check",
    [
        "python3 -m pytest -q -p no:cacheprovider --junitxml=out.xml tests",
        "python3 -m pytest -q -p no:cacheprovider --junit-xml out.xml tests",
        "python3 -m pytest -q -p no:cacheprovider --junitxml=reports/out.xml tests",
    ],
)
def test_a_report_the_check_names_is_no_change_of_the_artifact(env: Env, check: str) -> None:
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", check)
    assert out["status"] == "pass", out["outcomes"]
    assert not any(o.get("changed") for o in out["outcomes"]), out["outcomes"]
    assert [o["command"] for o in out["outcomes"]].count(check) == 1
    assert not (env.repo / "out.xml").exists() and not (env.repo / "reports").exists()


def test_a_report_is_removed_before_the_next_check(env: Env) -> None:
    """The second check (it reads the change too) fails when the first one's report is
    still there."""
    writes = "python3 -m pytest -q -p no:cacheprovider --junitxml=out.xml tests"
    absent = (
        'python3 -c \'import os, app; assert not os.path.exists("out.xml"); '
        "assert app.add(2, 2) == 4'"
    )
    out = env.json(
        "verify", "run", "--brief", str(env.brief_path), "--check", writes, "--check", absent
    )
    assert out["status"] == "pass", out["outcomes"]
    assert not any(o.get("changed") for o in out["outcomes"]), out["outcomes"]


def test_a_file_the_command_does_not_name_as_its_output_still_blocks(env: Env) -> None:
    check = "python3 -m pytest -q -p no:cacheprovider tests && printf 'x = 1\\n' > out.xml"
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", check, code=1)
    assert out["status"] == "blocked", out["outcomes"]
    last = out["outcomes"][-1]
    assert (last["command"], last["row"]) == (check, "C0")
    assert "out.xml" in last["changed"]
