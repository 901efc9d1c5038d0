"""``gentle-hook verify prepare|run`` and ``verdict add`` on real repositories.

Seed ``001_3bc4c9b08e2f7709.txt`` (verify-delegation) "Contract", "Workflow", "Artifact",
"Rules", "Guardrails", "Completion criteria"; SPEC §6 "verdict", §9. The real CLI runs in a
subprocess; rooms go under a per-test ``TMPDIR``; git is real.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from gentle_hooks.artifacts.recorded import RECORDED_ONLY
from tests.conftest import (
    PASSING_VERDICT,
    bound_verdict,
    commit_all,
    gh,
    git,
    share,
    user_path,
    write,
)

ARTIFACTS = ".agents/skills/platform/artifacts/verify-delegation"

#: The ledger's rows of ended runs (a run's start row, verdict_digest 'started', aside).
ENDED = "SELECT {} FROM verify_run WHERE verdict_digest != 'started'"

BRIEF: dict[str, Any] = {
    "id": "add-1",
    "objective": "add() adds two numbers",
    "outputFormat": "a patch to src/app.py",
    "toolGuidance": ["SECRET-TOOL-GUIDANCE: use the debugger"],
    "boundaries": ["SECRET-BOUNDARY: src/ only"],
    "stopCondition": "SECRET-STOP: tests pass",
    "readOnly": False,
    "sideEffects": ["write-repo"],
    "successCriteria": [
        {"criterion": "add(2, 2) is 4", "run": "python3 -c 'import app; assert app.add(2, 2) == 4'"}
    ],
    "negativeTests": [
        {
            "criterion": "the old subtraction is gone",
            "run": ["python3", "-c", "import app; assert app.add(2, 3) == -1"],
        }
    ],
    "fullSuite": "python3 -m pytest -q tests",
    "env": {"PYTHONPATH": "src"},
}


class Env:
    """The CLI in one repository, with rooms under a private TMPDIR."""

    def __init__(self, repo: Path, tmp: Path) -> None:
        self.repo = repo
        self.tmp = tmp / "rooms"
        self.tmp.mkdir()
        self.brief_path = tmp / "brief.json"
        self.brief(BRIEF)

    def brief(self, data: dict[str, Any]) -> Path:
        self.brief_path.write_text(json.dumps(data), encoding="utf-8")
        return self.brief_path

    def gh(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        # PYTHONPATH: the checks import the room's src/app.py, as the project's own tests would;
        # PATH: the user who runs gentle-hook has it on PATH, so the commands it prints name it
        path = user_path()
        extra = {"TMPDIR": str(self.tmp), "PYTHONPATH": "src", "PATH": path, **(env or {})}
        return gh(self.repo, *args, env=extra)

    def json(self, *args: str, code: int = 0, env: dict[str, str] | None = None) -> dict[str, Any]:
        proc = self.gh(*args, "--json", env=env)
        assert proc.returncode == code, proc.stderr
        data: dict[str, Any] = json.loads(proc.stdout)
        return data

    def identity(self) -> str:
        data = json.loads(self.gh("assess", "--json").stdout)
        return str(data["candidate"]["identity"])

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(self.repo / ".git" / "gentle-hooks" / "ledger.sqlite3")
        try:
            return list(conn.execute(sql))
        finally:
            conn.close()

    def rooms(self) -> list[Path]:
        return sorted(self.tmp.glob("gentle-verify-*"))


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """The repo with a delegated, escalated change to ``src/app.py`` (its base subtracts,
    the candidate adds), an untracked file and an ignored one."""
    return make_env(repo, tmp_path)


def make_env(repo: Path, tmp_path: Path) -> Env:
    """The :func:`env` fixture's repository, for other modules' fixtures."""
    e = Env(repo, tmp_path)
    write(repo / ".gitignore", "__pycache__/\n.pytest_cache/\n.secrets\n")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a - b\n")
    commit_all(repo, "ignore .secrets")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # checked\n")
    assert e.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(repo / "notes.txt", "untracked, part of the snapshot\n")
    write(repo / ".secrets", "ignored: never in the candidate\n")
    assert e.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    return e


# --- verify prepare: seed 001 "Workflow" 1 and 4 ---------------------------------------------


def test_prepare_hands_over_a_clean_room_of_the_exact_candidate(env: Env) -> None:
    """Seed 001 "Workflow" 4: "Hand over a clean room. Give the verifier the artifact, the
    criteria, and the read-only tools. Withhold the implementation context"; "Rules": "It
    never gets the implementation context, the worker's plan, or its transcript"."""
    assert env.gh("receipt", "run", "--", "true").returncode == 0  # the writer's records exist
    data = env.json("verify", "prepare", "--brief", str(env.brief_path))
    jsonschema.validate(data, json.loads(env.gh("schema", "verify-prepare").stdout))
    cand = json.loads(env.gh("assess", "--json").stdout)["candidate"]
    assert (data["identity"], data["candidate_tree"], data["brief_id"]) == (
        cand["identity"],
        cand["tree"],
        "add-1",
    )
    room, tree = Path(data["room"]), Path(data["tree"])
    assert room.parent == env.tmp and tree == room / "tree"
    # exactly the candidate's tree: tracked change and untracked file in, ignored file out
    assert git(tree, "rev-parse", "HEAD^{tree}").strip() == cand["tree"]
    assert git(tree, "status", "--porcelain", "--ignored") == ""
    assert (tree / "notes.txt").exists() and not (tree / ".secrets").exists()
    assert "# checked" in (tree / "src" / "app.py").read_text()
    # and nothing else of the clone: one ref, the tree's objects and one commit, no ledger,
    # no notes, no hooks, no remote
    assert git(tree, "for-each-ref", "--format=%(refname)").split() == ["refs/heads/room"]
    objects = git(tree, "cat-file", "--batch-all-objects", "--batch-check").splitlines()
    in_tree = git(env.repo, "ls-tree", "-r", "-t", cand["tree"]).splitlines()
    assert len(objects) == len(in_tree) + 2  # + the root tree + the room's commit
    assert not (tree / ".git" / "gentle-hooks").exists()
    assert (
        not any((tree / ".git" / "hooks").iterdir()) if (tree / ".git" / "hooks").exists() else True
    )
    assert git(tree, "remote").strip() == ""
    assert not (tree / ".git" / "objects" / "info" / "alternates").exists()
    assert sorted(p.name for p in room.iterdir()) == ["BRIEF.md", "logs", "tree"]
    # the brief's objective and criteria, nothing else of it
    text = (room / "BRIEF.md").read_text()
    assert "add() adds two numbers" in text
    assert "add(2, 2) is 4: `python3 -c 'import app; assert app.add(2, 2) == 4'`" in text
    assert "the old subtraction is gone" in text and "python3 -m pytest -q tests" in text
    assert "SECRET" not in text
    assert [c["kind"] for c in data["checks"]] == ["criterion", "negative", "suite"]


def test_prepare_prints_where_the_room_is_and_a_runnable_run_command(env: Env) -> None:
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    assert (proc.returncode, proc.stderr) == (0, "")
    lines = proc.stdout.splitlines()
    (room,) = env.rooms()
    assert lines[0] == f"clean room: {room}"
    assert lines[3] == "the verifier may run, in the tree, read-only (never edit what it judges):"
    assert lines[4:7] == [
        "  criterion (add(2, 2) is 4): python3 -c 'import app; assert app.add(2, 2) == 4'",
        "  negative test (the old subtraction is gone): python3 -c 'import app; assert "
        "app.add(2, 3) == -1'",
        "  full suite: python3 -m pytest -q tests",
    ]
    then = lines[-1]
    assert then == f"run: gentle-hook verify run --brief {env.brief_path} --room {room}"
    ran = env.gh(*shlex.split(then.removeprefix("run: gentle-hook ")))
    assert ran.returncode == 0, ran.stdout + ran.stderr


def test_run_refuses_a_room_prepared_for_another_brief(env: Env, tmp_path: Path) -> None:
    """Seed 001 "Workflow" 4: "Hand over a clean room" with the brief's criteria: a run
    whose brief is not the one the room holds (its BRIEF.md) is refused in one line that
    names the room's brief and the ``verify prepare`` for this one; the same brief runs."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**BRIEF, "id": "add-2", "fullSuite": "python3 -m pytest tests"}))
    proc = env.gh("verify", "run", "--brief", str(other), "--room", prepared["room"])
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "the room was prepared for brief `add-1`, not brief `add-2`" in proc.stderr
    assert proc.stderr.rstrip().endswith(f"run: gentle-hook verify prepare --brief {other}"), (
        proc.stderr
    )
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]
    # the same id with other checks is another brief too
    other.write_text(json.dumps({**BRIEF, "fullSuite": "python3 -m pytest tests"}))
    proc = env.gh("verify", "run", "--brief", str(other), "--room", prepared["room"])
    assert proc.returncode == 2 and "another version of this brief" in proc.stderr, proc.stderr
    # an identical brief in another file is the room's brief
    other.write_text(json.dumps(BRIEF))
    proc = env.gh("verify", "run", "--brief", str(other), "--room", prepared["room"])
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ({"boundaries": []}, "B1 no boundaries"),
        ({"stopCondition": " "}, "B2 no stopCondition"),
        ({"sideEffects": ["write-temp-file"]}, "B3 readOnly is false but no mutating side effect"),
    ],
    ids=["B1", "B2", "B3"],
)
def test_a_rejected_brief_gets_no_room(env: Env, change: dict[str, Any], fault: str) -> None:
    """Seed 001 "Workflow" 1: "Reject a brief with no boundaries, no stopCondition, or
    readOnly: false without a declared mutating side effect on the caller"."""
    env.brief({**BRIEF, **change})
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path))
        assert (proc.returncode, proc.stdout) == (1, "")
        assert proc.stderr.startswith(f"{env.brief_path}: brief rejected: {fault}")
    assert env.rooms() == []


