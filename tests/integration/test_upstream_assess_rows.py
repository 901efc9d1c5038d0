"""Upstream gentle-ai's assess rows on real repositories: the built-in provider's
tier from frozen bytes, and ``gentle-hook assess --json`` against the v1 contract.

Sources (rows as data, no code copied):

* ``RISK``: Gentleman-Programming/gentle-ai ``internal/reviewtransaction/risk_test.go`` at
  38030fa21235b23b3fc6332e3cd79110bf4b2c3f (the tests that build a snapshot repository).
* ``ASSESS``: ``internal/cli/review_assess_test.go`` of gentle-ai as mirrored by the fork
  Rogercode97/gentle-ai at 034304e1d99b5f4e9261966d65e4006fd79a1561 (the upstream
  repository's copy is not in the index).
* ``ESCALATE``: ``internal/cli/review_assess_escalation_test.go`` as mirrored by the fork
  santiago-ramos-02/gentle-ai at f0be453ef44d7306fc289689de6523ed32e287df.
* ``SCHEMA``: the v1 envelope as Gentleman-Programming/gentle-ai ``docs/review-
  integration.md`` (0650f4f477f134f2f7958580e7f80cbe69c54e3e) states it, transcribed to
  ``docs/contracts/review-assessment-v1.schema.json``.

Where a seed line rules otherwise (no ``next_transition`` is invented), the test asserts
our rule and ``docs/native-contract.md`` names the exception.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.repository import Repository
from gentle_hooks.native.builtin import assess_native_builtin
from gentle_hooks.native.decode import decode_assessment
from gentle_hooks.report.models import ReviewAssessment
from gentle_hooks.services.assess import AssessRequest, run_assess
from gentle_hooks.values.candidate import Projection
from tests.conftest import commit_all, gh, git, write

SCHEMA_FILE = (
    Path(__file__).resolve().parents[2] / "docs/contracts/review-assessment-v1.schema.json"
)
VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
#: ``gentle-hook schema review-assessment``: our model of the same envelope.
OURS = jsonschema.Draft202012Validator(ReviewAssessment.model_json_schema(by_alias=True))


@pytest.fixture
def snap(tmp_path: Path) -> Path:
    """Upstream's ``initSnapshotRepo``: one commit holding ``tracked.txt``."""
    root = tmp_path / "snap"
    root.mkdir()
    git(root, "init", "-q")
    git(root, "config", "core.filemode", "true")
    write(root / "tracked.txt", "tracked\n")
    commit_all(root, "initial")
    return root


def native_of(root: Path) -> Any:
    """The built-in assessment of the work tree (untracked files in) against HEAD."""
    result = run_assess(AssessRequest(cwd=str(root), native="builtin"), os.environ)
    assert result.native is not None
    return result.native


# -- RISK: TestTierIsClassifiedByContentNotExtension --------------------------------------

CONTENT_TIERS = [
    ("passive documentation", "docs/guide.md", "Ordinary prose line.\n" * 900, "passive"),
    ("static MDX chapter", "book/chapter.mdx", "Static prose line.\n" * 900, "passive"),
    (
        "executable MDX chapter",
        "book/chapter.mdx",
        "import Widget from './widget'\n\nProse.\n",
        "medium",
    ),
    ("executable Markdown", "docs/guide.md", "#!/usr/bin/env bash\necho hello\n", "medium"),
    ("inert dependency manifest", "requirements.txt", "requests==2.31.0\nrich==13.7.0\n", "medium"),
    ("inert CMake list", "CMakeLists.txt", "project(demo)\nadd_library(demo demo.c)\n", "medium"),
    (
        "dependency manifest proving a spawn construct",
        "requirements.txt",
        "# installed via subprocess.run(pip)\nrequests==2.31.0\n",
        "high",
    ),
    (
        "CMake list proving a spawn construct",
        "CMakeLists.txt",
        "project(demo)\nexecute_process(COMMAND git rev-parse HEAD)\n",
        "high",
    ),
    (
        "README shell script proving a spawn construct",
        "README-install.sh",
        '#!/bin/sh\nexec "$@"\n',
        "high",
    ),
    (
        "database Exec method is not a spawn construct",
        "internal/storage/repository.go",
        'package storage\n\nimport "database/sql"\n\nfunc insert(db *sql.DB, text string) error {\n'
        '\t_, err := db.Exec("INSERT INTO verses(text) VALUES (?)", text)\n\treturn err\n}\n',
        "medium",
    ),
    (
        "RegExp exec method is not a spawn construct",
        "src/parse.js",
        "const match = /^(\\d+)/.exec(input);\n",
        "medium",
    ),
    (
        "Go source proving a spawn construct",
        "internal/tools/run.go",
        'package tools\n\nimport "os/exec"\n\n'
        'func run() error { return exec.Command("git", "status").Run() }\n',
        "high",
    ),
    (
        "Node source proving a spawn construct",
        "src/run.js",
        'const { execFile } = require("child_process");\n',
        "high",
    ),
    (
        "Java source proving a spawn construct",
        "src/Run.java",
        'class Run { void go() throws Exception { Runtime.getRuntime().exec("ls"); } }\n',
        "high",
    ),
    (
        "Python source proving a spawn construct",
        "tools/run.py",
        'import os\nos.system("ls")\n',
        "high",
    ),
]


