"""``gentle-hook verify run``: a change to what defines a check blocks it (rows C1-own,
S1-own; seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
check").

Refuter finding 2 of issue 18: the change added ``tests/conftest.py`` with
``collect_ignore = ["test_add.py"]``, and ``pytest -q tests`` passed with the broken
``add`` left out; a makefile ``include`` of a file not named ``*.mk`` was not followed.
"""

from __future__ import annotations

import py_compile
import sys
from pathlib import Path

import pytest

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_declared_suite import BRIEF, _env


@pytest.mark.parametrize("where", ["tests/conftest.py", "conftest.py"])
def test_a_conftest_the_change_adds_blocks_the_suite(
    repo: Path, tmp_path: Path, where: str
) -> None:
    """The suite is not run and the verdict is blocked, naming the conftest.py."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    ignore = '["test_add.py"]' if where.startswith("tests/") else '["tests/test_add.py"]'
    write(repo / where, f"collect_ignore = {ignore}\n")
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"], suite["exit_code"]) == ("blocked", "C1-own", None), out
    assert where in suite["error"], suite


def test_a_makefile_include_the_change_writes_blocks_make(repo: Path, tmp_path: Path) -> None:
    """``make test`` whose Makefile includes ``rules.make``: the change that rewrites
    ``rules.make`` writes the check's definition, so it is not run."""
    write(repo / "Makefile", "include rules.make\n")
    write(repo / "rules.make", "test:\n\tpython3 -m pytest -q tests\n")
    commit_all(repo, "make test")
    env = _env(repo, tmp_path, None)
    write(repo / "rules.make", "test:\n\t@echo 1 passed\n")
    env.brief({**BRIEF, "fullSuite": "make test"})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"]) == ("blocked", "C1-own"), out["outcomes"]
    assert "rules.make" in suite["error"], suite


@pytest.mark.parametrize("name", ["pytest.toml", ".pytest.toml"])
def test_a_pytest_toml_the_change_adds_blocks_the_suite(
    repo: Path, tmp_path: Path, name: str
) -> None:
    """pytest >= 9 reads ``[pytest]`` of ``pytest.toml``/``.pytest.toml``: one the change adds
    with ``--ignore`` in addopts writes the suite's definition, so it is not run."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    write(repo / name, '[pytest]\naddopts = ["--ignore=tests/test_add.py"]\n')
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"], suite["exit_code"]) == ("blocked", "C1-own", None), out
    assert name in suite["error"], suite


def test_a_sitecustomize_on_the_brief_pythonpath_blocks_the_suite(
    repo: Path, tmp_path: Path
) -> None:
    """``{"PYTHONPATH": "src"}``: Python imports the change's ``src/sitecustomize.py``
    before pytest starts, so it defines the suite as a plugin would; not run."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    write(repo / "src" / "sitecustomize.py", "import sys\n")
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"]) == ("blocked", "C1-own"), out
    assert "sitecustomize.py" in suite["error"], suite


@pytest.mark.parametrize(
    ("suite", "fake"),
    [("python3 -m pytest -q", "pytest.py"), ("python3 -m unittest", "unittest.py")],
)
def test_a_runner_module_the_change_adds_blocks_the_suite(
    repo: Path, tmp_path: Path, suite: str, fake: str
) -> None:
    """``python3 -m pytest`` imports a ``pytest.py`` of the directory it runs in before the
    installed pytest: a change adding one that prints ``2 passed`` and exits 0 would make a
    failing suite pass (refuter r18z). It defines the suite (row D-shadow): not run."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": suite})
    write(repo / fake, 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n')
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    outcome = out["outcomes"][-1]
    assert (out["status"], outcome["row"], outcome["exit_code"]) == ("blocked", "C1-own", None)
    assert fake in outcome["error"], outcome


#: A runner that prints a pass and exits 0, whatever the tests say.
FAKE = 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n'


@pytest.mark.parametrize(
    ("suite", "fake"),
    [
        ("python3 -m pytest -q tests", "src/pytest.py"),
        ("PYTHONPATH=lib:src python3 -m pytest -q tests", "lib/pytest.py"),
        ("env PYTHONPATH=src:lib python3 -m pytest -q tests", "lib/pytest.py"),
        ("export PYTHONPATH=lib:src && python3 -m pytest -q tests", "lib/pytest.py"),
        ("cd tests && PYTHONPATH=../lib:../src python3 -m pytest -q .", "lib/pytest.py"),
    ],
)
def test_a_runner_module_on_the_pythonpath_blocks_the_suite(
    repo: Path, tmp_path: Path, suite: str, fake: str
) -> None:
    """The brief's ``{"PYTHONPATH": "src"}``, or one the line sets, puts ``src/`` (``lib/``)
    on ``sys.path`` ahead of the installed pytest: a ``pytest.py`` the change adds there
    prints ``2 passed`` for a failing suite (issue 18). It defines the suite (row
    D-shadow): not run, and the verdict is blocked naming it."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": suite})
    write(repo / fake, FAKE)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    outcome = out["outcomes"][-1]
    assert (out["status"], outcome["row"], outcome["exit_code"]) == ("blocked", "C1-own", None)
    assert fake in outcome["error"], outcome