def test_no_observable_criterion_is_refused(env: Env) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check". A rule refuses the brief, as B1-B5 do: exit 1, SPEC §7 "blocked by policy"
    (issue 18, LOW: it exited 2, as bad input)."""
    env.brief({**BRIEF, "successCriteria": []})
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path))
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        assert proc.stderr.startswith(
            f"{env.brief_path}: brief rejected: no success criterion to re-check"
        )
    assert env.rooms() == []
    # a blank flag is bad input, not a rule: exit 2
    blank = env.gh("verify", "prepare", "--brief", str(env.brief_path), "--check", " ")
    assert (blank.returncode, blank.stderr) == (
        2,
        "gentle-hook: error: --check is blank: give the command to run\n",
    )
    ok = env.gh(
        "verify", "prepare", "--brief", str(env.brief_path), "--check", "test -f src/app.py"
    )
    assert ok.returncode == 0, ok.stderr


#: (id, brief changes, flags, what is named, the row): commands that succeed whatever the
#: artifact is, judged as receipts are (policy/nocheck.py).
NO_CHECK_CASES: list[tuple[str, dict[str, Any], tuple[str, ...], str, str]] = [
    ("check-true", {}, ("--check", "true"), "criterion 'true': `true`", "N-true"),
    ("check-exit-0", {}, ("--check", "exit 0"), "criterion 'exit 0': `exit 0`", "N-exit0"),
    ("check-colon", {}, ("--check", ":"), "criterion ':': `:`", "N-colon"),
    ("check-echo", {}, ("--check", "echo ok"), "criterion 'echo ok': `echo ok`", "N-echo"),
    (
        "check-masked",
        {},
        ("--check", "python3 -m pytest || true"),
        "criterion 'python3 -m pytest || true': `python3 -m pytest || true`",
        "N-true",
    ),
    (
        "brief-argv-true",
        {"successCriteria": [{"criterion": "it works", "run": ["true"]}]},
        (),
        "criterion 'it works': `true`",
        "N-true",
    ),
    (
        "brief-sh-c-exit-0",
        {"successCriteria": [{"criterion": "it works", "run": ["sh", "-c", "exit 0"]}]},
        (),
        "criterion 'it works': `sh -c 'exit 0'`",
        "N-exit0",
    ),
    ("suite-true", {"fullSuite": "true"}, (), "the full suite: `true`", "N-true"),
    (
        "suite-git-status",
        {"fullSuite": "git status"},
        (),
        "the full suite: `git status`",
        "N-git-read",
    ),
    ("suite-flag-colon", {}, ("--suite", ":"), "the full suite: `:`", "N-colon"),
    (
        "check-python-c-pass",
        {},
        ("--check", "python3 -c pass"),
        "criterion 'python3 -c pass': `python3 -c pass`",
        "N-python",
    ),
    (
        "brief-argv-python-sys-exit-0",
        {
            "successCriteria": [
                {"criterion": "it works", "run": ["python", "-c", "import sys; sys.exit(0)"]}
            ]
        },
        (),
        "criterion 'it works': `python -c 'import sys; sys.exit(0)'`",
        "N-python",
    ),
    ("check-test-1", {}, ("--check", "[ 1 ]"), "criterion '[ 1 ]': `[ 1 ]`", "N-test"),
    ("negative-false", {}, ("--negative", "false"), "negative test 'false': `false`", "N-fails"),
    (
        "negative-exit-1",
        {},
        ("--negative", "exit 1"),
        "negative test 'exit 1': `exit 1`",
        "N-fails",
    ),
    (
        "negative-not-true",
        {},
        ("--negative", "! true"),
        "negative test '! true': `! true`",
        "N-fails",
    ),
    (
        "suite-python-c-1",
        {"fullSuite": "python3 -c 1"},
        (),
        "the full suite: `python3 -c 1`",
        "N-python",
    ),
]


@pytest.mark.parametrize(
    ("change", "flags", "named", "row"),
    [c[1:] for c in NO_CHECK_CASES],
    ids=[c[0] for c in NO_CHECK_CASES],
)
def test_a_criterion_that_verifies_nothing_is_refused(
    env: Env, change: dict[str, Any], flags: tuple[str, ...], named: str, row: str
) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check"; SPEC §5: "a command that verifies nothing does not count". ``true``, ``exit 0``
    and ``:`` pass whatever the artifact is: no room is made, nothing runs, no verdict.
    A rule refuses it (exit 1, as ``brief check`` rejects the same brief; issue 18, LOW: it
    exited 2, as bad input)."""
    env.brief({**BRIEF, **change})
    said = "gentle-hook: check refused:" if flags else f"{env.brief_path}: brief rejected:"
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path), *flags)
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        assert proc.stderr.startswith(f"{said} {named} verifies nothing: ")
        # the row in words (its id is a code: not in human output)
        from gentle_hooks.policy.nocheck import row_text

        assert row_text(row) in proc.stderr and f"({row})" not in proc.stderr
        assert "give a command that fails when the artifact does not meet it" in proc.stderr
    assert env.rooms() == []
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


# --- verify run: seed 001 "Workflow" 5-6, "Artifact" ----------------------------------------


def test_run_writes_the_validated_artifact_pair_binding_candidate_brief_and_caller(
    env: Env,
) -> None:
    """Seed 001 "Artifact": "Emit DelegationVerdict as both: JSON:
    .agents/skills/platform/artifacts/verify-delegation/{id}.json, Markdown view: same
    filename with .md extension. Validate the JSON ... before returning it"; "Completion
    criteria": "the caller is identified"."""
    before = env.identity()
    data = env.json("verify", "run", "--brief", str(env.brief_path), "--caller", "parent-agent")
    assert data["status"] == "pass"
    jsonschema.validate(data, json.loads(env.gh("schema", "verify-run").stdout))
    ref = data["artifactRef"]
    assert ref.startswith(f"{ARTIFACTS}/add-1-{before[7:19]}-") and ref.endswith(".json")
    json_path = env.repo / ref
    md_path = json_path.with_suffix(".md")
    assert Path(data["json_path"]) == json_path and Path(data["markdown_path"]) == md_path
    verdict = json.loads(json_path.read_text())
    schema = json.loads(env.gh("schema", "verdict").stdout)
    jsonschema.validate(verdict, schema)
    assert verdict == data["verdict"]
    assert (verdict["briefId"], verdict["status"], verdict["artifactRef"], verdict["caller"]) == (
        "add-1",
        "pass",
        ref,
        "parent-agent",
    )
    assert verdict["candidate"]["identity"] == before
    assert (verdict["negativeTestsRun"], verdict["fullSuiteRun"], verdict["artifactMutating"]) == (
        1,
        True,
        True,
    )
    observed = [c["observed"] for c in verdict["criteria"]]
    assert [(o["kind"], o["exitCode"]) for o in observed] == [
        ("criterion", 0),
        ("negative", 1),
        ("suite", 0),
    ]
    assert all(o["outputDigest"].startswith("sha256:") for o in observed)
    md = md_path.read_text()
    assert md.startswith("# DelegationVerdict for brief `add-1`\n\n- **Status:** pass\n")
    assert f"- **Candidate:** `{before}`" in md
    # what it observed is in the ledger, and the verdict did not change the candidate
    ((identity, brief, status, caller, artifact, digest, obs),) = env.rows(
        "SELECT identity, brief_id, status, caller, artifact_ref, verdict_digest, observations "
        "FROM verify_run WHERE verdict_digest != 'started'"
    )
    assert (identity, brief, status, caller, artifact) == (
        before,
        "add-1",
        "pass",
        "parent-agent",
        ref,
    )
    # the ledger keeps each observation with the row that decided it and whether it gave
    # evidence (rule R2 leaves a check that gave none out: ledger.fails); it keeps every
    # field, an absent one (sharedPrograms here) as null, where the verdict leaves it out
    kept = [
        {k: v for k, v in o.items() if k not in RECORDED_ONLY and v is not None}
        for o in json.loads(obs)
    ]
    assert kept == observed
    assert [o["sharedPrograms"] for o in json.loads(obs)] == [None, None, None]
    assert [(o["row"], o["result"], o["evidence"]) for o in json.loads(obs)] == [
        ("C4", "pass", True),
        ("C2", "pass", True),
        ("C4", "pass", True),
    ]
    assert digest.startswith("sha256:")
    assert env.identity() == before
    assert git(env.repo, "status", "--porcelain").splitlines() == [
        " M src/app.py",
        "?? notes.txt",
    ]
    assert f"/{ARTIFACTS}/" in (env.repo / ".git" / "info" / "exclude").read_text().splitlines()
    # a room the run made itself is gone, logs and all: no /tmp/gentle-verify-* is left
    assert env.rooms() == [] and not Path(data["room"]).exists()
    again = env.json("verify", "run", "--brief", str(env.brief_path))
    assert again["artifactRef"] != ref and json_path.exists()  # never overwritten


