"""What defines a verifier's check (``gentle_hooks.policy.checkdefs``; seed 001 "Guardrails":
"do not accept a claim whose criteria have no observable check")."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.checkdefs import (
    DEFINITION_ROWS,
    Source,
    check_sources,
    is_defining,
    part_changed,
)


def defining(command: str, paths: list[str]) -> list[str]:
    """The paths of ``paths`` that define the shell line ``command``."""
    sources = check_sources(("sh", "-c", command))
    return [p for p in paths if any(is_defining(s, p) for s in sources)]


TREE = [
    "app.py",
    "check.sh",
    "src/check.sh",
    "tests/neg.sh",
    "tests/check.py",
    "Makefile",
    "sub/Makefile",
    "rules.mk",
    "package.json",
    "pytest.ini",
    "pytest.toml",
    ".pytest.toml",
    "pyproject.toml",
    "setup.cfg",
    "tox.ini",
    "noxfile.py",
    "jest.config.js",
    ".mocharc.yml",
]

#: The test runners' configuration files of TREE: a wrapper (make, npm, tox, nox) runs a
#: runner it does not name, so each of them defines it too.
RUNNERS = [
    "pytest.ini",
    "pytest.toml",
    ".pytest.toml",
    "pyproject.toml",
    "setup.cfg",
    "tox.ini",
    "package.json",
    "jest.config.js",
    ".mocharc.yml",
]

#: (command, the paths of TREE that define it).
CASES = [
    ("sh check.sh", ["check.sh"]),
    ("bash -o pipefail tests/neg.sh arg", ["tests/neg.sh"]),
    ("./check.sh", ["check.sh"]),
    ("cd src && sh check.sh", ["src/check.sh"]),
    ("cd src && sh ../check.sh", ["check.sh"]),
    ("python3 tests/check.py", ["tests/check.py"]),
    ("python3 -m tests.check", ["tests/check.py"]),
    ("timeout 60 env X=1 sh check.sh", ["check.sh"]),
    ("sh -c 'sh check.sh'", ["check.sh"]),
    ("if true; then sh check.sh; fi", ["check.sh", "src/check.sh"]),  # directory unknown
    ("make test", ["Makefile", "sub/Makefile", "rules.mk", *RUNNERS]),
    ("npm test", RUNNERS),
    ("tox -e py", RUNNERS),
    ("nox", ["noxfile.py", *RUNNERS]),
    (
        "python3 -m pytest -q",
        ["pytest.ini", "pytest.toml", ".pytest.toml", "pyproject.toml", "setup.cfg", "tox.ini"],
    ),
    ("jest", ["package.json", "jest.config.js"]),
    ("mocha", ["package.json", "jest.config.js", ".mocharc.yml"]),
    # what a check reads, and what the artifact is, is not its definition
    ("grep -q TODO app.py", []),
    ("python3 -c 'import app; assert app.add(2, 3) == 5'", []),
    ("python3 -m unittest discover -s tests", []),
    ("sh -c 'exit 0'", []),
    ("/bin/sh /etc/check.sh", []),
]


@pytest.mark.parametrize(("command", "paths"), CASES, ids=[c[0] for c in CASES])
def test_the_files_that_define_a_check(command: str, paths: list[str]) -> None:
    assert sorted(set(defining(command, TREE))) == sorted(paths)


def test_every_row_has_a_case() -> None:
    met = {s.row for command, _ in CASES for s in check_sources(("sh", "-c", command))}
    assert met >= {r.id for r in DEFINITION_ROWS} | {"D-script"}


def rule_source(command: str, name: str) -> Source:
    return next(
        s
        for s in check_sources(("sh", "-c", command))
        if s.rule is not None and name in s.rule.names
    )


NPM = rule_source("npm test", "package.json")
PYTEST = rule_source("pytest", "pyproject.toml")
TOX = rule_source("tox", "setup.cfg")


#: (id, source, path, old, new, changed).
PART_CASES: list[tuple[str, Source, str, bytes | None, bytes | None, bool]] = [
    (
        "npm-scripts-changed",
        NPM,
        "package.json",
        b'{"scripts": {"test": "jest"}}',
        b'{"scripts": {"test": "echo 1 passed"}}',
        True,
    ),
    (
        "npm-dependencies-only",
        NPM,
        "package.json",
        b'{"scripts": {"test": "jest"}, "dependencies": {}}',
        b'{"dependencies": {"left-pad": "1"}, "scripts": {"test": "jest"}}',
        False,
    ),
    ("npm-package-added", NPM, "package.json", None, b'{"scripts": {"test": "x"}}', True),
    ("npm-unparseable", NPM, "package.json", b"{}", b"{", True),
    (
        "pyproject-pytest-table",
        PYTEST,
        "pyproject.toml",
        b'[tool.pytest.ini_options]\naddopts = "-q"\n',
        b'[tool.pytest.ini_options]\naddopts = "-k nothing"\n',
        True,
    ),
    (
        "pyproject-other-table",
        PYTEST,
        "pyproject.toml",
        b'[project]\nname = "a"\n[tool.pytest.ini_options]\naddopts = "-q"\n',
        b'[project]\nname = "b"\n[tool.pytest.ini_options]\naddopts = "-q"\n',
        False,
    ),
    (
        "setup-cfg-tool-pytest",
        PYTEST,
        "setup.cfg",
        b"[metadata]\nname = a\n",
        b"[metadata]\nname = a\n[tool:pytest]\naddopts = -k nothing\n",
        True,
    ),
    (
        "setup-cfg-metadata-only",
        PYTEST,
        "setup.cfg",
        b"[metadata]\nname = a\n",
        b"[metadata]\nname = b\n",
        False,
    ),
    (
        "pytest-toml-pytest-table",  # pytest >= 9 reads [pytest] of pytest.toml
        PYTEST,
        "pytest.toml",
        b'[pytest]\naddopts = ["-q"]\n',
        b'[pytest]\naddopts = ["-q", "--ignore=test_b.py"]\n',
        True,
    ),
    ("pytest-ini-whole-section", PYTEST, "pytest.ini", b"[pytest]\n", b"[pytest]\nx = 1\n", True),
    (
        "tox-testenv-in-setup-cfg",
        TOX,
        "setup.cfg",
        b"[testenv]\ncommands = pytest\n",
        b"[testenv]\ncommands = true\n",
        True,
    ),
    (
        "script-file-any-change",
        check_sources(("sh", "check.sh"))[0],
        "check.sh",
        b"pytest\n",
        b"exit 0\n",
        True,
    ),
]


@pytest.mark.parametrize(
    ("source", "path", "old", "new", "changed"),
    [c[1:] for c in PART_CASES],
    ids=[c[0] for c in PART_CASES],
)
def test_only_the_part_that_defines_the_check_counts(
    source: Source, path: str, old: bytes | None, new: bytes | None, changed: bool
) -> None:
    assert part_changed(source, path, old, new) is changed


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        ("python3 -m pytest -q tests", ["conftest.py", "tests/conftest.py", "tests/a/conftest.py"]),
        ("pytest -q", ["conftest.py", "tests/conftest.py", "tests/a/conftest.py"]),
        ("make test", ["conftest.py", "tests/conftest.py", "tests/a/conftest.py"]),
        (
            ". ./env.sh && pytest -q",
            ["conftest.py", "tests/conftest.py", "tests/a/conftest.py", "env.sh"],
        ),
        ("source tools/env.sh && sh check.sh", ["tools/env.sh"]),
        ("sh check.sh", []),
    ],
    ids=["python-m-pytest", "pytest", "make-wraps-pytest", "dot-sourced", "source", "script"],
)
def test_conftest_and_sourced_files_define_a_check(command: str, paths: list[str]) -> None:
    """Issue 18 finding 2: a candidate's ``tests/conftest.py`` with ``collect_ignore``
    left a failing test out of ``pytest -q tests``: ``conftest.py`` at any level is pytest's
    configuration; a file the check line sources is part of the check."""
    tree = ["conftest.py", "tests/conftest.py", "tests/a/conftest.py", "env.sh", "tools/env.sh"]
    assert defining(command, tree) == paths


def test_included_files_of_a_script_or_makefile() -> None:
    """What a script sources and a makefile includes, relative to the tree's root; names
    with variables, globs, absolute or outside the tree are left out."""
    from gentle_hooks.policy.checkdefs import included_files

    script = b'#!/bin/sh\n. ./lib/common.sh\nsource "env.sh"\n. $HOME/x.sh\n. /etc/profile\n'
    assert included_files("check.sh", script) == ("lib/common.sh", "env.sh")
    makefile = b"include rules.make other.inc # both\n-include local.make\nsinclude ../up.make\n"
    makefile += b"include $(wildcard *.mk)\ntest:\n\t. ./setup.sh && pytest\n"
    assert included_files("Makefile", makefile) == (
        "rules.make",
        "other.inc",
        "local.make",
        "setup.sh",
    )


@pytest.mark.parametrize(
    "path",
    [
        "sitecustomize.py",
        "src/usercustomize.py",
        # sourceless bytecode and extension modules are imported as the source is
        "sitecustomize.pyc",
        "src/sitecustomize.cpython-312-x86_64-linux-gnu.so",
        "usercustomize.abi3.so",
    ],
)
def test_python_start_up_modules_define_a_pytest_check(path: str) -> None:
    """Python imports them from a brief's ``{"PYTHONPATH": "src"}`` before pytest starts."""
    assert defining("python3 -m pytest -q", [path, "app.py"]) == [path]


