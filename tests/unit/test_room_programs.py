"""services/room_programs.refuse_programs: the secure-path check (the file and every
directory above it writable by no group or other unless sticky, owned by the user or
root), with real directories and modes. Refuter r14z finding 1 (issue 14): every program
under ``/tmp`` was refused by its prefix, so a clone under ``/tmp`` failed its README
example."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.artifacts.outcome import Check
from gentle_hooks.artifacts.verdict import Program
from gentle_hooks.errors import UsageError
from gentle_hooks.services.room_programs import refuse_programs, shared_reason

CHECK = Check(kind="suite", criterion="suite", command="pytest -q", argv=("pytest", "-q"))


def _tool(bin_dir: Path) -> Program:
    bin_dir.mkdir(parents=True, exist_ok=True)
    tool = bin_dir / "pytest"
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    return Program(name="pytest", path=str(tool), sha256="sha256:" + "0" * 64)


def _refuse(program: Program, allow: bool = False) -> tuple[str, ...]:
    return refuse_programs([(program,)], [CHECK], ["/nowhere"], "/no-room", allow_shared=allow)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """``tmp_path`` with every directory above it checked private first (the fixture's
    own premise: otherwise no test here could tell a refusal's cause)."""
    assert shared_reason(str(tmp_path)) is None, shared_reason(str(tmp_path))
    return tmp_path


def test_a_user_owned_0755_dir_under_a_sticky_1777_dir_is_trusted(base: Path) -> None:
    sticky = base / "tmp"
    clone = sticky / "clone"
    program = _tool(clone / ".venv" / "bin")
    sticky.chmod(0o1777)
    clone.chmod(0o755)
    assert _refuse(program) == ()


def test_a_0777_dir_without_the_sticky_bit_is_refused(base: Path) -> None:
    shared = base / "shared"
    program = _tool(shared / "bin")
    shared.chmod(0o777)
    with pytest.raises(UsageError, match=f"{shared} may be written by its group or others"):
        _refuse(program)
    # the flag lets it run, and says so
    assert _refuse(program, allow=True) == (program.path,)


@pytest.mark.parametrize("where", ["tool", "bin", "top"])
def test_group_writable_anywhere_on_the_path_is_refused(base: Path, where: str) -> None:
    program = _tool(base / "top" / "bin")
    target = {"tool": Path(program.path), "bin": base / "top" / "bin", "top": base / "top"}
    target[where].chmod(0o775)
    with pytest.raises(UsageError, match="--allow-shared-programs"):
        _refuse(program)


def test_a_world_writable_file_in_a_sticky_dir_is_refused(base: Path) -> None:
    """The sticky bit protects a directory's entries, not a file's bytes."""
    sticky = base / "sticky"
    program = _tool(sticky)
    sticky.chmod(0o1777)
    Path(program.path).chmod(0o777)
    with pytest.raises(UsageError, match="pytest may be written by its group or others"):
        _refuse(program)


@pytest.mark.skipif(os.getuid() != 0, reason="only root can give a file to another uid")
@pytest.mark.parametrize("where", ["tool", "bin"])
def test_a_file_or_dir_owned_by_another_uid_is_refused(base: Path, where: str) -> None:
    program = _tool(base / "bin")
    target = Path(program.path) if where == "tool" else base / "bin"
    os.chown(target, 54321, 54321)
    with pytest.raises(UsageError, match=f"{target} is owned by uid 54321"):
        _refuse(program)


def test_a_program_in_the_repository_is_refused_even_when_allowed(base: Path) -> None:
    program = _tool(base / "repo" / "bin")
    with pytest.raises(UsageError, match="inside your repository or the room"):
        refuse_programs([(program,)], [CHECK], [str(base / "repo")], "/no-room", allow_shared=True)


# --- python_of: the room's own interpreter for the whole suite's collection (issue 18) ------


def _exe(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize(
    ("argv", "want"),
    [
        (("python3", "-m", "pytest"), "room/python3"),
        (("pytest", "-q"), "/opt/py/bin/python3"),  # its #! line
        (("sh", "-c", "cd tests && python3 -m pytest"), "room/python3"),
        (("env", "FAST=1", "python3", "-m", "pytest"), "room/python3"),
        (("make", "test"), None),
    ],
    ids=["python", "script", "shell-line", "env-word", "no-python"],
)
def test_python_of_looks_up_the_room_path(
    tmp_path: Path, argv: tuple[str, ...], want: str | None
) -> None:
    """Issue 18: with the brief's PATH naming a directory with its own ``python3`` (and
    ``pytest``), the interpreter is the one the suite's command starts on the room's own
    PATH: never the brief's."""
    from gentle_hooks.services.room_programs import python_of

    brief_bin, room_bin = tmp_path / "brief", tmp_path / "room"
    for d in (brief_bin, room_bin):
        _exe(d / "python3", "#!/bin/sh\nexit 0\n")
    _exe(brief_bin / "pytest", "#!/brief/python3\n")
    _exe(room_bin / "pytest", "#!/opt/py/bin/python3\nimport pytest\n")
    for d in (brief_bin, room_bin):
        _exe(d / "sh", "#!/bin/sh\n")
        _exe(d / "env", "#!/bin/sh\n")
    got = python_of(argv, f"{room_bin}{os.pathsep}/usr/bin{os.pathsep}/bin", str(tmp_path))
    expected = None if want is None else (want if want.startswith("/") else str(tmp_path / want))
    assert got == expected
    assert python_of(("python3",), str(brief_bin), str(tmp_path)) == str(brief_bin / "python3")
