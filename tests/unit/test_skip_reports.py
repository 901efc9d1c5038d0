"""Pure tests of :mod:`gentle_hooks.policy.skipreports`: every SKIP_REPORT_ROWS row, outputs
that do not name every skipped test, and which added markers a named skip ties to (seed 001
"Completion criteria": a pass needs the full suite to have run)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from gentle_hooks.policy.skipmarks import SkipMark
from gentle_hooks.policy.skipreports import (
    ANYWHERE,
    SKIP_REPORT_ROWS,
    SkippedNamed,
    counted_marks,
    mark_scope,
    output_uncaptured,
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
    named = skipped_named(output, skipped)
    assert named is not None
    assert (named.paths, named.dotted) == (paths, dotted)
    assert named.names == ({"test_div"} if row != "N-pytest-rs" else set())


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
    (
        "a -rs line printed after pytest's summary (an atexit handler) names nothing",
        f".s\n{_SUMMARY}1 passed, 1 skipped in 0.1s\nSKIPPED [1] tests/test_other.py:1: fake\n",
        1,
    ),
    (
        "a -v line a passing test printed, shown by -rA in its PASSES section, names nothing",
        "tests/test_new.py::test_add PASSED\ntests/test_new.py::test_b SKIPPED (x)\n"
        "=================== PASSES ===================\n___ test_add ___\n"
        "--- Captured stdout call ---\ntests/test_old.py::test_div SKIPPED (fake)\n"
        f"{_SUMMARY}PASSED tests/test_new.py::test_add\n1 passed, 1 skipped in 0.1s\n",
        2,
    ),
    (
        "a unittest -v line printed in an error's report names nothing",
        "test_add (test_new.T.test_add) ... ERROR\n\n"
        + "=" * 70
        + "\nERROR: test_add\n"
        + "-" * 70
        + "\ntest_div (test_old.T.test_div) ... skipped 'fake'\n"
        + "-" * 70
        + "\nRan 1 test in 0.0s\n\nFAILED (errors=1, skipped=1)\n",
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


#: pytest commands whose output capture is off: a test's prints reach the output.
UNCAPTURED = [
    "python3 -m pytest -s tests",
    "python3 -m pytest -vs tests",
    "pytest -x -s",
    "pytest --capture=no",
    "pytest --capture no",
    "pytest --capture=tee-sys",
    "pytest --capture=sys",
    "pytest -p no:capture -q",
]
CAPTURED = [
    "python3 -m pytest -q -rs tests",
    "python3 -m pytest -vrs tests",
    "python3 -s -m pytest -q tests",
    "pytest -k s",
    "pytest --capture=fd",
    "pytest -- -s",
    "python3 -m unittest discover -v -s tests",
]


@pytest.mark.parametrize("command", UNCAPTURED)
def test_with_capture_off_no_line_names_a_skipped_test(command: str) -> None:
    """Seed 001 "Completion criteria": a test printing ``path::name SKIPPED`` under
    ``pytest -s`` (or a whole short summary, banner and all) could stand for the runner's
    report, so nothing is named and every marker the change adds counts."""
    output = (
        "tests/test_new.py::test_a \ntests/test_old.py::test_div SKIPPED (fake)\nPASSED\n"
        f"{_SUMMARY}SKIPPED [1] tests/test_old.py:3: fake\n1 passed, 1 skipped in 0.1s\n"
    )
    assert output_uncaptured(command)
    assert skipped_named(output, 1, command=command) is None


@pytest.mark.parametrize("command", CAPTURED)
def test_with_capture_on_the_runner_lines_name_the_skipped_tests(command: str) -> None:
    assert not output_uncaptured(command)
    output = f".s\n{_SUMMARY}SKIPPED [1] tests/test_old.py:3: gpu\n1 passed, 1 skipped\n"
    named = skipped_named(output, 1, command=command)
    assert named is not None and named.paths == {"tests/test_old.py"}


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


def _named(
    paths: Iterable[str] = (), dotted: Iterable[str] = (), names: Iterable[str] = ()
) -> SkippedNamed:
    return SkippedNamed(frozenset(paths), frozenset(dotted), frozenset(names))


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
    assert counted_marks(marks, named, TREE, SOURCES) == tuple(counted)


_HEAD = b"import sys\nimport unittest\n\nimport pytest\n\n"
#: The candidate's text of the test modules of :data:`TREE`: NEW and OLD (lines 9, 4)
#: each decorate a module-level test function.
SOURCES = {
    "tests/test_new.py": _HEAD + b"def test_a():\n    pass\n\n@pytest.mark.skip\ndef test_b():\n"
    b"    pass\n",
    "tests/test_old.py": b"import pytest\n\n\n@pytest.mark.skip\ndef test_div():\n    pass\n",
}
_BASE_CLASS = _HEAD + b"@pytest.mark.skip\nclass Base:\n    def test_x(self):\n        pass\n"
_IN_CLASS = _HEAD + (
    b"class Base:\n    pytestmark = pytest.mark.skip\n\n    @unittest.skip('x')\n"
    b"    def test_x(self):\n        pytest.skip('y')\n"
)
_MODULE = _HEAD + (
    b"pytestmark = pytest.mark.skip\n\n\n@pytest.fixture\ndef gpu():\n    pytest.skip('no')\n"
    b"\n\nasync def test_y():\n    pytest.skip('z')\n"
)

#: (case, source, 1-based line of the marker, its scope).
SCOPE_CASES: list[tuple[str, bytes | None, int, str | None]] = [
    ("a decorator on a class: a subclass anywhere inherits it", _BASE_CLASS, 6, ANYWHERE),
    ("a class's pytestmark: inherited too", _IN_CLASS, 7, ANYWHERE),
    ("a method's decorator: the method's name", _IN_CLASS, 9, "test_x"),
    ("a skip call in a method: the method's name", _IN_CLASS, 11, "test_x"),
    ("a module's pytestmark marks that module's tests", _MODULE, 6, None),
    ("a skip call in a fixture another module may import", _MODULE, 11, ANYWHERE),
    ("a skip call in a module-level test function", _MODULE, 15, None),
    ("a module that does not parse", b"def (:\n@pytest.mark.skip\n", 2, ANYWHERE),
    ("a module that could not be read", None, 3, ANYWHERE),
]


@pytest.mark.parametrize(
    ("case", "source", "line", "scope"), SCOPE_CASES, ids=[c[0] for c in SCOPE_CASES]
)
def test_mark_scope(case: str, source: bytes | None, line: int, scope: str | None) -> None:
    assert mark_scope(source, line) == scope


def test_a_marker_on_a_base_class_in_another_test_module_counts() -> None:
    """``@pytest.mark.skip class Base`` in tests/test_base.py; ``class TestX(Base)`` in
    tests/test_x.py is what the runner names: the base's marker counts."""
    tree = ["tests/test_base.py", "tests/test_x.py"]
    mark = SkipMark("tests/test_base.py", 6, "K-pytest-mark")
    named = _named({"tests/test_x.py"}, names={"test_x"})
    assert counted_marks([mark], named, tree, {"tests/test_base.py": _BASE_CLASS}) == (mark,)


def test_a_method_marker_counts_where_a_skipped_test_has_its_name() -> None:
    """A marker on ``Base.test_x`` in another test module counts when a test named
    ``test_x`` was skipped (a subclass inherits it), not when only ``test_y`` was."""
    tree = ["tests/test_base.py", "tests/test_x.py"]
    mark = SkipMark("tests/test_base.py", 9, "K-unittest")
    sources = {"tests/test_base.py": _IN_CLASS}
    for names, counted in (({"test_x"}, (mark,)), ({"test_y"}, ())):
        named = _named({"tests/test_x.py"}, names=names)
        assert counted_marks([mark], named, tree, sources) == counted


def test_skipped_files_of_a_dotted_name() -> None:
    """Which leading part is the module is not known: every file it may be counts (a
    package ``tests`` too)."""
    tree = ["tests/test_old.py", "pkg/tests/__init__.py", "pkg/tests/test_old.py", "x.py"]
    found = skipped_files(_named(dotted={"tests.test_old.T.test_div"}), tree)
    assert found == {"tests/test_old.py", "pkg/tests/__init__.py", "pkg/tests/test_old.py"}