@pytest.mark.parametrize(
    ("name", "path", "content", "tier"), CONTENT_TIERS, ids=[r[0] for r in CONTENT_TIERS]
)
def test_tier_is_classified_by_content(
    snap: Path, name: str, path: str, content: str, tier: str
) -> None:
    write(snap / path, content)
    assert native_of(snap).risk == tier


# -- RISK: TestAssessSnapshotRiskDerivesProvableShellAndExecutableModeReasons -------------


@pytest.mark.parametrize(
    ("path", "content", "reason", "lines"),
    [
        (
            "tools/run.sh",
            "printf '%s\\n' safe\n",
            ("shell_source", "tools/run.sh", "signal: shell_process"),
            1,
        ),
        (
            ".github/workflows/ci.yml",
            "jobs: {}\n",
            ("shell_source", ".github/workflows/ci.yml", "signal: shell_process"),
            1,
        ),
        (
            ".github/workflows/ci.yaml",
            "jobs: {}\n",
            ("shell_source", ".github/workflows/ci.yaml", "signal: shell_process"),
            1,
        ),
    ],
    ids=["eligible shell source", "GitHub workflow YAML", "GitHub workflow YAML long extension"],
)
def test_shell_source_reasons(
    snap: Path, path: str, content: str, reason: tuple[str, ...], lines: int
) -> None:
    write(snap / path, content)
    native = native_of(snap)
    assert native.risk == "high" and native.changed_lines == lines
    assert [(r.code, r.path, r.detail) for r in native.reasons] == [reason]


def test_executable_mode_change_reason(snap: Path) -> None:
    (snap / "tracked.txt").chmod(0o755)
    native = native_of(snap)
    assert native.risk == "high" and native.changed_lines == 0
    assert [(r.code, r.path, r.detail) for r in native.reasons] == [
        ("executable_mode", "tracked.txt", "signal: permissions; mode 100644 -> 100755")
    ]


# -- RISK: TestTierTwoAlwaysNamesItsEvidence, TestClassifySnapshotRiskDerivesAuth... --------

EVIDENCE = [
    ("authorization source", "internal/auth/token.go", "package auth\n"),
    ("shell source", "tools/run.sh", "printf 'safe\\n'\n"),
    ("process boundary", "tools/runner.py", "import subprocess\nsubprocess.run(argv)\n"),
    ("service token source", "internal/identity/service_token.go", "package identity\n"),
    ("service token counted", "neutral/service-token.ts", "export const token = 'candidate'\n"),
]


@pytest.mark.parametrize(("name", "path", "content"), EVIDENCE, ids=[r[0] for r in EVIDENCE])
def test_tier_two_names_its_evidence(snap: Path, name: str, path: str, content: str) -> None:
    write(snap / path, content)
    native = native_of(snap)
    assert native.risk == "high" and native.changed_lines < 400
    assert any(
        r.code and r.path and (r.detail or "").startswith("signal: ") for r in native.reasons
    )


# -- ASSESS: review assess --json, through gentle-hook assess --json -----------------------


