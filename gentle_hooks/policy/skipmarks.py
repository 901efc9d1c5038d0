"""Markers that make a test runner skip or expect the failure of a test (seed 001 "Completion
criteria": a pass needs the full suite to have run; "Guardrails": "do not accept a claim
whose criteria have no observable check").

Room ``policy`` (pure). A change whose only "fix" is to skip the test that catches it
(``@unittest.skip("flaky")``, ``@pytest.mark.xfail``, ``pytestmark = pytest.mark.skip``,
``test('add', {skip: 'flaky'}, ...)``) turns a failing run into a passing one. One table:

* :data:`SKIP_MARK_ROWS` — per row the files it reads (by name ending; a JavaScript row only
  a test file's: :func:`is_js_test_file`, so ``{skip: 1}`` in application code is no marker)
  and the pattern of an added line that skips, or expects the failure of, a test.

:func:`skip_marks` finds them among a change's added lines; :data:`SKIP_MARK_ERE` preselects
the files whose diff may hold one (git's ``-G``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gentle_hooks.values.frozen import frozen

_PY = (".py",)
_JS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")


@frozen
class SkipMarkRow:
    """One row of :data:`SKIP_MARK_ROWS`: id, the case in words, the name endings of the
    files it reads, and the pattern (Python ``re``) of an added line that holds it;
    ``tests_only``: it reads only test files (:func:`is_js_test_file`)."""

    id: str
    when: str
    suffixes: tuple[str, ...]
    pattern: str
    tests_only: bool = False


#: Skip and expected-failure markers, first match wins per line.
SKIP_MARK_ROWS: tuple[SkipMarkRow, ...] = (
    SkipMarkRow(
        "K-pytest-mark",
        "pytest's mark.skip, skipif or xfail (a decorator, a pytestmark's value, a param's "
        "marks), through any name pytest or its mark is imported as (pt.mark.skip, "
        "mark.skip)",
        _PY,
        r"\bmark\s*\.\s*(?:skip|skipif|xfail)\b",
    ),
    SkipMarkRow(
        "K-pytest-call",
        "pytest.skip(, pytest.xfail( or pytest.importorskip( inside a test or fixture, "
        "through any name pytest is imported as (pt.skip('x'): a call given a reason or "
        "nothing, so stream.skip(3) is none), or as a statement of its own (skip('flaky') "
        "after from pytest import skip)",
        _PY,
        r"\bpytest\s*\.\s*(?:skip|xfail|importorskip)\s*\(|\b\w+\s*\.\s*importorskip\s*\("
        r"|(?<!@)\b\w+\s*\.\s*(?:skip|xfail)\s*\(\s*(?:reason\s*=|[rbfu]?['\"]|\))"
        r"|^\s*(?:skip|xfail)\s*\(",
    ),
    SkipMarkRow(
        "K-pytest-raise",
        "pytest's skip or xfail exception raised by hand (raise pytest.skip.Exception(...), "
        "pt.xfail.Exception, Skipped, XFailed, _pytest.outcomes.Skipped)",
        _PY,
        r"\braise\s+(?:\w+\s*\.\s*)*(?:(?:skip|xfail)\s*\.\s*Exception|Skipped|XFailed)\b",
    ),
    SkipMarkRow(
        "K-pytestmark",
        "a module's or class's pytestmark = ... (it marks every test there)",
        _PY,
        r"^\s*pytestmark\s*[:=]",
    ),
    SkipMarkRow(
        "K-import",
        "a skip or expected-failure marker imported by a name of its own (from pytest "
        "import skip, xfail; from unittest import skip..., expectedFailure, SkipTest; from "
        "_pytest.outcomes import Skipped): "
        "the name can then skip under any alias",
        _PY,
        r"^\s*from\s+(?:pytest|unittest|_pytest\.outcomes)\s+import\b.*\b(?:skip|skipif|"
        r"skipIf|skipUnless|xfail|importorskip|expectedFailure|SkipTest|Skipped|XFailed)\b",
    ),
    SkipMarkRow(
        "K-unittest-skip",
        "unittest's @skip, @skipIf or @skipUnless (unittest.skip...)",
        _PY,
        r"@\s*(?:\w+\s*\.\s*)?skip(?:If|Unless)?\b",
    ),
    SkipMarkRow(
        "K-unittest-skiptest",
        "self.skipTest( or raise unittest.SkipTest inside a test",
        _PY,
        r"\.\s*skipTest\s*\(|\braise\s+(?:\w+\s*\.\s*)?SkipTest\b",
    ),
    SkipMarkRow(
        "K-unittest-xfail",
        "unittest's @expectedFailure",
        _PY,
        r"@\s*(?:\w+\s*\.\s*)?expectedFailure\b",
    ),
    SkipMarkRow(
        "K-js-method",
        "node:test, jest, vitest or mocha test.skip, it.skip, describe.skip, suite.skip, "
        "test.todo, it.todo (and .skipIf)",
        _JS,
        r"\b(?:test|it|describe|suite|context)\s*\.\s*(?:skip|todo|skipIf)\b",
        tests_only=True,
    ),
    SkipMarkRow(
        "K-js-option",
        "node:test's options {skip: ...} or {todo: ...}",
        _JS,
        r"[{,]\s*['\"]?(?:skip|todo)['\"]?\s*:",
        tests_only=True,
    ),
    SkipMarkRow(
        "K-js-x",
        "jasmine, jest or mocha xit(, xtest(, xdescribe(, xcontext(",
        _JS,
        r"\b(?:xit|xtest|xdescribe|xcontext)\s*\(",
        tests_only=True,
    ),
)

#: A POSIX extended regular expression every marker line matches (git ``-G``): it picks
#: the files whose patches :func:`skip_marks` then reads.
SKIP_MARK_ERE = "skip|Skip|xfail|XFail|pytestmark|expectedFailure|todo|xit|xtest|xdescribe|xcontext"


@frozen
class SkipMark:
    """A marker found: the file, its 1-based line, and the :data:`SKIP_MARK_ROWS` row id."""

    path: str
    line: int
    row: str

    @property
    def where(self) -> str:
        """``path:line``."""
        return f"{self.path}:{self.line}"


#: Directories whose JavaScript files are test files (at any depth).
JS_TEST_DIRS = frozenset({"test", "tests", "__tests__", "spec"})


def is_js_test_file(path: str) -> bool:
    """Whether ``path`` is a JavaScript or TypeScript test file: under a directory of
    :data:`JS_TEST_DIRS`, or named ``*.test.*`` or ``*.spec.*`` (``app.test.js``)."""
    *dirs, name = path.split("/")
    return any(d in JS_TEST_DIRS for d in dirs) or ".test." in name or ".spec." in name


def skip_row(path: str, text: str) -> SkipMarkRow | None:
    """The :data:`SKIP_MARK_ROWS` row an added line ``text`` of ``path`` holds, or None."""
    for row in SKIP_MARK_ROWS:
        if not path.endswith(row.suffixes) or (row.tests_only and not is_js_test_file(path)):
            continue
        if re.search(row.pattern, text):
            return row
    return None


def skip_marks(lines: Iterable[tuple[str, int, str]]) -> tuple[SkipMark, ...]:
    """The skip and expected-failure markers among a change's added lines ((path, 1-based
    line number, text) each), in the order given."""
    found = []
    for path, line, text in lines:
        row = skip_row(path, text)
        if row is not None:
            found.append(SkipMark(path, line, row.id))
    return tuple(found)
