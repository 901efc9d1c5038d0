"""Distributions installed without ``-e`` from a work tree (issue 18; SPEC §9: "the
candidate's exact tree"): :func:`~gentle_hooks.services.installed_copies.work_copies` reads
``direct_url.json`` and ``RECORD``; :func:`~.copies_line` names them, or refuses."""

from __future__ import annotations

import json
from pathlib import Path

from gentle_hooks.services.installed_copies import copies_line, work_copies
from gentle_hooks.services.room_unguarded import reach_sources


def _dist(site: Path, name: str, url: str, record: str | None, editable: bool = False) -> None:
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    dir_info = {"editable": True} if editable else {}
    (info / "direct_url.json").write_text(json.dumps({"url": url, "dir_info": dir_info}))
    if record is not None:
        (info / "RECORD").write_text(record)


def test_a_copy_of_the_work_tree_lists_its_top_level_places(tmp_path: Path) -> None:
    site, work = tmp_path / "site", tmp_path / "w"
    work.mkdir()
    record = (
        "calc.py,sha256=x,1\nfastmul.py,sha256=y,2\npkg/__init__.py,,\n__pycache__/calc.pyc,,\n"
        "calc-0.1.dist-info/RECORD,,\n../../../bin/calc,,\n"
    )
    _dist(site, "calc", f"file://{work}", record)
    _dist(site, "other", f"file://{tmp_path / 'elsewhere'}", "other.py,,\n")
    _dist(site, "edit", f"file://{work}", "edit.pth,,\n", editable=True)
    (copy,) = work_copies([str(site)], [str(work)])
    assert copy.name == "calc" and copy.source == str(work)
    assert copy.places == tuple(str(site / n) for n in ("calc.py", "fastmul.py", "pkg"))
    note, refused = copies_line([copy])
    assert "pip uninstall calc" in note and not refused
    _, unguarded = copies_line([copy], guarded=False)
    assert "no check ran" in unguarded
    sources = dict(
        reach_sources([str(site / "fastmul.py")], [], [(str(site / "fastmul.py"), "calc")])
    )
    assert "pip uninstall calc" in sources[str(site / "fastmul.py")]


def test_an_unreadable_record_refuses_every_check(tmp_path: Path) -> None:
    site, work = tmp_path / "site", tmp_path / "w"
    work.mkdir()
    _dist(site, "calc", f"file://{work}", None)
    note, refused = copies_line(work_copies([str(site)], [str(work)]))
    assert not note and "RECORD could not be read" in refused and "pip uninstall calc" in refused


def test_a_pth_line_naming_the_place_is_named(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "extra_path.pth").write_text(f"import sys; sys.path.append({str(tmp_path / 'x')!r})\n")
    (site / "plain.pth").write_text("../y\n")
    (tmp_path / "y").mkdir()
    found = dict(reach_sources([str(tmp_path / "x"), str(tmp_path / "y")], [str(site)]))
    assert str(site / "extra_path.pth") in found[str(tmp_path / "x")]
    assert str(site / "plain.pth") in found[str(tmp_path / "y")]
