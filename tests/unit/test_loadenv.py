"""A brief's variables that change what a runner or the interpreter loads
(``gentle_hooks.policy.loadenv``; brief rule B5).

Refuter finding of issue 18: ``{"PYTEST_PLUGINS": "plug"}`` with the candidate's ``plug.py``
loaded the candidate's code into the suite."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gentle_hooks.artifacts.brief import check_brief, command_load_faults, parse_brief
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
    # issue 18, refuter h18c: the split string of ``env -S``, glued to its flag or not
    ("env -SPYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("env -S 'PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),
    ("env --split-string=PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("x-SPYTEST_ADDOPTS=1 pytest", ()),
    # issue 18, task h18e: real assignments, read from the line's structure
    ("env -i PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("env -u HOME PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("env -iu HOME PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("env -vS 'PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),
    ("env -iS 'PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),
    ("env -vSPYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("env -ivSPYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("env -S '-i PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),
    ("env --split 'PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),
    ("env -vS '$HOME PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),  # unread: as text
    ("export PYTEST_ADDOPTS=--co && pytest", ("PYTEST_ADDOPTS",)),
    ("PYTEST_ADDOPTS=--co; pytest", ("PYTEST_ADDOPTS",)),
    ("declare -x PYTEST_ADDOPTS=--co; pytest", ("PYTEST_ADDOPTS",)),
    ("timeout 60 env PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("eval 'PYTEST_ADDOPTS=--co pytest'", ("PYTEST_ADDOPTS",)),
    ("echo $(PYTEST_ADDOPTS=--co pytest)", ("PYTEST_ADDOPTS",)),
    ("if true; then PYTEST_ADDOPTS=--co pytest; fi", ("PYTEST_ADDOPTS",)),  # unread: as text
    # programs that put NAME=value operands into what they run
    ("make PYTEST_ADDOPTS=--co test", ("PYTEST_ADDOPTS",)),
    ("sudo -u me PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("cross-env NODE_OPTIONS=--require=./x.js npm test", ("NODE_OPTIONS",)),
    ("docker run -e PYTEST_ADDOPTS=--co img pytest", ("PYTEST_ADDOPTS",)),
    ("docker run --env=PYTEST_ADDOPTS=--co img pytest", ("PYTEST_ADDOPTS",)),
    ("systemd-run -E PYTEST_ADDOPTS=--co pytest", ("PYTEST_ADDOPTS",)),
    ("make test", ()),
    # a word passed to another program sets nothing
    ("grep -e PYTEST_ADDOPTS= -r docs", ()),
    ("grep -q 'PYTEST_ADDOPTS=' docs/x.md", ()),
    ("grep -q PYTEST_ADDOPTS= docs/x.md && pytest", ()),
    ("python -c \"print('PYTEST_ADDOPTS=1')\"", ()),
    ("echo PYTEST_ADDOPTS=1 && pytest", ()),
    ("sh -c \"grep -q 'PYTEST_ADDOPTS=' docs/x.md\"", ()),
    ("env -i LANG=C grep -c 'NODE_OPTIONS=' README.md", ()),
    ("printf '%s\\n' 'export PYTEST_ADDOPTS=x' > x.sh && sh x.sh --help", ()),
]


@pytest.mark.parametrize(("command", "names"), ASSIGNED, ids=[c for c, _ in ASSIGNED])
def test_a_receipts_assignments_are_named(command: str, names: tuple[str, ...]) -> None:
    assert loading_assignments(command) == names


@given(st.text(alphabet=" =-'\"$;()`|&xXPYTEST_ADDOPSexportdclarypvS\n"))
@example("python3 -c 'import os'")
@example("export  PYTEST_ADDOPTS")
@example("declare -x NODE_OPTIONS")
@example("env -vS")
def test_any_command_answers_the_names_it_sets(command: str) -> None:
    """Issue 20: a command holding none of ``=``, ``export``, ``declare``, ``typeset``
    answers () without parsing; every command answers names of :data:`RUN_ROWS`, sorted,
    and never raises."""
    found = loading_assignments(command)
    assert found == tuple(sorted(set(found)))
    assert all(any(n in r.names or n.startswith(r.prefixes) for r in RUN_ROWS) for n in found)
    if not any(w in command for w in ("=", "export", "declare", "typeset")):
        assert found == ()


def test_an_unread_part_is_read_as_text() -> None:
    """What the parser cannot read is judged by the text pattern, so no assignment hides
    behind an ``if``."""
    assert _assignment_re(RUN_ROWS).findall("env -vSPYTEST_ADDOPTS=x") == [("PYTEST_ADDOPTS", "")]


def test_a_runs_environment_loses_what_changes_what_a_runner_loads() -> None:
    env = {"PATH": "/bin", "PYTEST_ADDOPTS": "--co", "NODE_OPTIONS": "-r x", "ENV": "e"}
    env |= {"GIT_CONFIG_NOSYSTEM": "1", "PYTHONPATH": "src"}
    kept, dropped = without_loading(env)
    assert dropped == ("NODE_OPTIONS", "PYTEST_ADDOPTS")
    assert kept == {"PATH": "/bin", "ENV": "e", "GIT_CONFIG_NOSYSTEM": "1", "PYTHONPATH": "src"}


# -- a brief's own check commands (rule B5; issue 18, refuter h18c) -------------------------

#: (fullSuite as the brief writes it, the variable B5 names; None: accepted).
NARROWED = [
    ('PYTEST_ADDOPTS="--ignore=test_app.py -p no:cacheprovider" pytest -q', "PYTEST_ADDOPTS"),
    (
        ["env", "PYTEST_ADDOPTS=-p no:cacheprovider -o python_functions=test_mul", "pytest", "-q"],
        "PYTEST_ADDOPTS",
    ),
    ("env -S 'PYTEST_ADDOPTS=-k\\ test_mul pytest -q'", "PYTEST_ADDOPTS"),
    ('export PYTEST_ADDOPTS="-k test_mul" && pytest -q', "PYTEST_ADDOPTS"),
    ("PYTEST_PLUGINS=plug pytest -q", "PYTEST_PLUGINS"),
    ("NODE_OPTIONS=--require=./x.js npm test", "NODE_OPTIONS"),
    ("PYTHONPATH=src pytest -q", None),
    ("ENV=test make test", None),
    ("pytest -q", None),
    # issue 18, task h18e: what runs, not what the command mentions
    ("env -i PATH=/usr/bin:/bin PYTEST_ADDOPTS=-k\\ test_mul pytest -q", "PYTEST_ADDOPTS"),
    ("env -u HOME PYTEST_ADDOPTS=--co pytest -q", "PYTEST_ADDOPTS"),
    ("env -vS 'PYTEST_ADDOPTS=--co pytest -q'", "PYTEST_ADDOPTS"),
    ("env -iS 'PYTEST_ADDOPTS=--co pytest -q'", "PYTEST_ADDOPTS"),
    ("env -vSPYTEST_ADDOPTS=--co pytest -q", "PYTEST_ADDOPTS"),
    ("PYTEST_ADDOPTS=--co; export PYTEST_ADDOPTS; pytest -q", "PYTEST_ADDOPTS"),
    ("grep -q 'PYTEST_ADDOPTS=' docs/x.md && pytest -q", None),
    ("python -c \"print('PYTEST_ADDOPTS=1')\" && pytest -q", None),
    ("sh -c \"grep -c 'NODE_OPTIONS=' README.md\"", None),
]


@pytest.mark.parametrize(("suite", "name"), NARROWED, ids=[str(s) for s, _ in NARROWED])
def test_a_check_that_sets_a_loading_variable_is_rejected_by_rule_b5(
    suite: str | list[str], name: str | None
) -> None:
    """The same variable refused in the brief's ``env`` is refused set in front of a
    check's command: one line naming the check and the variable."""
    brief = parse_brief(
        json.dumps(
            {
                "objective": "x",
                "outputFormat": "json",
                "boundaries": ["b"],
                "stopCondition": "s",
                "fullSuite": suite,
            }
        )
    )
    faults = check_brief(brief)
    if name is None:
        assert faults == []
    else:
        assert len(faults) == 1 and faults[0].startswith(f"B5 the full suite sets {name}: ")


def test_each_check_is_named_and_each_variable_once() -> None:
    found = command_load_faults(
        [("criterion 'a'", "PYTEST_ADDOPTS=-k PYTEST_ADDOPTS=x pytest"), ("--suite `t`", "t")]
    )
    assert len(found) == 1 and found[0].startswith("criterion 'a' sets PYTEST_ADDOPTS: ")
