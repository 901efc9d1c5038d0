"""Pure tests of :mod:`gentle_hooks.policy.skipmarks`: every SKIP_MARK_ROWS row, and lines
that hold none (seed 001 "Completion criteria": a pass needs the full suite to have run)."""

from __future__ import annotations

import re

import pytest

from gentle_hooks.policy.skipmarks import (
    SKIP_MARK_ERE,
    SKIP_MARK_ROWS,
    is_js_test_file,
    skip_marks,
    skip_row,
)

#: (path, added line, the row it holds or None).
CASES: list[tuple[str, str, str | None]] = [
    ("tests/test_a.py", "@pytest.mark.skip(reason='flaky')", "K-pytest-mark"),
    (
        "tests/test_a.py",
        "@pytest.mark.skipif(sys.platform == 'linux', reason='x')",
        "K-pytest-mark",
    ),
    ("tests/test_a.py", "@pytest.mark.xfail", "K-pytest-mark"),
    ("tests/test_a.py", "    pytest.param(1, marks=pytest.mark.xfail),", "K-pytest-mark"),
    ("tests/test_a.py", "    pytest.skip('later')", "K-pytest-call"),
    ("tests/test_a.py", "    pytest.xfail('known')", "K-pytest-call"),
    ("tests/test_a.py", "np = pytest.importorskip('numpy')", "K-pytest-call"),
    ("tests/test_a.py", "pytestmark = [slow]", "K-pytestmark"),
    # through the names pytest, its mark or its skip are imported as (refuter r18f)
    ("tests/test_a.py", '@mark.skip(reason="flaky")', "K-pytest-mark"),
    ("tests/test_a.py", "@pt.mark.skipif(True, reason='x')", "K-pytest-mark"),
    ("tests/test_a.py", '    skip("flaky")', "K-pytest-call"),
    ("tests/test_a.py", "    xfail()", "K-pytest-call"),
    ("tests/test_a.py", '    pt.skip("flaky")', "K-pytest-call"),
    ("tests/test_a.py", "    pt.xfail(reason='known')", "K-pytest-call"),
    ("tests/test_a.py", "np = pt.importorskip('numpy')", "K-pytest-call"),
    ("tests/test_a.py", "from pytest import skip", "K-import"),
    ("tests/test_a.py", "from pytest import raises, skip as sk", "K-import"),
    ("tests/test_a.py", "from unittest import TestCase, skipIf", "K-import"),
    ("tests/test_a.py", "from unittest import expectedFailure", "K-import"),
    ("tests/test_a.py", '    @ut.skipUnless(False, "no")', "K-unittest-skip"),
    ("tests/test_a.py", "        raise ut.SkipTest('flaky')", "K-unittest-skiptest"),
    ("tests/test_a.py", "    @ut.expectedFailure", "K-unittest-xfail"),
    ("tests/test_a.py", '    @unittest.skip("flaky")', "K-unittest-skip"),
    ("tests/test_a.py", "@skipIf(True, 'no')", "K-unittest-skip"),
    ("tests/test_a.py", "    @unittest.skipUnless(False, 'no')", "K-unittest-skip"),
    ("tests/test_a.py", "        self.skipTest('flaky')", "K-unittest-skiptest"),
    ("tests/test_a.py", "        raise unittest.SkipTest('flaky')", "K-unittest-skiptest"),
    # issue 18, r18s finding 4: pytest's skip exception raised by hand
    ("tests/test_a.py", "    raise pytest.skip.Exception('flaky')", "K-pytest-raise"),
    ("tests/test_a.py", "    raise pt.xfail.Exception('known')", "K-pytest-raise"),
    ("tests/test_a.py", "    raise Skipped('flaky')", "K-pytest-raise"),
    ("tests/test_a.py", "    raise _pytest.outcomes.Skipped('flaky')", "K-pytest-raise"),
    ("tests/test_a.py", "from _pytest.outcomes import Skipped", "K-import"),
    ("tests/test_a.py", "    @unittest.expectedFailure", "K-unittest-xfail"),
    ("tests/test_a.py", "@expectedFailure", "K-unittest-xfail"),
    ("test/app.test.js", "test.skip('add', () => {", "K-js-method"),
    ("test/app.test.ts", "  it.todo('adds negatives');", "K-js-method"),
    ("test/app.spec.mjs", "describe.skip('math', () => {", "K-js-method"),
    ("test/app.test.js", "test('add', { skip: 'flaky' }, () => {", "K-js-option"),
    ("test/app.test.cjs", "it('add', {todo: true}, () => {", "K-js-option"),
    ("test/app.test.jsx", "xit('adds', () => {", "K-js-x"),
    ("test/app.test.tsx", "xdescribe('math', () => {", "K-js-x"),
    # lines that skip no test, or files the row does not read
    ("tests/test_a.py", "@pytest.mark.parametrize('x', [1, 2])", None),
    ("tests/test_a.py", "def skip_whitespace(text):", None),
    ("tests/test_a.py", "# TODO: cover negatives", None),
    ("tests/test_a.py", "from pytest import mark, param, raises", None),
    ("tests/test_a.py", "import pytest as pt", None),
    ("tests/test_a.py", "    stream.skip(3)", None),
    ("tests/test_a.py", "    rows = skip_rows(table)", None),
    ("tests/test_a.py", "    # skip(this) later", None),
    ("tests/test_a.py", '    msg = "call skip(" + name', None),
    ("tests/test_a.py", "from unittest import TestCase, mock", None),
    ("tests/test_a.py", "    with pytest.raises(ValueError):", None),
    ("tests/test_a.py", "    raise SkippedRows(x)", None),
    ("src/app.js", "const opts = { retries: 2 };", None),
    ("src/app.js", "for (const x of xs) skipped.push(x);", None),
    ("notes.md", "@unittest.skip is how you skip", None),
    ("tests/test_a.rb", "test.skip('x')", None),
    # JavaScript markers count only in test files: application code's object literals
    ("src/app.js", "const flags = {skip: true};", None),
    ("src/app.ts", "  return { todo: items.length };", None),
    ("src/router.js", "if (it.skip) next();", None),
    ("lib/queue.mjs", "xit(job);", None),
    ("__tests__/queue.js", "it('drains', {skip: 'flaky'}, () => {});", "K-js-option"),
    ("spec/queue.js", "xit('drains', () => {});", "K-js-x"),
    ("src/queue.spec.ts", "it.skip('drains', () => {});", "K-js-method"),
]


