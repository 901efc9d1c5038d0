"""What a room does with a place of a work tree its tree does not hold (issue 18: the room
fails closed on places it does not hold): hidden, named as installed, or no check runs."""

from __future__ import annotations

from pathlib import Path

from gentle_hooks.services.editable import Redirect
from gentle_hooks.services.room_imports import for_room, room_argv


def _r(place: Path) -> Redirect:
    return Redirect(str(place), str(place.parent), place.name, "/site/x.pth")


def test_a_build_folder_is_hidden_a_venv_folder_installed_a_venv_root_fenced(
    tmp_path: Path,
) -> None:
    from gentle_hooks.services.room_unheld import unguarded, unheld_kinds

    site = tmp_path / "w" / ".venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    build = tmp_path / "w" / "build" / "lib"
    build.mkdir(parents=True)
    inner = site / "win32"
    inner.mkdir()
    venv = tmp_path / "w" / ".venv"
    hidden, installed, fenced = unheld_kinds([_r(build), _r(inner), _r(venv)], [str(site)])
    assert [r.place for r in hidden] == [str(build)]
    assert [r.place for r in installed] == [str(inner)]
    assert [r.place for r in fenced] == [str(venv)]
    line = unguarded(fenced)
    assert line.startswith(f"editable install: {venv} is on sys.path from your work tree")
    assert line.endswith(
        "remove that line from /site/x.pth, or commit what the checks need "
        "into the candidate's tree"
    )
    assert "\n" not in line and unguarded([]) == ""


def test_a_room_whose_venv_names_its_own_root_refuses_every_check(tmp_path: Path) -> None:
    """A ``.pth`` of a venv kept in the work tree names the venv's directory (ignored, so
    not in the room): hiding it would hide the installed packages, so no check runs."""
    work = tmp_path / "w"
    venv = work / ".venv"
    site = venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "bin").mkdir()
    (site / "odd.pth").write_text(f"{venv}\n")
    room = tmp_path / "room" / "tree"
    room.mkdir(parents=True)
    env = {"PATH": str(venv / "bin")}
    _, notes, imports = for_room(env, [], [str(work)], str(room), guard=str(tmp_path / "g"))
    assert imports.unresolved.startswith(f"editable install: {venv} is on sys.path")
    assert room_argv(("python3", "-c", "pass"), imports)[1] == imports.unresolved
    assert imports.unresolved in notes


def test_a_folder_named_site_packages_is_installed_only_in_a_virtual_environment(
    tmp_path: Path,
) -> None:
    """r18k HIGH 3: ``vendor/site-packages`` (``pip install -t``) is hidden; a folder in
    the ``site-packages`` of a directory holding ``pyvenv.cfg`` (not one of the
    interpreters' own) is installed when an install file of that ``site-packages`` names
    it, hidden when another interpreter's ``.pth`` does (r18n MED V)."""
    from gentle_hooks.services.room_unheld import unheld_kinds, venv_site

    vendor = tmp_path / "w" / "vendor" / "site-packages"
    vendor.mkdir(parents=True)
    other = tmp_path / "w" / "envs" / "old"
    (other / "lib" / "python3.11" / "site-packages" / "x").mkdir(parents=True)
    (other / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (other / "site-packages").mkdir()
    inner = other / "lib" / "python3.11" / "site-packages" / "x"
    own = Redirect(str(inner), str(tmp_path / "w"), "x", str(inner.parent / "x.pth"))
    hidden, installed, fenced = unheld_kinds(
        [_r(vendor), own, _r(inner), _r(other / "site-packages")], []
    )
    assert [r.place for r in hidden] == [str(vendor), str(inner), str(other / "site-packages")]
    assert installed == [own] and not fenced
    assert venv_site(str(other / "lib" / "python3.11" / "site-packages"))
    assert not venv_site(str(other / "lib")) and not venv_site(str(vendor))
