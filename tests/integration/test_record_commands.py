"""The recording commands through the real CLI on real repositories (SPEC §3, §5, §6).

Each test drives ``python -m gentle_hooks`` in a repository built with git and asserts the
exit code and the key output lines exactly.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gentle_hooks.ledger.schema import SCHEMA_VERSION
from gentle_hooks.report.fixes import NO_RECEIPT, PREFIX_NOTE
from tests.conftest import (
    PASSING_VERDICT,
    CliResult,
    bound_verdict,
    opt_out_of_observed,
    verdict_file,
)

Cli = Callable[..., CliResult]
PY = sys.executable


def ledger_file(repo: Path) -> Path:
    return repo / ".git" / "gentle-hooks" / "ledger.sqlite3"


def edit(repo: Path, text: str = "x = 1\n") -> None:
    (repo / "src" / "app.py").write_text(
        "def add(a, b):\n    return a + b\n" + text, encoding="utf-8"
    )


def as_json(result: CliResult) -> dict[str, object]:
    assert result.code in (0, 1), result
    data = json.loads(result.out)
    assert isinstance(data, dict)
    return data


def identity(cli: Cli, repo: Path, *flags: str) -> str:
    data = as_json(cli("status", "--json", *flags, cwd=repo))
    assessment = data["assessment"]
    assert isinstance(assessment, dict)
    return str(assessment["candidate"]["identity"])  # type: ignore[index]


# -- record ------------------------------------------------------------------------------


def test_record_with_flags_and_json(cli: Cli, repo: Path) -> None:
    r = cli(
        "record", "--model", "o4-mini", "--effort", "LOW", "--source", "claude-code",
        "--session", "s1", "--tool-call", "t1", "--paths", "src/app.py", "docs/a b.md",
        "--json", cwd=repo,
    )  # fmt: skip
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["schema"] == "gentle-hooks.recorded/v1"
    assert data["ledger"] == str(ledger_file(repo))
    assert data["identity"] is None  # pending mutations bind to the root, not a candidate
    rec = data["record"]
    assert (rec["type"], rec["id"], rec["model"], rec["effort"]) == (
        "pending_mutation",
        1,
        "o4-mini",
        "low",
    )
    assert rec["paths"] == ["src/app.py", "docs/a b.md"]
    assert rec["root"] == str(repo) and rec["consumed_by"] is None


def test_record_reads_the_writer_environment(cli: Cli, repo: Path) -> None:
    env = {"GENTLE_WRITER_MODEL": "gpt-5-mini", "GENTLE_WRITER_EFFORT": "high"}
    nothing = (
        "note: no path differs from where the writer started (HEAD, or its last write): no "
        "content is attributed to the writer\n"
    )
    r = cli("record", cwd=repo, env=env)
    assert (r.code, r.out) == (0, "recorded: pending mutation #1: gpt-5-mini/high\n" + nothing)
    edit(repo)
    r = cli("record", "--model", "flag-model", cwd=repo, env=env)
    assert r.out == "recorded: pending mutation #2: flag-model/high, 1 path(s)\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--effort", "low"], "--model is required (or set GENTLE_WRITER_MODEL)"),
        (["--model", "m"], "--effort is required (or set GENTLE_WRITER_EFFORT)"),
        (
            ["--model", "m", "--effort", "huge"],
            "unknown effort level 'huge': use one of off minimal low medium high xhigh",
        ),
        (
            ["--model", "m", "--effort", "low", "--paths", "/etc/passwd"],
            "--paths: '/etc/passwd' is absolute; give paths relative to the root",
        ),
        (
            ["--model", "m", "--effort", "low", "--paths", "src/../../x"],
            "--paths: 'src/../../x' escapes the work tree root",
        ),
    ],
)
def test_record_refuses_bad_input(cli: Cli, repo: Path, args: list[str], message: str) -> None:
    r = cli("record", *args, cwd=repo)
    assert (r.code, r.out, r.err) == (2, "", f"gentle-hook: error: {message}\n")
    assert not ledger_file(repo).exists()


# -- assess and the ledger ---------------------------------------------------------------


def test_assess_without_a_ledger_creates_none(cli: Cli, repo: Path) -> None:
    edit(repo)
    r = cli("assess", cwd=repo)
    assert r.code == 0, r
    assert "gate: not delegated; the gate does not apply (informational)" in r.lines
    assert not ledger_file(repo).exists()
    assert not (repo / ".git" / "gentle-hooks").exists()


def test_assess_reads_writers_and_applies_the_gate(cli: Cli, repo: Path) -> None:
    edit(repo)
    cli("record", "--model", "o4-mini", "--effort", "low", cwd=repo)
    data = as_json(cli("assess", "--json", "--writer-model", "big", cwd=repo))
    assert data["writerProfileSource"] == "runtime"
    assert data["writerProfile"] == {
        "small": True,
        "profiles": [{"model": "o4-mini", "effort": "low", "small": True}],
    }
    decision = data["decision"]
    assert decision == {
        "applies": True,
        "blocked": True,
        "spot_check_satisfied": False,
        "verifier_satisfied": True,
        "missing": ["spot-check"],
        "reasons": ["no spot check for this candidate (required in every tier; plan risk medium)"],
        "fixes": ["gentle-hook spot-check"],
        "fix_steps": [
            [
                {"label": "do", "text": f"{PREFIX_NOTE} ({NO_RECEIPT})"},
                {"label": "prefix", "text": "gentle-hook receipt run --"},
                {"label": "run", "text": "gentle-hook spot-check"},
            ]
        ],
    }


def test_a_bare_caller_closed_is_unknown_and_an_ack_does_not_close(cli: Cli, repo: Path) -> None:
    """Seed 000 review-outcome table, last row: "Anything else, including a bare caller
    closed -> unknown"; closure only from native's consumed fact, which the built-in
    provider never reports (a ``review ack`` is a caller's word)."""
    edit(repo)
    data = as_json(cli("assess", "--json", "--review-outcome", "closed", cwd=repo))
    assert (data["nativeReviewOutcome"], data["outcome_source"]) == ("unknown", "unknown")
    assert cli("escalate", "--item", "security", "--reason", "auth", cwd=repo).code == 0
    r = cli("review", "ack", cwd=repo)
    assert r.code == 0
    assert r.lines[-2:] == [
        "note: an acknowledgement is a caller's word: the review closes only when the native "
        "provider reports candidate.consumed for this candidate",
        "note: a review outcome never removes a verifier the tier requires",
    ]
    data = as_json(cli("assess", "--json", "--review-outcome", "closed", cwd=repo))
    assert (data["nativeReviewOutcome"], data["outcome_source"]) == ("unknown", "unknown")
    assert data["reviewDueReason"] != "already_reviewed"
    assert data["candidate"]["consumed"] is False  # type: ignore[index]
    assert data["risk"] == "high"
    assert "verifier" in data["decision"]["missing"]  # type: ignore[index]


def test_a_recorded_decline_wins_over_closure(cli: Cli, repo: Path) -> None:
    edit(repo)
    assert cli("review", "ack", cwd=repo).code == 0
    assert cli("review", "decline", cwd=repo).code == 0
    data = as_json(cli("assess", "--json", cwd=repo))
    assert (data["nativeReviewOutcome"], data["outcome_source"]) == ("declined", "derived")
    data = as_json(cli("assess", "--json", "--review-outcome", "unavailable", cwd=repo))
    assert (data["nativeReviewOutcome"], data["outcome_source"]) == ("unavailable", "explicit")


def test_review_refuses_an_unknown_verb(cli: Cli, repo: Path) -> None:
    r = cli("review", "approve", cwd=repo)
    assert (r.code, r.err) == (
        2,
        "gentle-hook: error: unknown review verb 'approve': use decline, unavailable or ack\n",
    )


# -- receipts ----------------------------------------------------------------------------


def test_receipt_run_streams_records_and_exits_with_the_command(cli: Cli, repo: Path) -> None:
    edit(repo)
    code = "import sys; print('out line'); print('err line', file=sys.stderr); sys.exit(3)"
    r = cli("receipt", "run", "--", PY, "-c", code, cwd=repo)
    assert r.code == 3
    assert r.out == "out line\n"
    err = r.err.splitlines()
    assert err[0] == "err line"
    assert err[1].startswith("recorded for sha256:")
    assert f": receipt #1: {PY} -c " in err[1]
    assert err[1].split("'")[-1].startswith(": exit 3  (ran it, ")
    listed = as_json(cli("receipt", "list", "--json", cwd=repo))
    (rec,) = listed["records"]  # type: ignore[misc]
    assert rec["kind"] == "run" and rec["exit_code"] == 3 and rec["observed"] == "exit 3"
    assert rec["argv"] == [PY, "-c", code]
    assert rec["output_digest"].startswith("sha256:") and len(rec["output_digest"]) == 71
    assert rec["duration_ms"] >= 0


def test_receipt_run_json_keeps_stdout_for_the_json(cli: Cli, repo: Path) -> None:
    r = cli("receipt", "run", "--json", "--", PY, "-c", "print('hello')", cwd=repo)
    assert r.code == 0
    assert json.loads(r.out)["record"]["line"].endswith(": exit 0")
    assert r.err == "hello\n"


def test_a_receipt_whose_test_runner_ran_no_tests_cannot_count(cli: Cli, repo: Path) -> None:
    # unittest exits 0 having found no test module: the receipt verifies nothing
    edit(repo)
    empty = repo / "empty"
    empty.mkdir()
    r = cli("receipt", "run", "--cwd", str(empty), "--", PY, "-m", "unittest", "-q", cwd=repo)
    assert r.code == 0, r
    assert "ran no tests" in r.err, r
    listed = as_json(cli("receipt", "list", "--json", cwd=repo))
    (rec,) = listed["records"]  # type: ignore[misc]
    assert rec["observed"] == "exit 0, its test runner ran no tests"
    refused = cli("spot-check", cwd=repo)
    assert refused.code == 2 and "ran no tests" in refused.err, refused


def test_receipt_run_of_a_missing_program_records_nothing(cli: Cli, repo: Path) -> None:
    r = cli("receipt", "run", "--", "no-such-program-xyz", cwd=repo)
    assert (r.code, r.err) == (
        2,
        "gentle-hook: error: cannot run no-such-program-xyz: No such file or directory\n",
    )
    assert cli("receipt", "list", cwd=repo).out.startswith("no receipts for sha256:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pytest passed", "--exit-code", "0"], "receipt 'pytest passed' has no ': ' separator"),
        (["pytest: ok"], "--exit-code N is required"),
        (["pytest: ok", "--exit-code", "300"], "--exit-code 300: an exit status is 0..255"),
    ],
)
def test_receipt_add_refuses_bad_input(cli: Cli, repo: Path, args: list[str], message: str) -> None:
    r = cli("receipt", "add", *args, cwd=repo)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith(f"gentle-hook: error: {message}") and r.err.count("\n") == 1