def _slow_run(env: Env) -> subprocess.Popen[str]:
    """``verify run`` whose criterion sleeps, started in the background."""
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "gentle_hooks", "verify", "run"),
            *("--brief", str(env.brief_path)),
            *("--check", "python3 -c 'import time; time.sleep(60)'"),
        ],
        cwd=env.repo,
        env={**os.environ, "TMPDIR": str(env.tmp), "PYTHONPATH": "src"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_room(env: Env, other: Path | None = None) -> Path:
    """The room a background run made (not ``other``), once its first check started."""
    for _ in range(600):
        rooms = [r for r in env.rooms() if r != other]
        if rooms and (rooms[0] / "logs").exists() and any((rooms[0] / "logs").iterdir()):
            return rooms[0]
        time.sleep(0.1)
    raise AssertionError("no room was made")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stopped_run_leaves_no_room_behind(env: Env, sig: signal.Signals) -> None:
    """Seed 001 "sideEffects": ``write-temp-file``: temporary, so removed. A run stopped
    while a check runs removes its room (and stops the check) before it exits."""
    proc = _slow_run(env)
    room = _wait_for_room(env)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0, err
    assert not room.exists() and env.rooms() == []
    # its start row, never ended: a stopped run stands as a failed one (rule R2)
    assert env.rows("SELECT status, verdict_digest FROM verify_run") == [("fail", "started")]


def test_a_killed_runs_room_is_removed_by_the_next_run(env: Env) -> None:
    """SIGKILL leaves no chance to clean up: the next run removes the room of a process
    that is gone. A room verify prepare made is the user's, and stays."""
    prepared = Path(env.json("verify", "prepare", "--brief", str(env.brief_path))["room"])
    proc = _slow_run(env)
    room = _wait_for_room(env, prepared)
    proc.kill()
    proc.communicate(timeout=60)
    assert room.exists()  # nothing could remove it
    assert env.json("verify", "run", "--brief", str(env.brief_path))["status"] == "pass"
    assert env.rooms() == [prepared]


def test_run_prints_a_bounded_summary_and_the_artifact_ref(env: Env) -> None:
    """Seed 001 "Rules": "What returns to the caller is a bounded summary plus an artifact
    reference. Never a transcript"."""
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--caller", "p")
    assert (proc.returncode, proc.stderr) == (0, "")
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("verify run: pass (every criterion passed")
    assert [ln.split()[0] for ln in lines[2:5]] == ["pass", "pass", "pass"]
    (ref,) = [ln for ln in lines if ln.startswith("artifactRef: ")]
    json_path = env.repo / ref.split()[1]
    assert lines[-1] == f"run: gentle-hook verdict add {json_path}"
    assert all(len(ln) < 400 for ln in lines) and len(lines) < 15


#: (id, brief changes, extra flags, status, the row of the first non-pass check).
RUN_CASES = [
    ("no-suite-blocked", {"fullSuite": None}, (), "blocked", "S2"),
    ("suite-tool-missing-blocked", {"fullSuite": ["no-such-suite-runner"]}, (), "blocked", "S1"),
    ("shell-tool-missing-blocked", {"fullSuite": "no-such-suite-runner -q"}, (), "blocked", "S1"),
    ("mutating-without-negative-blocked", {"negativeTests": []}, (), "blocked", "S3"),
    ("criterion-fails", {}, ("--check", "python3 -c 'raise SystemExit(3)'"), "fail", "S4"),
    ("negative-passes-fails", {}, ("--negative", "true"), "fail", "S4"),
    # -o overrides the configuration (row P-pytest-config): not the full suite; the
    # suite that fails is test_a_failing_suite_fails
    (
        "suite-override-ini-blocked",
        {"fullSuite": "python3 -m pytest -q tests -o 'python_functions=add test_*'"},
        (),
        "blocked",
        "S1-suite-part",
    ),
    (
        "suite-no-test-runner-blocked",
        {"fullSuite": "python3 -c 'print(len(\"x\"))'"},  # print(1) verifies nothing: refused
        (),
        "blocked",
        "S1-suite",
    ),
    ("suite-sha256sum-blocked", {"fullSuite": "sha256sum src/app.py"}, (), "blocked", "S1-suite"),
    # `python3 -S` finds no site-packages: "No module named pytest", exit 1, on both trees
    (
        "suite-module-missing-blocked",
        {"fullSuite": "python3 -S -m pytest -q tests"},
        (),
        "blocked",
        "S1",
    ),
    (
        "criterion-module-missing-blocked",
        {},
        ("--check", "python3 -S -m pytest -q tests"),
        "blocked",
        "S1",
    ),
    (
        "negative-module-missing-blocked",
        {},
        ("--negative", "python3 -S -m pytest -q tests"),
        "blocked",
        "S1",
    ),
    # the same line printed only on the candidate: the artifact fails, not the tool
    (
        "missing-line-only-on-the-candidate-fails",
        {},
        (
            "--check",
            'python3 -c \'import sys, app; print("sh: 1: x: not found"); '
            "sys.exit(app.add(2, 2) == 4)'",
        ),
        "fail",
        "S4",
    ),
    (
        "suite-ran-no-test-blocked",
        {"fullSuite": "python3 -m unittest -v -k nomatch"},
        (),
        "blocked",
        "S1-suite-none",
    ),
]


@pytest.mark.parametrize(
    ("change", "flags", "status", "row"),
    [c[1:] for c in RUN_CASES],
    ids=[c[0] for c in RUN_CASES],
)
def test_run_status_rows(
    env: Env, change: dict[str, Any], flags: tuple[str, ...], status: str, row: str
) -> None:
    """Seed 001 "Rules": "A pass verdict requires the full suite to have run"; "Negative
    tests are mandatory"; "Guardrails": "stop and report blocked when a required tool,
    source, or suite is unavailable instead of inferring the result"."""
    data = {k: v for k, v in {**BRIEF, **change}.items() if v is not None}
    env.brief(data)
    out = env.json("verify", "run", "--brief", str(env.brief_path), *flags, code=1)
    verdict = out["verdict"]
    assert (out["status"], verdict["status"]) == (status, status)
    # the status rule's id is in the JSON; the summary people read says it in words
    assert out["status_row"] == row
    assert verdict["summary"].startswith(f"{status} (")
    assert f"({row}" not in verdict["summary"]
    if status == "fail":
        assert verdict["fullSuiteRun"] is True  # a fail always had its suite run
    if row in ("S1-suite-none", "S1-suite") or "suite-module" in str(change):
        assert verdict["fullSuiteRun"] is False
    # seed 001 "Completion criteria": the JSON artifact, the ledger row and the Markdown
    # view say the same status
    artifact = env.repo / out["artifactRef"]
    assert json.loads(artifact.read_text())["status"] == status
    assert env.rows(ENDED.format("status")) == [(status,)]
    assert artifact.with_suffix(".md").read_text().splitlines()[2] == f"- **Status:** {status}"


def test_a_missing_program_is_reported_as_such(env: Env) -> None:
    env.brief({**BRIEF, "fullSuite": ["no-such-suite-runner", "-q"]})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (suite["result"], suite["row"], suite["exit_code"]) == ("blocked", "C1", None)
    assert "no-such-suite-runner" in suite["error"]
    assert out["verdict"]["criteria"][-1]["evidence"].startswith(
        "`no-such-suite-runner -q` could not be started: "
    )


def test_run_refuses_a_room_whose_tree_was_changed(env: Env) -> None:
    """Seed 001 "Scope": "This skill never repairs the artifact it judges"; "Guardrails":
    "do not repair, patch, or re-run the worker's implementation to make a criterion
    pass"."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    tree = Path(prepared["tree"])
    write(tree / "src" / "app.py", "def add(a, b):\n    return 4\n")  # "repaired"
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", prepared["room"])
    assert (proc.returncode, proc.stdout) == (2, "")
    # the way out names the brief's path: runnable as printed (it was a prefix to finish)
    again = f"gentle-hook verify prepare --brief {shlex.quote(str(env.brief_path))}"
    assert proc.stderr == (
        f"gentle-hook: error: {prepared['room']}: the room's tree was changed since it was "
        "prepared (src/app.py); a verifier never repairs what it judges: prepare a new room; "
        f"run: {again}\n"
    )
    _pasted_prepare(env, proc.stderr)
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]
    # a room made for another candidate
    fresh = env.json("verify", "prepare", "--brief", str(env.brief_path))
    write(env.repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    other = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", fresh["room"])
    assert other.returncode == 2 and "the room was prepared for tree" in other.stderr
    # refuter 18r item 7: a room where the verifier committed is tampered with, not a room
    # of another candidate
    write(env.repo / "src" / "app.py", "def add(a, b):\n    return a + b  # checked\n")
    mine = env.json("verify", "prepare", "--brief", str(env.brief_path))
    write(Path(mine["tree"]) / "src" / "app.py", "def add(a, b):\n    return 4\n")
    git(Path(mine["tree"]), "-c", "user.name=v", "-c", "user.email=v@x", "commit", "-qam", "r")
    committed = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", mine["room"])
    assert (committed.returncode, committed.stderr) == (
        2,
        f"gentle-hook: error: {mine['room']}: the room was tampered with: 1 commit(s) made in "
        f"it since it was prepared; prepare a new room; run: {again}\n",
    )
    _pasted_prepare(env, other.stderr)
    not_a_room = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", str(env.tmp))
    assert not_a_room.returncode == 2 and "not a clean room" in not_a_room.stderr
    assert not_a_room.stderr.endswith(f"make one; run: {again}\n"), not_a_room.stderr
    _pasted_prepare(env, not_a_room.stderr)


def _pasted_prepare(env: Env, stderr: str) -> None:
    """The ``verify prepare`` a refusal ends with, pasted: it makes a room (exit 0)."""
    printed = stderr.rstrip("\n").rsplit("; run: ", 1)[-1]
    words = shlex.split(printed)
    assert words[:3] == ["gentle-hook", "verify", "prepare"], printed
    made = env.gh(*words[1:])
    assert made.returncode == 0 and "clean room: " in made.stdout, made.stdout + made.stderr


@pytest.mark.parametrize("flag", ["--assume-unchanged", "--skip-worktree", None])
def test_a_prepared_room_whose_edit_git_was_told_to_ignore_is_refused(
    env: Env, flag: str | None
) -> None:
    """Seed 001 "Scope": "This skill never repairs the artifact it judges". An edit the
    room's index was told to ignore (``update-index --assume-unchanged`` or
    ``--skip-worktree``: ``git status`` shows nothing), or a file made executable, is still
    a change of the artifact: the room is refused before anything runs."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    tree = Path(prepared["tree"])
    if flag is None:
        (tree / "src" / "app.py").chmod(0o755)
    else:
        git(tree, "update-index", flag, "src/app.py")
        write(tree / "src" / "app.py", "def add(a, b):\n    return 4\n")
        assert git(tree, "status", "--porcelain") == ""  # git is blind to it
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", prepared["room"])
    assert (proc.returncode, proc.stdout) == (2, "")
    assert "the room's tree was changed since it was prepared (src/app.py)" in proc.stderr
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