def assess_json(root: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    proc = gh(root, "assess", "--json", *args)
    data = json.loads(proc.stdout) if proc.stdout.strip() else {}
    return proc.returncode, data, proc.stderr


def native_json(root: Path, *args: str) -> dict[str, Any]:
    code, data, err = assess_json(root, *args)
    assert code == 0, err
    envelope: dict[str, Any] = data["native"]["assessment"]
    VALIDATOR.validate(envelope)
    OURS.validate(envelope)
    decode_assessment(json.dumps(envelope).encode())  # upstream's decoder rules accept it
    return envelope


def test_passive_documentation_candidate(snap: Path) -> None:
    write(snap / "docs/guide.md", "ordinary documentation prose.\n")
    env = native_json(snap)
    assert (env["risk"], env["changed_paths"], env["candidate"]) == (
        "passive",
        1,
        {"kind": "current-changes", "consumed": False},
    )
    assert env["reasons"] == [{"code": "non_executable_only"}]
    assert (env["review_due"], env["review_due_reason"]) == (False, "passive")
    assert "next_transition" not in env


def test_executable_change_candidate(snap: Path) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    env = native_json(snap)
    assert env["risk"] == "medium" and env["changed_lines"] < 400
    assert env["reasons"] == [{"code": "executable_change", "path": "notes/scratch.txt"}]
    assert (env["review_due"], env["review_due_reason"]) == (False, "under_budget")
    assert "next_transition" not in env


def test_hot_path_candidate_is_due_without_an_invented_continuation(snap: Path) -> None:
    write(snap / "internal/auth/login.go", "package auth\n")
    env = native_json(snap)
    assert env["risk"] == "high"
    assert {"code": "hot_path", "path": "internal/auth/login.go", "detail": "signal: auth"} in env[
        "reasons"
    ]
    assert (env["review_due"], env["review_due_reason"]) == (True, "high_risk")
    # seed 000: the built-in provider invents no next_transition (upstream's binary adds one)
    assert "next_transition" not in env


def test_committed_base_diff_echoes_the_base_ref(snap: Path) -> None:
    base = git(snap, "rev-parse", "HEAD").strip()
    write(snap / "scripts/deploy.sh", "echo deploy\n")
    commit_all(snap, "add deploy script")
    env = native_json(snap, "--base-ref", base, "--committed-only")
    assert env["candidate"] == {"kind": "base-diff", "base_ref": base, "consumed": False}
    assert env["risk"] == "high" and env["changed_lines"] == 1


def test_unbuildable_base_ref_names_the_fix(snap: Path) -> None:
    proc = gh(snap, "assess", "--committed-only", "--base-ref", "not-a-real-ref-4295")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "--base-ref 'not-a-real-ref-4295' is not a known ref" in proc.stderr
    assert "git branch -a" in proc.stderr


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("docs/guide.md", "ordinary documentation prose.\n"),
        ("notes/scratch.txt", "some plain scratch content\n"),
        ("internal/auth/login.go", "package auth\n"),
    ],
    ids=["passive", "medium", "high"],
)
def test_json_envelope_validates_against_the_published_contract(
    snap: Path, path: str, body: str
) -> None:
    write(snap / path, body)
    native_json(snap)


def test_medium_at_budget_reports_slice_budget_reached(snap: Path) -> None:
    base = git(snap, "rev-parse", "HEAD").strip()
    write(
        snap / "notes/scratch-large.txt",
        "".join(f"scratch change line {i:03d}\n" for i in range(1, 401)),
    )
    commit_all(snap, "add large scratch file")
    env = native_json(snap, "--base-ref", base, "--committed-only")
    assert env["risk"] == "medium" and env["changed_lines"] >= 400
    assert (env["review_due"], env["review_due_reason"]) == (True, "slice_budget_reached")
    assert env["candidate"]["consumed"] is False


