"""Which tests a test runner's output names as skipped, and which added skip markers they
tie to (SPEC §9; seed 001 "Completion criteria": a pass needs the full suite to have run).

Room ``policy`` (pure: the caller hands over the output and the tree's paths). A run that
skipped tests blocks the verdict when the change adds a skip or expected-failure marker
(row C1-skip of :mod:`gentle_hooks.artifacts.observation`). A marker the change puts on a
new test that ran, beside a test skipped long before, silenced nothing: when the output
names every test it skipped, only a marker in the file of a skipped test counts. One table:

* :data:`SKIP_REPORT_ROWS` — the lines in which a runner names a skipped, expected-to-fail
  or unexpectedly passing test (pytest ``-rs``/``-rx``/``-ra``: ``SKIPPED [1] path:line:
  reason``, ``XFAIL path::name``; pytest ``-v``: ``path::name SKIPPED``; ``python -m
  unittest -v``: ``test_x (module.Class.test_x) ... skipped 'reason'``), each row in a
  family whose lines count the same tests once.

:func:`skipped_named` reads an output into the files, modules and test names it names, only
where the runner prints those lines and never with pytest's capture off
(:func:`output_uncaptured`: a test's prints would stand among them), or None when no family
names as many tests as the summary says were skipped (then every marker counts: the
conservative fallback). :func:`counted_marks` ties markers to them; a marker in another
test module counts unless it can only mark that module's own tests (:func:`mark_scope`: a
base class's marker is inherited by a subclass elsewhere).
"""

from __future__ import annotations

import ast
import itertools
import re
import shlex
from collections.abc import Collection, Mapping, Sequence

from gentle_hooks.policy.skipmarks import SkipMark
from gentle_hooks.values.frozen import frozen


@frozen
class SkipReportRow:
    """One row of :data:`SKIP_REPORT_ROWS`: id, the case in words, the family whose lines
    together name each skipped test once, the pattern (Python ``re``, one line) with the
    group ``where`` (a path, or with ``dotted`` a module's dotted name followed by the
    test's class and name), the optional group ``n`` (how many tests the line counts: 1
    without it) and the optional group ``test`` (``Class::name[param]`` after a path).
    Where the runner prints the line, so that nothing a test prints can stand for it:
    ``after``, only the summary lines right after the last line matching it count
    (pytest's short test summary: its own lines, none after the first other line);
    ``before``, only lines before the first line matching it count (the per-test lines,
    before the runner's sections, where ``-rA`` prints what a passing test printed)."""

    id: str
    when: str
    family: str
    pattern: str
    dotted: bool = False
    after: str | None = None
    before: str | None = None


_PYTEST_SUMMARY = r"^=+ short test summary info =+\s*$"
#: A line of pytest's short test summary (``-r``): what it reports, then the test.
_SUMMARY_LINE = re.compile(r"^(?:SKIPPED|XFAIL|XPASS|FAILED|ERROR|PASSED) ")
#: pytest's section headers after the per-test lines (FAILURES, PASSES, warnings summary,
#: short test summary info, the final counts); its header "test session starts" is before.
_PYTEST_SECTION = r"^=+ (?!test session starts =)\S.* =+\s*$"
#: unittest's rules: ``=====`` before each error's report, ``-----`` before "Ran N tests".
_UNITTEST_RULE = r"^(?:={10,}|-{10,})\s*$"