@pytest.mark.parametrize("flag", ["--assume-unchanged", "--skip-worktree"])
def test_an_edit_hidden_from_git_in_the_work_tree_is_in_the_candidate(env: Env, flag: str) -> None:
    """Seed 001 "Source of truth": "The artifact under verification". The work tree's
    edit of src/app.py, hidden from git's view by an index flag (``git status`` and ``git
    add -A`` skip it), is still the artifact: the candidate is what the files hold, and the
    clean room gets the edit."""
    before = env.identity()
    git(env.repo, "update-index", flag, "src/app.py")
    assert git(env.repo, "status", "--porcelain").splitlines() == ["?? notes.txt"]
    assert env.identity() == before
    out = env.json(
        "verify", "run", "--brief", str(env.brief_path), "--check", "grep -q checked src/app.py"
    )
    assert out["status"] == "pass", out["outcomes"]
    assert out["verdict"]["candidate"]["identity"] == before
    assert git(env.repo, "ls-files", "-v", "src/app.py").split()[0] in ("h", "S")  # untouched


def test_what_the_verifiers_own_runs_left_in_the_room_is_removed_first(env: Env) -> None:
    """prepare says what the verifier may run in the room; running it leaves caches and
    outputs (here untracked and ignored files), which `verify run --room` removes so the
    checks run on the candidate's tree exactly."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    tree = Path(prepared["tree"])
    ran = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", prepared["room"])
    assert ran.returncode == 0, ran.stdout  # a run leaves the room as it found it
    write(tree / ".pytest_cache" / "v" / "lastfailed", "{}\n")  # ignored by the candidate
    write(tree / "scratch.txt", "the verifier's notes\n")  # untracked
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", prepared["room"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (note,) = [ln for ln in proc.stdout.splitlines() if ln.startswith("note: removed ")]
    assert note.endswith(" untracked path(s) earlier runs left in the room")
    assert int(note.split()[2]) >= 2  # scratch.txt, .pytest_cache/ (and the first run's caches)
    assert not (tree / "scratch.txt").exists() and not (tree / ".pytest_cache").exists()


#: A check that "repairs" the artifact: it rewrites src/app.py so that add() returns 4.
REPAIR = "python3 -c \"open('src/app.py', 'w').write('def add(a, b):\\n    return 4\\n')\""

#: (id, the check that repairs): ways of hiding the edit from git in the room.
TAMPER_CASES = [
    ("plain-edit", REPAIR),
    ("assume-unchanged", "git update-index --assume-unchanged src/app.py && " + REPAIR),
    ("skip-worktree", "git update-index --skip-worktree src/app.py && " + REPAIR),
    ("committed-in-the-room", REPAIR + " && git -c user.name=v -c user.email=v@x commit -qam r"),
]


@pytest.mark.parametrize("repair", [c[1] for c in TAMPER_CASES], ids=[c[0] for c in TAMPER_CASES])
def test_a_check_that_repairs_the_artifact_blocks_the_verdict(env: Env, repair: str) -> None:
    """Seed 001 "Scope": "This skill never repairs the artifact it judges"; "Guardrails":
    "do not repair, patch, or re-run the worker's implementation to make a criterion pass".
    A check that edits a file of the candidate in the room ends the run there (C0), the
    verdict is blocked (S0), never pass; marking the file assume-unchanged or skip-worktree,
    or committing the edit in the room, hides nothing: the files are compared with the
    candidate's tree byte for byte. The work tree is never touched."""
    before = (env.repo / "src" / "app.py").read_text()
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", repair, code=1)
    assert out["status"] == "blocked" and out["verdict"]["status"] == "blocked"
    assert out["verdict"]["summary"].startswith("blocked (a check changed the artifact")
    last = out["outcomes"][-1]
    assert (last["command"], last["result"], last["row"], last["changed"]) == (
        repair,
        "fail",
        "C0",
        ["src/app.py"],
    )
    assert len(out["outcomes"]) == 2  # the brief's criterion, then the repair: nothing after
    assert out["verdict"]["fullSuiteRun"] is False
    assert "it changed the artifact: src/app.py" in out["verdict"]["criteria"][-1]["evidence"]
    assert (env.repo / "src" / "app.py").read_text() == before
    assert env.rows(ENDED.format("status")) == [("blocked",)]
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "status blocked: not accepted" in added.stdout


def test_checks_see_neither_the_hook_repository_nor_the_writers_session(env: Env) -> None:
    """Seed 001 "Rules": "never ... the implementation context": no GENTLE_* variable of the
    writer's session, and git in the room is the room's repository, whatever GIT_DIR says."""
    check = (
        'test -z "$GENTLE_WRITER_MODEL" && test -z "$GIT_DIR" && python3 -c '
        '\'import os, subprocess as s; top = s.check_output(["git", "rev-parse", '
        '"--show-toplevel"], text=True).strip(); assert top == os.environ["PWD"]\''
    )
    out = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--check",
        check,
        code=1,
    )
    # the probe held in the room (exit 0); it reads no file of the change (C4-nothing)
    assert _probe(out) == (0, "C4-nothing"), out["outcomes"]
    out = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--check",
        check,
        env={"GENTLE_WRITER_MODEL": "o4-mini", "GIT_DIR": str(env.repo / ".git")},
        code=1,
    )
    assert _probe(out) == (0, "C4-nothing"), out["outcomes"]


def _probe(out: dict[str, Any]) -> tuple[int, str]:
    """The exit status and row of the run's second criterion (the ``--check`` probe)."""
    return out["verdict"]["criteria"][1]["observed"]["exitCode"], out["outcomes"][1]["row"]


#: What a writer's session leaves in the environment: agent runtimes, model providers,
#: this tool, git, and pointers into the writer's repository and ledger.
SESSION_ENV = {
    "CLAUDECODE": "1",
    "CLAUDE_CODE_ENTRYPOINT": "cli",
    "CODEX_SANDBOX": "seatbelt",
    "CODEX_HOME": "/home/w/.codex",
    "GEMINI_CLI": "1",
    "CURSOR_AGENT": "1",
    "OPENCODE": "1",
    "ANTHROPIC_API_KEY": "sk-ant-secret",
    "OPENAI_API_KEY": "sk-secret",
    "AIDER_MODEL": "o4-mini",
    "GENTLE_WRITER_MODEL": "o4-mini",
    "GIT_CONFIG_GLOBAL": "/home/w/.gitconfig",
    "PRE_COMMIT": "1",
}

#: A criterion that fails, printing the names, when a variable of the session reached it.
ENV_PROBE = (
    "python3 -c 'import os, sys; r = sys.argv[1]; "
    "bad = [k for k, v in os.environ.items() if r in v or k in sys.argv[2:]]; "
    'bad += [d for d in os.environ["PATH"].split(os.pathsep) if r in d]; '
    'print(bad); assert not bad; assert "KEEP_ME" not in os.environ; '
    'assert os.environ["LANG"] == "C.UTF-8"\''
)


def test_checks_get_nothing_of_the_writers_session_or_repository(env: Env) -> None:
    """Seed 001 "Rules": "The verifier gets the artifact, the success criteria, and the
    tools needed to re-check them. It never gets the implementation context, the worker's
    plan, or its transcript"; "Workflow" 4: "Withhold the implementation context". No agent
    runtime's or model provider's variable, none of this tool's or git's, and nothing that
    points into the writer's work tree or git directory (the ledger, receipts, a
    virtualenv, PWD) reaches a check; PATH keeps its other entries; of the others only the
    allowlisted ones (LANG) pass."""
    repo = str(env.repo)
    pointers = {
        "LEDGER_DB": f"{repo}/.git/gentle-hooks/ledger.sqlite3",
        "VIRTUAL_ENV": f"{repo}/.venv",
        "PWD": repo,
        "WRITER_NOTES": f"see {repo}/notes.txt",
    }
    # the probe's needle without its leading "/": an absolute path as a check's argument
    # reaches outside the room and is refused before anything runs (rule B4)
    check = ENV_PROBE + " " + shlex.join([repo[1:], *SESSION_ENV])
    extra = {
        **SESSION_ENV,
        **pointers,
        "KEEP_ME": "1",
        "LANG": "C.UTF-8",
        "PATH": f"{repo}/.venv/bin{os.pathsep}{os.environ['PATH']}",
    }
    out = env.json(
        "verify", "run", "--brief", str(env.brief_path), "--check", check, env=extra, code=1
    )
    # the probe held in the room (exit 0); it reads no file of the change (C4-nothing)
    assert _probe(out) == (0, "C4-nothing"), out["outcomes"]


# --- verdict add: binding, observation, the artifact path -----------------------------------


def _run(env: Env) -> dict[str, Any]:
    return env.json("verify", "run", "--brief", str(env.brief_path))


def test_verdict_add_accepts_the_observed_verdict_and_status_shows_its_artifact(env: Env) -> None:
    out = _run(env)
    proc = env.gh("verdict", "add", out["json_path"])
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.splitlines() == [
        f"recorded for {out['verdict']['candidate']['identity'][:19]}…: verdict #1: brief "
        f"add-1, status pass: accepted  (artifact {out['artifactRef']})",
        "note: accepted: counts as the independent gentle-ai-verify run for this candidate only",
        f"note: observed: written by gentle-hook verify run #{out['run']}",
    ]
    status = env.gh("status").stdout.splitlines()
    assert f"  verdict #1: brief add-1, status pass: accepted  (artifact {out['artifactRef']})" in (
        status
    )
    assert "verifier: satisfied (1 of 1 accepted verdict(s))" in status
    rec = json.loads(env.gh("status", "--json").stdout)["records"]["verdicts"][0]
    assert (rec["artifact_ref"], rec["observed_run"], rec["caller"]) == (
        out["artifactRef"],
        out["run"],
        out["verdict"]["caller"],
    )