def test_consumed_candidate_reports_already_reviewed(snap: Path) -> None:
    """Upstream's row on the classifier, with the consumed fact passed in; through the CLI
    a ``review ack`` is a caller's word and never makes the built-in provider consumed
    (seed exception 8 of ``docs/native-contract.md``; seed 000)."""
    write(snap / "docs/guide.md", "ordinary documentation prose.\n")
    assert gh(snap, "review", "ack").returncode == 0
    env = native_json(snap)
    assert env["candidate"]["consumed"] is False
    assert env["review_due_reason"] != "already_reviewed"
    repo = Repository.open(str(snap))
    cand = repo.candidate(Projection.SNAPSHOT, flag_ref=None, config_ref=None)
    _, native = assess_native_builtin(repo, cand, RiskSettings(), consumed=True)
    envelope = native.to_json()
    assert envelope["candidate"]["consumed"] is True
    assert (envelope["review_due"], envelope["review_due_reason"]) == (False, "already_reviewed")
    assert "next_transition" not in envelope


def test_json_fails_closed_with_a_valid_envelope(snap: Path) -> None:
    code, env, err = assess_json(snap)  # an empty candidate
    assert code == 2 and err.startswith("gentle-hook: error: the candidate is empty")
    VALIDATOR.validate(env)
    OURS.validate(env)
    assert (env["risk"], env["candidate"]["kind"], env["reasons"][0]["code"]) == (
        "high",
        "current-changes",
        "unassessable",
    )
    code, env, err = assess_json(snap, "--base-ref", "nonexistent-ref")
    assert code == 2 and "nonexistent-ref" in err
    VALIDATOR.validate(env)
    assert (env["risk"], env["candidate"]) == (
        "high",
        {"kind": "base-diff", "base_ref": "nonexistent-ref", "consumed": False},
    )


def test_without_json_a_failure_prints_no_envelope(snap: Path) -> None:
    proc = gh(snap, "assess", "--committed-only", "--base-ref", "nonexistent-ref")
    assert proc.returncode == 2 and proc.stdout == ""


# -- ESCALATE: --escalate-item raises the envelope, never nativeRisk ------------------------


def test_escalation_raises_medium_to_high(snap: Path) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    code, data, err = assess_json(
        snap,
        "--escalate-item",
        "2",
        "--escalate-reason",
        "weakens the permission check in utils.ts",
    )
    assert code == 0, err
    env = data["native"]["assessment"]
    VALIDATOR.validate(env)
    assert (env["risk"], env["review_due"], env["review_due_reason"]) == ("high", True, "high_risk")
    last = env["reasons"][-1]
    assert last["code"] == "agent_escalation" and "item 2 (security)" in last["detail"]
    assert "weakens the permission check in utils.ts" in last["detail"]
    # SPEC §5: nativeRisk keeps the native tier; the plan is high by the escalation
    assert (data["nativeRisk"], data["risk"]) == ("medium", "high")


def test_escalation_raises_passive_to_high(snap: Path) -> None:
    write(snap / "docs/guide.md", "ordinary documentation prose.\n")
    code, data, err = assess_json(
        snap, "--escalate-item", "3", "--escalate-reason", "documents a published flag"
    )
    assert code == 0, err
    assert data["native"]["assessment"]["risk"] == "high" and data["nativeRisk"] == "passive"


def test_without_escalation_the_native_tier_stays(snap: Path) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    env = native_json(snap)
    assert env["risk"] == "medium"
    assert all(r["code"] != "agent_escalation" for r in env["reasons"])


@pytest.mark.parametrize(
    "extra",
    [
        ["--escalate-item", "2"],
        ["--escalate-reason", "x"],
        ["--escalate-item", "0", "--escalate-reason", "x"],
        ["--escalate-item", "7", "--escalate-reason", "x"],
        ["--escalate-item", "two", "--escalate-reason", "x"],
        ["--escalate-item", "2", "--escalate-reason", "   "],
        ["--escalate-item", "2", "--escalate-reason", "x" * 501],
    ],
    ids=[
        "item without reason",
        "reason without item",
        "item zero",
        "item seven",
        "item not a number",
        "blank reason",
        "oversized reason",
    ],
)
def test_malformed_escalation_is_refused(snap: Path, extra: list[str]) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    code, env, err = assess_json(snap, *extra)
    assert code == 2 and "escalat" in err
    VALIDATOR.validate(env)


