"""Where a verify room's tree keeps its importable code
(:mod:`gentle_hooks.services.import_roots`, :func:`~gentle_hooks.services.import_probe.
room_names`; issue 18, r18o finding 1): one row per layout the build backends and pytest
read, namespace packages included; a value leaving the tree is dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.services.import_probe import room_names
from gentle_hooks.services.import_roots import import_roots


def _tree(root: Path, files: dict[str, str]) -> str:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(root)


SETUPTOOLS_FIND = '[project]\nname = "other"\n[tool.setuptools.packages.find]\nwhere = ["lib"]\n'
INLINE_FIND = '[project]\nname="x"\n[tool.setuptools]\npackages={find={where=["lib"]}}\n'

POETRY = '[tool.poetry]\nname = "y"\npackages = [{include = "calc", from = "lib"}]\n'
SETUP_CFG = "[options]\npackage_dir =\n    =lib\n[options.packages.find]\nwhere = lib\n"

#: (layout, files, the names room_names finds with their directories)
ROWS = [
    (
        "setuptools packages.find where",
        {"pyproject.toml": SETUPTOOLS_FIND, "lib/calc/__init__.py": ""},
        {"calc": "lib"},
    ),
    (
        "setuptools inline packages = {find = {where}}",
        {"pyproject.toml": INLINE_FIND, "lib/calc/__init__.py": ""},
        {"calc": "lib"},
    ),
    (
        "setuptools package-dir ''",
        {"pyproject.toml": '[tool.setuptools.package-dir]\n"" = "code"\n', "code/calc.py": ""},
        {"calc": "code"},
    ),
    (
        "setuptools package-dir per package",
        {
            "pyproject.toml": '[tool.setuptools.package-dir]\ncalc = "a/b/calc"\n',
            "a/b/calc/__init__.py": "",
        },
        {"calc": "a/b"},
    ),
    (
        "monorepo where pkgs/core",
        {
            "pyproject.toml": '[tool.setuptools.packages.find]\nwhere=["pkgs/core"]\n',
            "pkgs/core/calc/__init__.py": "",
        },
        {"calc": "pkgs/core"},
    ),
    (
        "hatch wheel packages",
        {
            "pyproject.toml": '[tool.hatch.build.targets.wheel]\npackages = ["lib/calc"]\n',
            "lib/calc/__init__.py": "",
        },
        {"calc": "lib"},
    ),
    (
        "hatch sources rewrite",
        {
            "pyproject.toml": '[tool.hatch.build.targets.wheel.sources]\n"python" = ""\n',
            "python/calc/__init__.py": "",
        },
        {"calc": "python"},
    ),
    (
        "poetry packages from",
        {
            "pyproject.toml": POETRY,
            "lib/calc/__init__.py": "",
        },
        {"calc": "lib"},
    ),
    (
        "pdm package-dir",
        {"pyproject.toml": '[tool.pdm.build]\npackage-dir = "lib"\n', "lib/calc/__init__.py": ""},
        {"calc": "lib"},
    ),
    (
        "pytest pythonpath in pyproject",
        {"pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["lib"]\n', "lib/calc.py": ""},
        {"calc": "lib"},
    ),
    (
        "pytest pythonpath in pytest.ini",
        {"pytest.ini": "[pytest]\npythonpath = lib other\n", "lib/calc.py": ""},
        {"calc": "lib"},
    ),
    (
        "setup.cfg package_dir and packages.find",
        {
            "setup.cfg": SETUP_CFG,
            "lib/calc/__init__.py": "",
        },
        {"calc": "lib"},
    ),
    (
        "no configuration: the project's package found by name",
        {"pyproject.toml": '[project]\nname = "my-calc"\n', "pkgs/core/my_calc/__init__.py": ""},
        {"my_calc": "pkgs/core"},
    ),
    (
        "PEP 420 namespace package under src",
        {
            "pyproject.toml": '[tool.setuptools.packages.find]\nwhere=["src"]\n',
            "src/acme/calc/__init__.py": "",
        },
        {"acme": "src"},
    ),
    (
        "namespace package at the root, the root dirs themselves not names",
        {"acme/calc.py": "", "src/other/__init__.py": ""},
        {"acme": ".", "other": "src"},
    ),
]


@pytest.mark.parametrize(("layout", "files", "names"), ROWS, ids=[r[0] for r in ROWS])
def test_each_layout_s_packages_are_the_room_s_names(
    tmp_path: Path, layout: str, files: dict[str, str], names: dict[str, str]
) -> None:
    assert room_names(_tree(tmp_path / "room", files)) == names, layout


@pytest.mark.parametrize(
    "text",
    [
        '[tool.setuptools.packages.find]\nwhere = ["../outside", "/abs"]\n',
        '[tool.pytest.ini_options]\npythonpath = ["lib/../../outside"]\n',
        "[tool.setuptools\nbroken",
        "[tool.hatch.build.targets.wheel]\nsources = 3\npackages = 4\n",
    ],
)
def test_a_value_leaving_the_tree_or_a_broken_file_gives_only_the_defaults(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / "outside").mkdir()
    room = _tree(tmp_path / "room", {"pyproject.toml": text, "lib/x.py": ""})
    assert import_roots(room) == ["."]