@pytest.mark.parametrize("path", ["__pycache__/sitecustomize.cpython-311.pyc", "sitecustomize.txt"])
def test_files_python_does_not_import_are_not_start_up_modules(path: str) -> None:
    """A ``__pycache__`` file is read only as the cache of a source beside it."""
    assert defining("python3 -m pytest -q", [path]) == []


#: (command, path, defines): pytest imports a plugin ``-p NAME`` names from wherever it is
#: found on ``sys.path`` (refuter r18a): a file providing it defines the check (row D-plugin).
PLUGIN_CASES = [
    ("pytest -q -p zz_helpers", "zz_helpers.py", True),
    ("pytest -q -pzz_helpers", "tests/zz_helpers.pyc", True),
    ("python3 -m pytest -p pkg.plug tests", "src/pkg/plug/__init__.py", True),
    ("make test", "zz_helpers.py", False),
    ("pytest -q -p no:zz_helpers", "zz_helpers.py", False),
    ("pytest -q -p zz_helpers", "helpers.py", False),
    ("mkdir -p build && pytest -q", "build.py", False),  # mkdir's -p, not pytest's
]


@pytest.mark.parametrize(
    ("command", "path", "expected"), PLUGIN_CASES, ids=[f"{c}|{p}" for c, p, _ in PLUGIN_CASES]
)
def test_a_plugin_pytest_loads_by_name_defines_the_check(
    command: str, path: str, expected: bool
) -> None:
    assert (defining(command, [path]) == [path]) is expected


