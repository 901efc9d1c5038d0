"""``gentle-hook spot-check`` does not re-run a receipt whose command runs what the change
itself defines (issue 18): the verifier's rule (row C1-own,
:func:`gentle_hooks.services.defined.defined_by_change`) applied to the receipt, so a
``src/pytest.py`` printing ``2 passed``, a Makefile ``test:`` made ``@echo``, or a
``conftest.py`` mending what the test imports cannot make the parent's re-run agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import commit_all, gh, paste, write

FAKE = 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n'
BROKEN = "def add(a, b):\n    return a - b\n"
#: A conftest.py that mends the broken ``add`` before the test imports it.
PATCH = "import app\n\napp.add = lambda a, b: a + b\n"


def _delegated(repo: Path) -> None:
    write(repo / "src" / "app.py", BROKEN)
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0


@pytest.mark.parametrize(
    ("fake", "text", "command"),
    [
        ("src/pytest.py", FAKE, ("python3", "-m", "pytest", "-q")),
        ("tests/conftest.py", PATCH, ("python3", "-m", "pytest")),
        ("unittest.py", FAKE, ("python3", "-m", "unittest")),
    ],
)
def test_a_receipt_whose_definition_the_change_writes_is_not_re_run(
    repo: Path, fake: str, text: str, command: tuple[str, ...]
) -> None:
    """The receipt (exit 0, the change's own word) is refused with one line naming the
    file; the gate then still blocks the commit."""
    _delegated(repo)
    write(repo / fake, text)
    env = {"PYTHONPATH": "src"}
    ran = gh(repo, "receipt", "run", "--", *command, env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr  # the writer's report counts as such
    proc = gh(repo, "spot-check", env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "cannot count" in x]
    assert f"the change adds or changes {fake}, which defines what it runs" in line, line
    assert "re-running" not in proc.stderr


def test_a_make_target_the_change_rewrites_is_not_re_run_and_the_way_out_works(
    repo: Path,
) -> None:
    """``make test`` whose ``test:`` the change makes ``@echo 1 passed``: refused naming
    the Makefile; the prefix printed, completed with the runner itself, is a report that
    counts, and the printed spot check then runs it."""
    write(repo / "Makefile", "test:\n\tpython3 -m pytest -q -p no:cacheprovider\n")
    commit_all(repo, "make test")
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(repo / "Makefile", "test:\n\t@echo 1 passed\n")
    assert gh(repo, "receipt", "run", "--", "make", "test").returncode == 0
    proc = gh(repo, "spot-check")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "the change adds or changes Makefile, which defines what it runs" in proc.stderr
    prefix = "gentle-hook receipt run --"
    assert f"prefix: {prefix}; run: gentle-hook spot-check" in proc.stderr, proc.stderr
    done = paste(f"{prefix} {sys.executable} -m pytest -q -p no:cacheprovider", repo)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = paste("gentle-hook spot-check", repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_receipt_the_change_does_not_define_is_re_run(repo: Path) -> None:
    """The change to ``src/app.py`` is the artifact, not the check's definition."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    env = {"PYTHONPATH": str(repo / "src")}
    assert (
        gh(repo, "receipt", "run", "--", "python3", "-m", "pytest", "-q", env=env).returncode == 0
    )
    proc = gh(repo, "spot-check", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


#: A pytest plugin that turns every failed test into a pass.
PASSING = (
    "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
    "def pytest_runtest_makereport(item, call):\n"
    "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"
)
#: A check script importing an installed package (pytest stands in for ``requests``).
CHECK = "import sys\n\nimport pytest\n\nsys.exit(0 if pytest.main(['-q', 'tests']) == 0 else 1)\n"


@pytest.mark.parametrize(
    ("before", "fake", "text", "command"),
    [
        (
            {"tests/helpers.py": "", "tests/test_app.py": "\npytest_plugins = ['helpers']\n"},
            "tests/helpers.py",
            PASSING,
            ("python3", "-m", "pytest", "-q", "tests"),
        ),
        (
            {"tools/check.py": CHECK},
            "tools/pytest.py",
            "def main(args):\n    return 0\n",
            ("python3", "tools/check.py"),
        ),
        ({}, "bin/pytest", '#!/bin/sh\necho "2 passed"\n', ("sh", "-c", "PATH=bin:$PATH pytest")),
    ],
    ids=["plugin-named-by-an-unchanged-test-module", "installed-package-beside-script", "PATH"],
)
def test_a_definition_the_change_writes_beside_unchanged_files_is_not_re_run(
    repo: Path, before: dict[str, str], fake: str, text: str, command: tuple[str, ...]
) -> None:
    """Rows D-plugin, D-shadow and D-script with the base's files unchanged: a plugin an
    unchanged test module names, a module beside an unchanged check script named as the
    installed package it imports, a program a PATH entry in the tree finds — each the
    change writes, each refused naming it."""
    for path, extra in before.items():
        old = repo / path
        write(old, (old.read_text() if old.exists() else "") + extra)
    commit_all(repo, "the base's checks")
    _delegated(repo)
    write(repo / fake, text, mode=0o755)
    env = {"PYTHONPATH": "tests"}
    ran = gh(repo, "receipt", "run", "--", *command, env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    proc = gh(repo, "spot-check", env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "cannot count" in x]
    assert f"the change adds or changes {fake}, which defines what it runs" in line, line
    assert "re-running" not in proc.stderr


@pytest.mark.parametrize(
    ("files", "command"),
    [
        (
            {"src/test/__init__.py": "", "src/test/__main__.py": "import test.checks\n"},
            ("python3", "-m", "test"),
        ),
        ({"src/test/__init__.py": "", "tests/test_more.py": ""}, ("python3", "-m", "pytest")),
    ],
    ids=["own-package-run-by-m", "stdlib-named-package-under-pytest"],
)
def test_a_package_the_base_already_has_on_the_pythonpath_is_no_shadow(
    repo: Path, files: dict[str, str], command: tuple[str, ...]
) -> None:
    """``src/test/`` (a standard-library name) with its ``__init__.py`` on the base, on
    ``PYTHONPATH``: the change's ``src/test/checks.py`` edits the repository's own
    package, not a module put in another's place, so the receipt is re-run (row D-shadow
    counts only what the change puts there)."""
    for path, text in files.items():
        write(repo / path, text)
    write(repo / "src" / "test" / "checks.py", "X = 1\n")
    commit_all(repo, "a test package")
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    write(repo / "src" / "test" / "checks.py", "X = 2\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    env = {"PYTHONPATH": "src"}
    ran = gh(repo, "receipt", "run", "--", *command, env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    proc = gh(repo, "spot-check", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_with_declared_commands_the_refusal_prints_a_declared_one_the_change_does_not_define(
    repo: Path,
) -> None:
    """``verification.commands`` declared: a receipt the change's ``pytest.py`` defines is
    refused with the report of a declared command it does not define (``-I`` keeps the
    working directory off ``sys.path``) and the spot check, each runnable as printed."""
    write(
        repo / ".gentle-hooks.toml",
        '[verification]\ncommands = ["python3 -m pytest -q", "python3 -I -m pytest -q"]\n',
    )
    commit_all(repo, "declared checks")
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(repo / "pytest.py", FAKE)
    assert gh(repo, "receipt", "run", "--", "python3", "-m", "pytest", "-q").returncode == 0
    proc = gh(repo, "spot-check")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    report = "gentle-hook receipt run -- python3 -I -m pytest -q"
    assert f"; run: {report}; run: gentle-hook spot-check" in proc.stderr, proc.stderr
    done = paste(report, repo)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = paste("gentle-hook spot-check", repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_when_the_change_defines_every_declared_command_the_refusal_prints_status(
    repo: Path,
) -> None:
    """The one declared command runs the change's ``pytest.py``: no report can count until
    that file leaves the change or lands on its own; the refusal says so and prints
    ``status``, runnable as printed."""
    write(repo / ".gentle-hooks.toml", '[verification]\ncommands = ["python3 -m pytest -q"]\n')
    commit_all(repo, "one declared check")
    _delegated(repo)
    write(repo / "pytest.py", FAKE)
    assert gh(repo, "receipt", "run", "--", "python3", "-m", "pytest", "-q").returncode == 0
    proc = gh(repo, "spot-check")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "every declared verification command runs what the change defines" in proc.stderr
    assert proc.stderr.rstrip().endswith("; run: gentle-hook status"), proc.stderr
    assert paste("gentle-hook status", repo).returncode == 0