def test_verdict_add_refuses_a_verdict_bound_to_another_candidate(env: Env) -> None:
    """A verdict file judges one candidate and is refused for another; SPEC §10: "a verdict
    for any other candidate never unblocks it"."""
    out = _run(env)
    write(env.repo / "src" / "app.py", "def add(a, b):\n    return a + b  # changed again\n")
    proc = env.gh("verdict", "add", out["json_path"])
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.startswith(
        f"gentle-hook: error: {out['json_path']}: the verdict judged candidate "
        f"{out['verdict']['candidate']['identity'][:19]}…"
    )
    assert env.rows("SELECT count(*) FROM verdict") == [(0,)]


def test_verdict_add_refuses_a_verdict_that_names_no_candidate(env: Env) -> None:
    """Seed 001 "Provenance": "What is the source of truth? | The artifact under
    verification"; SPEC §10: "a verdict for any other candidate never unblocks it". A
    verdict bound to no candidate (nothing inside it names one) would count for every
    one: refused, not stored."""
    path = env.tmp / "v.json"
    path.write_text(json.dumps(PASSING_VERDICT))
    proc = env.gh("verdict", "add", str(path))
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        f"gentle-hook: error: {path}: the verdict names no candidate (no candidate.identity, "
        f"baseTree, tree): it could be added for any candidate, and counts for none "
        f"({env.identity()[:19]}… here); verify this candidate, which writes a bound verdict: "
        "your brief's path after the prefix; prefix: gentle-hook verify run --brief\n"
    )
    assert env.rows("SELECT count(*) FROM verdict") == [(0,)]
    assessed = json.loads(env.gh("assess", "--json").stdout)
    assert "verifier" in assessed["decision"]["missing"]


def test_a_fail_verdict_without_its_full_suite_is_stored_blocked(env: Env) -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is
    blocked explaining why it could not"."""
    path = env.tmp / "v.json"
    verdict = {**PASSING_VERDICT, "status": "fail", "fullSuiteRun": False}
    path.write_text(json.dumps(bound_verdict(env.repo, verdict)))
    rec = env.json("verdict", "add", str(path), code=1)["record"]
    assert env.rows("SELECT status FROM verdict") == [("blocked",)]
    listed = env.gh("verdict", "list").stdout
    assert (
        "status blocked: not accepted: status is fail, recorded as blocked (the full suite "
        "did not run), not pass; the full suite did not run in full: a pass needs it"
    ) in listed
    # the JSON artifact, the ledger row and the Markdown view agree: blocked everywhere
    artifact = env.repo / rec["artifact_ref"]
    assert json.loads(artifact.read_text())["status"] == "blocked"
    ((stored,),) = env.rows("SELECT json FROM verdict")
    assert json.loads(stored)["status"] == "blocked"
    view = artifact.with_suffix(".md").read_text().splitlines()
    assert view[2] == "- **Status:** blocked (reported fail; the full suite did not run)"


def test_verdict_add_writes_the_pair_for_a_verdict_from_elsewhere(env: Env) -> None:
    """A verdict added from elsewhere gets its JSON + Markdown artifact pair (seed 001
    "Artifact"), counted or not (here not: no verify run observed it)."""
    path = env.tmp / "v.json"
    verdict = bound_verdict(env.repo, PASSING_VERDICT)
    path.write_text(json.dumps(verdict))
    rec = env.json("verdict", "add", str(path), code=1)["record"]
    ref = rec["artifact_ref"]
    assert ref.startswith(f"{ARTIFACTS}/brief-1-") and ref.endswith(".json")
    # the verdict as given, with who added it as its caller (it named none)
    caller = "Test Committer <committer@example.com>"
    assert json.loads((env.repo / ref).read_text()) == {**verdict, "caller": caller}
    assert (env.repo / ref).with_suffix(".md").read_text().startswith("# DelegationVerdict")
    assert rec["caller"] == caller  # who added it
    assert rec["observed_run"] is None


def _require_observed(env: Env, on: bool = True) -> None:
    """``verification.require_observed`` in a config file git ignores here (so turning it
    on or off leaves the candidate as it is)."""
    with (env.repo / ".git" / "info" / "exclude").open("a") as fh:
        fh.write("/.gentle-hooks.toml\n")
    value = "true" if on else "false"
    write(env.repo / ".gentle-hooks.toml", f"[verification]\nrequire_observed = {value}\n")


def test_require_observed_refuses_a_hand_written_verdict(env: Env) -> None:
    """Under ``verification.require_observed`` a hand-written verdict does not satisfy the
    gate: only one a ``verify run`` observed does."""
    _require_observed(env)
    path = env.tmp / "v.json"
    schema_shaped = bound_verdict(env.repo, {**PASSING_VERDICT, "briefId": "add-1"})
    path.write_text(json.dumps(schema_shaped))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1
    assert (
        "not accepted: not observed: no gentle-hook verify run of brief 'add-1' is recorded "
        "for this candidate (verification.require_observed)"
    ) in proc.stdout + proc.stderr
    # its Markdown view says so, and who added it
    [view] = (env.repo / ARTIFACTS).glob("add-1-*.md")
    text = view.read_text()
    assert "- **Accepted for the gate:** no" in text
    assert "  - not accepted: R1 not observed" in text
    assert "- **Caller:** Test Committer <committer@example.com>" in text
    assess = json.loads(env.gh("assess", "--json").stdout)
    assert "verifier" in assess["decision"]["missing"]
    # the real run is accepted, and then the verifier is satisfied
    out = _run(env)
    assert env.gh("verdict", "add", out["json_path"]).returncode == 0
    assess = json.loads(env.gh("assess", "--json").stdout)
    assert "verifier" not in assess["decision"]["missing"]


def test_require_observed_is_judged_from_the_base_not_the_work_tree(env: Env) -> None:
    """Seed 001 "Contract": "explicit project rules take precedence"; SPEC §9 (the range
    gate reads its configuration from the base: "a change cannot loosen the gate that
    judges it"). The base commit turns ``require_observed`` on; the work tree turning it
    off does not let a hand-written verdict count, in ``verdict add`` or at the gate."""
    write(env.repo / ".gentle-hooks.toml", "[verification]\nrequire_observed = true\n")
    git(env.repo, "add", ".gentle-hooks.toml")
    git(
        env.repo, "commit", "-q", "-m", "config: observed verdicts only", "--", ".gentle-hooks.toml"
    )
    write(env.repo / ".gentle-hooks.toml", "[verification]\nrequire_observed = false\n")
    path = env.tmp / "v.json"
    path.write_text(json.dumps(bound_verdict(env.repo, {**PASSING_VERDICT, "briefId": "add-1"})))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "not accepted: not observed: no gentle-hook verify run of brief 'add-1'" in proc.stdout
    status = env.gh("status").stdout
    assert "verifier: MISSING (0 of 1 accepted verdict(s))" in status
    assessed = json.loads(env.gh("assess", "--json").stdout)
    assert "verifier" in assessed["decision"]["missing"]


def test_a_candidate_with_no_base_commit_cannot_opt_itself_out(env: Env) -> None:
    """An orphan branch has no base commit to hold an opt-out: the work tree's own
    ``require_observed = false`` does not let a hand-written verdict count."""
    git(env.repo, "checkout", "-q", "--orphan", "side")
    write(env.repo / ".gentle-hooks.toml", "[verification]\nrequire_observed = false\n")
    assert env.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    path = env.tmp / "v.json"
    path.write_text(json.dumps(bound_verdict(env.repo, {**PASSING_VERDICT, "briefId": "add-1"})))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "not accepted: not observed: no gentle-hook verify run of brief 'add-1'" in proc.stdout


def test_require_observed_refuses_an_edited_observed_verdict(env: Env) -> None:
    _require_observed(env)
    out = _run(env)
    edited = json.loads(Path(out["json_path"]).read_text())
    edited["criteria"][0]["observed"]["outputDigest"] = "sha256:" + "0" * 64
    path = env.tmp / "edited.json"
    path.write_text(json.dumps(edited))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1
    assert f"not observed: it differs from what verify run #{out['run']} observed" in (
        proc.stdout + proc.stderr
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [("outputDigest", "sha256:" + "0" * 64), ("exitCode", 0), ("durationMs", 1), ("command", "x")],
)
def test_require_observed_checks_each_criterion_against_the_recorded_observation(
    env: Env, field: str, value: object
) -> None:
    """Seed 001 "Completion criteria": "every declared criterion has evidence, not an
    assertion"; verify run records per criterion the command, exit status, duration and
    output digest it observed. Under require_observed a verdict counts only
    when each criterion's observation is the one recorded for that run: here the ledger's
    record of the run says another thing than the verdict file (the negative test's)."""
    _require_observed(env)
    out = _run(env)
    ((raw,),) = env.rows(ENDED.format("observations"))
    recorded = json.loads(raw)
    recorded[1][field] = value
    conn = sqlite3.connect(env.repo / ".git" / "gentle-hooks" / "ledger.sqlite3")
    with conn:
        conn.execute(
            "UPDATE verify_run SET observations = ? WHERE verdict_digest != 'started'",
            (json.dumps(recorded),),
        )
    conn.close()
    _reseal(env)  # this ledger's own row, sealed: only its observations disagree
    proc = env.gh("verdict", "add", out["json_path"])
    assert proc.returncode == 1, proc.stdout
    assert (
        f"not accepted: not observed: its evidence is not what verify run #{out['run']} observed "
        f"(criterion 2: {field} differ)"
    ) in proc.stdout
    assert env.rows("SELECT accepted, observed_run FROM verdict") == [(0, None)]


def _reseal(env: Env) -> None:
    """Seal every verify run row of ``env``'s ledger again with its key (rows edited by
    the test, as if the ledger had recorded them so)."""
    from gentle_hooks.ledger.seal import ledger_key, run_mac
    from gentle_hooks.ledger.store import Ledger

    path = env.repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    led = Ledger.open_existing(str(path))
    assert led is not None
    with led:
        runs = led.unsealed_runs(env.identity())
    key = ledger_key(str(path), create=False)
    assert key is not None and runs
    conn = sqlite3.connect(path)
    with conn:
        for run in runs:
            conn.execute("UPDATE verify_run SET mac = ? WHERE id = ?", (run_mac(key, run), run.id))
    conn.close()