#: (command, path, shadows): ``python -m`` puts its working directory first on sys.path, so
#: a file there named as the runner, what it imports or a standard-library module is run in
#: its place (refuter r18z: a pytest.py printing "2 passed" made a failing suite pass).
SHADOW_CASES = [
    ("python3 -m pytest -q", "pytest.py", True),
    ("python3 -m pytest -q", "pytest/__init__.py", True),
    ("python3 -m pytest -q", "_pytest/main.py", True),
    ("python3 -m pytest -q", "pluggy.py", True),
    ("python3 -m unittest", "unittest.py", True),
    ("python3 -m unittest discover -s tests", "unittest/__main__.py", True),
    ("python -m unittest", "argparse.py", True),
    ("python -m unittest", "logging/__init__.py", True),
    ("python3 -m tests.check", "tests/__init__.py", True),
    # Python imports sourceless bytecode, extension modules and packages of them too
    # (refuter r18a: a pytest.pyc printing "1 passed" passed verify, the commit and the push)
    ("python3 -m pytest -q", "pytest.pyc", True),
    ("python3 -m pytest -q", "pytest.cpython-312-x86_64-linux-gnu.so", True),
    ("python3 -m pytest -q", "pytest.abi3.so", True),
    ("python3 -m pytest -q", "pytest.pyd", True),
    ("python3 -m pytest -q", "pytest/__init__.pyc", True),
    ("python3 -m pytest -q", "_pytest/main.pyc", True),
    ("python3 -m pytest -q", "pluggy.so", True),
    ("python3 -m unittest", "unittest.pyc", True),
    ("python3 -m unittest", "unittest/__init__.pyc", True),
    ("python -m unittest", "argparse.cpython-311-x86_64-linux-gnu.so", True),
    ("python3 -m tests.check", "tests/__init__.pyc", True),
    ("python3 -m check", "check.pyc", True),
    ("cd src && python3 -m pytest", "src/pytest.py", True),
    ("if true; then python3 -m pytest; fi", "sub/pytest.py", True),  # directory unknown
    # not imported in its place
    ("python3 -m pytest -q", "src/pytest.py", False),
    ("cd src && python3 -m pytest", "pytest.py", False),
    ("python3 -m pytest -q", "app.py", False),
    ("python3 -m pytest -q", "pytest.txt", False),
    ("python3 -m pytest -q", "pytest.pyc.txt", False),
    ("python3 -m pytest -q", "__pycache__/pytest.cpython-311.pyc", False),  # a cache only
    ("python3 -m pytest -q", "src/pytest.pyc", False),
    ("python3 -m unittest", "logging/__pycache__/__init__.cpython-311.pyc", False),
    ("python -m unittest", "code/render.pyc", False),
    ("python3 -I -m pytest -q", "pytest.pyc", False),
    ("python3 -m pytest -q", "tests/test_json.py", False),
    ("python3 -m pytest -q", "code/render.py", False),  # no package there: nothing hidden
    ("python3 -I -m pytest -q", "pytest.py", False),
    ("python3 -P -m unittest", "unittest.py", False),
    ("pytest -q", "pytest.py", False),
    ("sh -m check.sh", "check.py", False),
    # PYTHONPATH's entries come next on sys.path, for every Python program (issue 18)
    ("PYTHONPATH=src python3 -m pytest", "src/pytest.py", True),
    ("PYTHONPATH=src pytest -q", "src/_pytest/main.py", True),
    ("env PYTHONPATH=src python3 -m unittest", "src/unittest/__init__.py", True),
    ("export PYTHONPATH=lib:src && python3 -m pytest", "lib/pytest.py", True),
    ("PYTHONPATH=src; python3 -m pytest", "src/pytest.py", True),
    ("cd tests && PYTHONPATH=../src python3 -m pytest", "src/pytest.py", True),
    ("PYTHONPATH=src python3 -c 'import app'", "src/json.py", True),
    ("PYTHONPATH=src python3 -P -m pytest", "src/pytest.py", True),
    ("PYTHONPATH=src python3 -E -m pytest", "src/pytest.py", False),
    ("PYTHONPATH=src python3 -I -m pytest", "src/pytest.py", False),
    ("PYTHONPATH=/opt/src python3 -m pytest", "opt/src/pytest.py", False),
    ("(export PYTHONPATH=src); python3 -m pytest", "src/pytest.py", False),
    ("PYTHONPATH=src python3 -m pytest", "src/app.py", False),
    ("PYTHONPATH=src pytest -q", "src/app.py", False),
    # the module python -m runs is its script, from a PYTHONPATH entry too
    ("PYTHONPATH=src python3 -m mypkg.cli", "src/mypkg/cli.py", True),
    ("PYTHONPATH=src python3 -m mypkg", "src/mypkg/__main__.py", True),
    ("PYTHONPATH=src python3 -E -m mypkg.cli", "src/mypkg/cli.py", False),
    # a script's directory is first on sys.path
    ("python3 tools/check.py", "tools/json.py", True),
    ("python3 tools/check.py", "json.py", False),
    ("python3 -P tools/check.py", "tools/json.py", False),
    ("python3 tools/check.py", "tools/app.py", False),  # the base finds it nowhere else
    # a virtual environment's interpreter is Python too
    ("/opt/venv/bin/python -m pytest", "pytest.py", True),
    (".venv/bin/python3.12 -m pytest", "pytest.py", True),
    ("./pythonic -m pytest", "pytest.py", False),
    ("python3.12 -m pytest", "pytest.py", True),
    ("PYTHONPATH=src python3.12 tools/check.py", "src/json.py", True),
]


