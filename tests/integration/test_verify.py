"""``gentle-hook verify prepare|run`` and ``verdict add`` on real repositories.

Seed ``001_3bc4c9b08e2f7709.txt`` (verify-delegation) "Contract", "Workflow", "Artifact",
"Rules", "Guardrails", "Completion criteria"; SPEC §6 "verdict", §9. The real CLI runs in a
subprocess; rooms go under a per-test ``TMPDIR``; git is real.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from tests.conftest import PASSING_VERDICT, commit_all, gh, git, write

ARTIFACTS = ".agents/skills/platform/artifacts/verify-delegation"

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
            "criterion": "a wrong sum is caught",
            "run": ["python3", "-c", "import app; assert app.add(2, 2) == 5"],
        }
    ],
    "fullSuite": "python3 -m compileall -q .",
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
        # PYTHONPATH: the checks import the room's src/app.py, as the project's own tests would
        extra = {"TMPDIR": str(self.tmp), "PYTHONPATH": "src", **(env or {})}
        return gh(self.repo, *args, env=extra)

    def json(self, *args: str, code: int = 0) -> dict[str, Any]:
        proc = self.gh(*args, "--json")
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
    """The repo with a delegated, escalated change to ``src/app.py``, an untracked file and
    an ignored one."""
    e = Env(repo, tmp_path)
    write(repo / ".gitignore", "__pycache__/\n.pytest_cache/\n.secrets\n")
    commit_all(repo, "ignore .secrets")
    assert e.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # checked\n")
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
    assert "a wrong sum is caught" in text and "python3 -m compileall -q ." in text
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
        "  negative test (a wrong sum is caught): python3 -c 'import app; assert app.add(2, 2) "
        "== 5'",
        "  full suite: python3 -m compileall -q .",
    ]
    then = lines[-1]
    assert then == f"then: gentle-hook verify run --brief {env.brief_path} --room {room}"
    ran = env.gh(*shlex.split(then.removeprefix("then: gentle-hook ")))
    assert ran.returncode == 0, ran.stdout + ran.stderr


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
    check"."""
    env.brief({**BRIEF, "successCriteria": []})
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.startswith("gentle-hook: error: no success criterion to re-check")
    ok = env.gh("verify", "prepare", "--brief", str(env.brief_path), "--check", "true")
    assert ok.returncode == 0, ok.stderr


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
        "FROM verify_run"
    )
    assert (identity, brief, status, caller, artifact) == (
        before,
        "add-1",
        "pass",
        "parent-agent",
        ref,
    )
    assert json.loads(obs) == observed and digest.startswith("sha256:")
    assert env.identity() == before
    assert git(env.repo, "status", "--porcelain").splitlines() == [
        " M src/app.py",
        "?? notes.txt",
    ]
    assert f"/{ARTIFACTS}/" in (env.repo / ".git" / "info" / "exclude").read_text().splitlines()
    # a room the run made itself loses its tree, keeps its logs
    (room,) = env.rooms()
    assert not (room / "tree").exists()
    assert sorted(p.name for p in (room / "logs").iterdir()) == [
        "01-criterion.log",
        "02-negative.log",
        "03-suite.log",
    ]
    again = env.json("verify", "run", "--brief", str(env.brief_path))
    assert again["artifactRef"] != ref and json_path.exists()  # never overwritten


def test_run_prints_a_bounded_summary_and_the_artifact_ref(env: Env) -> None:
    """Seed 001 "Rules": "What returns to the caller is a bounded summary plus an artifact
    reference. Never a transcript"."""
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--caller", "p")
    assert (proc.returncode, proc.stderr) == (0, "")
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("verify run: pass (S5: every criterion passed")
    assert [ln.split()[0] for ln in lines[2:5]] == ["pass", "pass", "pass"]
    (ref,) = [ln for ln in lines if ln.startswith("artifactRef: ")]
    json_path = env.repo / ref.split()[1]
    assert lines[-1] == f"next: gentle-hook verdict add {json_path}"
    assert all(len(ln) < 400 for ln in lines) and len(lines) < 15


#: (id, brief changes, extra flags, status, the row of the first non-pass check).
RUN_CASES = [
    ("no-suite-blocked", {"fullSuite": None}, (), "blocked", "S2"),
    ("suite-tool-missing-blocked", {"fullSuite": ["no-such-suite-runner"]}, (), "blocked", "S1"),
    ("shell-tool-missing-blocked", {"fullSuite": "no-such-suite-runner -q"}, (), "blocked", "S1"),
    ("mutating-without-negative-blocked", {"negativeTests": []}, (), "blocked", "S3"),
    ("criterion-fails", {}, ("--check", "python3 -c 'raise SystemExit(3)'"), "fail", "S4"),
    ("negative-passes-fails", {}, ("--negative", "true"), "fail", "S4"),
    ("suite-fails", {"fullSuite": "false"}, (), "fail", "S4"),
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
    assert verdict["summary"].startswith(f"{status} ({row}: ")
    if status == "fail":
        assert verdict["fullSuiteRun"] is True  # a fail always had its suite run
    assert (env.repo / out["artifactRef"]).exists()


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
    assert proc.stderr == (
        f"gentle-hook: error: {prepared['room']}: the room's tree was changed since it was "
        "prepared (src/app.py); a verifier never repairs what it judges: prepare a new room "
        "with gentle-hook verify prepare --brief <brief.json>\n"
    )
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]
    # a room made for another candidate
    fresh = env.json("verify", "prepare", "--brief", str(env.brief_path))
    write(env.repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    other = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", fresh["room"])
    assert other.returncode == 2 and "the room was prepared for tree" in other.stderr
    not_a_room = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", str(env.tmp))
    assert not_a_room.returncode == 2 and "not a clean room" in not_a_room.stderr


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


def test_checks_run_in_the_room_never_in_the_work_tree(env: Env) -> None:
    before = (env.repo / "src" / "app.py").read_text()
    out = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--keep",
        "--check",
        "echo 'def add(a, b): return 0' > src/app.py",
    )
    assert out["status"] == "pass"
    assert (env.repo / "src" / "app.py").read_text() == before
    assert "return 0" in (Path(out["room"]) / "tree" / "src" / "app.py").read_text()


