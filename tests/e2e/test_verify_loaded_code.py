"""Code a check loads that the change itself writes, end to end: installed hooks, ``verify
prepare`` and ``verify run``, ``verdict add``, real ``git commit``.

Seed ``001_3bc4c9b08e2f7709.txt`` "Guardrails": "do not accept a claim whose criteria have
no observable check". Refuter r18a (issue 18): Python imports a sourceless ``pytest.pyc``
as it imports ``pytest.py``; a change adding one that prints "1 passed" made a failing
suite pass verify, ``verdict add`` and the commit.
"""

from __future__ import annotations

import json
import subprocess

from tests.e2e.conftest import World
from tests.e2e.test_verify_flow import printed
from tests.e2e.test_verify_own_checks import base, brief, escalated

#: The base: an ``add`` that subtracts, and a pytest test of it (failing on the base).
PYTEST_BASE = {
    "app.py": "def add(a, b):\n    return a - b\n",
    "tests/test_add.py": "import sys\n\nsys.path.insert(0, '.')\n\nfrom app import add\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n",
}
#: The writer's ``add`` multiplies: the suite still fails.
WRONG = "def add(a, b):\n    return a * b\n"
#: A runner that says every test passed, whatever they say.
FAKE_RUNNER = 'import sys\nprint("1 passed in 0.01s")\nsys.exit(0)\n'
#: The checks: the suite through ``python3 -m pytest`` (the working directory first on
#: ``sys.path``), and a negative test that must fail on the change.
PYTEST_CHECKS = {
    "successCriteria": [{"criterion": "add(2, 3) is 5", "run": "python3 -m pytest -q tests"}],
    "negativeTests": [{"criterion": "the subtraction is gone", "run": "grep -q 'a - b' app.py"}],
    "fullSuite": "python3 -m pytest -q",
}


def compiled(world: World, source: str, rel: str) -> None:
    """``source`` compiled by the ``python3`` the checks run into the sourceless ``rel``."""
    fake = world.base / "fake_source.py"
    fake.write_text(source, encoding="utf-8")
    code = "import py_compile, sys; py_compile.compile(*sys.argv[1:], doraise=True)"
    subprocess.run(["python3", "-c", code, str(fake), str(world.work / rel)], check=True)


def prepared_run(world: World, checks: dict[str, object]) -> dict[str, object]:
    """``verify prepare --staged`` of a brief with ``checks``, then the ``verify run`` it
    printed, run as printed with ``--json``: its exit status and envelope."""
    rooms = world.base / "rooms"
    rooms.mkdir(exist_ok=True)
    path = brief(world, **checks)
    prepared = world.gh(
        "verify", "prepare", "--staged", "--brief", str(path), env={"TMPDIR": str(rooms)}
    )
    assert prepared.code == 0, prepared
    ran = world.gh(*printed(world, prepared.out.splitlines()[-1], "run: "), "--json")
    assert ran.code in (0, 1), ran  # a verdict written, not the brief refused
    envelope: dict[str, object] = {"code": ran.code, **json.loads(ran.out)}
    return envelope


def assert_blocked_through(world: World, envelope: dict[str, object], path: str) -> None:
    """The run is blocked naming ``path`` as what defines a check; ``verdict add`` of its
    artifact does not unblock the commit."""
    outcomes = envelope["outcomes"]
    assert isinstance(outcomes, list)
    assert (envelope["code"], envelope["status"]) == (1, "blocked"), outcomes
    own = [o for o in outcomes if o["row"] == "C1-own"]
    assert own, outcomes
    for outcome in own:
        assert outcome["exit_code"] is None  # never run
        said = f"the change adds or changes {path}, which defines what it runs"
        assert said in outcome["error"], outcome
    added = world.gh("verdict", "add", "--staged", str(envelope["json_path"]))
    assert added.code == 1, added
    still = world.git("commit", "-m", "writer: add")
    assert still.code == 1, still


def test_a_sourceless_pytest_pyc_the_change_adds_blocks_the_checks(native: World) -> None:
    """``python3 -m pytest`` imports the change's ``pytest.pyc`` (no ``pytest.py`` needed)
    before the installed pytest: it defines the checks (row D-shadow), which are not run."""
    base(native, PYTEST_BASE)
    compiled(native, FAKE_RUNNER, "pytest.pyc")
    escalated(native, {"app.py": WRONG})
    envelope = prepared_run(native, PYTEST_CHECKS)
    assert_blocked_through(native, envelope, "pytest.pyc")


