"""``verify run --room`` never cleans through a link (services/room_dirs.py; issue 18,
refuter r18l finding 2: a room whose ``tree`` or ``scratch`` was replaced by a link to
another folder had that folder's ignored files removed, or emptied, and still passed).

Seed ``001_3bc4c9b08e2f7709.txt`` "Scope": "This skill never repairs the artifact it
judges"; the room's cleaning must reach nothing but the room. Real git, the real CLI.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import git, write
from tests.integration.test_verify import Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    return make_env(repo, tmp_path)


def _victim(env: Env, tree: Path) -> Path:
    """A copy of the room's tree (the candidate's files, its own repository) with files
    its ``.gitignore`` ignores: what a user's clone at the candidate holds (``.secrets``,
    ``__pycache__``)."""
    victim = env.tmp.parent / "victim"
    shutil.copytree(tree, victim, symlinks=True)
    write(victim / ".secrets", "API_KEY=mine\n")
    write(victim / "src" / "__pycache__" / "app.pyc", "cache\n")
    return victim


def _run(env: Env, room: str) -> tuple[int, str, str]:
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), "--room", room)
    return proc.returncode, proc.stdout, proc.stderr


def test_a_tree_replaced_by_a_link_is_refused_before_anything_is_removed(env: Env) -> None:
    """``tree -> a clone at the candidate``: refused (exit 2, one line naming the link);
    the clone's ignored files stay, nothing is recorded."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    tree = Path(prepared["tree"])
    victim = _victim(env, tree)
    shutil.rmtree(tree)
    tree.symlink_to(victim)
    code, out, err = _run(env, prepared["room"])
    assert (code, out) == (2, ""), err
    assert err.startswith(f"gentle-hook: error: {tree}: the clean room's tree is a symbolic link")
    assert err.count("\n") == 1, err
    assert (victim / ".secrets").read_text() == "API_KEY=mine\n"
    assert (victim / "src" / "__pycache__" / "app.pyc").is_file()
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


@pytest.mark.parametrize("part", ["scratch", "logs", "aside"])
def test_a_part_replaced_by_a_link_is_refused_and_its_target_kept(env: Env, part: str) -> None:
    """``scratch`` (each run's HOME and TMPDIR, emptied before a run), ``logs`` and
    ``aside`` as links to another folder: refused, that folder's files untouched."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    room = Path(prepared["room"])
    target = env.tmp.parent / "mine"
    write(target / "home" / ".env", "TOKEN=1\n")
    write(target / "a" / "keep.txt", "keep\n")
    write(target / "01-criterion.log", "mine\n")
    if (room / part).exists():
        shutil.rmtree(room / part)
    (room / part).symlink_to(target)
    code, out, err = _run(env, prepared["room"])
    assert (code, out) == (2, ""), err
    assert f"the clean room's {part} is a symbolic link" in err and err.count("\n") == 1, err
    assert (target / "home" / ".env").read_text() == "TOKEN=1\n"
    assert (target / "a" / "keep.txt").read_text() == "keep\n"
    assert (target / "01-criterion.log").read_text() == "mine\n"
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]


def test_a_worktree_written_to_the_rooms_config_is_not_cleaned(env: Env) -> None:
    """``core.worktree`` in the room's own ``.git/config`` (the verifier's to change)
    pointing at a clone at the candidate: git in the room stays bound to ``tree/``, so
    ``clean -fdx`` never removes the clone's ignored files; the run goes on."""
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    tree = Path(prepared["tree"])
    victim = _victim(env, tree)
    git(tree, "config", "core.worktree", str(victim))
    write(tree / "src" / "__pycache__" / "left.pyc", "left by an earlier run\n")
    code, _, err = _run(env, prepared["room"])
    assert code in (0, 1), err
    assert (victim / ".secrets").read_text() == "API_KEY=mine\n"
    assert (victim / "src" / "__pycache__" / "app.pyc").is_file()
    assert not (tree / "src" / "__pycache__" / "left.pyc").exists()  # the room's own: cleaned


def test_a_log_name_made_a_link_is_not_written_through(env: Env) -> None:
    """A link at a log's name in ``logs/`` (what a check's own code could put there): the
    log is written anew in ``logs/``, the link's target is untouched."""
    target = env.tmp.parent / "precious.txt"
    write(target, "precious\n")
    prepared = env.json("verify", "prepare", "--brief", str(env.brief_path))
    logs = Path(prepared["room"]) / "logs"
    (logs / "01-criterion.log").symlink_to(target)
    code, _, err = _run(env, prepared["room"])
    assert code in (0, 1), err
    assert target.read_text() == "precious\n"
    assert not (logs / "01-criterion.log").is_symlink()
    assert (logs / "01-criterion.log").read_text().startswith("$ ")
