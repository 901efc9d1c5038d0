"""services/room_programs.refuse_programs: the active interpreter's virtual environment is
the verifier's own tool wherever it lives (issue 18, h18h finding 4: a clone under /tmp
needed --allow-shared-programs for its own pytest)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.artifacts.outcome import Check
from gentle_hooks.artifacts.verdict import Program
from gentle_hooks.errors import UsageError
from gentle_hooks.services.room_programs import active_venv, refuse_programs

CHECK = Check(kind="suite", criterion="suite", command="pytest -q", argv=("pytest", "-q"))


def _venv(tmp_path: Path) -> tuple[Path, Program]:
    venv = tmp_path / "clone" / ".venv"
    (venv / "bin").mkdir(parents=True)
    tool = venv / "bin" / "pytest"
    tool.write_text("#!/bin/sh\nexit 0\n")
    for p in (tmp_path / "clone", venv, venv / "bin"):
        p.chmod(0o755)
    tool.chmod(0o755)
    return venv, Program(name="pytest", path=str(tool), sha256="sha256:" + "0" * 64)


def _refuse(program: Program, venv: str, allow: bool = False) -> tuple[str, ...]:
    return refuse_programs(
        [(program,)], [CHECK], ["/nowhere"], "/no-room", allow_shared=allow, venv=venv
    )


def test_a_program_of_the_active_venv_runs_without_the_flag(tmp_path: Path) -> None:
    venv, program = _venv(tmp_path)
    assert _refuse(program, str(venv)) == ()
    with pytest.raises(UsageError, match="in a temporary directory or one others may write"):
        _refuse(program, "")  # the same file, not the active environment's: refused
    # allowed by the flag, and said so
    assert _refuse(program, "", allow=True) == (program.path,)


@pytest.mark.parametrize("where", ["tool", "bin", "venv"])
def test_a_venv_others_may_write_is_not_trusted(tmp_path: Path, where: str) -> None:
    venv, program = _venv(tmp_path)
    target = {"tool": Path(program.path), "bin": venv / "bin", "venv": venv}[where]
    target.chmod(0o775)
    with pytest.raises(UsageError, match="--allow-shared-programs"):
        _refuse(program, str(venv))


def test_active_venv_is_this_interpreters() -> None:
    import sys

    want = os.path.realpath(sys.prefix) if sys.prefix != sys.base_prefix else None
    assert active_venv() == want