# -- spot checks -------------------------------------------------------------------------


def test_spot_check_needs_a_receipt_for_this_candidate(cli: Cli, repo: Path) -> None:
    edit(repo)
    r = cli("spot-check", cwd=repo)
    assert r.code == 2
    assert r.err.startswith("gentle-hook: error: no receipt recorded for this candidate (")
    assert r.err.endswith(
        "the writer reports the command that tests the change after the prefix (or declares "
        "it in verification.commands), then spot-checks it; prefix: gentle-hook receipt run "
        "--; run: gentle-hook spot-check\n"
    )


def test_a_receipt_of_another_candidate_cannot_be_spot_checked(cli: Cli, repo: Path) -> None:
    edit(repo)
    assert cli("receipt", "run", "--", PY, "-c", "pass", cwd=repo).code == 0
    edit(repo, "z = 3\n")
    r = cli("spot-check", "--receipt", "1", cwd=repo)
    assert r.code == 2
    assert "receipt #1 was recorded for another candidate" in r.err
    r = cli("spot-check", cwd=repo)
    assert r.code == 2 and "no receipt recorded for this candidate" in r.err


def test_a_reported_command_is_rerun_with_sh_and_a_lie_blocks(cli: Cli, repo: Path) -> None:
    edit(repo)
    cli("record", "--model", "m", "--effort", "medium", cwd=repo)
    assert cli("receipt", "add", "exit 1: exit 0", "--exit-code", "0", cwd=repo).code == 0
    check = "python3 -c 'import ast; ast.parse(open(\"src/app.py\").read())'"
    assert cli("receipt", "add", f"{check}: exit 0", "--exit-code", "0", cwd=repo).code == 0
    r = cli("spot-check", "--command", "exit 1", cwd=repo)
    assert r.code == 1
    assert r.err.splitlines()[-1].endswith(
        ": spot check #1: re-ran receipt #1 (exit 1): reported exit 0, observed exit 1: DISAGREED"
    )
    ok = cli("spot-check", "--command", check, cwd=repo)
    assert ok.code == 0  # agreed, but the earlier disagreement still blocks the candidate
    s = cli("status", cwd=repo)
    assert s.code == 0
    assert "spot check: REFUTED (a re-run of this change disagreed)" in s.lines
    assert (
        "  missing: a spot check failed after the writer reported success: spot check #1 "
        "re-ran receipt #1 (exit 1): reported exit 0, observed exit 1"
    ) in s.lines
    # the disagreement stays with the candidate: no report or spot check of it is offered
    # (the agreeing spot check above changed nothing), only a changed change or the override
    assert (
        "  this change is refuted, a re-run of it disagreed: the writer's report (receipt #1: "
        "exit 1) said exit 0; its re-run (spot check #1) observed exit 1; both results are "
        "recorded and stay with it, so no new report or spot check of the same change can "
        "satisfy the gate"
    ) in s.lines
    assert not any(line.startswith("  run: ") for line in s.lines), s.lines