# -- ENVELOPE: the candidate and the failure envelope, field for field ---------------------
# Gentleman-Programming/gentle-ai internal/cli/review_assess.go at
# 0dc8126f62d69d8d5122e0bc40a1a787928dd90b (RunReviewAssess): the candidate is
# {kind: snapshot kind, base_ref: --base-ref trimmed (omitted when empty), consumed}; a
# refusal under --json prints failClosed's envelope, whose candidate is current-changes
# until the flags and the escalation are accepted, then base-diff with the trimmed base ref.


def test_a_named_base_is_a_base_diff_with_its_ref(snap: Path) -> None:
    base = git(snap, "rev-parse", "HEAD").strip()
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    commit_all(snap, "scratch")
    env = native_json(snap, "--base-ref", f"  {base}  ")
    assert env["candidate"] == {"kind": "base-diff", "base_ref": base, "consumed": False}


def test_current_changes_name_no_base_ref(snap: Path) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    for args in ([], ["--staged"]):
        if args:
            git(snap, "add", "-A")
        env = native_json(snap, *args)
        assert env["candidate"] == {"kind": "current-changes", "consumed": False}


def refused(root: Path, *args: str) -> tuple[dict[str, Any], str]:
    """A refusal under --json: exit 2, one line on stderr, and on stdout a failure envelope
    the v1 schema, our model and upstream's decoder rules all accept."""
    proc = gh(root, "assess", *args)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gentle-hook: error: ")
    env: dict[str, Any] = json.loads(proc.stdout)
    VALIDATOR.validate(env)
    OURS.validate(env)
    decode_assessment(proc.stdout.encode())
    assert (env["risk"], env["changed_paths"], env["changed_lines"]) == ("high", 0, 0)
    assert (env["review_due"], env["review_due_reason"]) == (True, "high_risk")
    assert [r["code"] for r in env["reasons"]] == ["unassessable"]
    return env, proc.stderr


USAGE_ERRORS = [
    ("unknown option", ["--json", "--no-such-flag"], "No such option"),
    ("bad value", ["--json", "--review-outcome", "maybe"], "Invalid value"),
    ("extra argument", ["--json", "extra"], "unexpected extra argument"),
    ("missing value", ["--json", "--base-ref"], "requires an argument"),
    ("json with a value", ["--json=true"], "does not take a value"),
    ("bad value with a base ref", ["--json", "--base-ref", "HEAD", "--cwd"], "requires"),
]


@pytest.mark.parametrize(("name", "args", "said"), USAGE_ERRORS, ids=[u[0] for u in USAGE_ERRORS])
def test_a_usage_error_under_json_prints_a_failure_envelope(
    snap: Path, name: str, args: list[str], said: str
) -> None:
    env, err = refused(snap, *args)
    assert said in err and said in env["reasons"][0]["detail"]
    # upstream's flag parser refuses before the base ref is read: nothing is named yet
    assert env["candidate"] == {"kind": "current-changes", "consumed": False}


def test_a_usage_error_without_json_prints_nothing_on_stdout(snap: Path) -> None:
    for args in (["--no-such-flag"], ["--json=0", "--no-such-flag"]):
        proc = gh(snap, "assess", *args)
        assert proc.returncode == 2 and proc.stdout == ""


def test_an_argument_refused_before_the_base_is_named_reports_current_changes(
    snap: Path,
) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    env, _ = refused(
        snap, "--json", "--base-ref", "HEAD", "--escalate-item", "9", "--escalate-reason", "x"
    )
    assert env["candidate"] == {"kind": "current-changes", "consumed": False}
    env, _ = refused(snap, "--json", "--base-ref", "HEAD", "--writer-effort", "enormous")
    assert env["candidate"] == {"kind": "current-changes", "consumed": False}


def test_a_later_refusal_echoes_the_trimmed_base_ref(snap: Path) -> None:
    env, _ = refused(snap, "--json", "--committed-only", "--base-ref", " no-such-ref-4295 ")
    assert env["candidate"] == {
        "kind": "base-diff",
        "base_ref": "no-such-ref-4295",
        "consumed": False,
    }


# -- the small-writer rule through the command line ----------------------------------------
# Gentleman-Programming/gentle-pi lib/review-risk-assessment.ts at
# cde8010230351e24d42c2a289f57be3c399c07bd (isSmallWriterProfile): effort low is small; a
# model id is small exactly with a whole 'mini' token; without one, small only when the
# effort is unknown too.