def test_checks_see_neither_the_hook_repository_nor_the_writers_session(env: Env) -> None:
    """Seed 001 "Rules": "never ... the implementation context": no GENTLE_* variable of the
    writer's session, and git in the room is the room's repository, whatever GIT_DIR says."""
    check = (
        'test -z "$GENTLE_WRITER_MODEL" && test -z "$GIT_DIR" && '
        'test "$(git rev-parse --show-toplevel)" = "$PWD"'
    )
    out = env.json(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--check",
        check,
    )
    assert out["status"] == "pass", out["outcomes"]
    proc = env.gh(
        "verify",
        "run",
        "--brief",
        str(env.brief_path),
        "--check",
        check,
        env={"GENTLE_WRITER_MODEL": "o4-mini", "GIT_DIR": str(env.repo / ".git")},
    )
    assert proc.returncode == 0, proc.stdout


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


def test_a_fail_verdict_without_its_full_suite_is_stored_blocked(env: Env) -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is
    blocked explaining why it could not"."""
    path = env.tmp / "v.json"
    path.write_text(json.dumps({**PASSING_VERDICT, "status": "fail", "fullSuiteRun": False}))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1
    assert env.rows("SELECT status FROM verdict") == [("blocked",)]
    listed = env.gh("verdict", "list").stdout
    assert "status blocked: not accepted: V1 status is fail, not pass; V2 fullSuiteRun" in listed


def test_verdict_add_writes_the_pair_for_a_verdict_from_elsewhere(env: Env) -> None:
    """A verdict added from elsewhere gets its JSON + Markdown artifact pair (seed 001
    "Artifact")."""
    path = env.tmp / "v.json"
    path.write_text(json.dumps(PASSING_VERDICT))
    rec = env.json("verdict", "add", str(path))["record"]
    ref = rec["artifact_ref"]
    assert ref.startswith(f"{ARTIFACTS}/brief-1-") and ref.endswith(".json")
    assert json.loads((env.repo / ref).read_text()) == PASSING_VERDICT
    assert (env.repo / ref).with_suffix(".md").read_text().startswith("# DelegationVerdict")
    assert rec["caller"] == "Test Committer <committer@example.com>"  # who added it
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
    schema_shaped = {**PASSING_VERDICT, "briefId": "add-1"}
    path.write_text(json.dumps(schema_shaped))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1
    assert (
        "not accepted: R1 not observed: no gentle-hook verify run of brief 'add-1' is recorded "
        "for this candidate (verification.require_observed)"
    ) in proc.stdout + proc.stderr
    assess = json.loads(env.gh("assess", "--json").stdout)
    assert "verifier" in assess["decision"]["missing"]
    # the real run is accepted, and then the verifier is satisfied
    out = _run(env)
    assert env.gh("verdict", "add", out["json_path"]).returncode == 0
    assess = json.loads(env.gh("assess", "--json").stdout)
    assert "verifier" not in assess["decision"]["missing"]


def test_require_observed_refuses_an_edited_observed_verdict(env: Env) -> None:
    _require_observed(env)
    out = _run(env)
    edited = json.loads(Path(out["json_path"]).read_text())
    edited["criteria"][0]["observed"]["outputDigest"] = "sha256:" + "0" * 64
    path = env.tmp / "edited.json"
    path.write_text(json.dumps(edited))
    proc = env.gh("verdict", "add", str(path))
    assert proc.returncode == 1
    assert f"R1 not observed: it differs from what verify run #{out['run']} observed" in (
        proc.stdout + proc.stderr
    )


def test_require_observed_turned_on_later_still_does_not_count_a_hand_written_verdict(
    env: Env,
) -> None:
    """A verdict accepted while the key was off does not count once it is on: the gate
    asks at decision time (``LedgerFacts.gate_verdicts``), not only when it was added."""
    _require_observed(env, on=False)
    identity = env.identity()
    path = env.tmp / "v.json"
    path.write_text(json.dumps(PASSING_VERDICT))
    assert env.gh("verdict", "add", str(path)).returncode == 0  # accepted: the key is off
    assert "verifier: satisfied (1 of 1 accepted verdict(s))" in env.gh("status").stdout
    _require_observed(env, on=True)
    assert env.identity() == identity
    status = env.gh("status").stdout
    assert "verifier: MISSING (0 of 1 accepted verdict(s))" in status
    assert "R1 not observed: no gentle-hook verify run wrote it" in status
