"""``install --agent`` and ``doctor`` from an activated virtual environment: the runtime's
shell does not have it, so a bare ``gentle-hook`` it alone puts on ``PATH`` cannot be what
the hook runs (SPEC §7 "Hooks"; :func:`gentle_hooks.services.agent_reach.plain_path`)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.conftest import gh


def _venv(tmp_path: Path) -> Path:
    """A virtual environment as ``python -m venv`` lays it out (``pyvenv.cfg``, ``bin``),
    its ``gentle-hook`` the one under test."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "bin" / "gentle-hook").symlink_to(Path(sys.executable).parent / "gentle-hook")
    return venv


def _activated(venv: Path) -> dict[str, str]:
    """What ``. venv/bin/activate`` changes: ``VIRTUAL_ENV`` and ``PATH``."""
    return {"VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"}


def _command(repo: Path) -> str:
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    return str(settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"])


def test_install_from_an_activated_venv_writes_the_absolute_path(
    repo: Path, tmp_path: Path
) -> None:
    venv = _venv(tmp_path)
    proc = gh(repo, "install", "--agent", "claude-code", env=_activated(venv))
    assert proc.returncode == 0, proc.stderr
    program = str(venv / "bin" / "gentle-hook")
    assert _command(repo).startswith(f"{program} record --from claude-code"), _command(repo)
    assert f"is the activated virtual environment's ({venv})" in proc.stdout + proc.stderr
    # idempotent: a second install changes nothing
    again = gh(repo, "install", "--agent", "claude-code", env=_activated(venv))
    assert again.returncode == 0 and _command(repo).startswith(program)
    checks = json.loads(gh(repo, "doctor", "--json", env=_activated(venv)).stdout)["checks"]
    line = next(c for c in checks if c["name"] == "agent: claude-code")
    assert line["ok"], line


def test_doctor_flags_a_bare_entry_only_the_venv_resolves(repo: Path, tmp_path: Path) -> None:
    venv = _venv(tmp_path)
    # wired with the venv's bin on PATH but not activated: the plain name is written
    plain = {"PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    assert gh(repo, "install", "--agent", "claude-code", env=plain).returncode == 0
    assert _command(repo).startswith("gentle-hook record --from claude-code")
    proc = gh(repo, "doctor", "--json", env=_activated(venv))
    checks = json.loads(proc.stdout)["checks"]
    line = next(c for c in checks if c["name"] == "agent: claude-code")
    assert not line["ok"], line
    assert "found only on the PATH of the activated virtual environment" in line["detail"]
    text = gh(repo, "doctor", env=_activated(venv)).stdout
    assert "gentle-hook install --agent claude-code" in text
