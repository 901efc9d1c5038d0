"""Rows of :func:`gentle_hooks.services.checkout.editable_redirects`: which places of the work
tree an editable install in a linked virtual environment imports from (the temporary
checkout puts the same places first on ``PYTHONPATH``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.services.checkout import Checkout, editable_redirects, run_env


def _site(root: Path, venv: str = ".venv") -> Path:
    (root / venv).mkdir()
    (root / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    site = root / venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    return site


@pytest.mark.parametrize(
    ("pth", "expected"),
    [
        ("{root}/src\n", ("src",)),  # pip / hatchling / pdm: the source directory
        ("{root}\n", (".",)),  # a flat layout: the work tree root
        ("# comment\n\n{root}/src\n{root}/src\n", ("src",)),  # each place once
        ("import _virtualenv\n", ()),  # a line that runs code adds no place
        ("/usr/lib/python3/dist-packages\n", ()),  # outside the work tree
        ("{root}/.venv/lib/extra\n", ()),  # inside the linked folder itself
        ("../../../../src\n", ("src",)),  # relative: from site-packages
    ],
)
def test_pth_lines(tmp_path: Path, pth: str, expected: tuple[str, ...]) -> None:
    (tmp_path / "src").mkdir()
    site = _site(tmp_path)
    (site / "_p.pth").write_text(pth.format(root=tmp_path))
    assert editable_redirects(str(tmp_path), (".venv",)) == expected


def test_a_setuptools_finder_mapping_names_the_packages_parent(tmp_path: Path) -> None:
    (tmp_path / "lib" / "pkg").mkdir(parents=True)
    site = _site(tmp_path)
    (site / "__editable___pkg_0_1_finder.py").write_text(
        f"import sys\nMAPPING = {{'pkg': {str(tmp_path / 'lib' / 'pkg')!r}}}\n"
    )
    assert editable_redirects(str(tmp_path), (".venv",)) == ("lib",)


def test_a_folder_without_pyvenv_cfg_or_a_broken_finder_adds_nothing(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (site / "__editable___x_finder.py").write_text("MAPPING = {\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.pth").write_text(f"{tmp_path}\n")
    assert editable_redirects(str(tmp_path), (".venv", "node_modules")) == ()


def test_run_env_puts_the_checkouts_places_first() -> None:
    co = Checkout("/tmp/c/w", "0" * 40, (".venv",), ("src", "."))
    env = run_env(co, {"PYTHONPATH": "/opt/x", "A": "1"})
    cache = {"PYTHONPYCACHEPREFIX": "/tmp/c/pycache"}  # outside the tree: no __pycache__ read
    assert env == {"PYTHONPATH": "/tmp/c/w/src:/tmp/c/w:/opt/x", "A": "1", **cache}
    assert run_env(Checkout("/tmp/c/w", "0" * 40, ()), {"A": "1"}) == {"A": "1", **cache}