#: A pytest plugin whose hook reports every failed test as passed.
PASSING_HOOK = (
    "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
    "def pytest_runtest_makereport(item, call):\n    out = yield\n    rep = out.get_result()\n"
    "    if rep.failed:\n        rep.outcome = 'passed'\n        rep.longrepr = None\n"
)
#: The writer's ``mul`` beside an ``add`` that multiplies, and a test of it.
MUL = "def add(a, b):\n    return a * b\n\n\ndef mul(a, b):\n    return a * b\n"
TEST_MUL = "from app import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"


def test_a_plugin_a_test_module_of_the_change_names_blocks_the_checks(native: World) -> None:
    """Refuter r18a: the change adds ``test_mul.py`` with ``pytest_plugins =
    ["zz_helpers"]`` and ``zz_helpers.py``, whose hook turns failures into passes; pytest
    loads it as it collects the test module, so it defines every pytest check (row
    D-plugin), which is not run."""
    base(native, PYTEST_BASE)
    test_mul = 'pytest_plugins = ["zz_helpers"]\n\n' + TEST_MUL
    escalated(native, {"app.py": MUL, "test_mul.py": test_mul, "zz_helpers.py": PASSING_HOOK})
    checks = {
        **PYTEST_CHECKS,
        "successCriteria": [{"criterion": "mul works", "run": "python3 -m pytest -q test_mul.py"}],
    }
    envelope = prepared_run(native, checks)
    assert_blocked_through(native, envelope, "zz_helpers.py")
    outcomes = envelope["outcomes"]
    assert isinstance(outcomes, list)
    assert [o["row"] for o in outcomes if o["kind"] != "negative"] == ["C1-own", "C1-own"]


def test_a_plugin_the_command_loads_blocks_the_checks(native: World) -> None:
    """``pytest -p zz_helpers`` in the brief's command loads the ``zz_helpers.py`` the
    change adds (no test module names it): it defines the check (row D-plugin)."""
    base(native, PYTEST_BASE)
    escalated(native, {"app.py": WRONG, "zz_helpers.py": PASSING_HOOK})
    run = "python3 -m pytest -q -p zz_helpers"
    checks = {
        **PYTEST_CHECKS,
        "successCriteria": [{"criterion": "add(2, 3) is 5", "run": f"{run} tests"}],
        "fullSuite": run,
    }
    envelope = prepared_run(native, checks)
    assert_blocked_through(native, envelope, "zz_helpers.py")
    outcomes = envelope["outcomes"]
    assert isinstance(outcomes, list)
    assert [o["row"] for o in outcomes if o["kind"] != "negative"] == ["C1-own", "C1-own"]


def test_a_program_the_line_puts_on_path_from_the_tree_is_refused(native: World) -> None:
    """Refuter r18a: ``PATH=bin:/usr/bin:/bin pytest -q`` ran the ``bin/pytest`` the change
    adds (it prints "1 passed") while the verdict's ``observed.programs`` named the
    caller's pytest. A ``PATH`` the line sets is read as the brief's ``env`` is: ``bin``
    is the room's tree, and a program there is refused before anything runs (exit 2, one
    line); the commit stays blocked."""
    base(native, PYTEST_BASE)
    native.write("bin/pytest", '#!/bin/sh\necho "1 passed in 0.01s"\n').chmod(0o755)
    escalated(native, {"app.py": WRONG})
    run = "PATH=bin:/usr/bin:/bin pytest -q"
    checks = {
        **PYTEST_CHECKS,
        "successCriteria": [{"criterion": "add(2, 3) is 5", "run": run}],
        "fullSuite": run,
    }
    rooms = native.base / "rooms"
    rooms.mkdir()
    path = brief(native, **checks)
    prepared = native.gh(
        "verify", "prepare", "--staged", "--brief", str(path), env={"TMPDIR": str(rooms)}
    )
    assert prepared.code == 0, prepared
    ran = native.gh(*printed(native, prepared.out.splitlines()[-1], "run: "))
    assert ran.code == 2, ran
    (line,) = ran.err.splitlines()
    assert line.startswith("gentle-hook: error: "), line
    assert f"`pytest` of `{run}` resolves to {rooms}/" in line, line
    assert line.endswith(
        "/tree/bin/pytest, inside your repository or the room: the check would run the "
        "writer's copy; put the tool outside the repository, on PATH"
    ), line
    still = native.git("commit", "-m", "writer: add")
    assert still.code == 1, still
