"""Which files of a change define a verifier's check, read from real repositories
(:mod:`gentle_hooks.services.defined`; SPEC §9, seed 001 "Guardrails": "do not accept a
claim whose criteria have no observable check"): a plugin an unchanged pytest configuration
loads with ``addopts = -p NAME``, the ``PATH`` entries the shell searches, and the one
``git grep`` over the tree that finds the files naming a plugin."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from gentle_hooks.artifacts.observation import Check
from gentle_hooks.git.repository import Repository
from gentle_hooks.services.defined import checks_defined
from gentle_hooks.values.candidate import (
    BaseResolution,
    Candidate,
    Projection,
    candidate_identity,
)
from tests.conftest import commit_all, git, write


class CountingRepository(Repository):
    """A repository that keeps the arguments of every git process it starts."""

    ran: list[tuple[str, ...]]

    def _will_run(self, args: Sequence[str]) -> None:
        if not hasattr(self, "ran"):
            self.ran = []
        self.ran.append(tuple(args))


def _candidate(repo: Path) -> tuple[CountingRepository, Candidate]:
    """HEAD's tree against HEAD~1's."""
    base = git(repo, "rev-parse", "HEAD~1^{tree}").strip()
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    head = git(repo, "rev-parse", "HEAD").strip()
    resolution = BaseResolution("HEAD~1", "flag", head, base, "HEAD~1")
    cand = Candidate(
        Projection.COMMITTED, resolution, tree, head, candidate_identity(base, tree), "sha1"
    )
    return CountingRepository.open(str(repo)), cand


def _check(line: str) -> Check:
    return Check("suite", "", line, ("sh", "-c", line))


#: A pytest plugin that turns every failed test into a pass.
PASSING = (
    "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
    "def pytest_runtest_makereport(item, call):\n"
    "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"
)

CONFIGS = {
    "pytest.ini": "[pytest]\naddopts = -q -p helpers\n",
    "setup.cfg": "[metadata]\nname = demo\n\n[tool:pytest]\naddopts = -phelpers\n",
    "tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\naddopts = -p helpers -p no:cacheprovider\n",
    "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-p helpers"\n',
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_a_plugin_an_unchanged_configuration_loads_defines_the_check(
    repo: Path, config: str
) -> None:
    """Row D-plugin: ``addopts = -p helpers`` in a configuration the change leaves as it
    is; the change rewrites only ``tests/helpers.py``: it defines the pytest check."""
    write(repo / config, CONFIGS[config])
    write(repo / "tests" / "helpers.py", "")
    commit_all(repo, "base: a plugin loaded by the configuration")
    write(repo / "tests" / "helpers.py", PASSING)
    commit_all(repo, "the plugin passes every test")
    r, cand = _candidate(repo)
    checks = [_check("PYTHONPATH=tests python3 -m pytest tests"), _check("python3 -c 1")]
    assert checks_defined(r, cand, checks) == (("tests/helpers.py",), ())


def test_a_plugin_an_unchanged_entry_point_names_defines_the_check(repo: Path) -> None:
    """Row D-plugin: ``helpers-0.1.dist-info/entry_points.txt`` at the base names
    ``helpers_plugin`` under ``[pytest11]`` (pytest loads it unasked); the change rewrites
    only ``helpers_plugin.py``: it defines the pytest check, not a plain Python one."""
    write(repo / "helpers-0.1.dist-info" / "METADATA", "Name: helpers\nVersion: 0.1\n")
    write(
        repo / "helpers-0.1.dist-info" / "entry_points.txt",
        "[console_scripts]\nx = other:main\n\n[pytest11]\nhelpers = helpers_plugin:hooks\n",
    )
    write(repo / "helpers_plugin.py", "")
    write(repo / "other.py", "")
    commit_all(repo, "base: an installed pytest plugin")
    write(repo / "helpers_plugin.py", PASSING)
    write(repo / "other.py", "def main():\n    pass\n")
    commit_all(repo, "the plugin passes every test")
    r, cand = _candidate(repo)
    checks = [_check("python3 -m pytest tests"), _check("python3 -c 1")]
    assert checks_defined(r, cand, checks) == (("helpers_plugin.py",), ())


@pytest.mark.parametrize(
    "path",
    ["src/helpers-0.1.dist-info/entry_points.txt", "h.egg-info/entry_points.txt", "x.pth"],
)
def test_installed_metadata_the_change_writes_defines_a_python_check(repo: Path, path: str) -> None:
    """Row D-entrypoints: metadata that makes Python or pytest load code unasked, written
    by the change, defines a Python check (not ``make``'s or a shell script's)."""
    write(repo / "README", "base\n")
    commit_all(repo, "base")
    write(repo / path, "[pytest11]\nh = h\n")
    write(repo / "notes" / "entry_points.txt", "[pytest11]\nh = h\n")  # no distribution's
    commit_all(repo, "change")
    r, cand = _candidate(repo)
    checks = [_check("python3 -m pytest"), _check("python3 -c 1"), _check("sh run.sh")]
    assert checks_defined(r, cand, checks) == ((path,), (path,), ())


def test_a_configuration_that_loads_no_changed_plugin_defines_nothing(repo: Path) -> None:
    write(repo / "pytest.ini", "[pytest]\naddopts = -p other -p no:helpers\n")
    write(repo / "tests" / "helpers.py", "")
    commit_all(repo, "base")
    write(repo / "tests" / "helpers.py", PASSING)
    commit_all(repo, "change")
    r, cand = _candidate(repo)
    assert checks_defined(r, cand, [_check("python3 -m pytest tests")]) == ((),)


def test_the_files_naming_a_plugin_are_found_by_one_grep_per_tree(repo: Path) -> None:
    """The tree is not listed and its Python files are not read one check after another:
    one ``git grep`` finds the files naming a plugin, asked once for every pytest check
    of the run."""
    for n in range(30):
        write(repo / "tests" / f"test_m{n}.py", f"def test_{n}():\n    pass\n")
    write(repo / "tests" / "test_named.py", "pytest_plugins = ['helpers']\n")
    write(repo / "tests" / "helpers.py", "")
    commit_all(repo, "base")
    write(repo / "tests" / "helpers.py", PASSING)
    commit_all(repo, "change")
    r, cand = _candidate(repo)
    for command in ("python3 -m pytest tests", "pytest -q", "python3 -m pytest -x tests"):
        assert checks_defined(r, cand, [_check(command)]) == (("tests/helpers.py",),)
    assert sum(a[0] == "grep" for a in r.ran) == 1, r.ran
    assert not [a for a in r.ran if a[:2] == ("ls-tree", "-r")], r.ran


FAKE = '#!/bin/sh\necho "2 passed"\n'


@pytest.mark.parametrize(
    ("base", "change", "line", "defined"),
    [
        ({}, {"tools/pytest": FAKE}, "PATH=bin:tools pytest", ("tools/pytest",)),
        (
            {"bin/pytest": '#!/bin/sh\nexec python3 -m pytest "$@"\n'},
            {"tools/pytest": FAKE},
            "PATH=bin:tools pytest",
            (),
        ),
        ({}, {"tools/sh": FAKE}, "PATH=/bin:/usr/bin:tools sh -c true", ()),
        ({}, {"tools/pytest": FAKE}, "export PATH=tools:$PATH && pytest", ("tools/pytest",)),
    ],
    ids=[
        "no-earlier-entry-holds-it",
        "an-earlier-tree-entry-holds-it",
        "an-earlier-absolute-entry-holds-it",
        "the-first-entry",
    ],
)
def test_only_the_path_entries_searched_before_the_program_is_found_count(
    repo: Path, base: dict[str, str], change: dict[str, str], line: str, defined: tuple[str, ...]
) -> None:
    """Row D-script for a program found by a ``PATH`` entry in the tree: a file the change
    writes in an entry the shell searches after the one holding the program is never run."""
    for path, text in base.items():
        write(repo / path, text, mode=0o755)
    commit_all(repo, "base")
    for path, text in change.items():
        write(repo / path, text, mode=0o755)
    commit_all(repo, "change")
    r, cand = _candidate(repo)
    assert checks_defined(r, cand, [_check(line)]) == (defined,)


def test_a_long_path_is_searched_to_its_end(repo: Path) -> None:
    """Every tree entry of a ``PATH`` longer than one ``ls-tree`` call takes is read for the
    program's mode: an entry late in a 300-entry ``PATH`` that holds it ends the search,
    so a file written in a later entry defines nothing."""
    dirs = [f"d{n:03}" for n in range(300)]
    write(repo / "d280" / "pytest", '#!/bin/sh\nexec python3 -m pytest "$@"\n', mode=0o755)
    commit_all(repo, "base")
    write(repo / "tools" / "pytest", FAKE, mode=0o755)
    commit_all(repo, "change")
    r, cand = _candidate(repo)
    line = f"PATH={':'.join(dirs)}:tools pytest"
    assert checks_defined(r, cand, [_check(line)]) == ((),)
