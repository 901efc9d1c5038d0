"""``gentle-hook verify run``: the brief's ``env`` or the suite command's variables cannot
narrow the observed full suite (issue 18; seed 001 "Rules": "A pass verdict requires the full
suite to have run").

Refuter r18s, finding 1 (HIGH): with the base's ``conftest.py`` holding ``collect_ignore =
["tests/other"] if os.environ.get("QUICK") else []`` and a brief whose ``env`` sets
``QUICK=1``, ``verify run`` gave ``pass`` while ``tests/other`` failed: the whole suite was
collected with the brief's variables too. A declared ``verification.full_suite`` was not
observed at all. Finding 2 (HIGH/MED): a base test marked ``skipif(os.environ.get("FAST"))``
and a brief or command setting ``FAST=1``: ``pass (1 skipped)``.

The rule: the whole suite is collected with the room's own interpreter in the room's own
environment (every variable of the brief's put back, ``PATH`` and ``PYTHONPATH`` too; a
module only the brief's ``PYTHONPATH`` imports counts as run when the run ran its tests);
when the brief's ``env`` or the suite's command sets variables, a test the run skipped
counts as not run, unless a skip marker skips it in that collection too (a platform's skip:
the repository's own) or it skips again in a run of it without them (a ``pytest.skip`` in
its body); with no variables, every skip stands. The brief's ``PATH`` choosing another
interpreter is a unit row (tests/unit/test_room_programs.py): a brief may name only the
system's directories, where no interpreter with pytest is installed on this machine.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write
from tests.integration.test_verify import BRIEF, Env, make_env

#: The base's conftest: ``QUICK`` leaves ``tests/other`` out of collection.
QUICK_CONFTEST = (
    "import os\n\ncollect_ignore = ['tests/other'] if os.environ.get('QUICK') else []\n"
)
#: A base test a variable skips.
FAST_TEST = (
    "import os\n\nimport pytest\n\n\n"
    "@pytest.mark.skipif(bool(os.environ.get('FAST')), reason='fast')\n"
    "def test_slow():\n    assert {} == 5\n"
)


def _env(repo: Path, tmp_path: Path, files: dict[str, str]) -> Env:
    """``make_env``'s escalated change over a base that also holds ``files``."""
    for path, text in files.items():
        write(repo / path, text)
    return make_env(repo, tmp_path)


def _run(env: Env, suite: str, more: dict[str, str], code: int) -> dict[str, Any]:
    env.brief({**BRIEF, "fullSuite": suite, "env": {**BRIEF["env"], **more}})
    return env.json("verify", "run", "--brief", str(env.brief_path), code=code)


def _last(out: dict[str, Any]) -> tuple[str, bool, str, str]:
    last = out["outcomes"][-1]
    return (out["status"], out["verdict"]["fullSuiteRun"], last["result"], last["row"])


def _evidence(out: dict[str, Any]) -> str:
    return str(out["verdict"]["criteria"][-1]["evidence"])


# --- finding 1: the brief's env narrows collection -------------------------------------------


def test_brief_env_that_narrows_collection_is_blocked(repo: Path, tmp_path: Path) -> None:
    """r18s finding 1: brief ``env`` QUICK=1, the base's conftest ignores ``tests/other``
    (whose test fails): blocked (C1-suite-unrun) naming the test left out, not pass."""
    files = {"conftest.py": QUICK_CONFTEST, "tests/other/test_bad.py": FAST_TEST.format(6)}
    env = _env(repo, tmp_path, files)
    out = _run(env, "python3 -m pytest -q", {"QUICK": "1"}, 1)
    assert _last(out) == ("blocked", False, "blocked", "C1-suite-unrun"), out["outcomes"]
    assert "e.g. tests/other/test_bad.py::test_slow" in _evidence(out), _evidence(out)
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 1 and "not accepted" in added.stdout, added.stdout


