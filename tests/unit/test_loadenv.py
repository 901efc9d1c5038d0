"""A brief's variables that change what a runner or the interpreter loads
(``gentle_hooks.policy.loadenv``; brief rule B5).

Refuter finding of issue 18: ``{"PYTEST_PLUGINS": "plug"}`` with the candidate's ``plug.py``
loaded the candidate's code into the suite."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gentle_hooks.artifacts.brief import check_brief, parse_brief
from gentle_hooks.policy.loadenv import (
    LOAD_ENV_ROWS,
    RUN_ROWS,
    _assignment_re,
    loading_assignments,
    loading_env,
    without_loading,
)

#: (variable, value, the row that refuses it).
CASES = [
    ("PYTEST_PLUGINS", "plug", "E-pytest"),
    ("PYTEST_ADDOPTS", "--deselect test_b.py", "E-pytest"),
    ("PYTHONSTARTUP", "start.py", "E-python"),
    ("PYTHONHOME", "py", "E-python"),
    ("PYTHONUSERBASE", "base", "E-python"),
    ("NODE_OPTIONS", "--require ./x.js", "E-node"),
    ("LD_PRELOAD", "./x.so", "E-loader"),
    ("LD_LIBRARY_PATH", "lib", "E-loader"),
    ("DYLD_INSERT_LIBRARIES", "x.dylib", "E-loader"),
    ("BASH_ENV", "env.sh", "E-shell"),
    ("ENV", "env.sh", "E-shell"),
    ("PERL5OPT", "-Mx", "E-perl"),
    ("RUBYOPT", "-rx", "E-ruby"),
    ("GIT_DIR", "other/.git", "E-git"),
    ("GIT_CONFIG_GLOBAL", "cfg", "E-git"),
]


@pytest.mark.parametrize(("name", "value", "row"), CASES, ids=[c[0] for c in CASES])
def test_a_variable_that_loads_code_is_named(name: str, value: str, row: str) -> None:
    assert [(n, r.id) for n, r in loading_env({name: value, "LANG": "C"})] == [(name, row)]


def test_every_row_has_a_case() -> None:
    assert {c[2] for c in CASES} == {r.id for r in LOAD_ENV_ROWS}


@pytest.mark.parametrize(
    "name", ["PYTHONPATH", "NODE_PATH", "LANG", "TZ", "PATH", "PYTHONSAFEPATH"]
)
def test_where_imports_are_found_is_not_refused(name: str) -> None:
    assert loading_env({name: "src"}) == ()


def test_the_brief_is_rejected_by_rule_b5() -> None:
    brief = parse_brief(
        b'{"objective": "x", "outputFormat": "json", "boundaries": ["b"], "stopCondition": "s",'
        b' "env": {"PYTEST_PLUGINS": "plug", "PYTHONPATH": "src"}}'
    )
    faults = check_brief(brief)
    assert len(faults) == 1 and faults[0].startswith("B5 env PYTEST_PLUGINS: "), faults


# -- a receipt's command and a re-run's environment (standing row S-load-env) -------------

#: (a receipt's command, the variables it sets for what it runs).
ASSIGNED = [
    ("PYTEST_ADDOPTS=--co pytest -q", ("PYTEST_ADDOPTS",)),
    ("env PYTEST_ADDOPTS=--co python3 -m pytest", ("PYTEST_ADDOPTS",)),
    ("sh -c 'env PYTEST_ADDOPTS=--co python3 -m pytest -q'", ("PYTEST_ADDOPTS",)),
    ('bash -c "PYTEST_PLUGINS=plug pytest"', ("PYTEST_PLUGINS",)),
    ("export PYTEST_ADDOPTS=--co; pytest", ("PYTEST_ADDOPTS",)),
    ("export PYTEST_ADDOPTS; pytest", ("PYTEST_ADDOPTS",)),
    ("NODE_OPTIONS=--require=./x.js npm test", ("NODE_OPTIONS",)),
    ("LD_PRELOAD=./x.so make test", ("LD_PRELOAD",)),
    ("DYLD_INSERT_LIBRARIES=x.dylib make test", ("DYLD_INSERT_LIBRARIES",)),
    ("PYTHONSTARTUP=s.py BASH_ENV=e.sh pytest", ("BASH_ENV", "PYTHONSTARTUP")),
    ("pytest -q", ()),
    ("pytest -q --co", ()),  # an option on the command line: the no-check rows judge it
    ("PYTHONPATH=src pytest", ()),
    ("ENV=test make test", ()),
    ("GIT_CONFIG_NOSYSTEM=1 pytest", ()),
    ("echo $PYTEST_ADDOPTS=1 && pytest", ()),
    ("MY_PYTEST_ADDOPTS=--co pytest", ()),
]


@pytest.mark.parametrize(("command", "names"), ASSIGNED, ids=[c for c, _ in ASSIGNED])
def test_a_receipts_assignments_are_named(command: str, names: tuple[str, ...]) -> None:
    assert loading_assignments(command) == names


@given(st.text(alphabet=" =-'\"$;xXPYTEST_ADDOPSexportdclaryp\n"))
@example("python3 -c 'import os'")
@example("export  PYTEST_ADDOPTS")
@example("declare -x NODE_OPTIONS")
def test_a_command_without_an_assignment_word_names_what_the_pattern_finds(
    command: str,
) -> None:
    """Issue 20: a command holding none of ``=``, ``export``, ``declare``, ``typeset``
    answers without compiling the pattern; every command answers what it finds."""
    found = {a or b for a, b in _assignment_re(RUN_ROWS).findall(command)}
    assert loading_assignments(command) == tuple(sorted(found))


def test_a_runs_environment_loses_what_changes_what_a_runner_loads() -> None:
    env = {"PATH": "/bin", "PYTEST_ADDOPTS": "--co", "NODE_OPTIONS": "-r x", "ENV": "e"}
    env |= {"GIT_CONFIG_NOSYSTEM": "1", "PYTHONPATH": "src"}
    kept, dropped = without_loading(env)
    assert dropped == ("NODE_OPTIONS", "PYTEST_ADDOPTS")
    assert kept == {"PATH": "/bin", "ENV": "e", "GIT_CONFIG_NOSYSTEM": "1", "PYTHONPATH": "src"}
