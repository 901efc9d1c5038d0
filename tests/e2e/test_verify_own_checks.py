"""Checks run from script files, end to end: installed hooks, ``verify run``, ``verdict add``,
real ``git commit``.

Seed ``001_3bc4c9b08e2f7709.txt`` "Rules": "Negative tests are mandatory: at least one
check that must fail before the artifact can be trusted"; a project's own negative-test
script run by a shell (``sh neg.sh``) is such a check, as ``./neg.sh`` is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import World

#: The base: an ``add`` that subtracts, and the project's scripts and suite.
BASE_FILES = {
    "src/app.py": "def add(a, b):\n    return a - b\n",
    # passes while add() still subtracts: fails once the change fixes it
    "neg.sh": "cd src && python3 -c 'import app; assert app.add(2, 3) == -1'\n",
}
#: The writer's fix (another size than the base's: bytecode caches are another item's)
FIXED = "def add(a, b):\n    return a + b  # fixed\n"


def base(world: World, files: dict[str, str]) -> None:
    """Commit ``files`` as the base everyone shares (a person's commit, pushed)."""
    for rel, text in files.items():
        world.write(rel, text)
    world.ok("add", "-A")
    world.ok("commit", "-q", "-m", "base")
    world.ok("push", "-q", "origin", "main")


def brief(world: World, **checks: object) -> Path:
    """A brief outside the work tree with ``checks`` (successCriteria, negativeTests,
    fullSuite) over the defaults."""
    data: dict[str, object] = {
        "id": "add-1",
        "objective": "add() adds",
        "outputFormat": "a patch to src/app.py",
        "boundaries": ["src/app.py only"],
        "stopCondition": "the criteria pass",
        "readOnly": False,
        "sideEffects": ["write-repo"],
        "successCriteria": [
            {
                "criterion": "add(2, 3) is 5",
                "run": "cd src && python3 -c 'import app; assert app.add(2, 3) == 5'",
            }
        ],
        "negativeTests": [{"criterion": "the subtraction is gone", "run": "sh neg.sh"}],
        "fullSuite": "python3 -m unittest discover -s tests",
        **checks,
    }
    path = world.base / "brief.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def escalated(world: World, files: dict[str, str]) -> None:
    """The writer writes ``files``; spot-checked, escalated, staged; the commit is blocked."""
    first, *rest = files.items()
    for rel, text in rest:
        world.write(rel, text)
    world.delegate(rel=first[0], text=first[1])
    world.spot_check()
    world.escalate()
    world.ok("add", "-A")
    blocked = world.git("commit", "-m", "writer: add")
    assert blocked.code == 1, blocked


def test_a_negative_test_script_run_by_a_shell_is_a_check(native: World) -> None:
    """Refuter 18r item 5: ``sh neg.sh`` was refused (exit 2, "fails even when every
    check in it succeeds") whatever the script held; it runs, and counts, as ``./neg.sh``."""
    base(native, BASE_FILES)
    escalated(native, {"src/app.py": FIXED})
    ran = native.gh("verify", "run", "--staged", "--brief", str(brief(native)), "--json")
    assert ran.code in (0, 1), ran  # a verdict written, not the brief refused (exit 2)
    envelope = json.loads(ran.out)
    verdict = envelope["verdict"]
    assert ran.code == 0, json.dumps(envelope["outcomes"], indent=1)
    assert (verdict["status"], verdict["negativeTestsRun"]) == ("pass", 1), verdict
    negative = next(c for c in verdict["criteria"] if c["observed"]["kind"] == "negative")
    assert negative["observed"]["command"] == "sh neg.sh"
    assert negative["result"] == "pass"
    assert "on the base tree it exited 0: another outcome" in negative["evidence"]

    added = native.gh("verdict", "add", "--staged", envelope["json_path"])
    assert added.code == 0, added
    passed = native.git("commit", "-m", "writer: add")
    assert passed.code == 0, passed


# --- refuter 18r item 1: a check the change itself defines observes nothing -----------------

#: The refuter's base: an ``add`` that subtracts (with a TODO), a criterion script that
#: checks it adds, and a Makefile whose ``test`` runs the project's suite.
OWN_BASE = {
    "app.py": "def add(a, b):\n    # TODO: add, not subtract\n    return a - b\n",
    "check.sh": "python3 -c 'import app; assert app.add(2, 3) == 5'\n",
    "Makefile": "test:\n\tpython3 -m unittest discover -s tests\n",
    "package.json": '{"scripts": {"test": "python3 -m unittest discover -s tests"}}\n',
}
#: A criterion the brief holds whole: it reads no file the change writes but app.py.
ADDS = {"criterion": "add(2, 3) is 5", "run": "python3 -c 'import app; assert app.add(2, 3) == 5'"}
#: The writer's ``add`` multiplies: add(2, 3) is 6.
WRONG = "def add(a, b):\n    return a * b\n"
#: The honest fix (another size than the base's: bytecode caches are another item's).
RIGHT = "def add(a, b):\n    return a + b  # fixed\n"
OWN_CHECKS = {
    "successCriteria": [{"criterion": "add(2, 3) is 5", "run": "sh check.sh"}],
    "negativeTests": [{"criterion": "the TODO is gone", "run": "grep -q TODO app.py"}],
    "fullSuite": "make test",
}


@pytest.mark.parametrize(
    ("base_files", "writer", "checks", "named"),
    [
        pytest.param(
            OWN_BASE,
            {"app.py": WRONG, "check.sh": "exit 0\n", "Makefile": "test:\n\ttrue\n"},
            OWN_CHECKS,
            {"add(2, 3) is 5": "check.sh", "full suite": "Makefile"},
            id="check.sh-emptied-and-make-test-true",
        ),
        pytest.param(
            OWN_BASE,
            # add() is right; the suite is an echo: the project's tests never run
            {"app.py": RIGHT, "package.json": '{"scripts": {"test": "echo 1 passed"}}\n'},
            {**OWN_CHECKS, "successCriteria": [ADDS], "fullSuite": "npm test"},
            {"full suite": "package.json"},
            id="npm-test-script-echoes",
        ),
        pytest.param(
            {k: v for k, v in OWN_BASE.items() if k != "check.sh"},
            {"app.py": WRONG, "check.sh": "exit 0\n"},
            OWN_CHECKS,
            {"add(2, 3) is 5": "check.sh"},
            id="new-check.sh-exit-0",
        ),
    ],
)
def test_a_check_whose_definition_the_change_writes_is_blocked(
    native: World,
    base_files: dict[str, str],
    writer: dict[str, str],
    checks: dict[str, object],
    named: dict[str, str],
) -> None:
    """Seed 001 "Guardrails": "do not accept a claim whose criteria have no observable
    check"; "Rules": "A pass verdict requires the full suite to have run". The writer's
    ``add`` multiplies and its change rewrites what the checks run; ``verify run`` said
    pass, ``verdict add`` accepted it and the commit went through. Now each such check is
    not run and the verdict is ``blocked``, naming the file; the commit stays blocked."""
    base(native, base_files)
    escalated(native, writer)
    ran = native.gh("verify", "run", "--staged", "--brief", str(brief(native, **checks)), "--json")
    assert ran.code == 1, ran
    envelope = json.loads(ran.out)
    assert (envelope["status"], envelope["status_row"]) == ("blocked", "S1-own"), envelope
    verdict = envelope["verdict"]
    assert verdict["fullSuiteRun"] is ("full suite" not in named)
    own = {o["criterion"]: o for o in envelope["outcomes"] if o["row"] == "C1-own"}
    assert sorted(own) == sorted(named), envelope["outcomes"]
    for criterion, path in named.items():
        assert own[criterion]["exit_code"] is None  # never run
        assert (
            f"the change adds or changes {path}, which defines what it runs"
            in own[criterion]["error"]
        )
    assert "the change adds or changes what defines a check" in verdict["summary"]

    added = native.gh("verdict", "add", "--staged", envelope["json_path"])
    assert added.code == 1, added
    still = native.git("commit", "-m", "writer: add")
    assert still.code == 1, still


def test_checks_the_change_leaves_alone_still_pass(native: World) -> None:
    """The same brief on an honest change (only ``app.py``): ``sh check.sh`` and ``make
    test`` run the base's definitions, the verdict passes and the commit goes through."""
    base(native, OWN_BASE)
    escalated(native, {"app.py": RIGHT})
    ran = native.gh(
        "verify", "run", "--staged", "--brief", str(brief(native, **OWN_CHECKS)), "--json"
    )
    envelope = json.loads(ran.out)
    assert (ran.code, envelope["status"]) == (0, "pass"), envelope["outcomes"]
    assert [o["row"] for o in envelope["outcomes"]] == ["C4", "C2", "C4"]
    assert native.gh("verdict", "add", "--staged", envelope["json_path"]).code == 0
    passed = native.git("commit", "-m", "writer: add")
    assert passed.code == 0, passed
