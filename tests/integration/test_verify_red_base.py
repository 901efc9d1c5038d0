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

from pathlib import Path

from tests.conftest import write
from tests.integration.test_verify import make_env
from tests.integration.test_verify_suite_env import _last, _run

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
