"""``gentle-hook verify clean``: the rooms ``verify prepare`` left are listed and removed
(SPEC §9; refuter finding 5 of issue 18: prepared rooms piled up under /tmp unseen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_verify import Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """:func:`~tests.integration.test_verify.make_env`'s repository."""
    return make_env(repo, tmp_path)


def test_a_prepared_room_is_listed_then_removed(env: Env) -> None:
    """Listed with the command that removes it (exit 0); ``--remove`` removes it, and only
    this user's ``gentle-verify-*`` directories (another directory stays)."""
    assert env.gh("verify", "clean").stdout == "verify clean: no rooms left\n"
    room = Path(env.json("verify", "prepare", "--brief", str(env.brief_path))["room"])
    other = env.tmp / "not-a-room"
    other.mkdir()
    listed = env.gh("verify", "clean")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].startswith(f"leftover room: {room} (") and len(lines) == 2, lines
    assert lines[1].endswith(" verify clean --remove"), lines
    removed = env.gh("verify", "clean", "--remove")
    assert (removed.returncode, removed.stdout) == (0, "verify clean: removed 1 room(s)\n")
    assert not room.exists() and other.is_dir()
    assert env.gh("verify", "clean").stdout == "verify clean: no rooms left\n"