def test_without_the_variable_the_same_suite_fails(repo: Path, tmp_path: Path) -> None:
    """The control row: no QUICK, the failing test runs: fail, the full suite ran. The
    test fails on the base tree too and the change adds no failure (the base also fails
    ``test_add``, which the change fixes): row C5-base, by the failed tests' ids."""
    files = {"conftest.py": QUICK_CONFTEST, "tests/other/test_bad.py": FAST_TEST.format(6)}
    env = _env(repo, tmp_path, files)
    out = _run(env, "python3 -m pytest -q", {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5-base"), out["outcomes"]


@pytest.mark.parametrize("quick", [True, False], ids=["brief-QUICK", "no-variable"])
def test_a_declared_suite_is_observed_too(repo: Path, tmp_path: Path, quick: bool) -> None:
    """r18s finding 1, declared: ``verification.full_suite = "python3 -m pytest -q"`` with
    the brief's QUICK=1 is blocked (the declared suite's own collection, without the
    brief's variables, holds ``tests/other``); without QUICK it passes (the failing test is
    fixed here)."""
    files = {
        ".gentle-hooks.toml": '[verification]\nfull_suite = "python3 -m pytest -q"\n',
        "conftest.py": QUICK_CONFTEST,
        "tests/other/test_ok.py": FAST_TEST.format(5),
    }
    env = _env(repo, tmp_path, files)
    if quick:
        out = _run(env, "python3 -m pytest -q", {"QUICK": "1"}, 1)
        assert _last(out) == ("blocked", False, "blocked", "C1-suite-unrun"), out["outcomes"]
        assert "declared full suite's own collection" in _evidence(out), _evidence(out)
        assert "e.g. tests/other/test_ok.py::test_slow" in _evidence(out), _evidence(out)
    else:
        out = _run(env, "python3 -m pytest -q", {}, 0)
        assert _last(out) == ("pass", True, "pass", "C4"), out["outcomes"]


# --- finding 2: a skip a variable switches on -------------------------------------------------


@pytest.mark.parametrize(
    ("suite", "more"),
    [
        ("python3 -m pytest -q", {"FAST": "1"}),
        ("FAST=1 python3 -m pytest -q", {}),
        ("env FAST=1 python3 -m pytest -q", {}),
    ],
    ids=["brief-env", "inline", "env-word"],
)
def test_a_skip_a_variable_switches_on_is_blocked(
    repo: Path, tmp_path: Path, suite: str, more: dict[str, str]
) -> None:
    """r18s finding 2: the base's failing test skipped by FAST, set by the brief or the
    command: blocked (C1-suite-unrun), one line naming FAST and the skipped count."""
    env = _env(repo, tmp_path, {"tests/test_slow.py": FAST_TEST.format(6)})
    out = _run(env, suite, more, 1)
    assert _last(out) == ("blocked", False, "blocked", "C1-suite-unrun"), out["outcomes"]
    evidence = _evidence(out)
    assert "1 of the 2 tests the whole suite collects were skipped" in evidence, evidence
    assert "sets FAST" in evidence and "tests/test_slow.py::test_slow" in evidence, evidence


PLATFORM_SKIP = (
    "import sys\n\nimport pytest\n\n\n"
    "@pytest.mark.skipif(sys.platform != 'no-such-os', reason='only there')\n"
    "def test_there():\n    assert 2 * 3 == 5\n"
)
RUNTIME_SKIP = "import pytest\n\n\ndef test_net():\n    pytest.skip('no network here')\n"


@pytest.mark.parametrize(
    ("test", "more"),
    [(PLATFORM_SKIP, {}), (PLATFORM_SKIP, {"FAST": "1"}), (RUNTIME_SKIP, {})],
    ids=["platform-no-variable", "platform-with-variable", "runtime-no-variable"],
)
def test_the_repositorys_own_skip_stands(
    repo: Path, tmp_path: Path, test: str, more: dict[str, str]
) -> None:
    """The other way: a skip with no brief or command variable is the repository's own
    (a platform marker, a ``pytest.skip`` in the body); a skip marker that skips the test
    in the whole suite's collection too (without the brief's variables) stands with one:
    pass, the full suite ran."""
    env = _env(repo, tmp_path, {"tests/test_skipped.py": test})
    out = _run(env, "python3 -m pytest -q", more, 0)
    assert _last(out) == ("pass", True, "pass", "C4"), out["outcomes"]


# --- the brief's PYTHONPATH and a runtime skip (issue 18, after r18s) -------------------------


#: The base's conftest: a module the brief's ``PYTHONPATH`` makes importable leaves
#: ``tests/other`` out of collection.
IMPORT_CONFTEST = (
    "import importlib.util\n\n"
    "collect_ignore = ['tests/other'] if importlib.util.find_spec('quickmode') else []\n"
)


def test_a_brief_pythonpath_that_narrows_collection_is_blocked(repo: Path, tmp_path: Path) -> None:
    """Issue 18: the brief's ``PYTHONPATH`` (``src:quick``, ``quick/quickmode.py`` in the
    tree) made the run and the whole suite's collection both leave ``tests/other`` out:
    pass. The collection is made with the room's own environment only: blocked
    (C1-suite-unrun) naming the test left out."""
    files = {
        "conftest.py": IMPORT_CONFTEST,
        "quick/quickmode.py": "",
        "tests/other/test_bad.py": FAST_TEST.format(6),
    }
    env = _env(repo, tmp_path, files)
    out = _run(env, "python3 -m pytest -q", {"PYTHONPATH": "src:quick"}, 1)
    assert _last(out) == ("blocked", False, "blocked", "C1-suite-unrun"), out["outcomes"]
    assert "e.g. tests/other/test_bad.py::test_slow" in _evidence(out), _evidence(out)


def test_a_brief_pythonpath_that_locates_code_still_passes(repo: Path, tmp_path: Path) -> None:
    """The other way: a test module that imports ``app`` only through the brief's
    ``PYTHONPATH=src`` cannot be imported in the room's own collection; the run ran its
    tests, so it is part of what ran: pass, the full suite ran."""
    test = "from app import add\n\n\ndef test_src():\n    assert add(1, 1) == 2\n"
    env = _env(repo, tmp_path, {"tests/test_src.py": test})
    out = _run(env, "python3 -m pytest -q", {}, 0)
    assert _last(out) == ("pass", True, "pass", "C4"), out["outcomes"]


#: A base test whose body skips when ``FAST`` is set, and fails otherwise.
FAST_BODY = (
    "import os\n\nimport pytest\n\n\n"
    "def test_slow():\n    if os.environ.get('FAST'):\n        pytest.skip('fast')\n"
    "    assert 2 * 3 == 5\n"
)


@pytest.mark.parametrize(
    ("test", "code", "result"),
    [(RUNTIME_SKIP, 0, ("pass", True, "pass", "C4")), (FAST_BODY, 1, None)],
    ids=["skips-without-too", "variable-skips-it"],
)
def test_a_runtime_skip_with_a_variable(
    repo: Path, tmp_path: Path, test: str, code: int, result: tuple[str, bool, str, str] | None
) -> None:
    """Issue 18: a ``pytest.skip`` in the test's body, in a run whose brief sets FAST: it
    stands when the same test skips in a run without the variables (pass), and is not run
    when it runs without them (blocked, C1-suite-unrun, naming it)."""
    env = _env(repo, tmp_path, {"tests/test_skipped.py": test})
    out = _run(env, "python3 -m pytest -q", {"FAST": "1"}, code)
    if result is not None:
        assert _last(out) == result, out["outcomes"]
        return
    assert _last(out) == ("blocked", False, "blocked", "C1-suite-unrun"), out["outcomes"]
    assert "tests/test_skipped.py::test_slow" in _evidence(out), _evidence(out)


# --- finding 3: rule R2 and a suite that fails on the base tree too ---------------------------


#: A test module that imports only from the tree's top (the corrected suite's cwd).
TOP_ONLY = "import os\n\nassert os.path.isdir('tests'), 'run from the top'\n"


def test_a_suite_failing_on_the_base_too_does_not_hold_a_corrected_brief(
    repo: Path, tmp_path: Path
) -> None:
    """r18s finding 3 (rule R2): a brief whose suite fails the same way on the base tree
    (the refuter's ``cd tests && python3 -m unittest``: a test module that runs only from
    the top fails to import there) fails (row C5-base, the brief's fault), and a corrected
    brief under a new id that passes is accepted; before, no later run was, but
    GENTLE_HOOKS_SKIP."""
    env = _env(
        repo,
        tmp_path,
        {"tests/unit/__init__.py": "", "tests/unit/test_u.py": TOP_ONLY},
    )
    bad = _run(env, "cd tests && python3 -m unittest", {}, 1)
    assert _last(bad) == ("fail", True, "fail", "C5-base"), bad["verdict"]["criteria"][-1]
    env.brief({**BRIEF, "id": "add-2", "fullSuite": "python3 -m pytest -q tests"})
    good = env.json("verify", "run", "--brief", str(env.brief_path))
    assert good["status"] == "pass", good["outcomes"]
    added = env.gh("verdict", "add", good["json_path"])
    assert added.returncode == 0 and "not accepted" not in added.stdout, added.stdout


def test_a_suite_failing_on_the_base_too_names_the_suite_and_the_way_out(
    repo: Path, tmp_path: Path
) -> None:
    """Issue 18 (rule R2's words, row C5-base): what a user reads after a full suite that
    fails the same way on the base tree names that suite and the way out, a corrected brief
    under a new brief id, in ``verify run``'s note and in the block ``status`` prints (it
    said "failed only on its brief: : correct the brief"); the printed prefix with the
    corrected brief's path, run as printed, passes."""
    env = _env(repo, tmp_path, {"tests/unit/__init__.py": "", "tests/unit/test_u.py": TOP_ONLY})
    env.brief({**BRIEF, "fullSuite": "cd tests && python3 -m unittest"})
    ran = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert ran.returncode == 1, ran.stderr
    note = next(ln for ln in ran.stdout.splitlines() if ln.startswith("note: the brief is"))
    assert "full suite `cd tests && python3 -m unittest` fails the same way on the base" in note
    assert "the change emptied" not in note and "without it" not in note, note
    assert "corrected brief under a new brief id" in note, note
    prefix = ran.stdout.splitlines()[-1]
    assert prefix == "prefix: gentle-hook verify run --brief", ran.stdout
    said = env.gh("status").stdout
    assert "failed only on its brief: : " not in said, said
    assert (
        "failed only on its brief: full suite `cd tests && python3 -m unittest` fails the "
        "same way on the base tree too"
    ) in said, said
    assert "correct the brief under a new brief id" in said, said
    corrected = tmp_path / "corrected.json"
    corrected.write_text(
        json.dumps({**BRIEF, "id": "add-2", "fullSuite": "python3 -m pytest -q tests"})
    )
    again = env.gh(*shlex.split(prefix.removeprefix("prefix: gentle-hook ")), str(corrected))
    assert again.returncode == 0 and again.stdout.startswith("verify run: pass"), again.stdout