def test_a_rerun_that_changes_the_candidates_files_does_not_count(cli: Cli, repo: Path) -> None:
    edit(repo)
    cli("record", "--model", "m", "--effort", "medium", cwd=repo)
    write = "open('src/app.py', 'a').write('# touched\\n')"
    ran = cli("receipt", "run", "--", PY, "-c", write, cwd=repo)
    assert ran.code == 1  # ran, but does not count: nothing recorded
    assert (
        "not recorded: the command changed the candidate's tracked files (src/app.py), so it "
        "tested something else and does not count as the writer's self-verification"
    ) in ran.err
    assert "prefix: gentle-hook receipt run --" in ran.err
    edit(repo)  # back to the candidate before the run
    assert cli("receipt", "list", cwd=repo).out.startswith("no receipts for ")
    # the same command reported from elsewhere: the spot check's re-run refuses it
    line = f"{shlex.join([PY, '-c', write])}: exit 0"
    assert cli("receipt", "add", line, "--exit-code", "0", cwd=repo).code == 0
    r = cli("spot-check", cwd=repo)
    assert r.code == 1
    assert (
        "agreed; does not count: the re-run changed the candidate's files (src/app.py), so it "
        "tested something else"
    ) in r.err
    s = cli("status", cwd=repo)
    assert "spot check: MISSING" in s.lines


