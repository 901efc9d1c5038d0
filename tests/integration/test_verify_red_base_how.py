"""``gentle-hook verify run`` on a red base: "the same way" is the failure itself, and the way
out deselects exact ids only (issue 18, refuter r18u MED 1 and 2; SPEC §9 rule R2, row C5-base).

Finding 1: a test already failing on the base tree was excused by its id alone, so a change
making another assert of it fail, or editing the test, read as "failing the same way". A
failed test is the base's only when it fails there with the same failure (the observer's
report: the failing line and its message, and the test's own source).

Finding 2: pytest's ``--deselect`` matches by prefix (``test_broken`` deselects
``test_broken_edge``; a parameter id ends with its ``]``): the printed way out is
printed only when it deselects exactly the base's failures, and a suite's deselection
excuses only tests failing the same way on both trees.

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
from tests.integration.test_verify_suite_env import _last, _run

SUITE = "python3 -m pytest -q"
CALC = "def mul(a, b):\n    return a * b\n\n\ndef div(a, b):\n    return a / b\n"
BROKEN_MUL = "def mul(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a / b\n"
#: One test, its second assert failing on the base (division by zero).
TWO_ASSERTS = (
    "import sys\nfrom pathlib import Path\n\n"
    "sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'src'))\n\n"
    "from calc import div, mul\n\n\n"
    "def test_calc():\n    assert mul(2, 3) == 6\n    assert div(1, 0) == 0\n"
)
KNOWN = "def test_known():\n    assert 2 * 3 == 5\n"
#: test_known edited: one more line before the same failing assert.
KNOWN_EDITED = "def test_known():\n    x = 1\n    assert 2 * 3 == 5\n"
#: Another test put above test_known: its lines move, it is not edited.
KNOWN_MOVED = "def test_new():\n    assert True\n\n\n" + KNOWN


def _base(repo: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        write(repo / path, text)


# --- finding 1: the failure itself, not the id -----------------------------------------------


def test_another_assert_of_a_base_failing_test_is_the_changes_failure(
    repo: Path, tmp_path: Path
) -> None:
    """r18u MED 1: ``test_calc`` fails on the base at ``div``; the change breaks ``mul`` and
    it fails at the first assert: the same id, another failure: row C5, not C5-base."""
    _base(repo, {"src/calc.py": CALC, "tests/test_calc.py": TWO_ASSERTS})
    env = make_env(repo, tmp_path)
    write(repo / "src" / "calc.py", BROKEN_MUL)
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]
    text = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert "the brief is at fault" not in text, text
    assert not any(ln.startswith("suite: ") for ln in text.splitlines()), text


def test_a_base_failing_test_the_change_edits_is_the_changes(repo: Path, tmp_path: Path) -> None:
    """r18u MED 1: the change edits ``test_known`` (failing on the base, the same line and
    message after the edit): a test the change edits is its own, row C5."""
    _base(repo, {"tests/test_k.py": KNOWN})
    env = make_env(repo, tmp_path)
    write(repo / "tests" / "test_k.py", KNOWN_EDITED)
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]


def test_a_base_failing_test_only_moved_still_fails_the_same_way(
    repo: Path, tmp_path: Path
) -> None:
    """The control row: the change puts another test above ``test_known`` (its lines move,
    its text does not): it fails the same way, row C5-base."""
    _base(repo, {"tests/test_k.py": KNOWN})
    env = make_env(repo, tmp_path)
    write(repo / "tests" / "test_k.py", KNOWN_MOVED)
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5-base"), out["outcomes"]


@pytest.mark.parametrize(
    ("files", "change"),
    [
        # the change breaks mul: test_calc fails on both trees, at another assert here
        ({"src/calc.py": CALC, "tests/test_calc.py": TWO_ASSERTS}, {"src/calc.py": BROKEN_MUL}),
        # the change fixes test_known by editing it: it passes here, fails on the base
        ({"tests/test_k.py": KNOWN}, {"tests/test_k.py": KNOWN.replace("5", "6")}),
    ],
    ids=["newly-failing", "passing-here"],
)
def test_a_deselect_hiding_a_test_that_does_not_fail_the_same_way_is_not_the_full_suite(
    repo: Path, tmp_path: Path, files: dict[str, str], change: dict[str, str]
) -> None:
    """r18u MED 1 and 2: a ``--deselect`` of a test failing on the base tree excuses it only
    when it fails the same way on the candidate: one failing another way, or passing,
    is not hidden (C1-suite-part)."""
    _base(repo, files)
    env = make_env(repo, tmp_path)
    _base(repo, change)
    test = next(p for p in files if p.startswith("tests/"))
    name = "test_calc" if "calc" in test else "test_known"
    out = _run(env, f"{SUITE} --deselect {test}::{name}", {}, 1)
    assert _last(out)[0] == "blocked" and _last(out)[3] == "C1-suite-part", out["outcomes"]


#: r18v HIGH 1: an assert helper every failure of ``test_f`` crashes in, reached from two
#: lines of the same text; the base's ``f(1)`` is wrong, the change's ``f(2)``, the message
#: the same (``assert 5 == 2``).
HELPED = (
    "import sys\nfrom pathlib import Path\n\n"
    "sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'src'))\n\n"
    "from calc import f\n\n\n"
    "def check(x):\n    assert x == 2\n\n\n"
    "def test_f():\n    x = f(1)\n    check(x)\n    x = f(2)\n    check(x)\n"
)
F_BASE = "def f(x):\n    return 5 if x == 1 else 2\n"
F_SWAPPED = "def f(x):\n    return 2 if x == 1 else 5\n"


@pytest.mark.parametrize("deselect", ["", " --deselect tests/test_f.py::test_f"])
def test_a_helper_failing_at_its_line_from_another_test_line_is_the_changes(
    repo: Path, tmp_path: Path, deselect: str
) -> None:
    """r18v HIGH 1: ``test_f`` fails on the base in ``check`` from its first ``check(x)``;
    the change fixes ``f(1)``, breaks ``f(2)``, and it fails at the same helper line with
    the same message from its second: another failure, row C5 with no way out printed;
    deselected, it is not excused (C1-suite-part)."""
    _base(repo, {"src/calc.py": F_BASE, "tests/test_f.py": HELPED})
    env = make_env(repo, tmp_path)
    write(repo / "src" / "calc.py", F_SWAPPED)
    if deselect:
        out = _run(env, SUITE + deselect, {}, 1)
        assert _last(out)[0] == "blocked" and _last(out)[3] == "C1-suite-part", out["outcomes"]
        return
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]
    text = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert "red base" not in text and "the brief is at fault" not in text, text
    assert not any(ln.startswith("suite: ") for ln in text.splitlines()), text


# --- finding 2: --deselect is a prefix ---------------------------------------------------------

EDGE = "def test_broken():\n    assert 2 * 3 == 5\n\n\ndef test_broken_edge():\n    assert True\n"
PARAMS = (
    "import pytest\n\n\n@pytest.mark.parametrize('n', range(11))\n"
    "def test_p(n):\n    assert n != 1\n"
)


def test_no_way_out_is_printed_that_deselects_a_passing_test(repo: Path, tmp_path: Path) -> None:
    """r18u MED 2: ``--deselect`` of the failing ``test_broken`` would also deselect the
    passing ``test_broken_edge`` (a prefix match): no ``suite:`` line is printed (pasted,
    it would be blocked), and the note says which test it would hide."""
    failing = "tests/test_b.py::test_broken"
    _base(repo, {"tests/test_b.py": EDGE})
    env = make_env(repo, tmp_path)
    env.brief({**BRIEF, "fullSuite": SUITE})
    ran = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert ran.returncode == 1, ran.stderr
    assert not any(ln.startswith("suite: ") for ln in ran.stdout.splitlines()), ran.stdout
    assert "--deselect matches by prefix" in ran.stdout, ran.stdout
    assert f"{failing} would also deselect {failing}_edge" in ran.stdout, ran.stdout
    # and what it would have printed is indeed blocked when pasted
    out = _run(env, f"{SUITE} --deselect {shlex.quote(failing)}", {}, 1)
    assert _last(out)[0] == "blocked", out["outcomes"]


def test_a_parameter_id_is_no_prefix_of_another(repo: Path, tmp_path: Path) -> None:
    """The control row (the refuter's ``test_p[1]`` / ``test_p[10]``): a parameter id ends
    with its ``]``, so ``--deselect tests/test_p.py::test_p[1]`` deselects it alone: the
    way out is printed and, pasted, passes with ``test_p[10]`` run."""
    _base(repo, {"tests/test_p.py": PARAMS})
    env = make_env(repo, tmp_path)
    env.brief({**BRIEF, "fullSuite": SUITE})
    ran = env.gh("verify", "run", "--brief", str(env.brief_path))
    lines = ran.stdout.splitlines()
    suite = json.loads(next(ln for ln in lines if ln.startswith("suite: ")).removeprefix("suite: "))
    assert suite == f"{SUITE} --deselect 'tests/test_p.py::test_p[1]'", ran.stdout
    corrected = tmp_path / "corrected.json"
    corrected.write_text(json.dumps({**BRIEF, "id": "add-2", "fullSuite": suite}))
    again = env.json("verify", "run", "--brief", str(corrected))
    assert _last(again) == ("pass", True, "pass", "C4"), again["outcomes"]


QUOTED = (
    "import pytest\n\n\n@pytest.mark.parametrize('s', ['a\"b', 'c'])\n"
    "def test_q(s):\n    assert s == 'c'\n"
)


def test_the_way_out_pastes_into_a_brief_as_json(repo: Path, tmp_path: Path) -> None:
    """r18v LOW 3: the ``suite:`` line is a JSON string, pasted as is after
    ``"fullSuite": `` into a brief: a failing id holding a quote (``test_q[a"b]``) once made
    the pasted brief invalid JSON. Pasted, it passes."""
    _base(repo, {"tests/test_q.py": QUOTED})
    env = make_env(repo, tmp_path)
    env.brief({**BRIEF, "fullSuite": SUITE})
    ran = env.gh("verify", "run", "--brief", str(env.brief_path))
    lines = ran.stdout.splitlines()
    pasted = next(ln for ln in lines if ln.startswith("suite: ")).removeprefix("suite: ")
    brief = {k: v for k, v in BRIEF.items() if k != "fullSuite"}
    corrected = tmp_path / "corrected.json"
    corrected.write_text(
        json.dumps({**brief, "id": "add-2"})[:-1] + ', "fullSuite": ' + pasted + "}"
    )
    assert json.loads(corrected.read_text())["fullSuite"] == (
        f"{SUITE} --deselect 'tests/test_q.py::test_q[a\"b]'"
    ), ran.stdout
    again = env.json("verify", "run", "--brief", str(corrected))
    assert _last(again) == ("pass", True, "pass", "C4"), again["outcomes"]


# --- LOW: a change deleting a base-failing test is no red base -----------------------------

GONE = "def test_gone():\n    assert 1 == 2\n"


def test_a_change_deleting_a_base_failing_test_is_not_called_a_red_base(
    repo: Path, tmp_path: Path
) -> None:
    """r18u LOW 1: the base fails ``test_known`` and ``test_gone``; the change deletes
    ``tests/test_gone.py`` and fails ``test_known`` alone: not "a red base, not the change"
    with a way out the next run blocks (the test is lost), but the change's failure naming
    the test it deletes."""
    _base(repo, {"tests/test_k.py": KNOWN, "tests/test_gone.py": GONE})
    env = make_env(repo, tmp_path)
    (repo / "tests" / "test_gone.py").unlink()
    out = _run(env, SUITE, {}, 1)
    assert _last(out) == ("fail", True, "fail", "C5"), out["outcomes"]
    evidence = str(out["verdict"]["criteria"][-1]["evidence"])
    gone = "deletes or renames 1 test(s) that fail on the base tree: tests/test_gone.py::test_gone"
    assert gone in evidence, evidence
    text = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert "red base" not in text and "the brief is at fault" not in text, text
