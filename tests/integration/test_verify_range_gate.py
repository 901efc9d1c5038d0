"""The range and server gates under ``verification.require_observed`` (SPEC §8, §9; issue
18 "Done when": "a hand-written or other-candidate verdict does not satisfy a
``require_observed`` gate").

Local gates refuse a verdict no ``verify run`` observed; ``git commit --no-verify`` skips
them, and the post-commit hook still writes the commit's note with the verdict in it. The
range gate (CI) and a server's pre-receive judge from that note alone: under
``require_observed`` (the range base's configuration) they count only a verdict whose line
says a ``verify run`` for the note's candidate wrote exactly that verdict. Real git, the
real CLI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.artifacts.verdict import parse_verdict, verdict_digest
from gentle_hooks.values.candidate import candidate_identity
from tests.conftest import OPT_OUT, PASSING_VERDICT, bound_verdict, git, share, write
from tests.integration.test_verify import ENDED, Env, make_env

NOTES = "refs/notes/gentle-hooks"
NOT_SAID = (
    "not observed: its note line does not say a gentle-hook verify run wrote it "
    "(verification.require_observed)"
)


def _spot_checked(e: Env) -> None:
    receipt = e.gh("receipt", "run", "--", "python3", "-m", "pytest", "-q", "tests")
    assert receipt.returncode == 0, receipt.stdout + receipt.stderr
    spot = e.gh("spot-check")
    assert spot.returncode == 0, spot.stdout + spot.stderr


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """The escalated, delegated change of ``test_verify``, spot-checked, with the hooks
    installed (the post-commit hook writes the notes, ``--no-verify`` or not)."""
    e = make_env(repo, tmp_path)
    assert e.gh("install").returncode == 0
    _spot_checked(e)
    return e


def _hand_written(env: Env) -> None:
    path = env.tmp / "v.json"
    path.write_text(json.dumps(bound_verdict(env.repo, {**PASSING_VERDICT, "briefId": "add-1"})))
    env.gh("verdict", "add", str(path))


def _commit_no_verify(env: Env) -> None:
    git(env.repo, "add", "-A")
    git(env.repo, "commit", "-q", "--no-verify", "-m", "writer: add")


def _gate(env: Env) -> tuple[int, dict[str, Any], str]:
    """``gate --range HEAD~1..HEAD``: exit code (text and ``--json`` agree), the commit's
    JSON verdict, the text output."""
    text = env.gh("gate", "--range", "HEAD~1..HEAD")
    data = env.gh("gate", "--range", "HEAD~1..HEAD", "--json")
    assert data.returncode == text.returncode, data.stderr
    (commit,) = json.loads(data.stdout)["commits"]
    return text.returncode, commit, text.stdout + text.stderr


def _reason(commit: dict[str, Any]) -> str:
    (reason,) = commit["reasons"]
    head = (
        "plan risk high (escalated: 2 security) needs 1 accepted gentle-ai-verify verdict(s) "
        "for this candidate (stakes ordinary), found 0; not accepted: the note's verdict 1 (brief "
        "add-1, status pass): "
    )
    assert reason.startswith(head), reason
    return str(reason.removeprefix(head))


def _note_lines(env: Env) -> list[dict[str, Any]]:
    note = git(env.repo, "notes", f"--ref={NOTES}", "show", "HEAD")
    return [json.loads(x) for x in note.splitlines()]


def _rewrite_note(env: Env, lines: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(x, sort_keys=True, separators=(",", ":")) + "\n" for x in lines)
    path = env.tmp / "note.txt"
    path.write_text(text, encoding="utf-8")
    git(env.repo, "notes", f"--ref={NOTES}", "add", "-f", "-F", str(path), "HEAD")


def _pre_receive(env: Env, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """A bare copy's ``pre-receive`` gate receiving HEAD on top of HEAD~1."""
    bare = tmp_path / "server.git"
    git(tmp_path, "clone", "-q", "--bare", "--no-local", str(env.repo), str(bare))
    git(bare, "fetch", "-q", str(env.repo), "refs/notes/*:refs/notes/*")
    old = git(env.repo, "rev-parse", "HEAD~1").strip()
    new = git(env.repo, "rev-parse", "HEAD").strip()
    return subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "hook", "pre-receive"],
        cwd=bare,
        input=f"{old} {new} refs/heads/work\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_hand_written_verdict_committed_with_no_verify_blocks_the_range_gate(
    env: Env, tmp_path: Path
) -> None:
    """Refuter 18r item 2: the hand-written verdict, refused locally, reached the note
    with ``--no-verify`` and the range gate said "verified as its plan requires" (exit 0).
    Its line says no verify run wrote it: the range gate blocks, and so does the server's
    pre-receive."""
    _hand_written(env)
    assert "not accepted: not observed" in env.gh("verdict", "list").stdout
    _commit_no_verify(env)
    (line,) = [x for x in _note_lines(env) if x["kind"] == "verdict"]
    assert "observed" not in line
    code, commit, said = _gate(env)
    assert (code, commit["blocked"]) == (1, True), said
    assert _reason(commit) == NOT_SAID
    assert f"missing: {commit['reasons'][0]}" in said
    server = _pre_receive(env, tmp_path)
    assert server.returncode == 1, server.stdout + server.stderr
    assert "REJECTED refs/heads/work: 1 unverified delegated commit(s)" in server.stderr
    assert NOT_SAID in server.stderr


