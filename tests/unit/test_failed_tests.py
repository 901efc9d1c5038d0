"""gentle_hooks.policy.failed_tests: which tests a failing full suite failed, and whether the
candidate adds a failure to its base tree's (issue 18, refuter r18t MED: rule R2's row
C5-base judged "the same way" by exit status and last line alone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.policy.failed_tests import adds_failures, unittest_failed, unittest_how

RULE = "=" * 70
DASH = "-" * 70


def _report(*headings: str, closing: str) -> str:
    """A unittest report: each heading after a rule, its traceback, the closing line."""
    body = "".join(f"{RULE}\n{h}\n{DASH}\nTraceback ...\nAssertionError\n\n" for h in headings)
    return f"F\n{body}{DASH}\nRan 2 tests in 0.001s\n\n{closing}\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            _report("FAIL: test_a (m.T.test_a)", closing="FAILED (failures=1)"),
            ("test_a (m.T.test_a)",),
        ),
        (
            _report(
                "FAIL: test_b (m.T.test_b)",
                "ERROR: test_a (m.T.test_a)",
                "UNEXPECTED SUCCESS: test_c (m.T.test_c)",
                closing="FAILED (failures=1, errors=1, unexpected successes=1)",
            ),
            ("test_a (m.T.test_a)", "test_b (m.T.test_b)", "test_c (m.T.test_c)"),
        ),
        # a heading short of the count (unexpected success not listed): not read
        (_report("FAIL: test_a (m.T.test_a)", closing="FAILED (failures=1, errors=1)"), None),
        # no closing line: cut short, or not unittest's report
        (_report("FAIL: test_a (m.T.test_a)", closing="OK"), None),
        # a FAIL: line that is not after a rule is not a heading
        ("FAIL: test_a (m.T.test_a)\nFAILED (failures=1)\n", None),
        ("", None),
    ],
    ids=["one-failure", "each-kind", "count-mismatch", "no-closing", "not-a-heading", "empty"],
)
def test_unittest_failed(text: str, expected: tuple[str, ...] | None) -> None:
    assert unittest_failed(text) == expected


def test_unittest_failed_reads_a_real_report(tmp_path: Path) -> None:
    """A real ``python -m unittest`` run: a module that fails to import, a failure, an
    error and an unexpected success, each read by its heading."""
    (tmp_path / "test_v.py").write_text(
        "import unittest\n\n\nclass T(unittest.TestCase):\n"
        "    def test_a(self):\n        self.assertEqual(1, 2)\n\n"
        "    def test_b(self):\n        raise ValueError(3)\n\n"
        "    @unittest.expectedFailure\n    def test_c(self):\n        pass\n"
    )
    (tmp_path / "test_u.py").write_text("raise ImportError('nope')\n")
    done = subprocess.run(
        [sys.executable, "-m", "unittest"], cwd=tmp_path, capture_output=True, text=True
    )
    found = unittest_failed(done.stdout + done.stderr)
    assert found is not None and len(found) == 4, done.stderr
    assert any(f.startswith("test_a (") for f in found), found
    assert any("test_u" in f for f in found), found


#: How each test failed, the same on both trees unless a row says otherwise.
HOW = (("a", "1"), ("b", "2"))


@pytest.mark.parametrize(
    ("failed", "base", "how", "base_how", "expected"),
    [
        (("a",), ("a",), HOW, HOW, False),
        (("a",), ("a", "b"), HOW, HOW, False),  # fixes b, adds none
        (("a", "b"), ("a",), HOW, HOW, True),  # r18t MED: one more failure than the base's
        (("b",), ("a",), HOW, HOW, True),  # two different "1 failed"
        (None, ("a",), HOW, HOW, None),
        (("a",), None, HOW, HOW, None),
        ((), (), HOW, HOW, None),  # failed, naming no test: nothing says which
        # r18u MED 1: a fails on both trees, another way here (another assert, an edit)
        (("a",), ("a",), (("a", "3"),), HOW, True),
        # how a failed was not read on one tree: nothing claims "the same way"
        (("a",), ("a",), None, HOW, None),
        (("a",), ("a",), (("b", "2"),), HOW, None),
        (("a",), ("a", "b"), HOW, (("b", "2"),), None),
    ],
    ids=[
        "same",
        "fixes-one",
        "adds-one",
        "another-one",
        "unread",
        "base-unread",
        "none-named",
        "same-id-another-failure",
        "how-unread",
        "how-missing-here",
        "how-missing-on-base",
    ],
)
def test_adds_failures(
    failed: tuple[str, ...] | None,
    base: tuple[str, ...] | None,
    how: tuple[tuple[str, str], ...] | None,
    base_how: tuple[tuple[str, str], ...] | None,
    expected: bool | None,
) -> None:
    assert adds_failures(failed, base, how, base_how) is expected


_T = "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n"


def _unittest(tmp_path: Path, body: str) -> str:
    """The report of a real ``python -m unittest`` run of one test module."""
    (tmp_path / "test_v.py").write_text(_T + body)
    done = subprocess.run(
        [sys.executable, "-m", "unittest"], cwd=tmp_path, capture_output=True, text=True
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("body", "same"),
    [
        # the test moved down its file: line numbers aside, the same failure
        ("        self.assertEqual(1, 2)\n", True),
        # r18u MED 1: another assert of the same test fails
        ("        self.assertEqual(3, 3)\n        self.assertEqual(4, 5)\n", False),
    ],
    ids=["moved", "another-assert"],
)
def test_unittest_how_reads_the_failure_itself(tmp_path: Path, body: str, same: bool) -> None:
    """:func:`unittest_how`: the base fails ``assertEqual(1, 2)``; the candidate's test,
    two lines lower (another test above it), fails the same way or another."""
    theirs = unittest_how(_unittest(tmp_path, "        self.assertEqual(1, 2)\n"), _read)
    moved = _T.replace("class T", "X = 1\n\n\nclass T")
    (tmp_path / "test_v.py").write_text(moved + body)
    here = subprocess.run(
        [sys.executable, "-m", "unittest"], cwd=tmp_path, capture_output=True, text=True
    )
    mine = unittest_how(here.stdout + here.stderr, _read)
    assert mine is not None and theirs is not None, here.stderr
    assert set(mine) == set(theirs) == {"test_a (test_v.T.test_a)"}, mine
    assert (mine == theirs) is same


def test_unittest_how_is_none_when_the_report_is_not_read() -> None:
    assert unittest_how("FAIL: test_a (m.T.test_a)\nFAILED (failures=1)\n", _read) is None


def _read(path: str) -> str | None:
    return Path(path).read_text()


@pytest.mark.parametrize(("moved", "same"), [(False, True), (True, False)], ids=["same", "moved"])
def test_unittest_how_unread_file_keeps_the_line_number(
    tmp_path: Path, moved: bool, same: bool
) -> None:
    """Fail closed: when the test's file is not read, its own failing line is its line
    number: a moved test then reads as another failure, an unmoved one as the same."""
    theirs = unittest_how(_unittest(tmp_path, "        self.assertEqual(1, 2)\n"), _unread)
    if moved:
        (tmp_path / "test_v.py").write_text(
            _T.replace("class T", "X = 1\n\n\nclass T") + "        self.assertEqual(1, 2)\n"
        )
    here = subprocess.run(
        [sys.executable, "-m", "unittest"], cwd=tmp_path, capture_output=True, text=True
    )
    mine = unittest_how(here.stdout + here.stderr, _unread)
    assert mine is not None and theirs is not None
    assert (mine == theirs) is same


def _unread(path: str) -> str | None:
    return None
