"""Pure tests of :mod:`gentle_hooks.policy.skipreports`: every SKIP_REPORT_ROWS row, outputs
that do not name every skipped test, and which added markers a named skip ties to (seed 001
"Completion criteria": a pass needs the full suite to have run)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from gentle_hooks.policy.skipmarks import SkipMark
from gentle_hooks.policy.skipreports import (
    SKIP_REPORT_ROWS,
    SkippedNamed,
    counted_marks,
    skipped_files,
    skipped_named,
)

_SUMMARY = "=========================== short test summary info ============================\n"

#: (row id, runner output, tests skipped, the paths and dotted names it names).
ROW_CASES: list[tuple[str, str, int, set[str], set[str]]] = [
    (
        "N-pytest-rs",
        f"s.s\n{_SUMMARY}SKIPPED [2] tests/test_old.py:12: needs a GPU\n"
        "========== 1 passed, 2 skipped in 0.1s ==========\n",
        2,
        {"tests/test_old.py"},
        set(),
    ),
    (
        "N-pytest-rx",
        f"x.\n{_SUMMARY}XFAIL tests/test_old.py::test_div - known\n1 passed, 1 xfailed in 0.1s\n",
        1,
        {"tests/test_old.py"},
        set(),
    ),
    (
        "N-pytest-v",
        "tests/test_new.py::test_add PASSED   [ 50%]\n"
        "tests/test_old.py::T::test_div SKIPPED (no gpu)   [100%]\n1 passed, 1 skipped in 0.1s\n",
        1,
        {"tests/test_old.py"},
        set(),
    ),
    (
        "N-pytest-xdist",
        "[gw0] [ 50%] PASSED tests/test_new.py::test_add\n"
        "[gw1] [100%] SKIPPED tests/test_old.py::test_div\n1 passed, 1 skipped in 0.1s\n",
        1,
        {"tests/test_old.py"},
        set(),
    ),
    (
        "N-unittest-v",
        "test_add (test_new.T.test_add) ... ok\n"
        "test_div (test_old.T.test_div) ... skipped 'no gpu'\n\nRan 2 tests in 0.0s\n\n"
        "OK (skipped=1)\n",
        1,
        set(),
        {"test_old.T.test_div"},
    ),
]


@pytest.mark.parametrize(
    ("row", "output", "skipped", "paths", "dotted"), ROW_CASES, ids=[c[0] for c in ROW_CASES]
)
def test_skip_report_rows(
    row: str, output: str, skipped: int, paths: set[str], dotted: set[str]
) -> None:
    assert skipped_named(output, skipped) == SkippedNamed(frozenset(paths), frozenset(dotted))


def test_every_skip_report_row_is_covered() -> None:
    assert {c[0] for c in ROW_CASES} == {r.id for r in SKIP_REPORT_ROWS}


#: (case, output, tests skipped): outputs that do not name every test they skipped.
UNNAMED_CASES = [
    ("pytest -q names none", "s.\n1 passed, 1 skipped in 0.1s\n", 1),
    (
        "pytest -rs does not name the xfailed one",
        f"sx\n{_SUMMARY}SKIPPED [1] tests/test_old.py:3: old\n1 skipped, 1 xfailed in 0.1s\n",
        2,
    ),
    (
        "pytest -v does not name a module skipped as it is collected",
        "collected 1 item / 1 skipped\ntests/test_a.py::test_x SKIPPED (x)\n2 skipped in 0.1s\n",
        2,
    ),
    (
        "a summary line printed by a test before pytest's own summary names nothing",
        f"{_SUMMARY}SKIPPED [1] tests/test_other.py:1: fake\n.s\n{_SUMMARY}"
        "1 passed, 1 skipped in 0.1s\n",
        1,
    ),
    ("unittest without -v names none", "s.\nRan 2 tests in 0.0s\n\nOK (skipped=1)\n", 1),
    ("node --test names no file", "ok 1 - add # SKIP flaky\n# tests 1\n# skipped 1\n", 1),
    ("nothing skipped", "tests/test_a.py::test_x SKIPPED\n", 0),
]


@pytest.mark.parametrize(
    ("case", "output", "skipped"), UNNAMED_CASES, ids=[c[0] for c in UNNAMED_CASES]
)
def test_an_output_that_does_not_name_every_skip_names_none(
    case: str, output: str, skipped: int
) -> None:
    assert skipped_named(output, skipped) is None


def test_an_absolute_path_under_the_tree_is_made_relative() -> None:
    output = "/room/tree/tests/test_old.py::test_div SKIPPED\n1 skipped in 0.1s\n"
    named = skipped_named(output, 1, "/room/tree")
    assert named is not None and named.paths == {"tests/test_old.py"}


TREE = [
    "src/app.py",
    "tests/conftest.py",
    "tests/helpers.py",
    "tests/test_new.py",
    "tests/test_old.py",
    "tests/app.test.js",
]
NEW = SkipMark("tests/test_new.py", 9, "K-pytest-mark")
OLD = SkipMark("tests/test_old.py", 4, "K-pytest-mark")
CONFTEST = SkipMark("tests/conftest.py", 7, "K-pytest-call")
HELPER = SkipMark("tests/helpers.py", 2, "K-pytest-mark")
JS = SkipMark("tests/app.test.js", 3, "K-js-method")


def _named(paths: Iterable[str] = (), dotted: Iterable[str] = ()) -> SkippedNamed:
    return SkippedNamed(frozenset(paths), frozenset(dotted))


#: (case, markers the change adds, what the output names, the markers that count).
TIE_CASES: list[tuple[str, list[SkipMark], SkippedNamed | None, list[SkipMark]]] = [
    (
        "a marker on a new test that ran, beside an old skipped test: none counts",
        [NEW],
        _named({"tests/test_old.py"}),
        [],
    ),
    ("a marker in the skipped test's file counts", [NEW, OLD], _named({"test_old.py"}), [OLD]),
    (
        "unittest's dotted name ties to its module's file",
        [NEW, OLD],
        _named(dotted={"test_old.T.t"}),
        [OLD],
    ),
    ("the output names no skipped test: every marker counts", [NEW, JS], None, [NEW, JS]),
    (
        "a conftest.py or helper marker can skip any test: it counts",
        [CONFTEST, HELPER, NEW],
        _named({"tests/test_old.py"}),
        [CONFTEST, HELPER],
    ),
    (
        "a named test in no file of the tree: where it is is unknown, every marker counts",
        [NEW],
        _named(dotted={"unittest.loader.ModuleSkipped.test_new"}),
        [NEW],
    ),
    ("a named path not in the tree: every marker counts", [NEW], _named({"elsewhere/t.py"}), [NEW]),
]


@pytest.mark.parametrize(
    ("case", "marks", "named", "counted"), TIE_CASES, ids=[c[0] for c in TIE_CASES]
)
def test_counted_marks(
    case: str, marks: list[SkipMark], named: SkippedNamed | None, counted: list[SkipMark]
) -> None:
    assert counted_marks(marks, named, TREE) == tuple(counted)


def test_skipped_files_of_a_dotted_name() -> None:
    """Which leading part is the module is not known: every file it may be counts (a
    package ``tests`` too)."""
    tree = ["tests/test_old.py", "pkg/tests/__init__.py", "pkg/tests/test_old.py", "x.py"]
    found = skipped_files(_named(dotted={"tests.test_old.T.test_div"}), tree)
    assert found == {"tests/test_old.py", "pkg/tests/__init__.py", "pkg/tests/test_old.py"}
