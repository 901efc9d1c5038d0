"""``gentle-hook rdd line|status|loadout`` on real repositories (SPEC §9 "RDD line"; seed
000, first paragraph): the session's pinned line lives in the ledger and follows the
transition table; review tools read the live mode; the loadout follows the pinned line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.report.rdd_models import RddLineEnvelope, RddLoadout, RddStatusEnvelope
from tests.conftest import gh, git

HIDDEN = ("gentle_review_capture", "gentle_review_capture_group", "gentle_review_scope")


def line(repo: Path, session: str, rdd: str | None = None, *args: str) -> str:
    env = {"GENTLE_RDD": rdd} if rdd is not None else None
    proc = gh(repo, "rdd", "line", "--session", session, *args, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def line_json(repo: Path, session: str, rdd: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(line(repo, session, rdd, "--json"))
    RddLineEnvelope.model_validate(data)
    return data


def loadout(repo: Path, session: str, rdd: str | None = None) -> dict[str, Any]:
    env = {"GENTLE_RDD": rdd} if rdd is not None else None
    proc = gh(repo, "rdd", "loadout", "--session", session, "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    model = RddLoadout.model_validate(data)
    assert model.model_dump(mode="json", by_alias=True) == data
    return data


def test_a_new_session_renders_the_live_line_and_keeps_it(repo: Path) -> None:
    assert line(repo, "s1") == "Receipt-driven development: unknown\n"
    got = line_json(repo, "s1", "on")  # unknown -> on keeps the original text
    assert (got["line"], got["rendered"], got["row"]) == (
        "Receipt-driven development: unknown",
        False,
        "L-unknown-on",
    )
    assert got["live"] == {
        "mode": "on",
        "source": "env",
        "line": "Receipt-driven development: on",
    }
    assert got["pinned"]["source"] == "default" and got["renders"] == 1


def test_turning_off_and_back_on_re_renders_and_a_source_change_does_not(
    repo: Path,
) -> None:
    git(repo, "config", "gentle.rdd", "on")
    assert line_json(repo, "s")["row"] == "L-new-on"
    assert line_json(repo, "s", "on")["row"] == "L-on-on"  # env now decides: text kept
    off = line_json(repo, "s", "off")
    assert (off["line"], off["rendered"], off["row"]) == (
        "Receipt-driven development: off",
        True,
        "L-on-off",
    )
    assert (off["review_contract"], off["loadout"]) == (False, "lean")
    assert line_json(repo, "s", "unknown")["line"] == "Receipt-driven development: off"
    back = line_json(repo, "s")  # git config says on again
    assert (back["line"], back["rendered"], back["row"], back["renders"]) == (
        "Receipt-driven development: on",
        True,
        "L-off-on",
        3,
    )
    assert back["previous"]["mode"] == "off" and back["pinned"]["source"] == "git-config"


def test_sessions_are_independent_and_shared_by_linked_worktrees(
    repo: Path, tmp_path: Path
) -> None:
    assert line(repo, "a", "off") == "Receipt-driven development: off\n"
    assert line(repo, "b", "on") == "Receipt-driven development: on\n"
    other = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(other))
    # the ledger lives in the common git dir: the session's pinned line follows it
    assert line(other, "a", "unknown") == "Receipt-driven development: off\n"
    assert line(other, "b", "unknown") == "Receipt-driven development: on\n"


def test_concurrent_first_renders_record_one_line(repo: Path) -> None:
    """Harness processes starting at once agree on one first line, recorded once."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "gentle_hooks", "rdd", cmd, "--session", "race"],
            cwd=repo,
            env={**os.environ, "GENTLE_RDD": "off"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for cmd in ("line", "loadout", "line", "loadout", "line", "line")
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.startswith("Receipt-driven development: off")
    status = json.loads(gh(repo, "rdd", "status", "--session", "race", "--json").stdout)
    assert status["session"]["renders"] == 1


def test_status_reads_the_live_mode_and_its_source(repo: Path) -> None:
    proc = gh(repo, "rdd", "status")
    assert (proc.returncode, proc.stdout) == (
        0,
        "Receipt-driven development: unknown  (live; source: default)\n",
    )
    (repo / ".gentle-hooks.toml").write_text('rdd = "off"\n', encoding="utf-8")
    line(repo, "s")  # pinned: off, from the config file
    git(repo, "config", "gentle.rdd", "on")
    proc = gh(repo, "rdd", "status", "--session", "s", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    RddStatusEnvelope.model_validate(data)
    assert (data["mode"], data["source"], data["line"]) == (
        "on",
        "git-config",
        "Receipt-driven development: on",
    )
    assert data["session"] == {
        "id": "s",
        "pinned": {
            "mode": "off",
            "source": "config-file",
            "line": "Receipt-driven development: off",
        },
        "renders": 1,
    }
    # status only reads: the session was not advanced to on
    assert line_json(repo, "s")["row"] == "L-off-on"
    proc = gh(repo, "rdd", "status", "--session", "never")
    assert proc.stdout.splitlines()[-1] == "session never: no line rendered yet"


def test_the_loadout_is_full_for_on_and_unknown(repo: Path) -> None:
    for session, mode in (("on", "on"), ("unknown", "unknown")):
        data = loadout(repo, session, mode)
        assert (data["loadout"], data["mode"], data["review_contract"]) == ("full", mode, True)
        tools = {t["name"]: t for t in data["tools"]}
        assert list(tools) == ["gentle_review", *HIDDEN]
        assert all(t["registered"] and t["active"] and not t["hidden"] for t in tools.values())
        review = tools["gentle_review"]
        assert review["operations"] == ["assess", "inspect", "status", "answer-consent"]
        for op in ("inspect", "status", "answer-consent"):
            assert op in review["description"]


def test_the_loadout_is_lean_while_the_pinned_line_reads_off(repo: Path) -> None:
    full = loadout(repo, "s", "on")
    lean = loadout(repo, "s", "off")  # RDD turned off: the loadout follows the new line
    assert (lean["line"], lean["loadout"], lean["row"], lean["review_contract"]) == (
        "Receipt-driven development: off",
        "lean",
        "LO-off",
        False,
    )
    review_full, review_lean = full["tools"][0], lean["tools"][0]
    assert review_lean["name"] == "gentle_review" and not review_lean["hidden"]
    assert review_lean["parameters"] == review_full["parameters"]  # the schema is kept
    assert review_lean["operations"] == ["assess"]
    text = " ".join(
        [review_lean["description"], review_lean["snippet"], *review_lean["guidelines"]]
    )
    assert "assess" in text
    for other in ("inspect", "status", "answer-consent", "capture", "scope", "lineage"):
        assert other not in text, other
    hidden = {t["name"]: t for t in lean["tools"][1:]}
    assert list(hidden) == list(HIDDEN)
    for name, tool in hidden.items():
        assert (tool["hidden"], tool["registered"], tool["active"]) == (True, True, True), name
        same = next(t for t in full["tools"] if t["name"] == name)
        assert {k: v for k, v in tool.items() if k != "hidden"} == {
            k: v for k, v in same.items() if k != "hidden"
        }
    # off -> unknown keeps the lean loadout; back on restores the full one
    assert loadout(repo, "s", "unknown")["loadout"] == "lean"
    assert loadout(repo, "s", "on")["loadout"] == "full"


def test_loadout_and_line_agree_whichever_runs_first(repo: Path) -> None:
    assert loadout(repo, "s", "off")["line"] == "Receipt-driven development: off"
    got = line_json(repo, "s", "off")
    assert (got["rendered"], got["renders"]) == (False, 1)


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["rdd", "line"], {}, "gentle-hook: error: --session is required"),
        (["rdd", "loadout", "--json"], {}, "gentle-hook: error: --session is required"),
        (["rdd", "line", "--session", "  "], {}, "gentle-hook: error: --session is required"),
        (
            ["rdd", "line", "--session", "x" * 201],
            {},
            "gentle-hook: error: --session is longer than 200 characters",
        ),
        (
            ["rdd", "line", "--session", "a\tb"],
            {},
            "gentle-hook: error: --session must be one line without control characters",
        ),
        (
            ["rdd", "status"],
            {"GENTLE_RDD": "maybe"},
            "gentle-hook: error: GENTLE_RDD: RDD mode must be on, off or unknown, not 'maybe'",
        ),
    ],
    ids=["line-missing", "loadout-missing", "blank", "too-long", "control", "bad-mode"],
)
def test_bad_input_is_one_line_and_exit_2(
    repo: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    proc = gh(repo, *args, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", message + "\n")


def test_outside_a_repository_is_one_line_and_exit_2(tmp_path: Path) -> None:
    proc = gh(tmp_path, "rdd", "line", "--session", "s")
    assert proc.returncode == 2
    assert proc.stderr.startswith("gentle-hook: error: ") and proc.stderr.count("\n") == 1


def test_schemas_are_exported(repo: Path) -> None:
    for name in ("rdd-line", "rdd-status", "rdd-loadout"):
        proc = gh(repo, "schema", name)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["type"] == "object"