def test_an_opt_out_in_the_base_counts_a_hand_written_verdict(env: Env) -> None:
    """README "Opting out": ``require_observed = false`` committed in the candidate's base,
    once a remote holds it, accepts a verdict no verify run observed; in the work tree alone,
    or committed but unpushed, it does not (a change cannot loosen the gate that judges
    it). The rule is asked at decision time, so turning it on again would drop the verdict
    (``tests/unit/test_facts.py``)."""
    _require_observed(env, on=False)  # the work tree only: not enough
    path = env.tmp / "v.json"
    path.write_text(json.dumps(bound_verdict(env.repo, PASSING_VERDICT)))
    assert env.gh("verdict", "add", str(path)).returncode == 1
    git(env.repo, "add", "-f", ".gentle-hooks.toml")
    git(env.repo, "commit", "-q", "-m", "config: opt out", "--", ".gentle-hooks.toml")
    assert env.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    path.write_text(json.dumps(bound_verdict(env.repo, PASSING_VERDICT)))
    # committed but on no remote: the change's own commit, which cannot loosen its gate
    assert env.gh("verdict", "add", str(path)).returncode == 1
    share(env.repo)  # pushed: a remote holds the opt-out, which now counts
    assert env.gh("verdict", "add", str(path)).returncode == 0
    assert "verifier: satisfied (1 of 1 accepted verdict(s))" in env.gh("status").stdout


#: (id, the check that adds a file to the room, a path it must be reported for).
ADDITION_CASES = [
    ("new-module", "mkdir -p lib && printf 'x = 1\\n' > lib/extra.py", "lib/extra.py"),
    ("new-gitignore", "mkdir -p lib && printf '*\\n' > lib/.gitignore", "lib/.gitignore"),
    ("staged-in-the-room", "printf 'x = 1\\n' > extra.py && git add extra.py", "extra.py"),
    (
        "room-info-exclude",
        "mkdir -p .git/info && printf 'extra.py\\n' >> .git/info/exclude"
        " && printf 'x = 1\\n' > extra.py",
        ".git/info/exclude",
    ),
]


@pytest.mark.parametrize(
    ("check", "path"), [c[1:] for c in ADDITION_CASES], ids=[c[0] for c in ADDITION_CASES]
)
def test_a_check_that_adds_files_to_the_artifact_blocks_the_verdict(
    env: Env, check: str, path: str
) -> None:
    """Seed 001 "Guardrails": "do not repair, patch, or re-run the worker's implementation
    to make a criterion pass". A file a check creates in the room that the candidate's
    ``.gitignore`` does not ignore is a change of the artifact like an edit (C0, S0): staging
    it in the room, or ignoring it through a new ``.gitignore`` or the room's
    ``info/exclude``, hides nothing."""
    check += f" && test -e {path}"
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", check, code=1)
    assert out["status"] == "blocked", out["outcomes"]
    assert out["verdict"]["status"] == "blocked"
    assert out["verdict"]["summary"].startswith("blocked (a check changed the artifact")
    last = out["outcomes"][-1]
    assert (last["command"], last["row"]) == (check, "C0")
    assert path in last["changed"]
    assert not (env.repo / "extra.py").exists() and not (env.repo / "lib").exists()


def test_ignored_outputs_a_check_leaves_do_not_change_the_artifact(env: Env) -> None:
    """Caches and outputs the candidate's ``.gitignore`` ignores (``__pycache__/``,
    ``.pytest_cache/``) are not changes of the artifact: the run still passes."""
    check = "mkdir -p .pytest_cache src/__pycache__ && printf x > src/__pycache__/app.pyc"
    check += " && test -e src/__pycache__/app.pyc"
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", check, code=1)
    # not C0: the run went on to the end; the check itself reads nothing of the change
    assert [o["row"] for o in out["outcomes"]] == ["C4", "C4-nothing", "C2", "C4"]
    assert not any(o.get("changed") for o in out["outcomes"]), out["outcomes"]


#: (id, a check that changes the room and hides it by the time it ends, the path named).
RESTORED_CASES = [
    (
        "edit-then-restore",
        'python3 -c \'p = "src/app.py"; old = open(p).read(); '
        'open(p, "w").write("def add(a, b):\\n    return 4\\n"); import app; '
        'ok = app.add(2, 2) == 4; open(p, "w").write(old); raise SystemExit(not ok)\'',
        "src/app.py",
    ),
    (
        "sed-in-place-and-back",
        "sed -i 's/a + b/4/' src/app.py && python3 -c 'import app; assert app.add(1, 1) == 4'"
        " && sed -i 's/return 4/return a + b/' src/app.py",
        "src/app.py",
    ),
    (
        "chmod-and-back",
        "chmod 600 src/app.py && chmod 644 src/app.py && python3 -c 'import app'",
        "src/app.py",
    ),
    (
        "config-beside-the-tree",
        "printf '[pytest]\\naddopts = -q\\n' > ../pytest.ini && python3 -c 'import app'",
        "../pytest.ini",
    ),
    (
        "conftest-beside-the-tree-then-removed",
        "printf 'x = 1\\n' > ../conftest.py && rm ../conftest.py && python3 -c 'import app'",
        "..",
    ),
]


@pytest.mark.parametrize(
    ("check", "path"), [c[1:] for c in RESTORED_CASES], ids=[c[0] for c in RESTORED_CASES]
)
def test_a_check_that_changes_the_room_and_puts_it_back_blocks_the_verdict(
    env: Env, check: str, path: str
) -> None:
    """Seed 001 "Scope": "never repairs the artifact it judges"; "Guardrails": "do not
    repair, patch, or re-run the worker's implementation to make a criterion pass". An
    edit of the candidate put back before the check ends, and a file written beside
    ``tree/`` (where tools run in ``tree/`` read their configuration), still end the run
    (C0, S0): the room is compared entry by entry, change times included."""
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", check, code=1)
    assert out["status"] == "blocked", out["outcomes"]
    last = out["outcomes"][-1]
    assert (last["command"], last["row"]) == (check, "C0")
    assert path in last["changed"], last["changed"]


@pytest.mark.parametrize("planted", ["pytest.ini", "conftest.py", "setup.cfg"])
def test_a_prepared_room_with_files_beside_its_tree_is_refused(env: Env, planted: str) -> None:
    """Seed 001 "Workflow" 4, "Hand over a clean room": a file put beside ``tree/`` after
    ``verify prepare`` would be read by the tools the checks run; ``verify run --room``
    refuses the room (exit 2) before anything runs."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    write(Path(prepared["room"]) / planted, "[pytest]\naddopts = -p no:terminal\n")
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", prepared["room"])
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"files beside tree/ that it was not prepared with ({planted})" in proc.stderr
    assert "Traceback" not in proc.stderr
    _pasted_prepare(env, proc.stderr)
    assert env.rows("SELECT status FROM verify_run") == []


def test_pytest_caches_do_not_change_the_artifact_whatever_gitignore_lists(env: Env) -> None:
    """SPEC §9: an honest `pytest` run is not a change of the artifact when the
    candidate's ``.gitignore`` does not list ``.pytest_cache/`` or ``__pycache__/``: a
    run's caches go outside the room."""
    write(env.repo / ".gitignore", ".secrets\n")
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    assert out["status"] == "pass", out["outcomes"]
    assert [o["changed"] for o in out["outcomes"]] == [[], [], []]


#: (id, a negative test that fails whatever the artifact is, the row that refuses it).
FAILS_ANYWHERE = [
    ("assert-false", "python3 -c 'assert 1 == 2'", "C2-base"),
    ("exit-1", "python3 -c 'raise SystemExit(1)'", "C2-base"),
    ("zero-division", "python3 -c '1/0'", "C2-base"),
    ("missing-module", "python3 -c 'import nonexistent_mod'", "C2-base"),
    ("test-z", "test -z x", "C2-base"),
    ("test-unequal", "test 1 = 2", "C2-base"),
    ("ls-missing", "ls nonexistent", "C2-base"),
    ("cat-missing", "cat nonexistent", "C2-base"),
    ("eval-false", "eval false", "C2-base"),
    (
        "random-output",
        "python3 -c 'import os; print(os.urandom(8).hex()); raise SystemExit(1)'",
        "C2-base",
    ),
    (
        "clock-output",
        "python3 -c 'import time; print(time.time_ns()); raise SystemExit(1)'",
        "C2-base",
    ),
    (
        "prints-the-change-then-fails",
        "python3 -c 'import app; print(app.add(2, 3)); 1/0'",
        "C2-base",
    ),
    ("killed", "kill -9 $$", "C2-signal"),
    ("killed-only-on-the-candidate", "grep -q 'a + b' src/app.py && kill -9 $$", "C2-signal"),
]


@pytest.mark.parametrize(
    ("negative", "row"), [c[1:] for c in FAILS_ANYWHERE], ids=[c[0] for c in FAILS_ANYWHERE]
)
def test_a_negative_test_that_fails_on_any_tree_does_not_count(
    env: Env, negative: str, row: str
) -> None:
    """Seed 001 "Rules": a negative test is "a check that must fail before the artifact can
    be trusted". It is run on the candidate's base tree too; one whose outcome is the same
    there fails whatever the artifact is and does not count (C2-base), and a death by a
    signal is never the failure it must show (C2-signal): the verdict fails."""
    env.brief({**BRIEF, "negativeTests": [{"criterion": "must fail", "run": negative}]})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert out["status"] == "fail", out["outcomes"]
    (neg,) = [o for o in out["outcomes"] if o["kind"] == "negative"]
    assert (neg["result"], neg["row"]) == ("fail", row), neg


