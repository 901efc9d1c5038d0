"""policy/selection.py: a test run that selected some tests is not the full suite (seed 001
"Rules": "A pass verdict requires the full suite to have run"; refuter r18x F3).

Every :data:`SELECTION_ROWS` row has a case; so do the runs that are the full suite.
"""

from __future__ import annotations

import pytest

from gentle_hooks.policy.selection import (
    SELECTION_ROWS,
    deselected_ids,
    part_operands,
    selection,
    selection_said,
    steers_discovery,
)

#: (id, command, output, the row met or None).
CASES: list[tuple[str, str, str, str | None]] = [
    ("pytest-k", "pytest -q -k test_add", "1 passed, 1 deselected in 0.01s", "P-pytest-flag"),
    ("pytest-m-after-module", "python3 -m pytest -q -m slow", "", "P-pytest-flag"),
    ("pytest-k-attached", "pytest -ktest_add", "", "P-pytest-flag"),
    ("pytest-deselect", "pytest --deselect=tests/a.py::t", "", "P-pytest-flag"),
    ("pytest-lf", "python3 -m pytest --lf", "", "P-pytest-flag"),
    ("pytest-node", "pytest tests/test_a.py::test_add", "", "P-pytest-node"),
    ("unittest-k", "python3 -m unittest -k add", "", "P-unittest-flag"),
    ("jest-t", "npx jest -t add", "", "P-jest-flag"),
    ("mocha-grep", "mocha --grep add", "", "P-mocha-flag"),
    ("node-pattern", "node --test --test-name-pattern=add", "", "P-node-flag"),
    ("go-run", "go test -run TestAdd ./...", "", "P-go-flag"),
    ("cargo-skip", "cargo test -- --skip slow", "", "P-cargo-flag"),
    (
        "addopts-deselected",
        "python3 -m pytest -q",
        "==== 2 passed, 3 deselected in 0.10s ====",
        "P-deselected",
    ),
    (
        "cargo-filtered",
        "cargo test",
        "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out",
        "P-filtered",
    ),
    # refuter F1 (issue 18): a "full suite" of one test file passed while tests/ failed
    ("operand-file", "python3 -m pytest -q tests/test_sub.py", "1 passed in 0.01s", "P-operand"),
    ("operand-subdir", "pytest -q tests/unit", "", "P-operand"),
    ("operand-top-file", "pytest test_add.py", "", "P-operand"),
    ("operand-unittest-module", "python3 -m unittest tests.test_add", "", "P-operand"),
    ("operand-go-package", "go test ./pkg/...", "", "P-operand"),
    ("operand-jest-file", "npx jest src/a.test.js", "", "P-operand"),
    ("full-pytest-dir-slash", "pytest -q ./tests/", "", None),
    ("full-pytest-value-flag", "pytest --tb short --junitxml out/r.xml tests", "", None),
    ("pytest-override-ini", "pytest -o addopts=--ignore=tests/b.py tests", "", "P-pytest-config"),
    ("pytest-override-ini-long", "pytest --override-ini=testpaths=a tests", "", "P-pytest-config"),
    ("pytest-plugin", "python3 -m pytest -q -p plug tests", "", "P-pytest-config"),
    ("pytest-plugin-attached", "pytest -pno:doctest tests", "", "P-pytest-config"),
    ("pytest-config-file", "pytest -c other.ini tests", "", "P-pytest-config"),
    ("pytest-config-file-long", "pytest --config-file=other.toml", "", "P-pytest-config"),
    ("pytest-rootdir", "pytest --rootdir sub tests", "", "P-pytest-config"),
    ("pytest-confcutdir", "pytest --confcutdir=tests tests", "", "P-pytest-config"),
    ("pytest-pyargs", "pytest --pyargs pkg", "", "P-pytest-config"),
    # issue 18, LOW: options that select nothing were reported as selecting tests; each
    # narrowing option is still a selection, each harmless one is accepted silently, and an
    # option that overrides the configuration says so (P-pytest-config: its own words)
    ("harmless-W-error-class", "python3 -m pytest -q -W error::DeprecationWarning", "", None),
    ("harmless-W-error-attached", "pytest -Werror::UserWarning tests", "", None),
    ("harmless-W-error-bare", "pytest -W error tests", "", None),
    ("harmless-pythonwarnings-error", "pytest --pythonwarnings=error::UserWarning", "", None),
    ("harmless-p-no-cacheprovider", "python3 -m pytest -q -p no:cacheprovider", "", None),
    ("harmless-p-no-randomly-attached", "pytest -pno:randomly tests", "", None),
    ("harmless-p-no-xdist", "pytest -n 2 -p no:xdist", "", None),
    (
        "harmless-refuter-line",
        "python3 -m pytest -q -W error::DeprecationWarning -p no:cacheprovider tests",
        "3 passed in 0.10s",
        None,
    ),
    ("harmless-x", "python3 -m pytest -x tests", "", None),
    ("harmless-maxfail", "pytest --maxfail=2 tests", "", None),
    ("harmless-ff", "pytest --ff tests", "", None),
    ("harmless-nf", "pytest --nf tests", "", None),
    ("harmless-new-first", "pytest --new-first", "", None),
    ("harmless-value-with-colons", "pytest --junitxml out::r.xml tests", "", None),
    ("config-W-ignore", "pytest -W ignore::DeprecationWarning tests", "", "P-pytest-config"),
    ("config-W-default-attached", "pytest -Wdefault tests", "", "P-pytest-config"),
    ("config-pythonwarnings-ignore", "pytest --pythonwarnings ignore", "", "P-pytest-config"),
    ("config-p-no-doctest", "pytest -p no:doctest tests", "", "P-pytest-config"),
    ("config-p-no-warnings", "pytest -p no:warnings tests", "", "P-pytest-config"),
    ("config-p-no-cacheprovider-lookalike", "pytest -p no:cacheprovider2", "", "P-pytest-config"),
    ("narrow-k-beside-harmless", "pytest -p no:cacheprovider -k add", "", "P-pytest-flag"),
    ("narrow-m-beside-W-error", "pytest -W error::UserWarning -m slow", "", "P-pytest-flag"),
    ("narrow-deselect", "pytest --deselect tests/a.py::t tests", "", "P-pytest-flag"),
    ("narrow-ignore", "pytest --ignore=tests/b.py", "", "P-pytest-flag"),
    ("narrow-ignore-glob", "pytest --ignore-glob='*_slow.py'", "", "P-pytest-flag"),
    ("narrow-sw", "pytest --sw", "", "P-pytest-flag"),
    ("narrow-node-after-W-error", "pytest -W error tests/a.py::t", "", "P-pytest-node"),
    # refuter r18y (issue 18): discover narrowed by its pattern or start directory passed
    ("ut-disc-pattern", "python3 -m unittest discover -p 'test_app*'", "", "P-operand"),
    ("ut-disc-pattern-long", "python3 -m unittest discover --pattern=t_a.py", "", "P-operand"),
    ("ut-disc-pattern-attached", "python3 -m unittest discover -ptest_a*", "", "P-operand"),
    ("ut-disc-subdir", "python3 -m unittest discover -s tests/unit -t .", "", "P-operand"),
    ("ut-disc-subdir-positional", "python3 -m unittest discover tests/unit", "", "P-operand"),
    ("ut-disc-positional-pattern", "python3 -m unittest discover . 'a*.py'", "", "P-operand"),
    ("full-unittest-discover", "python3 -m unittest discover -s tests", "", None),
    ("full-ut-disc-default", "python3 -m unittest discover -v -p 'test*.py' -t .", "", None),
    ("full-ut-disc-dot", "python3 -m unittest discover .", "", None),
    ("full-go", "go test -count 1 ./...", "", None),
    ("full-pytest", "python3 -m pytest -q tests", "2 passed in 0.10s", None),
    ("full-pytest-x", "python3 -m pytest -x -q", "2 passed in 0.10s", None),
    (
        "full-cargo",
        "cargo test",
        "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out",
        None,
    ),
    ("no-runner", "sh check.sh -k x", "", None),
]