def test_an_observed_verdict_passes_the_range_gate(env: Env, tmp_path: Path) -> None:
    """A ``verify run`` verdict, added and committed with ``--no-verify``: its note line
    carries the digest of the verdict the run wrote, and every gate counts it."""
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    assert env.gh("verdict", "add", out["json_path"]).returncode == 0
    _commit_no_verify(env)
    (line,) = [x for x in _note_lines(env) if x["kind"] == "verdict"]
    assert [line["observed"]] == [d for (d,) in env.rows(ENDED.format("verdict_digest"))]
    assert line["observed"] == verdict_digest(parse_verdict(json.dumps(line["verdict"]), "note"))
    code, commit, said = _gate(env)
    assert (code, commit["blocked"]) == (0, False), said
    assert "verified as its plan requires" in said
    assert _pre_receive(env, tmp_path).returncode == 0


def test_an_observed_verdict_edited_or_rebound_in_the_note_does_not_count(env: Env) -> None:
    """The note's verdict edited after the run (its ``observed`` digest kept) is not the
    verdict the run wrote; one re-bound to another candidate with a digest made to match
    names another candidate: neither counts. (An unsigned note made to match this
    candidate cannot be told from a real one: ``gate.require_signed`` is for that.)"""
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    assert env.gh("verdict", "add", out["json_path"]).returncode == 0
    _commit_no_verify(env)
    lines = _note_lines(env)
    (verdict,) = [x for x in lines if x["kind"] == "verdict"]
    verdict["verdict"]["summary"] = "all good, trust me"
    _rewrite_note(env, lines)
    code, commit, _ = _gate(env)
    assert code == 1 and _reason(commit) == (
        "not observed: it is not the verdict its note line says a verify run wrote; an "
        "edited verdict is not evidence (verification.require_observed)"
    )
    bound = verdict["verdict"]["candidate"]
    bound["baseTree"] = "7" * 40  # the run's verdict, re-bound to another candidate
    bound["identity"] = other = candidate_identity(bound["baseTree"], bound["tree"])
    verdict["observed"] = verdict_digest(parse_verdict(json.dumps(verdict["verdict"]), "note"))
    _rewrite_note(env, lines)
    code, commit, _ = _gate(env)
    assert code == 1
    assert _reason(commit).startswith(f"not observed: the verdict judged candidate {other[:19]}")


def test_a_base_that_opts_out_still_counts_a_hand_written_verdict(env: Env) -> None:
    """``require_observed = false`` in the range's base: the range gate decides as it did
    before (a schema-valid hand-written verdict counts)."""
    write(env.repo / ".gentle-hooks.toml", OPT_OUT)
    git(env.repo, "add", ".gentle-hooks.toml")
    git(env.repo, "commit", "-q", "-m", "config: opt out", "--", ".gentle-hooks.toml")
    share(env.repo)  # pushed: verdict add counts it too (README "Opting out")
    _spot_checked(env)  # the base moved: a new candidate
    _hand_written(env)
    _commit_no_verify(env)
    code, commit, said = _gate(env)
    assert (code, commit["blocked"]) == (0, False), said