def test_a_negative_test_that_depends_on_the_artifact_counts(env: Env) -> None:
    """The brief's negative test passes on the base tree (it subtracts) and fails on the
    candidate: it counts (C2), and its evidence names the base tree's outcome."""
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    (neg,) = [o for o in out["outcomes"] if o["kind"] == "negative"]
    assert (neg["result"], neg["row"]) == ("pass", "C2")
    (crit,) = [c for c in out["verdict"]["criteria"] if c["criterion"].startswith("negative")]
    assert "on the base tree it exited 0: another outcome" in crit["evidence"]


@pytest.mark.parametrize(
    "suite",
    [
        "python3 -m pytest --version",
        "python3 -m pytest --help",
        "python3 -m pytest --co",
        "python3 -m pytest --collect-only -q",
        "python3 -m pytest --setup-plan",
        "pytest --setup-only tests",
    ],
)
def test_a_test_runner_told_not_to_run_tests_is_refused(env: Env, suite: str) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check": a test runner with a flag that makes it print or list instead of running tests
    (T-no-run) is refused before anything runs, as the suite or as a criterion."""
    for flags in (("--suite", suite), ("--check", suite)):
        proc = env.gh("verify", "run", "--brief", str(env.brief_path), *flags)
        assert proc.returncode == 1, proc.stdout + proc.stderr  # a rule refuses it
        assert "runs no test" in proc.stderr and "(T-no-run)" not in proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "suite",
    [
        "python3 -m pytest -q -k nomatch tests",
        "python3 -m pytest -q -p no:terminal tests",
        "python3 -m unittest",
        "python3 -m unittest discover -p 'zzz*'",
    ],
)
def test_a_test_runner_that_ran_no_test_did_not_run(env: Env, suite: str) -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is blocked
    explaining why it could not": a full suite whose observed output shows no test ran (0,
    or no count) did not run (C1-suite-none), whatever its exit status; a criterion that
    ran none checks nothing (C4-none)."""
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--suite", suite, code=1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    suite_out = out["outcomes"][-1]
    assert (suite_out["result"], suite_out["row"]) == ("blocked", "C1-suite-none")
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", suite, code=1)
    assert out["status"] == "fail", out["outcomes"]
    rows = {(o["result"], o["row"]) for o in out["outcomes"]}
    assert rows & {("fail", "C4-none"), ("fail", "C4-nothing"), ("fail", "C4-nothing-failed")}, rows


def test_a_test_runner_that_ran_tests_counts(env: Env) -> None:
    out = env.json(
        "verify", "run", "--brief", str(env.brief_path), "--suite", "python3 -m pytest -q tests"
    )
    assert out["status"] == "pass", out["outcomes"]
    assert "1 test(s) ran" in out["verdict"]["criteria"][-1]["evidence"]


def test_a_prepared_room_with_ignore_rules_planted_in_its_git_dir_is_refused(env: Env) -> None:
    """An ignore rule written to a prepared room's ``.git/info/exclude`` would hide files a
    check adds: ``verify run --room`` refuses the room (exit 2), naming it, before anything
    runs."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    write(Path(prepared["tree"]) / ".git" / "info" / "exclude", "*.py\n")
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", prepared["room"])
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "was changed since it was prepared (.git/info/exclude)" in proc.stderr
    _pasted_prepare(env, proc.stderr)


def test_a_brief_of_checks_that_check_nothing_gets_no_pass(env: Env) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check". Criteria that hold on any tree, a negative test that fails on any tree and a
    suite that runs no test: the suite is refused before anything runs (T-no-run); with a
    suite that runs the tests, the negative test does not count (C2-base) and the verdict
    fails, and the criteria's evidence says they held on the base tree too."""
    env.brief(
        {
            **BRIEF,
            "successCriteria": [
                {"criterion": "x is set", "run": "test -n x"},
                {"criterion": "it evaluates", "run": "python3 -c 'import os'"},
            ],
            "negativeTests": [{"criterion": "must fail", "run": 'python3 -c "assert 1==2"'}],
            "fullSuite": "python3 -m pytest --version",
        }
    )
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert proc.returncode == 1 and "runs no test" in proc.stderr, proc.stdout + proc.stderr
    # the brief's own suite always runs: a --suite beside it does not replace it
    assert (
        env.gh("verify", "run", "--brief", str(env.brief_path), "--suite", "pytest").returncode == 1
    )
    env.brief({k: v for k, v in json.loads(env.brief_path.read_text()).items() if k != "fullSuite"})
    out = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--suite",
        "python3 -m pytest -q tests",
        code=1,
    )
    assert out["status"] == "fail"
    assert [o["row"] for o in out["outcomes"]] == ["C4-nothing", "C4-nothing", "C2-base", "C4"]
    evidence = [c["evidence"] for c in out["verdict"]["criteria"][:2]]
    assert all("on the base tree it exited 0: the same outcome" in e for e in evidence)
    assert all(
        "with the changed files emptied it exited 0: the same outcome" in e for e in evidence
    )
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout


#: (id, criterion, its row): criteria beside the brief's honest negative test and a suite
#: that runs the tests. A criterion counts only when its outcome depends on the artifact:
#: it differs on the base tree, or on the candidate with the files it adds or changes
#: emptied (row C4-nothing otherwise).
CRITERIA_ROWS: list[tuple[str, str, str]] = [
    ("test-n", "test -n x", "C4-nothing"),
    ("import-os", "python3 -c 'import os'", "C4-nothing"),
    ("exists-untouched-file", "test -e .gitignore", "C4-nothing"),
    ("imports-only", "python3 -c 'import app'", "C4-nothing"),
    ("fails-everywhere", "test -e nonexistent", "C4-nothing-failed"),
    # their output differs on each tree, their exit status never does: they judge nothing
    ("sha256sum-of-the-change", "sha256sum src/app.py", "C4-nothing"),
    ("md5sum-of-the-change", "md5sum src/app.py", "C4-nothing"),
    ("wc-of-the-change", "wc -c src/app.py", "C4-nothing"),
    ("stat-of-the-change", "stat -c %s src/app.py", "C4-nothing"),
    ("differs-on-base", "python3 -c 'import app; assert app.add(2, 2) == 4'", "C4"),
    ("preserved-but-reads-the-change", "python3 -c 'import app; assert app.add(2, 0) == 2'", "C4"),
]


@pytest.mark.parametrize(
    ("criterion", "row"), [c[1:] for c in CRITERIA_ROWS], ids=[c[0] for c in CRITERIA_ROWS]
)
def test_a_criterion_counts_only_when_its_outcome_depends_on_the_artifact(
    env: Env, criterion: str, row: str
) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check"; "Completion criteria": "every declared criterion has evidence, not an
    assertion". With an honest negative test and the full suite, a brief of criteria that
    check nothing gets no pass: each criterion that gives the same outcome on the base
    tree and with the changed files emptied fails (C4-nothing); one that reads the change,
    also a property the base had (add(2, 0) is 2 on both), counts (C4)."""
    env.brief({**BRIEF, "successCriteria": [{"criterion": "it holds", "run": criterion}]})
    passes = row == "C4"
    out = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--suite",
        "python3 -m pytest -q tests",
        code=0 if passes else 1,
    )
    assert [o["row"] for o in out["outcomes"]] == [row, "C2", "C4"], out["outcomes"]
    assert out["status"] == ("pass" if passes else "fail")


def test_a_check_cannot_tell_the_candidate_from_its_base_by_where_it_runs(env: Env) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check". Every run of a check (on the candidate, its base, its hollowed copy) is at the
    same path with the same neighbours and the same commit message: a criterion that reads
    only its directory's name, its parent's listing or ``git log`` observes nothing
    (C4-nothing), and a negative test that does fails on the base too (C2-base)."""
    env.brief(
        {
            **BRIEF,
            "successCriteria": [
                {
                    "criterion": "named tree",
                    "run": "python3 -c 'import os; assert os.getcwd().endswith(\"/tree\")'",
                },
                {"criterion": "no base beside", "run": "test ! -e ../base"},
                {
                    "criterion": "its log",
                    "run": "python3 -c 'import subprocess as s; "
                    'assert s.run(["git", "log", "-1"], capture_output=True).stdout\'',
                },
            ],
            "negativeTests": [
                {"criterion": "named base", "run": 'test "$(basename "$PWD")" = base'}
            ],
        }
    )
    # a bare ``git log`` criterion is refused before anything runs (row N-git-read)
    brief = json.loads(env.brief_path.read_text())
    env.brief(
        {
            **brief,
            "successCriteria": [
                {"criterion": "its log", "run": "git log -1 --format=%s --grep=clean"}
            ],
        }
    )
    refused = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert refused.returncode == 1 and "only reads" in refused.stderr, refused.stderr
    env.brief(brief)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert out["status"] == "fail", out["outcomes"]
    assert [o["row"] for o in out["outcomes"]] == [
        "C4-nothing",
        "C4-nothing",
        "C4-nothing",
        "C2-base",
        "C4",
    ], [c["evidence"] for c in out["verdict"]["criteria"]]
    assert env.rooms() == []


#: The way out row N-hidden prints (one command, or ``a && b``).
ONE_COMMAND = "write one command, or `a && b`"


@pytest.mark.parametrize(
    ("flags", "named", "way_out"),
    [
        (
            ("--suite", "python3 -m pytest -q tests || python3 -m pytest -q tests/test_app.py"),
            "the full suite",
            ONE_COMMAND,
        ),
        (
            ("--suite", "python3 -m pytest -q tests; python3 -m pytest -q tests"),
            "the full suite",
            ONE_COMMAND,
        ),
        (("--check", "python3 -m pytest -q tests\npython3 -m pytest -q"), "criterion", ONE_COMMAND),
        # row N-pipe of policy/hiding.py answers first, with its own way out
        (
            ("--check", "python3 -m pytest -q tests | grep passed"),
            "criterion",
            "report the check alone, or set -o pipefail first",
        ),
    ],
    ids=["or", "semicolon", "newline", "pipe"],
)
def test_a_check_that_can_hide_a_failing_command_is_refused(
    env: Env, flags: tuple[str, ...], named: str, way_out: str
) -> None:
    """Seed 001 "Completion criteria": "every declared criterion has evidence, not an
    assertion": a line that succeeds while one of its commands fails (row N-hidden) is
    refused before a room is made (exit 1: a rule, issue 18 LOW); ``a && b`` stays
    allowed."""
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path), *flags)
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        assert proc.stderr.startswith(f"gentle-hook: check refused: {named}")
        assert way_out in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    assert env.rooms() == []
    both = ("--suite", "python3 -m pytest -q tests && python3 -m pytest -q tests")
    ok = env.gh("verify", "prepare", "--brief", str(env.brief_path), *both)
    assert ok.returncode == 0, ok.stderr