@pytest.mark.parametrize(
    ("command", "path", "expected"), SHADOW_CASES, ids=[f"{c}|{p}" for c, p, _ in SHADOW_CASES]
)
def test_a_module_python_m_imports_in_place_of_the_runner(
    command: str, path: str, expected: bool
) -> None:
    assert (defining(command, [path]) == [path]) is expected


def test_the_shadow_row_is_met() -> None:
    assert any(s.row == "D-shadow" for s in check_sources(("sh", "-c", "python3 -m pytest")))


def test_the_brief_pythonpath_is_followed() -> None:
    """A brief's ``{"PYTHONPATH": "src"}`` reaches every check (issue 18)."""
    sources = check_sources(("python3", "-m", "pytest"), {"PYTHONPATH": "src"})
    assert any(is_defining(s, "src/pytest.py") for s in sources)
    assert not any(is_defining(s, "src/pytest.py") for s in check_sources(("pytest", "-q")))


def test_a_check_run_below_the_root_reads_from_there() -> None:
    """``cwd``: the directory a receipt ran in (a spot check's)."""
    sources = check_sources(("sh", "-c", "sh check.sh"), cwd="sub")
    assert [s.path for s in sources if s.row == "D-script"] == ["sub/check.sh"]


def test_a_script_beside_a_module_its_base_finds_further_along_adds_it() -> None:
    """``with_imports``: the script's imports the base holds on the ``PYTHONPATH``."""
    from gentle_hooks.policy.checkdefs import with_imports

    (shadow,) = [
        s
        for s in check_sources(("python3", "tools/check.py"), {"PYTHONPATH": "src"})
        if s.script is not None
    ]
    assert (shadow.where, shadow.after) == ("tools", ("src",))
    assert is_defining(with_imports(shadow, frozenset({"app"})), "tools/app.py")
    assert not is_defining(shadow, "tools/app.py")


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("import a.b, c\nfrom d.e import f\nfrom . import g\n", {"a", "c", "d"}),
        ("def f():\n    import json\n", {"json"}),
        ("import (\n", set()),
    ],
)
def test_the_imports_of_a_script(source: str, names: set[str]) -> None:
    from gentle_hooks.policy.syspath import imported_names

    assert imported_names(source.encode()) == frozenset(names)