@pytest.mark.parametrize(
    ("command", "output", "row"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_selection_rows(command: str, output: str, row: str | None) -> None:
    found = selection(command, output)
    assert (found.id if found else None) == row


def test_every_row_has_a_case() -> None:
    steered = {"P-unittest-load-tests"}  # test_a_change_that_steers_discovery_selects
    assert {c[3] for c in CASES} - {None} | steered == {r.id for r in SELECTION_ROWS}


def test_a_change_that_steers_discovery_selects() -> None:
    """Refuter r17 (issue 18): a unittest run whose discovery the change steers is a part
    (row P-unittest-load-tests); pytest does not call load_tests, and no steering is none."""
    found = selection("python3 -m unittest -v", "Ran 2 tests", steering=("tests/__init__.py",))
    assert found is not None and found.id == "P-unittest-load-tests"
    steered = ("tests/__init__.py",)
    assert selection("python3 -m unittest -v", "Ran 2 tests", operands=False, steering=steered)
    assert selection("python3 -m pytest -q", "2 passed in 0.1s", steering=steered) is None
    assert selection("python3 -m unittest -v", "Ran 2 tests") is None


LOADER = b"def load_tests(loader, tests, pattern):\n    return tests\n"


@pytest.mark.parametrize(
    ("path", "old", "new", "steers"),
    [
        ("tests/__init__.py", None, LOADER, True),
        ("tests/__init__.py", b"", LOADER, True),
        ("tests/__init__.py", LOADER, b"", True),
        ("tests/test_a.py", b"x = 1\n", LOADER, True),
        ("app/__init__.py", b"", b"from helpers import load_tests\n", True),
        ("tests/__init__.py", None, b"", True),
        ("tests/unit/__init__.py", b"", None, True),
        ("pkg/unit_tests/__init__.py", b"", b"# x\n", True),
        ("tests/__init__.py", LOADER, LOADER, False),
        ("app/__init__.py", b"", b"VERSION = 2\n", False),
        ("tests/test_a.py", b"x = 1\n", b"x = 2\n", False),
        ("tests/load_tests.txt", None, LOADER, False),
        ("contest/__init__.py", None, b"", False),
    ],
    ids=[
        "init-added-with-load-tests",
        "load-tests-added-to-init",
        "load-tests-removed",
        "test-module-defines-it",
        "imported-into-a-package",
        "test-package-made",
        "test-package-unmade",
        "suffix-test-dir",
        "identical-on-the-base",
        "code-package-init",
        "test-module-edited",
        "not-python",
        "not-a-test-dir",
    ],
)
def test_steers_discovery(path: str, old: bytes | None, new: bytes | None, steers: bool) -> None:
    assert steers_discovery(path, old, new) is steers


def test_an_operand_is_the_brief_word_when_a_full_suite_is_declared() -> None:
    """With ``verification.full_suite`` declared the declared suite is the full suite: a
    brief's file operand no longer makes its own suite a part (flags still do)."""
    assert selection("python3 -m pytest -q tests/test_sub.py", "", operands=False) is None
    found = selection("python3 -m pytest -q -k add tests", "", operands=False)
    assert found is not None and found.id == "P-pytest-flag"


def test_an_operand_through_a_link_is_judged_by_where_it_leads() -> None:
    """``all -> tests/unit`` (issue 18, h18h finding 3): the operand ``all`` is a part;
    ``whole -> tests`` and ``here -> .`` stay the whole tree."""
    links = {"all": "tests/unit", "whole": "tests", "here": "."}
    assert part_operands("pytest -q all", links) == ("all",)
    assert selection("pytest -q all", "", links=links) is not None
    assert part_operands("pytest -q all") == ()
    assert part_operands("pytest -q whole here", links) == ()


def test_each_row_says_what_its_run_did() -> None:
    """Issue 18, LOW: a run under another pytest configuration selected nothing; its
    evidence says what its options did, never that it ran some of the tests."""
    config = selection_said("P-pytest-config")
    assert "override the repository's pytest configuration" in config
    assert "some of the tests" not in config
    for row in SELECTION_ROWS:
        if row.id != "P-pytest-config":
            assert selection_said(row.id) == "it ran some of the tests, not the full suite"
    assert selection_said("P-gone") == "it ran some of the tests, not the full suite"


DESELECT = "python3 -m pytest -q --deselect tests/test_k.py::test_known"


@pytest.mark.parametrize(
    ("command", "output", "excused", "row"),
    [
        (DESELECT, "2 passed, 1 deselected in 0.03s", {"tests/test_k.py::test_known"}, None),
        (DESELECT, "2 passed, 1 deselected in 0.03s", set(), "P-pytest-flag"),
        # the configuration's addopts deselects one more than the base's failures
        (
            DESELECT,
            "2 passed, 2 deselected in 0.03s",
            {"tests/test_k.py::test_known"},
            "P-deselected",
        ),
        (
            DESELECT + " --deselect tests/test_a.py::test_a",
            "1 passed, 2 deselected in 0.03s",
            {"tests/test_k.py::test_known"},
            "P-pytest-flag",
        ),
        (DESELECT + " -k add", "", {"tests/test_k.py::test_known"}, "P-pytest-flag"),
    ],
    ids=["excused", "not-excused", "more-deselected", "one-not-excused", "and-k"],
)
def test_a_deselection_of_the_bases_failures_selects_nothing(
    command: str, output: str, excused: set[str], row: str | None
) -> None:
    """Rule R2's way out of a red base (issue 18): ``--deselect`` of tests verify run saw
    failing on the base tree (``excused``) selects nothing; anything beyond them does."""
    found = selection(command, output, excused=frozenset(excused))
    assert (found.id if found else None) == row


@pytest.mark.parametrize(
    ("command", "ids"),
    [
        (DESELECT, ("tests/test_k.py::test_known",)),
        ("pytest --deselect=a.py::t --deselect b.py::u -q", ("a.py::t", "b.py::u")),
        ("python3 -m unittest", ()),
        ("pytest -q", ()),
    ],
    ids=["one", "both-forms", "unittest", "none"],
)
def test_deselected_ids(command: str, ids: tuple[str, ...]) -> None:
    assert deselected_ids(command) == ids
