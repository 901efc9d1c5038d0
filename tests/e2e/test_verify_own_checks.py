"""Checks run from script files, end to end: installed hooks, ``verify run``, ``verdict add``,
real ``git commit``.

Seed ``001_3bc4c9b08e2f7709.txt`` "Rules": "Negative tests are mandatory: at least one
check that must fail before the artifact can be trusted"; a project's own negative-test
script run by a shell (``sh neg.sh``) is such a check, as ``./neg.sh`` is.
"""

from __future__ import annotations

import json
from pathlib import Path

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
