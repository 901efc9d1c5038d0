"""Attempts to get an unverified delegated commit past the server or CI gate, each one
refused; and what rewrites must keep."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import gh, git, write
from tests.integration import test_notes_gate as base
from tests.integration.test_notes_gate import clone, delegated_change, run

server = base.server  # the bare server fixture

NOTES = "refs/notes/gentle-hooks"


def test_parking_a_commit_under_refs_notes_does_not_smuggle_it(server: Path) -> None:
    b = clone(server, "b")
    bad = delegated_change(b, "def f():\n    return 9\n", spot_check=False)
    parked = run(b, "git", "push", "--no-verify", "origin", "HEAD:refs/notes/evil")
    assert parked.returncode == 1 and f"BLOCKED {bad[:12]}" in parked.stderr
    sneaky = run(b, "git", "push", "--no-verify", "origin", "HEAD:refs/heads/sneaky")
    assert sneaky.returncode == 1 and "REJECTED refs/heads/sneaky" in sneaky.stderr


def _add_note(repo: Path, commit: str, lines: list[dict[str, object]]) -> None:
    body = "\n".join(json.dumps({"v": 1, **x}, sort_keys=True) for x in lines) + "\n"
    git(repo, "notes", f"--ref={NOTES}", "add", "-f", "-m", body, commit)


def test_a_forged_inconsistent_spot_check_counts_for_nothing(server: Path) -> None:
    b = clone(server, "b")
    bad = delegated_change(b, "def f():\n    return 9\n", spot_check=False)
    tree = git(b, "rev-parse", f"{bad}^{{tree}}").strip()
    base = git(b, "rev-parse", f"{bad}~1^{{tree}}").strip()
    from gentle_hooks.values.candidate import candidate_identity

    ident = candidate_identity(base, tree)
    _add_note(
        b,
        bad,
        [
            {
                "kind": "candidate",
                "commit": bad,
                "identity": ident,
                "base_tree": base,
                "tree": tree,
            },
            {"kind": "writer", "model": "m", "effort": "low", "source": None},
            {
                "kind": "spot_check",
                "identity": ident,
                "check": "rerun",
                "command": "true",
                "reported_exit": 0,
                "observed_exit": 1,
                "agreed": True,
                "counts": True,
            },
            {
                "kind": "candidate",
                "commit": bad,
                "identity": "x",
                "base_tree": "NOT-HEX",
                "tree": tree,
            },
        ],
    )
    gate = gh(b, "gate", "--range", "origin/main..HEAD")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "Traceback" not in gate.stderr and f"BLOCKED {bad[:12]}" in gate.stdout


def test_ci_reads_the_config_of_the_range_base_not_of_the_change(server: Path) -> None:
    b = clone(server, "b")
    delegated_change(b, "def f():\n    return 9\n", spot_check=False)
    write(b / ".gentle-hooks.toml", '[gate]\napplies_to = "delegated"\nhonour_overrides = true\n')
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", "-m", "loosen the gate")
    with_override = gh(b, "gate", "--range", "origin/main..HEAD")
    assert with_override.returncode == 1


def test_gate_json_says_why_it_cannot_assess(server: Path) -> None:
    b = clone(server, "b")
    proc = gh(b, "gate", "--range", "nope..HEAD", "--json")
    assert proc.returncode == 2
    doc = json.loads(proc.stdout)
    # why, in one line: the start names nothing (not "cannot assess" and a second run: line)
    assert doc["exit_code"] == 2 and "'nope' is not a known ref or commit" in doc["error"]


def test_cherry_pick_keeps_the_records(server: Path) -> None:
    a = clone(server, "a")
    git(a, "checkout", "-q", "-b", "topic")
    picked = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    git(a, "checkout", "-q", "main")
    proc = run(a, "git", "cherry-pick", "-x", picked)  # -x: a new commit id, same tree
    assert proc.returncode == 0, proc.stderr
    new = git(a, "rev-parse", "HEAD").strip()
    assert new != picked
    note = git(a, "notes", f"--ref={NOTES}", "show", new)
    # the pick carries the writer's content, so it is recorded in its own right; the same
    # tree on the same base is the same candidate, so the spot check still counts
    assert f'"commit":"{new}"' in note and '"check":"rerun"' in note
    gate = gh(a, "gate", "--range", "origin/main..HEAD")
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert f"ok {new[:12]}" in gate.stdout and "verified" in gate.stdout
    assert sys.executable