#: The lines that name a skipped test; first match wins per line.
SKIP_REPORT_ROWS: tuple[SkipReportRow, ...] = (
    SkipReportRow(
        "N-pytest-rs",
        "pytest -rs (or -ra) in its short test summary: SKIPPED [N] path:line: reason",
        "pytest-r",
        r"^SKIPPED \[(?P<n>\d+)\] (?P<where>[^\s:]+)(?::\d+)?: ",
        after=_PYTEST_SUMMARY,
    ),
    SkipReportRow(
        "N-pytest-rx",
        "pytest -rx, -rX (or -ra) in its short test summary: XFAIL path::name, XPASS path::name",
        "pytest-r",
        r"^(?:XFAIL|XPASS) (?P<where>[^\s:]+)::(?P<test>\S+)",
        after=_PYTEST_SUMMARY,
    ),
    SkipReportRow(
        "N-pytest-v",
        "pytest -v, one line per test: path::name SKIPPED (reason), XFAIL, XPASS",
        "pytest-v",
        r"^(?P<where>[^\s:]+)::(?P<test>\S+) (?:SKIPPED|XFAIL|XPASS)\b",
        before=_PYTEST_SECTION,
    ),
    SkipReportRow(
        "N-pytest-xdist",
        "pytest-xdist -v, one line per test: [gw0] [ 50%] SKIPPED path::name",
        "pytest-v",
        r"^\[gw\d+\] \[\s*\d+%\] (?:SKIPPED|XFAIL|XPASS) (?P<where>[^\s:]+)::(?P<test>\S+)",
        before=_PYTEST_SECTION,
    ),
    SkipReportRow(
        "N-unittest-v",
        "python -m unittest -v, one line per test: test_x (module.Class.test_x) ... skipped "
        "'reason', expected failure, unexpected success",
        "unittest-v",
        r"^\w+ \((?P<where>[\w.]+)\) \.\.\. (?:skipped\b|expected failure|unexpected success)",
        dotted=True,
        before=_UNITTEST_RULE,
    ),
)


@frozen
class SkippedNamed:
    """The tests a runner's output names as skipped: ``paths`` as printed (relative to the
    directory the runner reported from), ``dotted`` names (``module.Class.test``), and
    ``names``, the test functions' own names where the output prints them (``test_x`` of
    ``path::Class::test_x[1]`` or ``module.Class.test_x``)."""

    paths: frozenset[str]
    dotted: frozenset[str]
    names: frozenset[str] = frozenset()


def _row_lines(row: SkipReportRow, lines: list[str]) -> list[str]:
    """The lines of ``lines`` where ``row``'s runner prints its lines (:class:`SkipReportRow`
    ``after`` and ``before``)."""
    if row.after is not None:
        heads = [i for i, line in enumerate(lines) if re.match(row.after, line)]
        if not heads:
            return []
        block = list(itertools.takewhile(_SUMMARY_LINE.match, lines[heads[-1] + 1 :]))
        return block
    if row.before is not None:
        end = next((i for i, line in enumerate(lines) if re.match(row.before, line)), len(lines))
        return lines[:end]
    return lines


#: pytest's short options that take a value: in a cluster, what follows one is its value
#: (``-rs`` reports skips, it does not turn capture off).
_VALUED_SHORT = frozenset("rkmpcoWn")


#: pytest ``--capture`` methods that let a test's output reach the terminal: ``sys``
#: captures ``sys.stdout`` only, so a test's ``os.write(1, ...)`` gets through.
_OPEN_CAPTURE = frozenset({"no", "tee-sys", "sys"})


def _is_pytest(word: str) -> bool:
    return word.rsplit("/", 1)[-1] in ("pytest", "py.test")


