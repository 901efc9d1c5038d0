"""``gentle-hook verify run`` on a base tree whose full suite fails: "the same way" is judged by
the tests that failed, by id (issue 18, refuter r18t MED; SPEC §9 rule R2, row C5-base).

The finding: row C5-base ("the full suite fails the same way on the base tree: the brief is
at fault") compared exit status and last line only, so a base failing ``test_add`` and a
change failing a new ``test_mul`` instead (two different ``1 failed``) was called the
brief's fault. The rule: the change adds no failure when every test it fails failed on
the base tree too (pytest: the node ids the observer saw; unittest: its report's
headings); a change failing a test the base did not is the change's failure (row C5, "fix
the change"); when the ids are not read on either tree (another runner), nothing is
claimed: the change is judged (row C5-base-unread), never the brief's fault.

The fixture's base subtracts in ``add`` (its ``tests/test_app.py`` fails there) and the
candidate adds.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_verify import BRIEF, make_env
from tests.integration.test_verify_suite_env import _evidence, _last, _run

CALC = "def mul(a, b):\n    return a * b\n"
BROKEN = "def mul(a, b):\n    return a + b\n"
TEST_MUL = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
#: A test failing on every tree, whatever the change.
KNOWN = "def test_known():\n    assert 2 * 3 == 5\n"
SUITE = "python3 -m pytest -q"


def _base(repo: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        write(repo / path, text)


def test_a_change_failing_another_test_than_the_base_is_the_changes_fault(
    repo: Path, tmp_path: Path
) -> None:
    """r18t MED (h18j's control row): the base fails ``test_add``, the change fixes it and
    breaks ``mul``: both end in ``1 failed``, but ``test_mul`` fails only on the change:
    row C5, and the run is no brief fault."""
    _base(repo, {"src/calc.py": CALC, "tests/test_other.py": TEST_MUL})
    env = make_env(repo, tmp_path)
    write(repo / "src" / "calc.py", BROKEN)
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]
    text = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert "the brief is at fault" not in text, text


def test_a_change_adding_a_failure_to_the_bases_is_the_changes_fault(
    repo: Path, tmp_path: Path
) -> None:
    """r18t MED: the base fails ``test_known`` (and ``test_add``); the change still fails
    ``test_known`` and adds ``test_mul``: row C5."""
    files = {"src/calc.py": CALC, "tests/test_other.py": TEST_MUL, "tests/test_k.py": KNOWN}
    _base(repo, files)
    env = make_env(repo, tmp_path)
    write(repo / "src" / "calc.py", BROKEN)
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]


def test_a_clean_change_on_a_red_base_is_the_briefs_fault(repo: Path, tmp_path: Path) -> None:
    """The other way: the base fails ``test_known`` and ``test_add``; the change fixes
    ``add`` and fails only ``test_known``: it adds no failure, row C5-base."""
    _base(repo, {"tests/test_k.py": KNOWN})
    env = make_env(repo, tmp_path)
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5-base"), out["outcomes"]


MAKEFILE = "test:\n\tpython3 -m pytest -q\n"


def test_a_suite_whose_failed_tests_are_not_read_is_judged(repo: Path, tmp_path: Path) -> None:
    """Fail closed: ``make test`` (its tests not read by id) fails with the same status and
    last line on both trees: row C5-base-unread, evidence against the change, not the
    brief's fault."""
    _base(repo, {"Makefile": MAKEFILE, "tests/test_k.py": KNOWN})
    env = make_env(repo, tmp_path)
    out = _run(env, "make test", {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5-base-unread"), out["outcomes"]
    text = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert "the brief is at fault" not in text, text
    assert "which tests failed could not be read: the change must be judged" in text, text


# --- the way out of a red base: the suite without the base's own failures ------------------


def test_a_red_base_prints_a_way_out_that_passes(repo: Path, tmp_path: Path) -> None:
    """A clean change on a red base had no way out but GENTLE_HOOKS_SKIP (every full suite
    fails there): ``verify run`` prints the brief's suite with a ``--deselect`` of each test
    the change fails (each failing on the base too) and the prefix; a brief under a new id
    with that suite, run as printed, passes and ``verdict add`` accepts it (seed 001
    "Rules": "A pass verdict requires the full suite to have run")."""
    _base(repo, {"tests/test_k.py": KNOWN})
    env = make_env(repo, tmp_path)
    env.brief({**BRIEF, "fullSuite": SUITE})
    ran = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert ran.returncode == 1, ran.stderr
    lines = ran.stdout.splitlines()
    assert any(ln.startswith("note: the brief's full suite `") for ln in lines), ran.stdout
    suite = json.loads(next(ln for ln in lines if ln.startswith("suite: ")).removeprefix("suite: "))
    assert suite == f"{SUITE} --deselect tests/test_k.py::test_known", ran.stdout
    prefix = lines[-1]
    assert prefix == "prefix: gentle-hook verify run --brief", ran.stdout
    corrected = tmp_path / "corrected.json"
    corrected.write_text(json.dumps({**BRIEF, "id": "add-2", "fullSuite": suite}))
    again = env.gh(*shlex.split(prefix.removeprefix("prefix: gentle-hook ")), str(corrected))
    assert again.returncode == 0 and again.stdout.startswith("verify run: pass"), again.stdout
    out = env.json("verify", "run", "--brief", str(corrected))
    assert _last(out) == ("pass", True, "pass", "C4"), out["outcomes"]
    assert "deselected 1 test(s) that fail on the base tree too" in _evidence(out), out
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 0 and "not accepted" not in added.stdout, added.stdout


@pytest.mark.parametrize(
    ("files", "deselect"),
    [
        # test_mul passes on the base: deselecting it hides what the change breaks
        ({"src/calc.py": BROKEN}, "tests/test_other.py::test_mul"),
        # test_known fails on the base, but a module's id deselects more than it
        ({}, "tests/test_k.py"),
        # test_known fails on the base, and the change deletes it: not one to deselect
        ({"tests/test_k.py": None}, "tests/test_k.py::test_known"),
    ],
    ids=["passes-on-base", "module-id", "deleted-by-the-change"],
)
def test_a_deselect_beyond_the_bases_failures_is_not_the_full_suite(
    repo: Path, tmp_path: Path, files: dict[str, str | None], deselect: str
) -> None:
    """The way out is no loophole: a ``--deselect`` of a test that does not fail on the base
    tree by that id, or that the change no longer holds, is blocked (C1-suite-part), not
    pass."""
    _base(repo, {"src/calc.py": CALC, "tests/test_other.py": TEST_MUL, "tests/test_k.py": KNOWN})
    env = make_env(repo, tmp_path)
    for path, text in files.items():
        if text is None:
            (repo / path).unlink()
        else:
            write(repo / path, text)
    out = _run(env, f"{SUITE} --deselect {deselect}", {}, 1)
    assert _last(out)[0] == "blocked" and _last(out)[3] == "C1-suite-part", out["outcomes"]