@pytest.mark.parametrize(("path", "text", "row"), CASES)
def test_skip_mark_rows(path: str, text: str, row: str | None) -> None:
    found = skip_row(path, text)
    assert (found.id if found else None) == row


def test_every_skip_mark_row_is_covered() -> None:
    assert {c[2] for c in CASES} - {None} == {r.id for r in SKIP_MARK_ROWS}


@pytest.mark.parametrize(("path", "text", "row"), [c for c in CASES if c[2]])
def test_git_preselects_every_marker_line(path: str, text: str, row: str) -> None:
    """git ``-G`` with :data:`SKIP_MARK_ERE` picks every file holding a marker line (the
    pattern is also valid as Python ``re`` for these plain alternatives)."""
    assert re.search(SKIP_MARK_ERE, text), (row, text)


def test_skip_marks_names_file_and_line() -> None:
    lines = [("tests/test_a.py", 3, "import pytest"), ("tests/test_a.py", 9, "@pytest.mark.xfail")]
    [mark] = skip_marks(lines)
    assert (mark.where, mark.row) == ("tests/test_a.py:9", "K-pytest-mark")


#: (path, whether it is a JavaScript test file).
JS_TEST_FILES = [
    ("test/app.js", True),
    ("tests/unit/app.js", True),
    ("web/__tests__/app.tsx", True),
    ("spec/app.js", True),
    ("src/app.test.js", True),
    ("src/app.spec.mts", True),
    ("src/app.js", False),
    ("src/testing.js", False),
    ("src/latest/app.js", False),
    ("src/specs.js", False),
]


@pytest.mark.parametrize(("path", "is_test"), JS_TEST_FILES)
def test_js_markers_count_only_in_test_files(path: str, is_test: bool) -> None:
    assert is_js_test_file(path) is is_test
    found = skip_row(path, "const o = { skip: 'flaky' };")
    assert (found.id if found else None) == ("K-js-option" if is_test else None)
