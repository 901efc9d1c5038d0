"""The names a room's tree defines anywhere, the names installed copies hold, and their
overlap (issue 18, r18p: a ``calc`` kept where no declared layout says)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gentle_hooks.services import room_overlap
from gentle_hooks.services.import_probe import Found, Probed
from gentle_hooks.services.room_overlap import (
    Overlap,
    clash_line,
    installed_names,
    namespace_names,
    overlap,
    tree_names,
)
from tests.conftest import write


def test_tree_names_reads_any_depth_but_not_inside_packages_or_non_code_dirs(
    tmp_path: Path,
) -> None:
    write(tmp_path / "lib" / "calc" / "__init__.py", "")
    write(tmp_path / "lib" / "calc" / "inner.py", "")  # a submodule, not a top-level name
    write(tmp_path / "tools" / "deep" / "mod.py", "")
    write(tmp_path / "tests" / "calc" / "__init__.py", "")
    for skipped in (".git", "node_modules", "build", "dist", ".venv", "venv", "__pycache__"):
        write(tmp_path / skipped / "hidden" / "__init__.py", "")
    write(tmp_path / "env1" / "pyvenv.cfg", "")
    write(tmp_path / "env1" / "lib" / "venvmod.py", "")
    names = tree_names(str(tmp_path))
    assert names is not None
    assert names["calc"] == ["lib", "tests"]
    assert names["mod"] == ["tools/deep"]
    assert names["deep"] == ["tools"]
    assert "inner" not in names and "hidden" not in names and "venvmod" not in names


def test_installed_names_reads_entries_top_level_pth_dirs_and_pythonpath(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site-packages"
    write(site / "calc" / "__init__.py", "")
    write(site / "fast.cpython-311-x86_64-linux-gnu.so", "")
    write(site / "dist-1.0.dist-info" / "top_level.txt", "mapped\n")
    write(site / "x.pth", f"{tmp_path / 'extra'}\nimport os\n")
    write(tmp_path / "extra" / "viapth.py", "")
    write(tmp_path / "pp" / "viapp" / "__init__.py", "")
    write(tmp_path / "room" / "inroom.py", "")
    env = {"PYTHONPATH": f"{tmp_path / 'pp'}:{tmp_path / 'room'}"}
    names = installed_names([str(site)], env, str(tmp_path / "room"))
    assert {"calc", "fast", "mapped", "viapth", "viapp"} <= names
    assert "inroom" not in names


def test_overlap_splits_single_ambiguous_renamed_and_leaves_known(
    tmp_path: Path,
) -> None:
    room, site = tmp_path / "room", tmp_path / "site"
    write(room / "setup.py", 'setup(name="proj", package_dir={"proj": "src/impl"})\n')
    write(room / "src" / "impl" / "__init__.py", "")
    write(room / "lib" / "calc" / "__init__.py", "")
    write(room / "a" / "two.py", "")
    write(room / "b" / "two.py", "")
    write(room / "k" / "known.py", "")
    write(room / "x" / "tests" / "__init__.py", "")
    for name in ("calc", "two", "known", "tests"):
        write(site / name / "__init__.py", "")
    write(site / "proj-1.dist-info" / "top_level.txt", "proj\n")
    found = overlap(str(room), [str(site)], {}, {"known": "k"})
    # r18p open item 2: `tests`, a common name a wheel put in site-packages itself and the
    # tree defines once, is the room's to redirect like any other
    assert found == Overlap((("calc", "lib"), ("tests", "x")), (("two", ("a", "b")),), ("proj",))
    assert found.unredirected() == ["two", "proj"]


def test_clash_line_names_the_name_the_copy_and_the_candidates() -> None:
    extra = Overlap((), (("two", ("a", "b")),), ("proj",))
    line = clash_line(Probed((Found("two", "/v/bin/python", ("/v/site/two",)),)), extra)
    assert "`two` resolves to /v/site/two" in line and "a/two, b/two" in line
    assert "uninstall `two`" in line and "no check ran" in line
    line = clash_line(Probed((Found("proj", "/v/bin/python", ("/v/site/proj",)),)), extra)
    assert "package_dir rename" in line and "/v/site/proj" in line
    assert clash_line(Probed((Found("calc", "p", ("/c",)),)), extra) == ""


#: r18p open item 2, common names (id, the tree's folders defining `tools`, whether a wheel
#: put `tools` in site-packages itself, the overlap's single/ambiguous rows for it).
COMMON_ROWS: list[tuple[str, list[str], bool, tuple[object, ...]]] = [
    ("once", ["lib"], True, (("tools", "lib"),)),
    ("root-and-below", [".", "x"], True, (("tools", "."),)),
    ("several-below-the-root", ["a", "b"], True, ()),
    ("in-another-project-s-editable-root", ["lib"], False, ()),
]


@pytest.mark.parametrize(
    ("folders", "in_site", "rows"), [r[1:] for r in COMMON_ROWS], ids=[r[0] for r in COMMON_ROWS]
)
def test_a_common_name_counts_when_a_wheel_installed_it(
    tmp_path: Path, folders: list[str], in_site: bool, rows: tuple[object, ...]
) -> None:
    room, site, other = tmp_path / "room", tmp_path / "site", tmp_path / "other"
    for folder in folders:
        write(room / folder / "tools" / "__init__.py", "")
    if in_site:
        write(site / "tools" / "__init__.py", "")
    else:  # an editable install of another project whose root holds `tools/`
        write(other / "tools" / "__init__.py", "")
        write(site / "other.pth", f"{other}\n")
    found = overlap(str(room), [str(site)], {}, {})
    assert found.single + found.ambiguous == rows


def test_namespace_names_maps_folders_above_code_to_their_children(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "acme" / "calc" / "__init__.py", "")
    write(tmp_path / "lib" / "acme" / "tools" / "mod.py", "")
    write(tmp_path / "pkgs" / "core" / "acme" / "util.py", "")
    spaces = namespace_names(str(tmp_path))
    assert spaces is not None
    assert spaces[("lib", "acme")] == {"calc", "tools"}
    assert spaces[(".", "lib")] == {"acme"}
    assert spaces[("lib/acme", "tools")] == {"mod"}
    assert spaces[("pkgs/core", "acme")] == {"util"}


#: r18p open item 2, namespaces (id, the wheel's files, the overlap's single rows).
NAMESPACE_ROWS: list[tuple[str, list[str], tuple[tuple[str, str], ...]]] = [
    ("shares-a-child", ["acme/calc/__init__.py"], (("acme", "lib"),)),
    ("shares-a-module", ["acme/calc.py"], (("acme", "lib"),)),
    ("other-children-only", ["acme/other/__init__.py"], ()),
    ("a-src-folder-a-wheel-ships", ["lib/other.py"], ()),
]


@pytest.mark.parametrize(
    ("files", "single"), [r[1:] for r in NAMESPACE_ROWS], ids=[r[0] for r in NAMESPACE_ROWS]
)
def test_an_undeclared_namespace_an_installed_copy_shares_is_redirected(
    tmp_path: Path, files: list[str], single: tuple[tuple[str, str], ...]
) -> None:
    room, site = tmp_path / "room", tmp_path / "site"
    write(room / "lib" / "acme" / "calc" / "__init__.py", "")
    for f in files:
        write(site / f, "")
    assert overlap(str(room), [str(site)], {}, {}).single == single


def test_a_tree_past_the_old_directory_bound_is_read(tmp_path: Path) -> None:
    """r18p open item 2: 25000 folders (over the old 20000) are an ordinary monorepo's
    size: read, not refused; past :data:`MAX_DIRS` it fails closed with one line."""
    for i in range(250):
        for j in range(100):
            os.makedirs(tmp_path / f"d{i}" / f"e{j}")
    write(tmp_path / "d3" / "e7" / "calc" / "__init__.py", "")
    site = tmp_path / ".site"
    write(site / "calc" / "__init__.py", "")
    found = overlap(str(tmp_path), [str(site)], {}, {})
    assert (found.error, found.single) == ("", (("calc", "d3/e7"),))
    bound = room_overlap.MAX_DIRS
    try:
        room_overlap.MAX_DIRS = 1000
        line = overlap(str(tmp_path), [str(site)], {}, {}).error
    finally:
        room_overlap.MAX_DIRS = bound
    assert line.startswith("the candidate's tree has more than 1000 directories")
    assert "\n" not in line and line.endswith("no check ran")


#: r18p open item 2, setup.py (id, setup.py's text, the renamed names, the error's start).
SETUP_ROWS: list[tuple[str, str, tuple[str, ...], str]] = [
    ("literal-name", 'setup(name="calc", package_dir={"calc": "src/impl"})', ("calc",), ""),
    ("computed-name", 'setup(name=about["n"], package_dir={"calc": "src/impl"})', ("calc",), ""),
    ("constant-name", 'NAME = "calc"\nsetup(name=NAME, packages=["calc"])', ("calc",), ""),
    ("src-layout", 'setup(name=NAME, package_dir={"": "src"})', (), ""),
    ("expression", "setup(name=NAME, package_dir=DIRS)", (), "setup.py passes package_dir"),
]


@pytest.mark.parametrize(
    ("text", "renamed", "error"), [r[1:] for r in SETUP_ROWS], ids=[r[0] for r in SETUP_ROWS]
)
def test_a_setup_py_rename_is_read_whatever_name_it_computes(
    tmp_path: Path, text: str, renamed: tuple[str, ...], error: str
) -> None:
    room, site = tmp_path / "room", tmp_path / "site"
    write(room / "setup.py", "from setuptools import setup\n" + text + "\n")
    write(room / "src" / "impl" / "__init__.py", "")
    write(site / "calc" / "__init__.py", "")
    write(site / "calc-1.dist-info" / "top_level.txt", "calc\n")
    found = overlap(str(room), [str(site)], {}, {})
    assert found.renamed == renamed
    assert found.error.startswith(error) and "\n" not in found.error
