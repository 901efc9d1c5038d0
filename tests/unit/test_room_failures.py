"""services/room_failures: the passing tests a ``--deselect`` of a red base's failing ids
would hide too, pytest's ``--deselect`` being a prefix match (issue 18, refuter r18u MED 2;
its ``test_p[1]`` / ``test_p[10]`` case is none: a parameter id ends with its ``]``); the
tests a change deletes; and how a unittest suite's test failed, its own failing line
included (refuter r18v HIGH 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.artifacts.outcome import Check
from gentle_hooks.policy.suite_coverage import Session
from gentle_hooks.services.room_failures import _reader, deselect_reach, failed_tests, gone_tests

TREE = "/room/tree"


def _run(*selected: str) -> tuple[Session, ...]:
    return (Session(TREE, "python3", False, 1, selected=selected),)


@pytest.mark.parametrize(
    ("selected", "failed", "expected"),
    [
        (
            ("t.py::test_broken", "t.py::test_broken_edge"),
            ("t.py::test_broken",),
            ("t.py::test_broken_edge",),
        ),
        (
            ("t.py::T::test_a", "t.py::T::test_ab", "t.py::TT::test_a"),
            ("t.py::T::test_a",),
            ("t.py::T::test_ab",),
        ),
        # a parameter id ends with its bracket: test_p[1] is no prefix of test_p[10]
        (("t.py::test_p[1]", "t.py::test_p[10]"), ("t.py::test_p[1]",), ()),
        # both failing: deselecting both hides nothing else
        (("t.py::test_b", "t.py::test_b_edge"), ("t.py::test_b", "t.py::test_b_edge"), ()),
        (("t.py::test_a", "t.py::test_b"), ("t.py::test_a",), ()),
        (("t.py::test_a",), (), ()),
    ],
    ids=[
        "name-prefix",
        "method-prefix",
        "parameter-closed",
        "both-failing",
        "no-prefix",
        "none-failed",
    ],
)
def test_deselect_reach(
    selected: tuple[str, ...], failed: tuple[str, ...], expected: tuple[str, ...]
) -> None:
    assert deselect_reach(_run(*selected), failed, TREE) == expected


def test_a_collect_only_session_is_not_the_run() -> None:
    whole = Session(TREE, "python3", True, 0, selected=("t.py::test_broken_edge",))
    assert deselect_reach((whole,), ("t.py::test_broken",), TREE) == ()


@pytest.mark.parametrize(
    ("base_failed", "ran", "deselected", "expected"),
    [
        # r18u LOW 1: the change deletes a base-failing test: gone
        (("t.py::test_k", "g.py::test_g"), {"t.py::test_k"}, (), ("g.py::test_g",)),
        # a module that failed to import on the base, whose tests ran here: not gone
        (("g.py",), {"g.py::test_g"}, (), ()),
        # the suite deselects it: a selection (C1-suite-part), not the change's deletion
        (("g.py::test_g",), {"t.py::test_k"}, ("g.py::test_g",), ()),
        # not observed here, or nothing read on the base
        (("g.py::test_g",), None, (), ()),
        (None, {"t.py::test_k"}, (), ()),
    ],
    ids=["deleted", "module-ran", "deselected", "unobserved", "base-unread"],
)
def test_gone_tests(
    base_failed: tuple[str, ...] | None,
    ran: set[str] | None,
    deselected: tuple[str, ...],
    expected: tuple[str, ...],
) -> None:
    assert gone_tests(base_failed, ran, deselected) == expected


# --- how a unittest suite's test failed, from real runs (r18v HIGH 1) -----------------------

#: The code under test on the base: f(1) wrong (5), f(2) right.
BASE_F = "def f(x):\n    return 5 if x == 1 else 2\n"
#: The candidate's: f(1) fixed, f(2) broken, with the very same message.
SWAPPED_F = "def f(x):\n    return 2 if x == 1 else 5\n"
#: A test method reaching its assert helper from two lines of the same text.
TWICE = (
    "import unittest\nfrom calc import f\n\n\nclass T(unittest.TestCase):\n"
    "    def check(self, x):\n        self.assertEqual(x, 2)\n\n"
    "    def test_a(self):\n        x = f(1)\n        self.check(x)\n"
    "        x = f(2)\n        self.check(x)\n"
)
#: Another test class above: every line of T moves, none of its text changes.
ABOVE = "\n\nclass Zero(unittest.TestCase):\n    def test_zero(self):\n        pass\n\n\n"
UNITTEST = Check("suite", "the full suite", "python3 -m unittest", ("python3", "-m", "unittest"))


def _unittest_how(tree: Path, files: dict[str, str]) -> tuple[tuple[str, str], ...] | None:
    """How each test of a real ``python3 -m unittest`` run in ``tree`` holding ``files``
    failed, as :func:`failed_tests` reads it."""
    for name, text in files.items():
        (tree / name).write_text(text)
    done = subprocess.run(
        [sys.executable, "-B", "-m", "unittest"], cwd=tree, capture_output=True, text=True
    )
    assert done.returncode == 1, done.stderr
    ids, how = failed_tests(UNITTEST, 1, (), str(tree), done.stdout + done.stderr)
    assert ids == ("test_a (test_h.T.test_a)",), done.stderr
    return how


@pytest.mark.parametrize(
    ("candidate", "same"),
    [
        # the helper fails at its line with the same message, reached from the test's
        # second self.check(x) here and its first on the base
        ({"calc.py": SWAPPED_F}, False),
        # the control rows: nothing changes, or the test class only moves down its file
        ({}, True),
        ({"test_h.py": TWICE.replace("\n\n\nclass T", ABOVE + "class T")}, True),
    ],
    ids=["helper-another-test-line", "unchanged", "moved"],
)
def test_unittest_failure_names_the_tests_own_line(
    tmp_path: Path, candidate: dict[str, str], same: bool
) -> None:
    theirs = _unittest_how(tmp_path, {"calc.py": BASE_F, "test_h.py": TWICE})
    mine = _unittest_how(tmp_path, candidate)
    assert mine is not None and theirs is not None
    assert (mine == theirs) is same, (mine, theirs)


def test_the_reader_reads_regular_files_inside_the_tree_only(tmp_path: Path) -> None:
    """``_reader``: a traceback's file inside the tree is read (absolute or from its top);
    one outside it, a link leading out, a FIFO (never waited on) or a directory is not."""
    tree = tmp_path / "tree"
    (tree / "t").mkdir(parents=True)
    (tree / "t" / "test_a.py").write_text("x = 1\n")
    (tmp_path / "out.py").write_text("secret\n")
    (tree / "t" / "link.py").symlink_to(tmp_path / "out.py")
    os.mkfifo(tree / "t" / "fifo.py")
    read = _reader(str(tree))
    assert read(str(tree / "t" / "test_a.py")) == "x = 1\n"
    assert read("t/test_a.py") == "x = 1\n"
    for path in (str(tmp_path / "out.py"), "../out.py", "t/link.py", "t/fifo.py", "t", "t/no"):
        assert read(path) is None, path