def test_a_rerun_that_creates_files_counts(cli: Cli, repo: Path) -> None:
    """Files the run itself creates (a report, a cache git does not ignore) are not the
    candidate's: the re-run counts, and the receipt binds to the work tree with them too."""
    edit(repo)
    cli("record", "--model", "m", "--effort", "medium", cwd=repo)
    write = "open('report.txt', 'w').write('ok')"
    made = cli("receipt", "run", "--", PY, "-c", write, cwd=repo)
    assert made.code == 0
    assert (
        "note: the run wrote 1 file(s) git neither tracks nor ignores (report.txt): the "
        "receipt binds to the work tree with them too (#2); list them in .gitignore to keep "
        "them out of the candidate"
    ) in made.lines
    r = cli("spot-check", cwd=repo)
    assert r.code == 0, r
    assert r.err.splitlines()[-1].endswith(": agreed")


def test_readback_satisfies_only_the_passive_tier(cli: Cli, repo: Path) -> None:
    (repo / "README.md").write_text("# demo\n\nmore words\n", encoding="utf-8")
    cli("record", "--model", "m", "--effort", "low", cwd=repo)
    r = cli("spot-check", "--readback", cwd=repo)
    assert r.code == 0
    assert r.lines[0].startswith("readback of sha256:") and r.lines[0].endswith(
        ": 1 path(s), +2 -0"
    )
    assert r.lines[1] == "M README.md  +2 -0"
    s = cli("status", cwd=repo)
    assert s.lines[0].startswith("risk: passive")
    assert "status: satisfied" in s.lines
    edit(repo)  # a medium change: a readback is not a spot check there
    assert cli("spot-check", "--readback", cwd=repo).code == 0
    s = cli("status", cwd=repo)
    assert s.lines[0].startswith("risk: medium")
    assert "status: missing spot-check" in s.lines


