"""Our hook entry with a wrong or missing fixed field (``type``): ours but broken — doctor
fails naming it, install sets it back and says so (SPEC §7 "Hooks"; refuter r17z)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents.runtimes import RUNTIMES
from tests.conftest import gh

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
#: The runtimes whose template fixes our entry's ``type``.
TYPED = [
    r
    for r in RUNTIMES
    if r.wiring is not None and r.wiring.shape != "file" and ("type", "command") in r.wiring.entry
]


def _our_entry(doc: dict[str, object], event: str, shape: str) -> dict[str, object]:
    hooks = doc["hooks"]
    assert isinstance(hooks, dict)
    [first] = hooks[event] if shape == "flat" else hooks[event][0]["hooks"]
    assert isinstance(first, dict)
    return first


def test_every_runtime_with_a_typed_template_is_covered() -> None:
    assert {r.name for r in TYPED} >= {"claude-code", "codex", "gemini-cli", "copilot"}


@pytest.mark.parametrize("bad", [None, "prompt"])
@pytest.mark.parametrize("rt", TYPED, ids=[r.name for r in TYPED])
def test_an_entry_of_ours_with_a_wrong_type_fails_doctor_and_install_repairs_it(
    rt: object, bad: str | None, repo: Path
) -> None:
    from gentle_hooks.agents.runtime_rows import Runtime

    assert isinstance(rt, Runtime) and rt.wiring is not None
    w = rt.wiring
    proc = gh(repo, "install", "--agent", rt.name, env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    path = repo / w.project
    doc = json.loads(path.read_text())
    entry = _our_entry(doc, w.event, w.shape)
    if bad is None:
        del entry["type"]
    else:
        entry["type"] = bad
    path.write_text(json.dumps(doc, indent=2))

    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    check = checks[f"agent: {rt.name}"]
    was = "missing" if bad is None else f'"{bad}"'
    assert check["ok"] is False
    assert f'our {w.event} entry\'s "type" is {was}, not "command"' in check["detail"]
    assert proc.returncode != 0

    proc = gh(repo, "install", "--agent", rt.name, env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert f"{rt.name} (project): updated:" in proc.stdout
    assert f'note: its "type" was {was}: set to "command"' in proc.stdout
    assert _our_entry(json.loads(path.read_text()), w.event, w.shape)["type"] == "command"
    again = gh(repo, "install", "--agent", rt.name, env=WITH_GH)
    assert f"{rt.name} (project): unchanged:" in again.stdout

    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    assert '"type"' not in checks[f"agent: {rt.name}"]["detail"]


def test_a_subagent_event_entry_with_a_wrong_type_is_named(repo: Path) -> None:
    """Copilot's subagent events carry an entry of ours too: a broken one is named."""
    assert gh(repo, "install", "--agent", "copilot", env=WITH_GH).returncode == 0
    path = repo / ".github" / "hooks" / "gentle-hooks.json"
    doc = json.loads(path.read_text())
    event = next(e for e in doc["hooks"] if e != "postToolUse")
    doc["hooks"][event][0]["type"] = "prompt"
    path.write_text(json.dumps(doc))
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    assert f'our {event} entry\'s "type" is "prompt"' in checks["agent: copilot"]["detail"]