def output_uncaptured(command: str) -> bool:
    """Whether ``command`` runs pytest with its output capture off (``-s``, a cluster
    holding ``s`` before any option that takes a value, ``--capture`` ``no``, ``tee-sys``
    or ``sys``, ``-p no:capture``, after the word ``pytest``; False without
    that word): a test's prints then reach the output among pytest's own lines, so no line of
    it names a skipped test for certain. A command that does not parse is read as
    whitespace-separated words."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    # pytest's own options follow its name (``python3 -s -m pytest``: -s is Python's;
    # ``unittest discover -s tests`` names a directory)
    start = next((i + 1 for i, w in enumerate(words) if _is_pytest(w)), len(words))
    for i, word in enumerate(words[start:], start):
        if word == "--":
            break
        value = words[i + 1] if i + 1 < len(words) else ""
        if word.startswith("--capture=") and word[10:] in _OPEN_CAPTURE:
            return True
        if word == "--capture" and value in _OPEN_CAPTURE:
            return True
        if word in ("-pno:capture", "-p=no:capture") or (word == "-p" and value == "no:capture"):
            return True
        if word.startswith("-") and not word.startswith("--"):
            for ch in word[1:]:
                if ch == "s":
                    return True
                if ch in _VALUED_SHORT or not ch.isalpha():
                    break
    return False


def skipped_named(
    output: str, skipped: int, root: str = "", command: str = ""
) -> SkippedNamed | None:
    """What ``output`` names of the ``skipped`` tests its summary counts
    (:func:`~gentle_hooks.policy.testcount.tests_skipped`): every path, dotted name and
    test name a :data:`SKIP_REPORT_ROWS` line names where its runner prints it (an
    absolute path under ``root``, the tree's directory, made relative to it), or None when
    no family's lines count ``skipped`` tests (``-q`` alone names none; ``-v`` does not
    name a module skipped as it is collected), ``skipped`` is 0, or ``command`` turns
    pytest's output capture off (:func:`output_uncaptured`: a test could print any line,
    the short summary's banner too)."""
    if skipped <= 0 or output_uncaptured(command):
        return None
    lines = output.splitlines()
    counts: dict[str, int] = {}
    paths: set[str] = set()
    dotted: set[str] = set()
    names: set[str] = set()
    for row in SKIP_REPORT_ROWS:
        for line in _row_lines(row, lines):
            found = re.match(row.pattern, line)
            if found is None:
                continue
            counts[row.family] = counts.get(row.family, 0) + int(found.groupdict().get("n") or 1)
            where = found.group("where")
            test = found.groupdict().get("test")
            if row.dotted:
                dotted.add(where)
                names.add(where.rsplit(".", 1)[-1])
            else:
                paths.add(_relative(where, root))
            if test:
                names.add(test.rsplit("::", 1)[-1].split("[", 1)[0])
    if not any(n >= skipped for n in counts.values()):
        return None
    return SkippedNamed(frozenset(paths), frozenset(dotted), frozenset(names))


def _relative(path: str, root: str) -> str:
    path = path.removeprefix("./")
    if root and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    return path


def _module_of(path: str) -> tuple[str, ...]:
    """A Python file's module path, component by component (``tests/test_a.py``:
    ``tests``, ``test_a``; a package's ``__init__.py``: the package)."""
    parts = path.removesuffix(".py").split("/")
    return tuple(parts[:-1] if parts[-1] == "__init__" else parts)


def skipped_files(named: SkippedNamed, tree_paths: Collection[str]) -> frozenset[str] | None:
    """The files of ``tree_paths`` (the candidate's tree) that hold a test ``named`` says
    was skipped: a path equal to, or ending in ``/`` and, a named path; a Python file whose
    module path ends in a leading part of a dotted name (``tests/test_a.py`` for
    ``test_a.T.test_x``). None when a name matches no file (a runner's own name for a
    module it skipped whole, ``unittest.loader.ModuleSkipped``; a path outside the tree):
    where that test is is not known."""
    found: set[str] = set()
    python = [(p, _module_of(p)) for p in tree_paths if p.endswith(".py")]
    for name in named.paths:
        files = {p for p in tree_paths if p == name or p.endswith("/" + name)}
        if not files:
            return None
        found |= files
    for name in named.dotted:
        words = tuple(name.split("."))
        heads = {words[:i] for i in range(1, len(words) + 1)}
        files = {p for p, mod in python if any(mod[len(mod) - len(h) :] == h for h in heads)}
        if not files:
            return None
        found |= files
    return frozenset(found)