#: (id, a criterion whose failing check the line hides, the construct named): each passed
#: ``verify run`` before the shape was a whitelist (policy/checkshape.py).
HIDING_SHAPES = [
    ("command-substitution", "test -z \"$(python3 -c 'raise SystemExit(1)')\"", "$("),
    ("backquotes", "test -z \"`python3 -c 'raise SystemExit(1)'`\"", "`"),
    ("if-fi", "if python3 -c 'raise SystemExit(1)'; then :; fi && python3 -c 'import app'", "if"),
    (
        "find-exec-semicolon",
        "find src -name app.py -exec python3 -c 'raise SystemExit(1)' {} \\; "
        "&& python3 -c 'import app'",
        "find -exec",
    ),
]


@pytest.mark.parametrize(
    ("check", "named"), [c[1:] for c in HIDING_SHAPES], ids=[c[0] for c in HIDING_SHAPES]
)
def test_a_check_whose_shape_hides_a_failure_is_refused_by_name(
    env: Env, check: str, named: str
) -> None:
    """Seed 001 "Completion criteria": "every declared criterion has evidence, not an
    assertion". A criterion is simple commands joined by ``&&``; anything else is refused
    with one line naming the construct, before a room is made, for ``prepare`` and ``run``,
    as ``--check``, as the brief's criterion and as ``--suite`` (exit 1: a rule, issue 18
    LOW)."""
    briefed = {**BRIEF, "successCriteria": [{"criterion": "hidden", "run": check}]}
    cases = [
        (BRIEF, ("--check", check), f"criterion {check!r}"),
        (briefed, (), "criterion 'hidden'"),
        (BRIEF, ("--suite", check), "the full suite"),
    ]
    for brief, flags, what in cases:
        env.brief(brief)
        for verb in ("prepare", "run"):
            proc = env.gh("verify", verb, "--brief", str(env.brief_path), *flags)
            assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
            said = "gentle-hook: check refused" if flags else f"{env.brief_path}: brief rejected"
            line = f"{said}: {what}: `{check}` uses {named}"
            assert proc.stderr.startswith(line), proc.stderr
            assert "write one command, or `a && b`" in proc.stderr
            assert len(proc.stderr.strip().splitlines()) == 1
    assert env.rooms() == []
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_a_redirection_to_dev_null_is_part_of_a_simple_command(env: Env) -> None:
    """``a >/dev/null && b`` is the accepted shape: it runs, and fails when ``a`` fails
    (C5), passes when both pass."""
    # fails on the candidate (it adds), holds on the base tree (it subtracted)
    failing = (
        "python3 -c 'import app; assert app.add(2, 2) == 0' >/dev/null && python3 -c 'import app'"
    )
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", failing, code=1)
    assert out["status"] == "fail", out["outcomes"]
    assert (out["outcomes"][1]["result"], out["outcomes"][1]["row"]) == ("fail", "C5")
    passing = (
        "python3 -c 'import app' >/dev/null && python3 -c 'import app; assert app.add(2, 2) == 4'"
    )
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", passing)
    assert out["status"] == "pass", out["outcomes"]


def test_the_callers_test_runner_options_do_not_reach_the_room(env: Env) -> None:
    """Seed 001 "Rules": the verifier gets the artifact, the criteria and the tools, and
    nothing else: ``PYTEST_ADDOPTS="--deselect ..."`` (or ``PYTEST_PLUGINS``,
    ``PYTHONSTARTUP``...) in the caller's environment changes nothing the room runs, and the
    verdict records the names of the variables each check ran with."""
    write(env.repo / "tests" / "test_bad.py", "def test_bad():\n    assert False\n")
    args = ("verify", "run", "--brief", str(env.brief_path))
    plain = env.json(*args, code=1)
    hiding = {
        "PYTEST_ADDOPTS": "--deselect tests/test_bad.py::test_bad",
        "PYTEST_PLUGINS": "nonexistent_plugin_xyz",
        "PYTHONSTARTUP": "/nonexistent",
        "NODE_OPTIONS": "--require /nonexistent",
        "MAKEFLAGS": "-k",
    }
    hidden = env.json(*args, env=hiding, code=1)
    for out in (plain, hidden):
        assert out["status"] == "fail"
        suite = out["verdict"]["criteria"][-1]["observed"]
        assert (suite["kind"], suite["exitCode"]) == ("suite", 1)
        assert "PYTEST_ADDOPTS" in suite["env"] and "PYTHONPATH" in suite["env"]
        assert not {"PYTHONSTARTUP", "NODE_OPTIONS", "MAKEFLAGS"} & set(suite["env"])
        # PYTEST_PLUGINS is the room's own: the observer of what the suite ran (issue 18)
        assert {"PYTEST_PLUGINS", "GENTLE_HOOKS_SUITE_OBSERVED"} <= set(suite["env"])
        assert "PYTEST_PLUGINS" not in out["verdict"]["criteria"][0]["observed"]["env"]
        assert suite["env"] == sorted(suite["env"])


def test_one_callers_repeated_runs_count_as_one_verifier(env: Env) -> None:
    """Seed 003 "How many verifiers": shipping "1, plus a second on anything marked
    critical"; seed 001 "Rules": "Homogeneous debate (same-role agents arguing in rounds)
    is prohibited". Two ``verify run`` by the same caller of the same brief are one
    verifier: the gate still needs another, and says a different caller must run it."""
    shipping = {"GENTLE_HOOKS_STAKES": "shipping"}
    esc = env.gh("escalate", "--item", "security", "--reason", "auth", "--critical", env=shipping)
    assert esc.returncode == 0, esc.stderr
    for _ in range(2):
        out = env.json(
            "verify",
            "run",
            "--brief",
            str(env.brief_path),
            "--caller",
            "same-verifier",
            env=shipping,
        )
        added = env.gh("verdict", "add", out["json_path"], env=shipping)
        assert added.returncode == 0, added.stderr
    status = env.gh("status", env=shipping)
    assert "verifier: MISSING (1 of 2 accepted verdict(s))" in status.stdout, status.stdout
    assert "a different caller must run the next verifier" in status.stdout, status.stdout
    other = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--caller",
        "other-verifier",
        env=shipping,
    )
    assert env.gh("verdict", "add", other["json_path"], env=shipping).returncode == 0
    status = env.gh("status", env=shipping)
    assert "verifier: satisfied (2 of 2 accepted verdict(s))" in status.stdout, status.stdout


def test_a_flags_verdict_cannot_pass_while_the_briefs_own_suite_fails(env: Env) -> None:
    """Seed 001 "Rules": "A pass verdict requires the full suite to have run"; "Guardrails":
    "do not accept a claim whose criteria have no observable check". ``--suite`` used to
    replace the brief's full suite, so a ``+flags`` verdict of a passing suite satisfied the
    gate while the brief's own suite failed. The brief's suite always runs; ``--suite``
    runs beside it: the verdict fails and ``verdict add`` does not accept it."""
    # the failing test in a top-level directory of its own: a --suite of tests/ alone is a
    # whole directory by its words (row P-operand), observed to leave extra/ out (issue 18)
    write(env.repo / "extra" / "test_bad.py", "def test_bad():\n    assert False\n")
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests extra"})
    passing = ("--suite", "python3 -m pytest -q tests")
    out = env.json("verify", "run", "--brief", str(env.brief_path), *passing, code=1)
    assert out["status"] == "blocked", out["outcomes"]
    suites = [o for o in out["outcomes"] if o["kind"] == "suite"]
    assert [(o["command"], o["result"]) for o in suites] == [
        ("python3 -m pytest -q tests extra", "fail"),
        ("python3 -m pytest -q tests", "blocked"),
    ]
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout
    assert "verifier: MISSING" in env.gh("status").stdout


def test_a_verdict_of_overridden_checks_does_not_claim_the_brief(env: Env) -> None:
    """Seed 001 "Artifact"/"Contract": the verdict binds the brief it verified. With
    ``--suite`` replacing the brief's full suite (or ``--check``/``--negative`` adding
    checks) the verdict's ``briefId`` is the brief's id marked ``+flags-`` with a digest of
    the checks run, never the brief's own id; the same flags give the same id."""
    args = ("verify", "run", "--brief", str(env.brief_path))
    own = env.json(*args)
    assert own["verdict"]["briefId"] == "add-1"
    suite = ("--suite", "python3 -m pytest -q -x tests")
    one = env.json(*args, *suite)
    two = env.json(*args, *suite)
    other = env.json(*args, "--check", "python3 -m pytest -q tests")
    ids = [v["verdict"]["briefId"] for v in (one, two, other)]
    assert ids[0] == ids[1] and ids[0] != ids[2]
    assert all(i.startswith("add-1+flags-") and len(i) == len("add-1+flags-") + 8 for i in ids)
    assert Path(one["json_path"]).name.startswith(ids[0].replace("+", "-") + "-")


def test_a_failing_suite_fails(env: Env) -> None:
    """Row S4: the candidate's full suite fails (a failing test in the tree)."""
    write(env.repo / "tests" / "test_bad.py", "def test_bad():\n    assert False\n")
    env.brief(BRIEF)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert (out["status"], out["status_row"]) == ("fail", "S4"), out["outcomes"]
    assert out["verdict"]["fullSuiteRun"] is True
