"""A delegated change from report to verdict, one step per test, on one real repository
(SPEC §5, §6).

A writer (o4-mini, low effort) changes code, reports a real test run; the parent
spot-checks; a one-byte edit makes a new candidate; an escalation asks for a verifier;
three bad verdicts are refused with their reasons, a proper one satisfies it; one more edit
keeps the escalation (sticky) and drops the verdict (another candidate). The repository
opts out of ``verification.require_observed`` in its first commit, pushed, so the verdict rules
(V1-V3) are what judges these hand-written verdicts; by default none would count
(``tests/integration/test_verify.py`` covers the observed path).

The steps share one repository and run in file order; each asserts the real CLI's exit
code and key output lines exactly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import OPT_OUT, PASSING_VERDICT, CliResult, run_cli, verdict_file

TEST_COMMAND = [sys.executable, "-m", "pytest", "-q", "tests"]
TEST_LINE = " ".join(TEST_COMMAND)
ESCALATION = "the change touches token validation"
ARTIFACTS = ".agents/skills/platform/artifacts/verify-delegation"


@dataclass
class Scenario:
    """The shared repository, its environment, and identities seen so far."""

    repo: Path
    env: dict[str, str]
    tmp: Path
    identities: list[str] = field(default_factory=list)

    def cli(self, *args: str, input: str | None = None) -> CliResult:
        return run_cli(*args, cwd=self.repo, env=self.env, input=input)

    def status(self) -> CliResult:
        r = self.cli("status")
        assert r.code == 0, r
        return r

    def bound(self, data: dict[str, object]) -> dict[str, object]:
        """``data`` naming the current candidate (``verdict add`` refuses one naming none)."""
        cand = json.loads(self.cli("assess", "--json").out)["candidate"]
        ref = {"identity": cand["identity"], "baseTree": cand["base_tree"], "tree": cand["tree"]}
        return {**data, "candidate": ref}

    def identity(self) -> str:
        r = self.cli("status", "--json")
        return str(json.loads(r.out)["assessment"]["candidate"]["identity"])


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    base = tmp_path_factory.mktemp("done-when")
    home = base / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        "[init]\n\tdefaultBranch = main\n[user]\n\tname = T\n\temail = t@example.com\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "GENTLE_", "PYTEST_"))}
    env.update(HOME=str(home), GIT_CONFIG_GLOBAL=str(home / ".gitconfig"), GIT_CONFIG_NOSYSTEM="1")
    repo = base / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", encoding="utf-8")
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
    (repo / ".gentle-hooks.toml").write_text(OPT_OUT, encoding="utf-8")
    (repo / "tests" / "test_app.py").write_text(
        "import sys\nfrom pathlib import Path\n\n"
        "sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'src'))\n\n"
        "from app import add, sub\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\n"
        "def test_sub():\n    assert sub(2, 2) == 0\n",
        encoding="utf-8",
    )
    # the opt-out counts once a remote holds it (README "Opting out")
    shared = base / "shared.git"
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["commit", "-q", "-m", "initial"],
        ["init", "-q", "--bare", str(shared)],
        ["remote", "add", "shared", str(shared)],
        ["push", "-q", "shared", "HEAD:refs/heads/config"],
    ):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    yield Scenario(repo=repo, env=env, tmp=base)


def _write_app(s: Scenario, text: str) -> None:
    (s.repo / "src" / "app.py").write_text(text, encoding="utf-8")


def test_01_the_writer_changes_code_and_records(scenario: Scenario) -> None:
    _write_app(scenario, "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    r = scenario.cli("record", "--model", "o4-mini", "--effort", "low", "--paths", "src/app.py")
    assert (r.code, r.out) == (0, "recorded: pending mutation #1: o4-mini/low, 1 path(s)\n")


def test_02_the_writer_reports_a_real_test_run(scenario: Scenario) -> None:
    r = scenario.cli("receipt", "run", "--", *TEST_COMMAND)
    assert r.code == 0, r
    assert "2 passed" in r.out
    last = r.err.splitlines()[-1]
    ident = scenario.identity()
    scenario.identities.append(ident)
    assert last.startswith(
        f"recorded for {ident[:19]}…: receipt #1: {TEST_LINE}: exit 0  (ran it, "
    )


def test_03_status_says_the_spot_check_is_missing_and_how(scenario: Scenario) -> None:
    lines = scenario.status().lines
    assert lines[0] == "risk: medium  (native medium)"
    writer = next(line for line in lines if line.startswith("writer: "))
    assert writer.startswith("writer: o4-mini/low; review: unknown; ")  # sources: --explain
    assert "  pending mutation #1: o4-mini/low, 1 path(s)" in lines
    assert "spot check: MISSING" in lines
    assert "verifier: not required (plan risk medium)" in lines
    i = lines.index("status: missing spot-check")
    assert lines[i + 1 : i + 4] == [
        "  missing: no spot check for this candidate (required in every tier; plan risk medium)",
        "  run: gentle-hook spot-check",
        "gate: applies (would block)",
    ]


def test_04_the_parent_spot_checks(scenario: Scenario) -> None:
    r = scenario.cli("spot-check")
    assert r.code == 0, r
    assert "2 passed" in r.out
    assert r.err.splitlines()[-1] == (
        f"recorded for {scenario.identities[0][:19]}…: spot check #1: re-ran receipt #1 "
        f"({TEST_LINE}): reported exit 0, observed exit 0: agreed"
    )


def test_05_status_is_satisfied(scenario: Scenario) -> None:
    lines = scenario.status().lines
    assert "spot check: satisfied" in lines
    assert lines[-2:] == ["status: satisfied", "gate: applies (would pass)"]


def test_06_one_more_byte_makes_a_new_candidate_without_a_spot_check(scenario: Scenario) -> None:
    with open(scenario.repo / "src" / "app.py", "ab") as fh:
        fh.write(b"\n")
    ident = scenario.identity()
    assert ident != scenario.identities[0]
    scenario.identities.append(ident)
    lines = scenario.status().lines
    assert "spot check: MISSING" in lines
    i = lines.index("status: missing spot-check")
    assert lines[i + 1 : i + 5] == [
        "  missing: no spot check for this candidate (required in every tier; plan risk medium)",
        # the receipt is bound to the earlier candidate: the writer reports it again first
        "  report again, for this candidate, the last command that passed at the repository "
        "top and counts as a test (no report that "
        "counts is recorded for this candidate yet)",
        f"  run: gentle-hook receipt run -- {TEST_LINE}",
        "  run: gentle-hook spot-check",
    ]
    assert (
        "note: 2 record(s) of this work tree are bound to other candidates and do not count "
        "for this one"
    ) in lines


def test_07_escalate_security(scenario: Scenario) -> None:
    r = scenario.cli("escalate", "--item", "security", "--reason", ESCALATION)
    assert r.code == 0
    assert r.lines == [
        f"recorded for {scenario.identities[1][:19]}…: escalation #1: item 2 security: "
        f"{ESCALATION}",
        "note: sticky: applies to every candidate of this work tree until the work is committed",
    ]
    lines = scenario.status().lines
    assert lines[0] == "risk: high  (native medium)"
    assert lines[1] == f"  escalated: item 2 security: {ESCALATION}"
    assert "verifier: MISSING (0 of 1 accepted verdict(s))" in lines


@pytest.mark.parametrize(
    ("step", "changes", "reason"),
    [
        ("08", {"status": "fail"}, "V1 status is fail, not pass"),
        (
            "09",
            {"fullSuiteRun": False},
            (
                "V2 the full suite did not run in full: a pass needs it (fullSuite, run by a "
                "test runner, every test)"
            ),
        ),
        (
            "10",
            {"criteria": [{"criterion": "tokens are validated before use", "evidence": ""}]},
            "V4 criterion 1 ('tokens are validated before use') has no evidence ('')",
        ),
    ],
    ids=["08-failing", "09-no-full-suite", "10-empty-criterion"],
)
def test_08_to_10_bad_verdicts_are_refused_with_their_reason(
    scenario: Scenario, step: str, changes: dict[str, object], reason: str
) -> None:
    path = verdict_file(
        scenario.tmp, scenario.bound({**PASSING_VERDICT, **changes}), f"verdict-{step}.json"
    )
    r = scenario.cli("verdict", "add", path)
    assert r.code == 1, r
    n = int(step) - 7
    # seed 001 "Completion criteria": without its full suite a verdict is blocked
    status = "blocked" if changes.get("fullSuiteRun") is False else changes.get("status", "pass")
    head, artifact = r.lines[0].split("  (artifact ")
    assert head == (
        f"recorded for {scenario.identities[1][:19]}…: verdict #{n}: brief brief-1, status "
        f"{status}: not accepted: {reason.split(' ', 1)[1]}"  # the rule id only in --json
    )
    assert artifact.startswith(f"{ARTIFACTS}/brief-1-{scenario.identities[1][7:19]}-")
    assert (scenario.repo / artifact.removesuffix(")")).is_file()
    assert r.lines[1] == "note: not accepted: it does not satisfy the verifier requirement"
    if n == 1:  # the first artifact put its directory in this clone's info/exclude
        assert r.lines[2:] == [
            f"note: the artifact directory was added to {scenario.repo}/.git/info/exclude"
        ]
    lines = scenario.status().lines
    assert "verifier: MISSING (0 of 1 accepted verdict(s))" in lines
    missing = next(line for line in lines if line.startswith("  missing: plan risk high"))
    assert missing.startswith(
        "  missing: plan risk high (escalated: 2 security) needs 1 accepted gentle-ai-verify "
        "verdict(s) for this candidate (stakes ordinary), found 0; not accepted: verdict #1 "
        "(brief brief-1, status fail): status is fail, not pass"
    )
    assert missing.endswith(reason.split(" ", 1)[1])
    # the candidate's own file: an earlier candidate's brief is never the one named
    brief = scenario.repo / ".git" / "gentle-hooks" / f"brief-{scenario.identities[1][7:19]}.json"
    assert f"  write: {brief}" in lines
    assert f"  run: gentle-hook verify run --brief {brief}" in lines


def test_11_a_proper_verdict_satisfies_the_verifier(scenario: Scenario) -> None:
    r = scenario.cli("verdict", "add", "-", input=json.dumps(scenario.bound(PASSING_VERDICT)))
    assert r.code == 0, r
    assert r.lines[0].startswith(
        f"recorded for {scenario.identities[1][:19]}…: verdict #4: brief brief-1, status pass: "
        f"accepted  (artifact {ARTIFACTS}/brief-1-"
    )
    assert r.lines[1:] == [
        "note: accepted: counts as the independent gentle-ai-verify run for this candidate only",
    ]
    lines = scenario.status().lines
    assert "verifier: satisfied (1 of 1 accepted verdict(s))" in lines
    assert "status: missing spot-check" in lines  # the spot check was for the old candidate


def test_12_with_a_fresh_report_and_spot_check_the_candidate_is_satisfied(
    scenario: Scenario,
) -> None:
    assert scenario.cli("receipt", "run", "--", *TEST_COMMAND).code == 0
    assert scenario.cli("spot-check").code == 0
    lines = scenario.status().lines
    i = lines.index("status: satisfied")
    assert lines[i + 1] == "gate: applies (would pass)"
    assert json.loads(scenario.cli("assess", "--json").out)["decision"]["blocked"] is False


def test_13_after_one_more_edit_the_escalation_sticks_and_the_verdict_is_gone(
    scenario: Scenario,
) -> None:
    with open(scenario.repo / "src" / "app.py", "ab") as fh:
        fh.write(b"\n")
    lines = scenario.status().lines
    assert lines[0] == "risk: high  (native medium)"
    assert lines[1] == f"  escalated: item 2 security: {ESCALATION}"
    assert "verifier: MISSING (0 of 1 accepted verdict(s))" in lines
    assert "spot check: MISSING" in lines
    i = lines.index("status: missing verifier, spot-check")
    assert lines[i + 1] == (
        "  missing: plan risk high (escalated: 2 security) needs 1 accepted gentle-ai-verify "
        "verdict(s) for this candidate (stakes ordinary), found 0"
    )
    assert not any(line.startswith("  verdict #") for line in lines)
    decision = json.loads(scenario.cli("assess", "--json").out)["decision"]
    assert decision["blocked"] is True
    assert decision["missing"] == ["verifier", "spot-check"]
