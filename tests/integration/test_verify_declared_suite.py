"""``gentle-hook verify run``: the project's full suite is the repository's word, committed
(seed 001 "Rules": "A pass verdict requires the full suite to have run"; SPEC §9).

Refuter finding 1 of issue 18 (HIGH): the writer breaks ``add`` (``tests/test_add.py``
fails) and adds ``sub`` with ``tests/test_sub.py``; a brief whose ``fullSuite`` is
``python3 -m pytest -q tests/test_sub.py`` passed "the full suite ran", and the verdict was
accepted, while ``pytest -q tests`` failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, write
from tests.integration.test_verify import Env

BRIEF: dict[str, Any] = {
    "id": "sub-1",
    "objective": "sub() subtracts",
    "outputFormat": "a patch to src/app.py",
    "boundaries": ["src/ only"],
    "stopCondition": "tests pass",
    "readOnly": False,
    "sideEffects": ["write-repo"],
    "successCriteria": [
        {"criterion": "sub works", "run": "python3 -m pytest -q tests/test_sub.py"}
    ],
    "negativeTests": [
        {
            "criterion": "there was no sub before",
            "run": ["python3", "-c", "import app, sys; sys.exit(1 if hasattr(app, 'sub') else 0)"],
        }
    ],
    "fullSuite": "python3 -m pytest -q tests/test_sub.py",
    "env": {"PYTHONPATH": "src"},
}
CONFIG = ".gentle-hooks.toml"
FULL = 'full_suite = "python3 -m pytest -q tests"\n'
PART = 'full_suite = "python3 -m pytest -q tests/test_sub.py"\n'


def _env(repo: Path, tmp_path: Path, base_config: str | None) -> Env:
    """The refuter's set-up: at the base ``add`` adds and ``tests/test_add.py`` checks it
    (``base_config``: the ``[verification]`` lines committed there, or none); the candidate
    makes ``add`` subtract and adds ``sub`` with ``tests/test_sub.py``; recorded, escalated."""
    e = Env(repo, tmp_path)
    e.brief(BRIEF)
    write(repo / ".gitignore", "__pycache__/\n.pytest_cache/\n")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b\n")
    write(
        repo / "tests" / "test_add.py",
        "import app\n\n\ndef test_add():\n    assert app.add(2, 2) == 4\n",
    )
    if base_config is not None:
        write(repo / CONFIG, "[verification]\n" + base_config)
    commit_all(repo, "base")
    write(
        repo / "src" / "app.py",
        "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n",
    )
    write(
        repo / "tests" / "test_sub.py",
        "import app\n\n\ndef test_sub():\n    assert app.sub(3, 1) == 2\n",
    )
    assert e.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    assert e.gh("escalate", "--item", "security", "--reason", "auth path").returncode == 0
    return e


def test_a_suite_of_one_test_file_is_not_the_full_suite(repo: Path, tmp_path: Path) -> None:
    """Nothing declared: a fullSuite naming a test file is a part (rows P-operand,
    C1-suite-part): blocked, fullSuiteRun false, one line says how to declare the suite,
    and ``verdict add`` does not accept it."""
    env = _env(repo, tmp_path, None)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]
    assert out["outcomes"][-1]["row"] == "C1-suite-part"
    said = [n for n in out["notes"] if "full_suite" in n]
    assert said == [
        "the full suite names part of the test tree: declare the project's full suite: "
        '[verification] full_suite = "python3 -m pytest -q" in .gentle-hooks.toml (or '
        "[tool.gentle-hooks.verification] in pyproject.toml), committed"
    ], out["notes"]
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def test_the_declared_suite_runs_whatever_the_brief_says(repo: Path, tmp_path: Path) -> None:
    """Declared at the base: it runs first as the full suite, the brief's own beside it;
    ``tests/test_add.py`` fails there, so the verdict fails and is not accepted."""
    env = _env(repo, tmp_path, FULL)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suites = [o for o in out["outcomes"] if o["kind"] == "suite"]
    assert [(o["command"], o["result"]) for o in suites] == [
        ("python3 -m pytest -q tests", "fail"),
        ("python3 -m pytest -q tests/test_sub.py", "pass"),
    ], suites
    assert out["status"] == "fail" and out["verdict"]["briefId"] == "sub-1"
    assert env.gh("verdict", "add", out["json_path"]).returncode == 1


@pytest.mark.parametrize(
    ("base_config", "suite", "status"),
    [
        (None, "python3 -m pytest -q tests/test_sub.py", "blocked"),
        (FULL, "python3 -m pytest -q tests", "fail"),
    ],
    ids=["added-by-the-change", "narrowed-by-the-change"],
)
def test_the_change_cannot_redefine_its_full_suite(
    repo: Path, tmp_path: Path, base_config: str | None, suite: str, status: str
) -> None:
    """A candidate that adds or narrows ``full_suite`` does not count: the base commit's
    (or none: then the brief's part of a suite is blocked) is what runs, and a note names
    the one that did not count."""
    env = _env(repo, tmp_path, base_config)
    write(repo / CONFIG, "[verification]\n" + PART)
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert out["status"] == status, out["outcomes"]
    assert next(o["command"] for o in out["outcomes"] if o["kind"] == "suite") == suite
    assert any(
        n.startswith("verification.full_suite `python3 -m pytest -q tests/test_sub.py` in your ")
        for n in out["notes"]
    ), out["notes"]


def test_a_link_to_part_of_the_tree_is_that_part(repo: Path, tmp_path: Path) -> None:
    """Refuter finding 3 of issue 18's h18h pass (MED): the change adds ``all ->
    tests/unit`` beside ``tests/unit/test_sub_unit.py``; ``pytest -q all`` read as a top-level
    directory passed as the full suite while ``tests/test_add.py`` failed. The link is
    resolved in the room's tree: a subdirectory, a part (P-operand, C1-suite-part)."""
    env = _env(repo, tmp_path, None)
    write(
        repo / "tests" / "unit" / "test_sub_unit.py", (repo / "tests" / "test_sub.py").read_text()
    )
    (repo / "all").symlink_to("tests/unit")
    env.brief({**BRIEF, "fullSuite": "python3 -m pytest -q all"})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    suite = next(o for o in out["outcomes"] if o["kind"] == "suite")
    assert (suite["command"], suite["row"]) == ("python3 -m pytest -q all", "C1-suite-part")
    assert (out["status"], out["verdict"]["fullSuiteRun"]) == ("blocked", False), out["outcomes"]


#: (the base's ``[verification]`` line, the variable rule B5 names).
LOADING_SUITES = [
    (
        'full_suite = \'PYTEST_ADDOPTS="--deselect tests/test_add.py::test_add" '
        "python3 -m pytest -q tests'\n",
        "PYTEST_ADDOPTS",
    ),
    (
        "full_suite = \"env -vS 'PYTEST_ADDOPTS=--co python3 -m pytest -q tests'\"\n",
        "PYTEST_ADDOPTS",
    ),
    ("full_suite = 'env -i PATH=/usr/bin:/bin PYTEST_PLUGINS=plug pytest -q'\n", "PYTEST_PLUGINS"),
]


@pytest.mark.parametrize(
    ("base_config", "name"), LOADING_SUITES, ids=["assignment", "env-vS", "env-i"]
)
@pytest.mark.parametrize("step", ["prepare", "run"])
def test_a_declared_suite_that_narrows_itself_is_refused_by_rule_b5(
    repo: Path, tmp_path: Path, base_config: str, name: str, step: str
) -> None:
    """Issue 18, task h18e item 3: the repository's own ``verification.full_suite`` is
    judged as a brief's check is (rule B5): one that sets a variable changing what its
    runner loads (``PYTEST_ADDOPTS=--deselect ...``: the failing ``test_add`` is never run)
    is refused before anything runs, exit 1, one line naming the variable; no verdict."""
    env = _env(repo, tmp_path, base_config)
    proc = env.gh("verify", step, "--brief", str(env.brief_path))
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gentle-hook: error: check refused: "), lines
    assert f"(committed) sets {name}: " in lines[0], lines[0]
    assert not (repo / ".agents").exists()  # no verdict written