#: (modules, where, path, match): how row D-shadow matched a path — its directory, the
#: module's name, and whether the path is the module's entry file (``NAME.*``,
#: ``NAME/__init__.*``, ``NAME/__main__.*``); a file further inside a package counts only
#: when the base has no such package there (services.defined).
SHADOWED_CASES = [
    ({"pytest"}, ".", "pytest.py", (".", "pytest", True)),
    ({"pytest"}, "src", "src/pytest/__init__.py", ("src", "pytest", True)),
    ({"_pytest"}, None, "lib/_pytest/main.py", ("lib", "_pytest", False)),
    (set(), "src", "src/code/__init__.py", ("src", "code", True)),
    (set(), "src", "src/code/__main__.pyc", ("src", "code", True)),
    (set(), "src", "src/code/render.py", None),
    ({"test"}, "src", "src/test/checks.py", ("src", "test", False)),
    (set(), "src", "src/test/checks.py", None),
    ({"pytest"}, "src", "pytest.py", None),
]


@pytest.mark.parametrize(("modules", "where", "path", "match"), SHADOWED_CASES)
def test_how_a_shadow_matched(
    modules: set[str], where: str | None, path: str, match: tuple[str, str, bool] | None
) -> None:
    from gentle_hooks.policy.syspath import shadowed, shadows

    assert shadowed(frozenset(modules), where, path) == match
    assert shadows(frozenset(modules), where, path) is (match is not None)
