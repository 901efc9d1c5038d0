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

:func:`skipped_named` reads an output into the files and modules it names, or None when no
family names as many tests as the summary says were skipped (then every marker counts, as
before: the conservative fallback). :func:`counted_marks` ties markers to them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from gentle_hooks.policy.skipmarks import SkipMark
from gentle_hooks.values.frozen import frozen


@frozen
class SkipReportRow:
    """One row of :data:`SKIP_REPORT_ROWS`: id, the case in words, the family whose lines
    together name each skipped test once, the pattern (Python ``re``, one line) with the
    group ``where`` (a path, or with ``dotted`` a module's dotted name followed by the
    test's class and name) and the optional group ``n`` (how many tests the line counts:
    1 without it); ``after``: only lines after the last line matching it count (pytest's
    summary header: a test printing such a line during the run names nothing)."""

    id: str
    when: str
    family: str
    pattern: str
    dotted: bool = False
    after: str | None = None


_PYTEST_SUMMARY = r"^=+ short test summary info =+\s*$"

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
        r"^(?:XFAIL|XPASS) (?P<where>[^\s:]+)::",
        after=_PYTEST_SUMMARY,
    ),
    SkipReportRow(
        "N-pytest-v",
        "pytest -v, one line per test: path::name SKIPPED (reason), XFAIL, XPASS",
        "pytest-v",
        r"^(?P<where>[^\s:]+)::\S+ (?:SKIPPED|XFAIL|XPASS)\b",
    ),
    SkipReportRow(
        "N-pytest-xdist",
        "pytest-xdist -v, one line per test: [gw0] [ 50%] SKIPPED path::name",
        "pytest-v",
        r"^\[gw\d+\] \[\s*\d+%\] (?:SKIPPED|XFAIL|XPASS) (?P<where>[^\s:]+)::",
    ),
    SkipReportRow(
        "N-unittest-v",
        "python -m unittest -v, one line per test: test_x (module.Class.test_x) ... skipped "
        "'reason', expected failure, unexpected success",
        "unittest-v",
        r"^\w+ \((?P<where>[\w.]+)\) \.\.\. (?:skipped\b|expected failure|unexpected success)",
        dotted=True,
    ),
)


@frozen
class SkippedNamed:
    """The tests a runner's output names as skipped: ``paths`` as printed (relative to the
    directory the runner reported from) and ``dotted`` names (``module.Class.test``)."""

    paths: frozenset[str]
    dotted: frozenset[str]


def skipped_named(output: str, skipped: int, root: str = "") -> SkippedNamed | None:
    """What ``output`` names of the ``skipped`` tests its summary counts
    (:func:`~gentle_hooks.policy.testcount.tests_skipped`): every path and dotted name a
    :data:`SKIP_REPORT_ROWS` line names (an absolute path under ``root``, the tree's
    directory, made relative to it), or None when no family's lines count ``skipped``
    tests (``-q`` alone names none; ``-v`` does not name a module skipped as it is
    collected) or ``skipped`` is 0."""
    if skipped <= 0:
        return None
    lines = output.splitlines()
    counts: dict[str, int] = {}
    paths: set[str] = set()
    dotted: set[str] = set()
    for row in SKIP_REPORT_ROWS:
        start = 0
        if row.after is not None:
            heads = [i for i, line in enumerate(lines) if re.match(row.after, line)]
            if not heads:
                continue
            start = heads[-1] + 1
        for line in lines[start:]:
            found = re.match(row.pattern, line)
            if found is None:
                continue
            counts[row.family] = counts.get(row.family, 0) + int(found.groupdict().get("n") or 1)
            where = found.group("where")
            if row.dotted:
                dotted.add(where)
            else:
                paths.add(_relative(where, root))
    if not any(n >= skipped for n in counts.values()):
        return None
    return SkippedNamed(frozenset(paths), frozenset(dotted))


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


def counted_marks(
    marks: Sequence[SkipMark], named: SkippedNamed | None, tree_paths: Collection[str]
) -> tuple[SkipMark, ...]:
    """The markers of ``marks`` (those the change adds) that may have skipped a test the
    run skipped: all of them when the output does not name every skipped test (``named``
    None) or names one in no file of ``tree_paths``; else those in the file of a skipped
    test (:func:`skipped_files`) and those outside a Python test module
    (:func:`is_python_test_module`: a ``conftest.py`` hook or a helper's marker can skip
    tests in any file), in the order given."""
    files = skipped_files(named, tree_paths) if named is not None else None
    if files is None:
        return tuple(marks)
    return tuple(m for m in marks if m.path in files or not is_python_test_module(m.path))