# -- escalations -------------------------------------------------------------------------


def test_escalate_refuses_unknown_items_and_missing_reasons(cli: Cli, repo: Path) -> None:
    r = cli("escalate", "--item", "7", "--reason", "x", cwd=repo)
    assert (r.code, r.err) == (
        2,
        "gentle-hook: error: unknown escalation item '7': name one of the six Task Size "
        "high-risk items by number or slug (1 data, 2 security, 3 contracts, 4 concurrency, "
        "5 delivery, 6 untested)\n",
    )
    r = cli("escalate", "--item", "security", cwd=repo)
    assert (r.code, r.err) == (
        2,
        'gentle-hook: error: escalating item 2 (security) needs a reason: add --reason "<one '
        'line: why security applies>"\n',
    )


def test_an_escalation_is_sticky_for_its_root_only(
    cli: Cli, repo: Path, git: Callable[..., str]
) -> None:
    other = repo.parent / "other"
    git(repo, "worktree", "add", "-q", "-b", "other", str(other))
    edit(repo)
    edit(other)  # the same candidate identity in both worktrees
    assert identity(cli, repo) == identity(cli, other)
    assert cli("escalate", "--item", "4", "--reason", "locks", cwd=repo).code == 0
    assert as_json(cli("assess", "--json", cwd=repo))["risk"] == "high"
    assert as_json(cli("assess", "--json", cwd=other))["risk"] == "medium"
    edit(repo, "w = 9\n")
    assert as_json(cli("assess", "--json", cwd=repo))["risk"] == "high"


def test_work_a_commit_took_no_longer_applies_to_the_work_tree(
    cli: Cli, repo: Path, git: Callable[..., str]
) -> None:
    """Once a commit carries the writer's content, the work tree no longer adds it: a
    human's next edit of the same file is not delegated (SPEC §3 "Attribution")."""
    edit(repo)
    cli("record", "--model", "m", "--effort", "low", cwd=repo)
    git(repo, "add", "-A")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "writer")
    assert as_json(cli("assess", "--json", "--committed-only", cwd=repo))["decision"]["applies"]  # type: ignore[index]
    edit(repo, "w = 9\n")
    data = as_json(cli("assess", "--json", cwd=repo))
    assert data["risk"] == "medium" and data["decision"]["applies"] is False  # type: ignore[index]


# -- verdicts ----------------------------------------------------------------------------


