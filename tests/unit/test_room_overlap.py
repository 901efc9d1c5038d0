"""The names a room's tree defines anywhere, the names installed copies hold, and their
overlap (issue 18, r18p: a ``calc`` kept where no declared layout says)."""

from __future__ import annotations

from pathlib import Path

from gentle_hooks.services.import_probe import Found, Probed
from gentle_hooks.services.room_overlap import (
    Overlap,
    clash_line,
    installed_names,
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


def test_overlap_splits_single_ambiguous_renamed_and_leaves_known_and_common(
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
    assert found == Overlap((("calc", "lib"),), (("two", ("a", "b")),), ("proj",))
    assert found.unredirected() == ["two", "proj"]


def test_clash_line_names_the_name_the_copy_and_the_candidates() -> None:
    extra = Overlap((), (("two", ("a", "b")),), ("proj",))
    line = clash_line(Probed((Found("two", "/v/bin/python", ("/v/site/two",)),)), extra)
    assert "`two` resolves to /v/site/two" in line and "a/two, b/two" in line
    assert "uninstall `two`" in line and "no check ran" in line
    line = clash_line(Probed((Found("proj", "/v/bin/python", ("/v/site/proj",)),)), extra)
    assert "package_dir rename" in line and "/v/site/proj" in line
    assert clash_line(Probed((Found("calc", "p", ("/c",)),)), extra) == ""