def is_python_test_module(path: str) -> bool:
    """Whether ``path`` is a Python test module by pytest's default names (``test_*.py``,
    ``*_test.py``): a marker there marks its own tests. A marker elsewhere (``conftest.py``,
    a helper module, a base class's module) can skip tests in any file."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


#: What :func:`mark_scope` answers for a marker that may mark tests of any module.
ANYWHERE = "*"


def _span(node: ast.stmt) -> tuple[int, int]:
    decorators = getattr(node, "decorator_list", ())
    start = min([node.lineno, *(d.lineno for d in decorators)])
    return start, node.end_lineno or node.lineno


def _scope_in(body: list[ast.stmt], line: int, top: bool) -> str | None:
    for node in body:
        start, end = _span(node)
        if not start <= line <= end:
            continue
        if isinstance(node, ast.ClassDef):
            if line <= node.lineno:  # a decorator on the class, or its header
                return ANYWHERE
            return _scope_in(node.body, line, top=False)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not top:
                return node.name
            return None if node.name.startswith("test") else ANYWHERE
        targets = node.targets if isinstance(node, ast.Assign) else []
        if (
            top
            and targets
            and all(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets)
        ):
            return None
        return ANYWHERE
    return ANYWHERE


def mark_scope(source: bytes | None, line: int) -> str | None:
    """Which tests the marker at 1-based ``line`` of the Python module ``source`` may mark
    beyond that module's own.

    Returns:
        None when it marks only tests of that module: it decorates, or is inside, a
        module-level ``def test...`` (or ``async def``), or is a module-level
        ``pytestmark`` assignment. A method's name when it decorates, or is inside, a
        method of a class: a subclass in another module inherits that test under that
        name. :data:`ANYWHERE` otherwise: on a class or in a class body outside a method
        (a ``class TestX(Base)`` elsewhere inherits it, and the runner names the test in
        the subclass's file), in a helper function or fixture, or in a module that does
        not parse or cannot be read (``source`` None).
    """
    if source is None:
        return ANYWHERE
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ANYWHERE
    return _scope_in(tree.body, line, top=True)


def counted_marks(
    marks: Sequence[SkipMark],
    named: SkippedNamed | None,
    tree_paths: Collection[str],
    sources: Mapping[str, bytes] | None = None,
) -> tuple[SkipMark, ...]:
    """The markers of ``marks`` (those the change adds) that may have skipped a test the
    run skipped: all of them when the output does not name every skipped test (``named``
    None) or names one in no file of ``tree_paths``; else those in the file of a skipped
    test (:func:`skipped_files`), those outside a Python test module
    (:func:`is_python_test_module`: a ``conftest.py`` hook or a helper's marker can skip
    tests in any file), and those of a Python test module that may mark another module's
    tests (:func:`mark_scope` in ``sources``, the candidate's text of each such module:
    a marker on a base class another module's test class inherits; a method's marker
    when a skipped test of that method's name is named: where names are not printed,
    pytest ``-rs`` names the file that defines an inherited method), in the order given."""
    files = skipped_files(named, tree_paths) if named is not None else None
    if named is None or files is None:
        return tuple(marks)
    texts = sources or {}

    def counts(mark: SkipMark) -> bool:
        if mark.path in files or not is_python_test_module(mark.path):
            return True
        scope = mark_scope(texts.get(mark.path), mark.line)
        return scope is not None and (scope == ANYWHERE or scope in named.names)

    return tuple(m for m in marks if counts(m))


def foreign_candidates(
    marks: Sequence[SkipMark], named: SkippedNamed | None, tree_paths: Collection[str]
) -> tuple[str, ...]:
    """The Python test modules :func:`counted_marks` needs the text of (those holding a
    marker of ``marks`` where no test ``named`` skipped is), sorted; empty when it needs
    none."""
    files = skipped_files(named, tree_paths) if named is not None else None
    if files is None:
        return ()
    return tuple(
        sorted({m.path for m in marks if m.path not in files and is_python_test_module(m.path)})
    )