def test_verdict_add_refuses_what_is_not_a_verdict(cli: Cli, repo: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"briefId": "b",', encoding="utf-8")
    r = cli("verdict", "add", str(bad), cwd=repo)
    assert r.code == 2 and r.err.startswith(f"gentle-hook: error: {bad}: not JSON: ")
    r = cli("verdict", "add", "-", cwd=repo, input='{"status": "pass"}')
    assert r.code == 2 and r.err.startswith("gentle-hook: error: stdin: not a DelegationVerdict")
    r = cli("verdict", "add", str(tmp_path / "missing.json"), cwd=repo)
    assert r.code == 2 and r.err.endswith("missing.json: cannot read: No such file or directory\n")
    assert cli("verdict", "list", cwd=repo).out.startswith("no verdicts for sha256:")


def test_a_verdict_counts_only_for_its_candidate(cli: Cli, repo: Path, tmp_path: Path) -> None:
    opt_out_of_observed(repo)  # a hand-written verdict counts here at all
    edit(repo)
    cli("escalate", "--item", "security", "--reason", "auth", cwd=repo)
    path = verdict_file(tmp_path, bound_verdict(repo, PASSING_VERDICT))
    r = cli("verdict", "add", path, cwd=repo)
    assert r.code == 0, r
    assert as_json(cli("assess", "--json", cwd=repo))["decision"]["verifier_satisfied"]  # type: ignore[index]
    edit(repo, "q = 1\n")
    decision = as_json(cli("assess", "--json", cwd=repo))["decision"]
    assert decision["verifier_satisfied"] is False  # type: ignore[index]
    show = cli("verdict", "show", "1", cwd=repo)
    assert show.code == 0
    assert show.lines[1] == "# DelegationVerdict for brief `brief-1`"


# -- a damaged store ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["assess"],
        ["status"],
        ["record", "--model", "m", "--effort", "low"],
        ["receipt", "add", "true: exit 0", "--exit-code", "0"],
        ["receipt", "list"],
        ["spot-check"],
        ["escalate", "--item", "2", "--reason", "x"],
        ["review", "decline"],
        ["verdict", "list"],
    ],
)
def test_a_corrupt_store_fails_every_command_in_one_line(
    cli: Cli, repo: Path, args: list[str]
) -> None:
    edit(repo)
    path = ledger_file(repo)
    path.parent.mkdir()
    path.write_bytes(b"definitely not sqlite " * 64)
    r = cli(*args, cwd=repo)
    assert (r.code, r.out) == (2, "")
    assert r.err == (
        f"gentle-hook: error: ledger {path}: not a SQLite database (bad header) (nothing was "
        "deleted); run: gentle-hook doctor\n"
    )
    assert path.read_bytes() == b"definitely not sqlite " * 64


def test_a_newer_store_is_refused_and_doctor_says_why(cli: Cli, repo: Path) -> None:
    assert cli("record", "--model", "m", "--effort", "low", cwd=repo).code == 0
    path = ledger_file(repo)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    r = cli("status", cwd=repo)
    assert (r.code, r.err) == (
        2,
        f"gentle-hook: error: ledger {path}: schema version 99 is newer than this gentle-hooks "
        f"knows ({SCHEMA_VERSION}); upgrade gentle-hooks (nothing was deleted); run: "
        "gentle-hook doctor\n",
    )
    d = cli("doctor", cwd=repo)
    assert d.code == 2
    assert (
        f"FAIL  schema: version 99 is newer than this gentle-hooks knows ({SCHEMA_VERSION}); "
        "upgrade gentle-hooks" in d.lines
    )
    assert d.lines[-1] == "unhealthy: nothing was changed or deleted"


def test_doctor_on_a_healthy_and_a_corrupt_store(cli: Cli, repo: Path) -> None:
    d = cli("doctor", cwd=repo)
    assert d.code == 0
    assert f"ok    store: {ledger_file(repo)}: not created yet (nothing recorded)" in d.lines
    cli("record", "--model", "m", "--effort", "low", cwd=repo)
    d = cli("doctor", "--json", cwd=repo)
    assert d.code == 0
    checks = {c["name"]: c for c in json.loads(d.out)["checks"]}
    assert checks["schema"]["detail"] == f"version {SCHEMA_VERSION} (current)"
    assert checks["integrity"] == {"name": "integrity", "ok": True, "detail": "ok"}
    assert checks["records"]["detail"].startswith("pending_mutation 1,")
    size = ledger_file(repo).stat().st_size
    with open(ledger_file(repo), "r+b") as fh:
        fh.truncate(size - 4096)
    d = cli("doctor", cwd=repo)
    assert d.code == 2
    assert d.lines[1].startswith(f"FAIL  store: {ledger_file(repo)}: truncated: the header")
    assert ledger_file(repo).stat().st_size == size - 4096


def test_commands_accept_cwd(cli: Cli, repo: Path, tmp_path: Path) -> None:
    edit(repo)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert (
        cli("record", "--cwd", str(repo), "--model", "m", "--effort", "low", cwd=elsewhere).code
        == 0
    )
    r = cli("receipt", "run", "--cwd", str(repo / "src"), "--", PY, "-c", "pass", cwd=elsewhere)
    assert r.code == 0, r
    listed = as_json(cli("receipt", "list", "--cwd", str(repo), "--json", cwd=elsewhere))
    assert listed["records"][0]["cwd"] == "src"  # type: ignore[index]
    assert cli("spot-check", "--cwd", str(repo), cwd=elsewhere).code == 0
    s = as_json(cli("status", "--cwd", str(repo), "--json", cwd=elsewhere))
    assert s["satisfied"] is True


