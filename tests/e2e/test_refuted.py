"""A candidate a re-run refuted (SPEC §5 "Decision": a disagreeing re-run is recorded and
blocks, naming both results; "Overrides"): through installed hooks, real git and the CLI.

The disagreement stays with the candidate, so every block (commit, push, ``gate --range``,
``status``) says so in words naming both results and never offers a report or spot check
of the same change (they succeed and change nothing: a loop). The ways out it prints work
as printed: the recorded override keeps the user's own git command; CI names the commit
and the rewrite.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n"
SKIP = "GENTLE_HOOKS_SKIP='a re-run of this change disagreed (flaky test?)'"


def _flaky(flag: Path) -> tuple[str, ...]:
    """A test that fails while ``flag`` exists (a flaky one, as far as the gate knows)."""
    code = f"import os, sys; sys.exit(1 if os.path.exists({str(flag)!r}) else 0)"
    return (sys.executable, "-c", code)


def _said(lines: list[str], label: str) -> list[str]:
    prefix = f"{label}: "
    return [
        w.removeprefix(prefix)
        for line in lines
        if (
            w := line.removeprefix("remote:").strip().removeprefix("gentle-hooks:").strip()
        ).startswith(prefix)
    ]


def _refuted(w: World, flag: Path) -> None:
    """A staged writer change whose report passed and whose spot check failed once."""
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *_flaky(flag)).code == 0
    flag.write_text("", encoding="utf-8")
    r = w.gh("spot-check", "--staged")
    assert r.code == 1 and r.err.splitlines()[-1].endswith("DISAGREED"), r
    flag.unlink()
    # an agreeing spot check after it changes nothing: the disagreement stays
    assert w.gh("spot-check", "--staged").code == 0


def test_a_refuted_commit_prints_the_override_with_the_users_arguments(
    native: World, tmp_path: Path
) -> None:
    w = native
    _refuted(w, tmp_path / "flaky")
    status = w.gh("status", "--staged")
    assert "spot check: REFUTED (a re-run of this change disagreed)" in status.lines, status
    blocked = w.git("commit", "-q", "-m", "writer change")
    assert blocked.code == 1, blocked
    said = blocked.said
    assert any(
        "this change is refuted, a re-run of it disagreed: the writer's report (receipt #1: "
        in line
        and "said exit 0; its re-run (spot check #1) observed exit 1" in line
        for line in said
    ), said
    assert not any("receipt run" in c or "spot-check" in c for c in _said(said, "run")), said
    staged = json.loads(w.gh("assess", "--json", "--staged").out)["candidate"]["identity"]
    only = f"GENTLE_HOOKS_SKIP_ONLY={staged}"
    assert _said(said, "run") == [f"{SKIP} {only} git commit -q -m 'writer change'"]
    # as printed: it commits, with the user's message, and the override is recorded
    done = w.run(["sh", "-c", _said(said, "run")[0]])
    assert done.code == 0, done
    assert w.ok("log", "-1", "--format=%s").strip() == "writer change"
    assert "GENTLE_HOOKS_SKIP: let through by" in done.err


def test_a_refuted_commit_at_push_and_in_ci(native: World, tmp_path: Path) -> None:
    w = native
    _refuted(w, tmp_path / "flaky")
    assert (
        w.git("commit", "-q", "-m", "writer change", env={"GENTLE_HOOKS_SKIP": "flaky"}).code == 0
    )
    head = w.rev("HEAD")
    committed = json.loads(w.gh("assess", "--json", "--committed-only").out)["candidate"]
    blocked = w.git("push", "-q", "origin", "HEAD")
    assert blocked.code == 1, blocked
    runs = _said(blocked.said, "run")
    only = f"GENTLE_HOOKS_SKIP_ONLY={committed['identity']}"
    assert runs == [f"{SKIP} {only} git push -q origin HEAD"], blocked.said
    assert any("stage it and amend the commit (git commit --amend)" in x for x in blocked.said)
    done = w.run(["sh", "-c", runs[0]])
    assert done.code == 0, done
    assert w.remote_ref("refs/heads/main") == head
    assert w.gh("sync", "push").code == 0  # the notes, as an install with --share does

    ci = w.ci_clone(tmp_path)
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", cwd=ci)
    assert gate.code == 1, gate
    text = gate.out + gate.err
    assert f"commit {head[:12]} is refuted, a re-run of it disagreed" in text, text
    assert (
        f"a later commit does not clear it: the way out is to rewrite the branch without "
        f"commit {head[:12]}"
    ) in text
    assert "gate.honour_overrides" in text
    assert "  run: " not in text and "nothing missing" not in text, text


def test_a_claim_ci_refutes_on_reverify_says_what_is_missing(native: World, tmp_path: Path) -> None:
    w = native
    flag = tmp_path / "flaky"
    test = shlex.join(_flaky(flag))
    w.write(".gentle-hooks.toml", f"[verification]\ncommands = {json.dumps([test])}\n")
    w.ok("add", ".gentle-hooks.toml")
    w.ok("commit", "-q", "-m", "config")
    w.ok("push", "-q", "origin", "main")
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *_flaky(flag)).code == 0
    assert w.gh("spot-check", "--staged").code == 0
    w.ok("commit", "-q", "-m", "writer change")
    w.ok("push", "-q", "origin", "HEAD")
    assert w.gh("sync", "push").code == 0
    head = w.rev("HEAD")
    ci = w.ci_clone(tmp_path)
    flag.write_text("", encoding="utf-8")
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 1, gate
    text = gate.out + gate.err
    assert "refuted by re-run: " in text
    assert "nothing missing" not in text, text
    assert "missing a change whose own test passes (the re-run failed)" in text, text
    assert f"commit {head[:12]} is refuted, a re-run of it disagreed" in text, text
    assert "a later commit does not clear it" in text


def test_the_json_decision_of_a_refuted_change_runs_what_the_text_prints(
    native: World, tmp_path: Path
) -> None:
    """The refuted block's first way is words (change the change); its ``run:`` line is the
    override, and the JSON decision's ``run`` holds it, as the text does."""
    w = native
    _refuted(w, tmp_path / "flaky")
    text = w.git("commit", "-q", "-m", "writer change")
    as_json = w.git("commit", "-q", "-m", "writer change", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert (text.code, as_json.code) == (1, 1), (text, as_json)
    decision = json.loads(next(x for x in as_json.lines if x.startswith("{")))
    [missing] = decision["candidates"][0]["missing"]
    assert missing["run"] == _said(text.said, "run"), (missing, text.said)
    assert missing["run"] and missing["run"][0].startswith(SKIP), missing
