"""``policy.plugins``: the pytest plugins a check loads by name (row ``D-plugin``; issue 18,
refuter r18a: a test module with ``pytest_plugins = ["zz_helpers"]`` and a ``zz_helpers.py``
hook turning failures into passes made a failing suite pass verify and the commit)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.entrypoints import is_metadata, pytest_entry_modules
from gentle_hooks.policy.importable import provides
from gentle_hooks.policy.plugins import (
    config_plugins,
    config_pythonpath,
    named_plugins,
    plugin_options,
)

OPTIONS = [
    (["-q", "-p", "zz_helpers", "tests"], ("zz_helpers",)),
    (["-pzz_helpers", "-p", "pkg.plug"], ("zz_helpers", "pkg.plug")),
    (["-p", "no:cacheprovider", "-q"], ()),  # keeps a plugin out
    (["-q", "tests"], ()),
    (["-p"], ()),
]


@pytest.mark.parametrize(("args", "expected"), OPTIONS, ids=[" ".join(a) for a, _ in OPTIONS])
def test_plugin_options(args: list[str], expected: tuple[str, ...]) -> None:
    assert plugin_options(args) == expected


SOURCES = [
    ('pytest_plugins = ["zz_helpers"]\n', ("zz_helpers",)),
    ("pytest_plugins = ('a', 'b.c')\n", ("a", "b.c")),
    ('pytest_plugins = "a, b"\n', ("a", "b")),  # pytest splits a string at commas
    ("pytest_plugins: list[str] = ['a']\npytest_plugins += ['b']\n", ("a", "b")),
    ("if True:\n    pytest_plugins = ['a']\n", ("a",)),
    ("def test_x():\n    assert 1\n", ()),
    ("pytest_plugins = [\n", ()),  # does not parse: pytest cannot import it either
    ("# pytest_plugins = ['a']\n", ()),
    # set or used in a way not read: which plugins it names is unknown
    ("PLUGINS = ['a']\npytest_plugins = PLUGINS\n", None),
    ("pytest_plugins = []\npytest_plugins.append('a')\n", None),
    ("globals()['pytest_plugins'] = ['a']\n", None),
    ("import sys\nsys.modules[__name__].pytest_plugins = ['a']\n", None),
]


@pytest.mark.parametrize(("source", "expected"), SOURCES, ids=[s for s, _ in SOURCES])
def test_named_plugins(source: str, expected: tuple[str, ...] | None) -> None:
    assert named_plugins(source.encode()) == expected


PROVIDES = [
    ("zz_helpers", "zz_helpers.py", True),
    ("zz_helpers", "tests/zz_helpers.py", True),
    ("zz_helpers", "zz_helpers.pyc", True),
    ("zz_helpers", "src/zz_helpers/__init__.py", True),
    ("zz_helpers", "zz_helpers/hooks.py", True),
    ("pkg.plug", "pkg/plug.py", True),
    ("pkg.plug", "src/pkg/plug/__init__.py", True),
    ("zz_helpers", "zz_helpers.txt", False),
    ("zz_helpers", "__pycache__/zz_helpers.cpython-311.pyc", False),
    ("zz_helpers", "tests/test_zz_helpers.py", False),
    ("pkg.plug", "plug.py", False),
    ("pkg.plug", "pkg/__init__.py", False),
]


@pytest.mark.parametrize(
    ("module", "path", "expected"), PROVIDES, ids=[f"{m}|{p}" for m, p, _ in PROVIDES]
)
def test_provides(module: str, path: str, expected: bool) -> None:
    assert provides(module, path) is expected


#: (configuration path, its content, the plugins its addopts loads).
CONFIGS = [
    (
        "pytest.ini",
        "[pytest]\naddopts = -q -p helpers -pother -p no:cacheprovider\n",
        ("helpers", "other"),
    ),
    (".pytest.ini", "[pytest]\naddopts = -p helpers\n", ("helpers",)),
    ("sub/tox.ini", "[pytest]\naddopts = -p 'pkg.plug'\n", ("pkg.plug",)),
    ("setup.cfg", "[tool:pytest]\naddopts = -p helpers\n", ("helpers",)),
    ("setup.cfg", "[pytest]\naddopts = -p helpers\n", ()),  # not pytest's section there
    ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-p helpers"\n', ("helpers",)),
    ("pyproject.toml", '[tool.pytest]\naddopts = ["-p", "helpers"]\n', ("helpers",)),
    ("pytest.toml", '[pytest]\naddopts = ["-phelpers"]\n', ("helpers",)),
    ("pytest.ini", "[pytest]\naddopts = -q\n", ()),
    ("pytest.ini", "[pytest]\naddopts = -p 'unterminated\n", ()),  # pytest refuses it too
    ("pyproject.toml", "not = [toml\n", ()),
    ("other.ini", "[pytest]\naddopts = -p helpers\n", ()),
]


@pytest.mark.parametrize(("path", "text", "expected"), CONFIGS)
def test_config_plugins(path: str, text: str, expected: tuple[str, ...]) -> None:
    assert config_plugins(path, text.encode()) == expected


@pytest.mark.parametrize(
    ("text", "modules"),
    [
        ("[pytest11]\nhelpers = helpers_plugin\n", ("helpers_plugin",)),
        ("[pytest11]\na = pkg.hooks:plugin [extra]\nb = other\n", ("pkg.hooks", "other")),
        ("[console_scripts]\nx = tool:main\n", ()),
        ("not an ini file", ()),
        ("", ()),
    ],
)
def test_pytest_entry_modules(text: str, modules: tuple[str, ...]) -> None:
    assert pytest_entry_modules(text.encode()) == modules


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("helpers-0.1.dist-info/entry_points.txt", True),
        ("src/h.egg-info/entry_points.txt", True),
        ("entry_points.txt", False),
        ("docs/entry_points.txt", False),
        ("site/x.pth", True),
        ("dev.egg-link", True),
        ("helpers-0.1.dist-info/METADATA", False),
    ],
)
def test_is_metadata(path: str, expected: bool) -> None:
    assert is_metadata(path) is expected


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("pytest.ini", "[pytest]\npythonpath = src lib\n", ("src", "lib")),
        ("pyproject.toml", '[tool.pytest.ini_options]\npythonpath = ["src"]\n', ("src",)),
        ("setup.cfg", "[tool:pytest]\npythonpath = .\n", (".",)),
        ("tox.ini", "[pytest]\naddopts = -q\n", ()),
        ("pytest.ini", "[pytest\n", ()),
    ],
)
def test_config_pythonpath(path: str, text: str, expected: tuple[str, ...]) -> None:
    assert config_pythonpath(path, text.encode()) == expected
