"""How stored verdicts are shown: ``status`` counts a verdict added twice once, and
``verdict show`` says whether the gate accepts it now (SPEC §6 "verdict"; seed 001
"Artifact": the Markdown view)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import (
    PASSING_VERDICT,
    bound_verdict,
    gh,
    opt_out_of_observed,
    write,
)


def escalated(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b  # writer\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert gh(repo, "escalate", "--item", "security", "--reason", "auth").returncode == 0


def test_the_same_verdict_added_three_times_counts_once_in_status(
    repo: Path, tmp_path: Path
) -> None:
    opt_out_of_observed(repo)
    escalated(repo)
    path = tmp_path / "v.json"
    path.write_text(json.dumps(bound_verdict(repo, PASSING_VERDICT)), encoding="utf-8")
    for _ in range(3):
        assert gh(repo, "verdict", "add", str(path)).returncode == 0
    out = gh(repo, "status").stdout
    assert "verifier: satisfied (1 of 1 accepted verdict(s))" in out, out


def test_verdict_show_says_whether_the_gate_accepts_it_now(repo: Path, tmp_path: Path) -> None:
    """A hand-written verdict accepted under an opt-out, shown once ``require_observed``
    is on again: its view says the gate does not accept it, and why."""
    opt_out_of_observed(repo)
    escalated(repo)
    path = tmp_path / "v.json"
    path.write_text(json.dumps(bound_verdict(repo, PASSING_VERDICT)), encoding="utf-8")
    assert gh(repo, "verdict", "add", str(path)).returncode == 0
    assert "- **Accepted for the gate:** yes" in gh(repo, "verdict", "show", "1").stdout
    write(repo / ".gentle-hooks.toml", "[verification]\nrequire_observed = true\n")
    shown = gh(repo, "verdict", "show", "1")
    assert shown.returncode == 0, shown.stderr
    assert "- **Accepted for the gate:** no" in shown.stdout
    assert "  - not accepted: R1 not observed: no gentle-hook verify run wrote it" in shown.stdout
    record = json.loads(gh(repo, "verdict", "show", "1", "--json").stdout)
    assert json.dumps(record).count("R1 not observed") >= 1


def test_an_outside_verdict_artifact_names_who_added_it(repo: Path, tmp_path: Path) -> None:
    """Seed 001 "Completion criteria": the artifact is saved and the caller is identified.
    A verdict written elsewhere names no caller: its artifact names who added it."""
    opt_out_of_observed(repo)
    escalated(repo)
    verdict = bound_verdict(repo, PASSING_VERDICT)
    assert "caller" not in verdict
    path = tmp_path / "v.json"
    path.write_text(json.dumps(verdict), encoding="utf-8")
    added = gh(repo, "verdict", "add", str(path), "--json")
    assert added.returncode == 0, added.stderr
    ref = json.loads(added.stdout)["record"]["artifact_ref"]
    artifact = json.loads((repo / ref).read_text(encoding="utf-8"))
    ident = gh(repo, "verdict", "show", "1", "--json")
    assert artifact["caller"] == json.loads(ident.stdout)["record"]["caller"]
    assert artifact["caller"]
