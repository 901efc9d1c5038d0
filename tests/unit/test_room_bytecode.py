"""The room's kept bytecode cache (services.room_bounds.scratch_env): what mirrors the room
goes before every run, what was compiled from sources outside it stays, and a link a run
put in the cache is unlinked, never followed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.services.room_bounds import SCRATCH, SCRATCH_BYTECODE, scratch_env


def _room(tmp_path: Path) -> tuple[Path, Path]:
    room = tmp_path / "room"
    (room / "tree").mkdir(parents=True)
    scratch_env(str(room))
    return room, room / SCRATCH / SCRATCH_BYTECODE


def _mirror(prefix: Path, source: Path) -> Path:
    return prefix / str(source).lstrip("/")


def test_bytecode_of_the_rooms_sources_goes_and_the_rest_stays(tmp_path: Path) -> None:
    room, prefix = _room(tmp_path)
    inside = _mirror(prefix, room / "tree" / "src" / "app.cpython-311.pyc")
    outside = _mirror(prefix, tmp_path / "lib" / "json" / "decoder.cpython-311.pyc")
    for pyc in (inside, outside):
        pyc.parent.mkdir(parents=True)
        pyc.write_bytes(b"code")
    (room / SCRATCH / "home" / "left").write_text("x")
    scratch_env(str(room))
    assert not inside.exists()
    assert outside.read_bytes() == b"code"
    assert not (room / SCRATCH / "home" / "left").exists()


def test_the_rooms_resolved_path_is_mirrored_too(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "room" / "tree").mkdir(parents=True)
    (tmp_path / "via").symlink_to(real)
    room = tmp_path / "via" / "room"
    scratch_env(str(room))
    prefix = room / SCRATCH / SCRATCH_BYTECODE
    pyc = _mirror(prefix, real / "room" / "tree" / "app.cpython-311.pyc")
    pyc.parent.mkdir(parents=True)
    pyc.write_bytes(b"code")
    scratch_env(str(room))
    assert not pyc.exists()


@pytest.mark.parametrize("depth", [1, 2], ids=["top", "deeper"])
def test_a_link_in_the_mirror_is_unlinked_not_followed(tmp_path: Path, depth: int) -> None:
    """A link a run put at the first (or second) part of the room's mirror in the cache,
    leading to another folder: the link goes, what it leads to stays."""
    room, prefix = _room(tmp_path)
    parts = str(room).lstrip("/").split("/")
    elsewhere = tmp_path / "elsewhere"
    keep = elsewhere.joinpath(*parts[depth:]) / "kept.txt"
    keep.parent.mkdir(parents=True)
    keep.write_text("mine")
    link = prefix.joinpath(*parts[:depth])
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere)
    scratch_env(str(room))
    assert not os.path.lexists(link)
    assert keep.read_text() == "mine"


def test_a_cache_that_is_a_link_is_replaced(tmp_path: Path) -> None:
    room, prefix = _room(tmp_path)
    prefix.rmdir()
    other = tmp_path / "other"
    (other / "x.pyc").parent.mkdir(parents=True)
    (other / "x.pyc").write_bytes(b"code")
    prefix.symlink_to(other)
    scratch_env(str(room))
    assert prefix.is_dir() and not prefix.is_symlink()
    assert (other / "x.pyc").read_bytes() == b"code"