@pytest.mark.parametrize(
    ("fake", "text"),
    [
        ("tools/app.py", "def add(a, b):\n    return 4\n"),
        ("tools/json.py", "def dumps(x):\n    return 'ok'\n"),
    ],
)
def test_a_module_beside_the_check_script_blocks_it(
    repo: Path, tmp_path: Path, fake: str, text: str
) -> None:
    """``python3 tools/check.py`` puts ``tools/`` first on ``sys.path``: a ``tools/app.py``
    the change adds hides the base's ``src/app.py`` (found through the brief's
    ``PYTHONPATH``) that the script imports, and a ``tools/json.py`` the standard
    library's; either defines the criterion (row D-shadow): not run, blocked naming it."""
    write(
        repo / "tools" / "check.py",
        "import json\nimport app\n\nassert app.add(2, 2) == 4, json.dumps('bad')\n",
    )
    commit_all(repo, "a check script")
    env = _env(repo, tmp_path, None)
    criterion = {"criterion": "add adds", "run": "python3 tools/check.py"}
    env.brief({**BRIEF, "successCriteria": [criterion]})
    write(repo / fake, text)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    outcome = out["outcomes"][0]
    assert (out["status"], outcome["row"], outcome["exit_code"]) == ("blocked", "C1-own", None)
    assert fake in outcome["error"], outcome


def test_a_stale_bytecode_file_the_change_adds_blocks_the_suite(repo: Path, tmp_path: Path) -> None:
    """A ``src/__pycache__/app.<tag>.pyc`` compiled with ``UNCHECKED_HASH`` from a correct
    ``add`` and added with ``git add -f``: Python runs it, never reading the broken
    ``app.py`` beside it. Bytecode the change writes defines the check (C1-own, naming
    it), and the room's Python reads no ``__pycache__`` (``PYTHONPYCACHEPREFIX``)."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    good = write(
        tmp_path / "good" / "app.py",
        "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    )
    pyc = f"src/__pycache__/app.{sys.implementation.cache_tag}.pyc"
    (repo / pyc).parent.mkdir(parents=True, exist_ok=True)
    py_compile.compile(
        str(good),
        cfile=str(repo / pyc),
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    git(repo, "add", "-f", pyc)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"], suite["exit_code"]) == ("blocked", "C1-own", None), out
    assert pyc in suite["error"], suite


_PASS_ALL = (
    "import pytest\n\n\n"
    "@pytest.hookimpl(hookwrapper=True)\n"
    "def pytest_runtest_makereport(item, call):\n"
    "    outcome = yield\n"
    '    outcome.get_result().outcome = "passed"\n'
)


@pytest.mark.parametrize("where", [".", "src"], ids=["root", "pythonpath"])
def test_a_pytest_entry_point_the_change_installs_blocks_the_suite(
    repo: Path, tmp_path: Path, where: str
) -> None:
    """``helpers-0.1.dist-info/entry_points.txt`` with ``[pytest11]`` at the tree's root (on
    ``sys.path`` for ``python3 -m pytest``) or in the brief's ``PYTHONPATH`` entry: pytest
    loads the plugin it names (turning every failure into a pass) without being told to.
    The metadata the change writes defines the suite (C1-own, naming it)."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    info = repo / where / "helpers-0.1.dist-info"
    write(info / "METADATA", "Metadata-Version: 2.1\nName: helpers\nVersion: 0.1\n")
    write(info / "entry_points.txt", "[pytest11]\nhelpers = helpers_plugin\n")
    write(repo / where / "helpers_plugin.py", _PASS_ALL)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"], suite["exit_code"]) == ("blocked", "C1-own", None), out
    assert "helpers-0.1.dist-info/entry_points.txt" in suite["error"], suite


def test_a_module_the_change_adds_beside_the_tests_blocks_the_suite(
    repo: Path, tmp_path: Path
) -> None:
    """``PYTHONPATH=src`` with ``src/app.py`` broken: the change adds ``tests/app.py`` with a
    correct ``add``. pytest puts ``tests/`` first on ``sys.path`` to import
    ``tests/test_add.py``, whose ``import app`` finds the change's stand-in: it defines
    the suite (row D-shadow, C1-own, naming it)."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q tests"})
    write(
        repo / "tests" / "app.py",
        "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    )
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = out["outcomes"][-1]
    assert (out["status"], suite["row"], suite["exit_code"]) == ("blocked", "C1-own", None), out
    assert "tests/app.py" in suite["error"], suite


@pytest.mark.parametrize(
    "suite", ["python3 -m pytest -q", "python3 -m pytest -q tests", "pytest -q tests"]
)
def test_a_module_the_change_adds_at_the_root_hiding_the_pythonpath_one_blocks_the_suite(
    repo: Path, tmp_path: Path, suite: str
) -> None:
    """``PYTHONPATH=src`` with ``src/app.py`` broken: the change adds a root ``app.py``
    with a correct ``add``. ``python -m`` puts the working directory first on ``sys.path``
    (and pytest's rootdir ``conftest.py`` puts the root there for ``pytest``), so
    ``tests/test_add.py``'s ``import app`` finds the change's stand-in before ``src/app.py``:
    a module the change adds, named as a module the tree has at another ``sys.path`` entry
    of the run, defines the suite (row D-shadow, C1-own, naming it)."""
    env = _env(repo, tmp_path, None)
    env.brief({**BRIEF, "fullSuite": suite})
    if suite.startswith("pytest"):
        write(repo / "conftest.py", "")
        commit_all(repo, "root conftest")
        assert env.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(
        repo / "app.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
    )
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    outcome = out["outcomes"][-1]
    assert (out["status"], outcome["row"], outcome["exit_code"]) == ("blocked", "C1-own", None), out
    assert "adds or changes app.py," in outcome["error"], outcome
