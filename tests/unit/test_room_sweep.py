"""``sweep_rooms`` over hostile leftovers in the temporary directory (SPEC §7 "Exit codes":
never exit 3, never a hang): an owner file with a number no process can have, a FIFO, a
directory; a room whose owner is gone is removed, one whose owner lives is kept."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from gentle_hooks.services.cleanroom import OWNER, ROOM_PREFIX, sweep_rooms


@pytest.fixture
def tmp_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _room(base: Path, name: str) -> Path:
    room = base / f"{ROOM_PREFIX}{name}"
    room.mkdir()
    return room


def test_hostile_owner_files_are_left_alone_and_never_block(tmp_base: Path) -> None:
    (_room(tmp_base, "huge") / OWNER).write_text("9" * 30 + "\n")
    (_room(tmp_base, "negative") / OWNER).write_text("-1\n")
    os.mkfifo(_room(tmp_base, "fifo") / OWNER)
    (_room(tmp_base, "dir") / OWNER).mkdir()
    assert sweep_rooms() == 0
    assert len(list(tmp_base.iterdir())) == 4


def test_a_room_whose_owner_is_gone_is_removed_a_living_one_kept(tmp_base: Path) -> None:
    gone = _room(tmp_base, "gone")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # reaped: its id names no process now
    (gone / OWNER).write_text(f"{dead.pid}\n")
    mine = _room(tmp_base, "mine")
    (mine / OWNER).write_text(f"{os.getppid()}\n")
    assert sweep_rooms() == 1
    assert not gone.exists() and mine.exists()