def test_json_outputs_validate_against_their_exported_schemas(cli: Cli, repo: Path) -> None:
    import jsonschema

    edit(repo)
    outputs = {
        "recorded": cli("record", "--model", "m", "--effort", "low", "--json", cwd=repo),
        "records": cli("receipt", "list", "--json", cwd=repo),
        "status": cli("status", "--json", cwd=repo),
        "doctor": cli("doctor", "--json", cwd=repo),
    }
    cli("receipt", "run", "--", PY, "-c", "pass", cwd=repo)
    outputs["recorded-spot-check"] = cli("spot-check", "--json", cwd=repo)
    for name, result in outputs.items():
        assert result.code == 0, result
        schema = json.loads(cli("schema", name.split("-")[0], cwd=repo).out)
        jsonschema.validate(json.loads(result.out), schema)


def test_doctor_fix_moves_a_damaged_ledger_aside_keeping_it(cli: Cli, repo: Path) -> None:
    edit(repo)
    assert cli("record", "--model", "m", "--effort", "low", cwd=repo).code == 0
    path = ledger_file(repo)
    healthy = path.read_bytes()
    assert cli("doctor", "--fix", cwd=repo).code == 0  # a healthy ledger is left alone
    assert path.read_bytes() == healthy
    path.write_bytes(b"definitely not sqlite " * 64)
    d = cli("doctor", cwd=repo)
    assert d.code == 2
    [store] = [ln for ln in d.lines if ln.startswith("FAIL  store: ")]
    assert "moves it aside, kept as ledger.sqlite3.damaged-TIME" in store
    assert store.endswith(" doctor --fix"), store
    fixed = cli("doctor", "--fix", cwd=repo)
    assert fixed.lines[0].startswith(f"moved the damaged ledger aside: {path} -> {path}.damaged-")
    moved = path.parent.glob("ledger.sqlite3.salvaged-*")  # its rows recovered: renamed
    [kept] = [p for p in moved if not p.name.endswith(("-wal", "-shm"))]  # moved with it
    assert kept.read_bytes() == b"definitely not sqlite " * 64
    stamp = kept.name.removeprefix("ledger.sqlite3.salvaged-")
    recovered = f"recovered 0 row(s) of {path}.damaged-{stamp} into {path}; kept as {kept}"
    assert fixed.lines[1] == recovered, fixed.lines
    # nothing of it could be read: held in quarantine, the gates closed, until discarded
    assert fixed.lines[2].startswith("held as quarantine 1: ledger.sqlite3.damaged-"), fixed.lines
    assert fixed.lines[2].endswith(
        "; run: gentle-hook doctor --discard 1 --reason 'the writer "
        "rows a damaged ledger lost are abandoned'"
    ), fixed.lines
    assert path.exists() and fixed.code == 2, fixed.lines
    assert cli("record", "--model", "m", "--effort", "low", cwd=repo).code == 0


def test_a_review_ack_is_stored_and_shown_in_our_word(cli: Cli, repo: Path) -> None:
    """``review ack`` is a caller's acknowledgement, not native's ``consumed`` fact (seed 000:
    native writes that fact "when an approved review is acknowledged"): the ledger row,
    ``status --json`` and ``status`` say ``acknowledged`` (issue 18)."""
    edit(repo)
    assert cli("review", "ack", cwd=repo).code == 0
    conn = sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3")
    try:
        assert conn.execute("SELECT outcome FROM review_fact").fetchall() == [("acknowledged",)]
    finally:
        conn.close()
    data = as_json(cli("status", "--json", cwd=repo))
    facts = data["records"]["review_facts"]  # type: ignore[index]
    assert [f["outcome"] for f in facts] == ["acknowledged"]
    shown = cli("status", cwd=repo)
    assert "review #1: acknowledged by a caller (review ack), not closed" in shown.out