WRITERS = [
    (["--writer-effort", "high"], False),
    (["--writer-effort", "high", "--writer-model", ""], False),
    (["--writer-effort", "low"], True),
    (["--writer-model", " "], False),
    (["--writer-model", "o4-mini", "--writer-effort", "high"], True),
    (["--writer-model", "gemini-2.5-pro"], False),
    ([], True),
]


@pytest.mark.parametrize(
    ("args", "small"), WRITERS, ids=[" ".join(w[0]) or "none" for w in WRITERS]
)
def test_small_writer_through_assess(snap: Path, args: list[str], small: bool) -> None:
    write(snap / "notes/scratch.txt", "some plain scratch content\n")
    code, data, err = assess_json(snap, *args)
    assert code == 0, err
    assert data["writerProfile"]["small"] is small
    assert data["verification"]["verifiers"] == 0  # seed 000: the writer never adds one


# -- renames, counted as upstream counts them ----------------------------------------------
# Gentleman-Programming/gentle-ai internal/reviewtransaction/snapshot.go (DiffStats: git diff
# --numstat --no-renames; changedPaths: diff-tree --no-renames) with risk.go at
# 25385eee8eee6efd51c6b943845b89adda2333e1 (CountChangedLines, isEmptyContentStat): a
# rename is its old path deleted and its new path added, every line counted.


def test_a_rename_counts_both_paths_and_every_line(snap: Path) -> None:
    base = git(snap, "rev-parse", "HEAD").strip()
    write(snap / "keep.txt", "a\nb\nc\nd\n")
    write(snap / "gone.txt", "l1\nl2\nl3\n")
    commit_all(snap, "two files")
    base = git(snap, "rev-parse", "HEAD").strip()
    git(snap, "rm", "-q", "gone.txt")
    git(snap, "mv", "keep.txt", "moved.txt")
    commit_all(snap, "delete and rename")
    env = native_json(snap, "--base-ref", base, "--committed-only")
    assert (env["changed_paths"], env["changed_lines"]) == (3, 3 + 4 + 4)
    assert env["reasons"] == [{"code": "executable_change", "path": "gone.txt"}]
    # the changes listed beside it keep git's rename pairing (SPEC §3)
    _, data, _ = assess_json(snap, "--base-ref", base, "--committed-only")
    assert sorted((c["path"], c["status"]) for c in data["changes"]) == [
        ("gone.txt", "D"),
        ("moved.txt", "R"),
    ]


def test_a_pure_rename_is_not_empty_content(snap: Path) -> None:
    write(snap / "src/tool.py", "print('x')\n")
    commit_all(snap, "tool")
    base = git(snap, "rev-parse", "HEAD").strip()
    git(snap, "mv", "src/tool.py", "src/tool2.py")
    commit_all(snap, "rename")
    env = native_json(snap, "--base-ref", base, "--committed-only")
    assert env["risk"] == "medium" and env["changed_lines"] == 2
    assert env["reasons"] == [{"code": "executable_change", "path": "src/tool.py"}]


def test_a_renamed_process_call_is_an_added_line(snap: Path) -> None:
    write(snap / "tools/runner.py", "import subprocess\nsubprocess.run(['ls'])\n")
    commit_all(snap, "runner")
    base = git(snap, "rev-parse", "HEAD").strip()
    git(snap, "mv", "tools/runner.py", "tools/launcher.py")
    commit_all(snap, "rename")
    env = native_json(snap, "--base-ref", base, "--committed-only")
    assert env["risk"] == "high"
    assert {
        "code": "process_boundary",
        "path": "tools/launcher.py",
        "detail": "signal: shell_process",
    } in env["reasons"]


def test_a_renamed_document_stays_passive(snap: Path) -> None:
    write(snap / "docs/guide.md", "ordinary documentation prose.\n")
    commit_all(snap, "guide")
    base = git(snap, "rev-parse", "HEAD").strip()
    git(snap, "mv", "docs/guide.md", "docs/handbook.md")
    commit_all(snap, "rename")
    env = native_json(snap, "--base-ref", base, "--committed-only")
    assert (env["risk"], env["changed_paths"], env["changed_lines"]) == ("passive", 2, 2)
