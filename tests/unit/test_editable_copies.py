"""Rows of :func:`gentle_hooks.services.editable_copies.other_copies`: which import places
outside the repository's work trees hold another copy of the project the room's tree
holds (issue 18, HIGH1), and which are another project's, never blocked."""

from __future__ import annotations

from pathlib import Path

from gentle_hooks.services.editable_copies import other_copies


def _pkg(where: Path, name: str) -> None:
    (where / name).mkdir(parents=True, exist_ok=True)
    (where / name / "__init__.py").write_text("")


def _room(tmp_path: Path, layout: str) -> Path:
    room = tmp_path / "room" / "tree"
    _pkg(room / layout, "calc")
    _pkg(room, "tests")
    return room


def test_a_src_clone_maps_to_the_rooms_src(tmp_path: Path) -> None:
    room = _room(tmp_path, "src")
    clone = tmp_path / "clone"
    _pkg(clone / "src", "calc")
    (clone / "pyproject.toml").write_text("")
    found = other_copies([(str(clone / "src"), "x.pth")], str(room), [], [])
    assert [(r.place, r.tree, r.rel) for r in found] == [(str(clone / "src"), str(clone), "src")]


def test_a_flat_clone_maps_to_the_rooms_root(tmp_path: Path) -> None:
    room = _room(tmp_path, ".")
    clone = tmp_path / "clone"
    _pkg(clone, "calc")
    _pkg(clone, "tests")
    (clone / ".git").mkdir()
    found = other_copies([(str(clone), "x.pth")], str(room), [], [])
    assert [r.rel for r in found] == ["."]


def test_a_finder_maps_its_top_level_names_only(tmp_path: Path) -> None:
    room = _room(tmp_path, "src")
    finder = tmp_path / "__editable___calc_0_1_finder.py"
    other = tmp_path / "elsewhere" / "calc"
    finder.write_text(f"MAPPING = {{'calc': {str(other)!r}, 'calc.sub': '/x/sub'}}\n")
    _pkg(other.parent, "calc")
    found = other_copies([(str(other.parent), str(finder))], str(room), [], [])
    assert [r.rel for r in found] == ["src"]


def test_another_project_sharing_only_common_names_is_not_a_copy(tmp_path: Path) -> None:
    """Another project's editable install holding ``tests`` and ``conftest.py`` besides its
    own package: not a copy of this project, never blocked."""
    room = _room(tmp_path, ".")
    other = tmp_path / "other-project"
    _pkg(other, "tests")
    _pkg(other, "otherpkg")
    (other / "conftest.py").write_text("")
    assert other_copies([(str(other), "x.pth")], str(room), [], []) == ()


def test_places_inside_or_above_sites_trees_or_the_room_are_not_copies(tmp_path: Path) -> None:
    room = _room(tmp_path, ".")
    site = tmp_path / "venv" / "lib" / "site-packages"
    _pkg(site, "calc")
    _pkg(tmp_path / "venv", "calc")
    work = tmp_path / "work"
    _pkg(work, "calc")
    places = [(str(site), "a.pth"), (str(tmp_path / "venv"), "b.pth"), (str(work), "c.pth")]
    places.append((str(room), "d.pth"))
    assert other_copies(places, str(room), [str(work)], [str(site)]) == ()
