"""The import probe (:mod:`gentle_hooks.services.import_probe`; issue 18: verify rather
than believe): real interpreter processes, bounded, failing closed; ``find_spec`` of a
top-level name runs none of the package's code."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from gentle_hooks.services import import_probe
from gentle_hooks.services.import_probe import probe, room_names
from gentle_hooks.services.room_imports import RoomImports, for_room, room_argv


def _script(where: Path, body: str) -> str:
    where.write_text(f"#!/bin/sh\n{body}\n")
    where.chmod(0o755)
    return str(where)


def _room(tmp_path: Path) -> Path:
    room = tmp_path / "room" / "tree"
    (room / "src" / "calc").mkdir(parents=True)
    (room / "src" / "calc" / "__init__.py").write_text("")
    (room / "json.py").write_text("")  # a standard library name: not the room's business
    (room / "tests").mkdir()
    (room / "tests" / "__init__.py").write_text("")
    return room


def test_room_names_are_its_top_level_modules_and_packages(tmp_path: Path) -> None:
    """At the root and in ``src``; not ``tests`` (a name many projects hold)."""
    assert room_names(str(_room(tmp_path))) == {"json": ".", "calc": "src"}


def test_a_name_outside_the_room_is_found_without_running_its_code(tmp_path: Path) -> None:
    """``calc`` on ``PYTHONPATH`` outside the room: found there, links followed; its
    ``__init__`` (which would write a file) never ran; ``json`` (the standard library's)
    is not reported."""
    room = _room(tmp_path)
    other = tmp_path / "work" / "calc"
    other.mkdir(parents=True)
    ran = tmp_path / "ran"
    (other / "__init__.py").write_text(f"open({str(ran)!r}, 'w').close()\n")
    (tmp_path / "link").symlink_to(tmp_path / "work")
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(tmp_path / "link")}
    found = probe([sys.executable], ["calc", "json"], env, str(room))
    assert found.error == ""
    (f,) = found.outside
    assert f.name == "calc" and str(other) in f.locations
    assert not ran.exists()


def test_the_room_s_own_copy_is_not_reported(tmp_path: Path) -> None:
    room = _room(tmp_path)
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(room / "src")}
    assert probe([sys.executable], ["calc"], env, str(room)).outside == ()


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("exit 3", "exit 3, no answer"),
        ("echo not an answer", "exit 0, no answer (not an answer)"),
        ("sleep 30", "it ran longer than 0.5s"),
        ("yes", "it printed more than 4096 bytes"),
    ],
)
def test_a_probe_that_fails_fails_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, said: str
) -> None:
    """An interpreter that exits non-zero, answers nothing, runs too long or prints too
    much: the probe fails (bounded), and the room refuses every check with that line."""
    monkeypatch.setattr(import_probe, "PROBE_SECONDS", 0.5)
    monkeypatch.setattr(import_probe, "PROBE_BYTES", 4096)
    room = _room(tmp_path)
    python = _script(tmp_path / "python3", body)
    found = probe([python], ["calc"], {"PATH": os.environ["PATH"]}, str(room))
    assert found.error == f"the import probe of {python} failed: {said}"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(python, bin_dir / "python3")
    env = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin"}
    _, notes, imports = for_room(env, (), (), str(room), guard=str(tmp_path / "guard"))
    assert imports.unresolved.startswith("the import probe of ") and said in imports.unresolved
    assert imports.unresolved in notes
    argv, why = room_argv(("grep", "-q", "x", "f"), imports)
    assert why == imports.unresolved and argv == ("grep", "-q", "x", "f")
    assert room_argv(("true",), RoomImports()) == (("true",), None)


def test_too_many_interpreters_fail_closed(tmp_path: Path) -> None:
    room = _room(tmp_path)
    many = [sys.executable] * (import_probe.MAX_PYTHONS + 1)
    assert "more than" in probe(many, ["calc"], {}, str(room)).error
