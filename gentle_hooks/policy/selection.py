"""Whether a test run selected some of the tests: then it is not the full suite (seed 001
"Rules": "A pass verdict requires the full suite to have run"; SPEC §9).

Room ``policy`` (pure). A full suite told to run some tests (``pytest -k test_add``,
``pytest tests/test_a.py::test_add``, ``--deselect``, ``--lf``, ``go test -run X``, ``jest
-t x``) passes while the tests it left out fail. One table, :data:`SELECTION_ROWS`: the
flags with which a runner (:data:`~gentle_hooks.policy.testcount.RUNNER_ROWS`) runs a
subset, and the lines in which a runner's output says it left tests out (pytest's ``1
deselected``, from ``-k`` in a configuration's ``addopts`` too; cargo's ``3 filtered
out``). :func:`selection` names the first row met.

A run told to read another configuration (``-o addopts=...``, ``-c other.ini``, ``-p plug``,
``--rootdir``, ``--confcutdir``, ``--pyargs``, ``-W ignore::...``) is not the full suite
either (row P-pytest-config): it selects nothing, but what it collects or how it judges a
warning is no longer what the repository's configuration says; each row says what its
options are (:attr:`SelectionRow.said`), so a run under another configuration is never
reported as one that selected tests.

Harmless, accepted silently (:attr:`SelectionRow.harmless`): ``-W error...`` (a warning
turned into an error only makes a test fail; pytest's command-line filters take precedence
over the configuration's, so ``-W ignore...``, ``default``, ``always``, ``module``,
``once`` could quiet a configured ``error`` and are P-pytest-config) and ``-p no:NAME`` for
a plugin that only orders, caches, parallelises, reruns or reports (:data:`QUIET_PLUGINS`:
``no:cacheprovider`` on a read-only checkout); ``-p no:doctest``, ``no:warnings`` or any
other plugin may collect tests or apply the configured warning filters, so dropping it is
P-pytest-config.

Not a selection: ``-x``/``--maxfail`` (it stops at the first failure: the run fails, so it
cannot pass while a test it left out fails), ``--ff``/``--failed-first`` and
``--nf``/``--new-first`` (they reorder every test and run them all), ``-q``, ``-v``,
``-r...``, ``--tb``, ``-n`` (xdist runs every test). ``--co``/``--collect-only`` runs no
test at all: refused before anything runs
(:func:`~gentle_hooks.policy.testcount.no_run_flags`), not a selection. The value of an
option that takes one (``-W error::DeprecationWarning``, ``--junitxml a::b``) is no node id.
An operand naming a test file or a subdirectory of the test tree (``pytest -q
tests/test_sub.py``, ``pytest tests/unit``, ``go test ./pkg/...``) selects (row
P-operand) unless the repository declares its full suite (``verification.full_suite``,
committed at the candidate's base): then the declared suite is the full suite and the
brief's operands are its own business. A top-level directory (``pytest -q tests``) or
``.`` is the whole tree.

A test tree can narrow its own discovery too: ``python -m unittest`` calls a
``load_tests(loader, tests, pattern)`` it finds in a package's ``__init__.py`` or a test
module, and then collects only what that returns (and a directory without ``__init__.py``
is not searched at all). A run of unittest whose candidate adds, changes or removes such a
file (:func:`steers_discovery`) is not the full suite either (row P-unittest-load-tests),
unless the file is identical on the base: then the base's own tree chose it.
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Mapping, Sequence

from gentle_hooks.policy.testcount import runner_of
from gentle_hooks.values.frozen import frozen


@frozen
class SelectionRow:
    """One row of :data:`SELECTION_ROWS`: id, the case in words, the runners (``T-...``
    ids; empty: any) it applies to, the flags that select (also written ``--flag=value``,
    and a one-letter flag with its value attached: ``-kfoo``), whether a ``::`` node id
    selects, a pattern whose match in the output (a count above 0 in its first group)
    says tests were left out, whether an operand naming part of the test tree
    selects (:func:`part_operands`), and whether a file of the change that steers the
    runner's discovery selects (``steered``: :func:`steers_discovery`).

    ``said``: what a run that meets the row did, for the verdict's evidence; ``harmless``:
    (flag, pattern) pairs: the flag whose whole value matches its pattern meets no row
    (``-p no:cacheprovider``, ``-W error::DeprecationWarning``)."""

    id: str
    when: str
    runners: tuple[str, ...]
    flags: frozenset[str] = frozenset()
    node_ids: bool = False
    output: str | None = None
    operands: bool = False
    steered: bool = False
    said: str = "it ran some of the tests, not the full suite"
    harmless: tuple[tuple[str, str], ...] = ()


#: Plugins ``-p no:NAME`` may drop without changing which tests run or how one is judged:
#: they order (randomly, random_order), cache (cacheprovider: only --lf/--sw read it, and
#: those select), parallelise (xdist), rerun (rerunfailures: without it a flaky test fails)
#: or report (sugar, faulthandler).
QUIET_PLUGINS = (
    "cacheprovider",
    "randomly",
    "random_order",
    "xdist",
    "rerunfailures",
    "sugar",
    "faulthandler",
)
#: A warning filter whose action is ``error`` (``error``, ``error::DeprecationWarning``).
_ERROR_FILTER = r"error(?::.*)?"


#: First match wins; flag rows before output rows.
SELECTION_ROWS: tuple[SelectionRow, ...] = (
    SelectionRow(
        "P-pytest-flag",
        "pytest told to run some tests: -k, -m, --deselect, --lf/--last-failed, "
        "--sw/--stepwise, --ignore, --ignore-glob",
        ("T-pytest",),
        frozenset(
            {"-k", "-m", "--deselect", "--lf", "--last-failed", "--sw", "--stepwise"}
            | {"--sw-skip", "--stepwise-skip", "--ignore", "--ignore-glob"}
        ),
    ),
    SelectionRow(
        "P-pytest-config",
        "pytest told to read another configuration, load or drop a plugin, or override the "
        "configured warning filters: -o/--override-ini, -p, -c/--config-file, --rootdir, "
        "--confcutdir, --pyargs, -W/--pythonwarnings (addopts, testpaths, collect_ignore, "
        "filterwarnings of another file or none); not -p no: of a plugin of QUIET_PLUGINS, "
        "nor -W error",
        ("T-pytest",),
        frozenset({"-o", "--override-ini", "-p", "-c", "--config-file", "--rootdir"})
        | frozenset({"--confcutdir", "--pyargs", "-W", "--pythonwarnings"}),
        said=(
            "it ran under options that override the repository's pytest configuration "
            "(another configuration file or ini value, a plugin loaded or dropped, a warning "
            "filter): not the full suite as the repository runs it"
        ),
        harmless=(
            ("-p", rf"no:(?:{'|'.join(QUIET_PLUGINS)})"),
            ("-W", _ERROR_FILTER),
            ("--pythonwarnings", _ERROR_FILTER),
        ),
    ),
    SelectionRow(
        "P-pytest-node",
        "pytest given a test's node id (tests/test_a.py::test_add)",
        ("T-pytest",),
        node_ids=True,
    ),
    SelectionRow(
        "P-unittest-flag", "python -m unittest -k PATTERN", ("T-unittest",), frozenset({"-k"})
    ),
    SelectionRow(
        "P-jest-flag",
        "jest or vitest told to run some tests: -t, --testNamePattern, --testPathPattern, "
        "-o/--onlyChanged, --changedSince, --findRelatedTests, --onlyFailures",
        ("T-jest",),
        frozenset(
            {"-t", "--testNamePattern", "--testPathPattern", "--testPathIgnorePatterns", "-o"}
            | {"--onlyChanged", "--changedSince", "--findRelatedTests", "--onlyFailures", "-f"}
            | {"--lastCommit"}
        ),
    ),
    SelectionRow(
        "P-mocha-flag",
        "mocha told to run some tests: -g/--grep, -f/--fgrep",
        ("T-mocha",),
        frozenset({"-g", "--grep", "-f", "--fgrep"}),
    ),
    SelectionRow(
        "P-node-flag",
        "node --test told to run some tests: --test-name-pattern, --test-skip-pattern, --test-only",
        ("T-node-test",),
        frozenset({"--test-name-pattern", "--test-skip-pattern", "--test-only"}),
    ),
    SelectionRow(
        "P-go-flag", "go test -run or -skip", ("T-go",), frozenset({"-run", "--run", "-skip"})
    ),
    SelectionRow(
        "P-cargo-flag",
        "cargo test --skip or --exact",
        ("T-cargo",),
        frozenset({"--skip", "--exact"}),
    ),
    SelectionRow(
        "P-operand",
        "the suite names a test file or a subdirectory of the test tree (pytest "
        "tests/test_sub.py, pytest tests/unit, python -m unittest tests.test_add, go test "
        "./pkg/...) and the repository declares no full suite (verification.full_suite)",
        ("T-pytest", "T-unittest", "T-jest", "T-mocha", "T-node-test", "T-go"),
        operands=True,
    ),
    SelectionRow(
        "P-unittest-load-tests",
        "python -m unittest, and the change adds, changes or removes a file that steers its "
        "discovery: a Python file defining load_tests (a package's __init__.py, a test "
        "module), or a test package's __init__.py (not identical on the base)",
        ("T-unittest",),
        steered=True,
    ),
    SelectionRow(
        "P-deselected",
        "the output's summary says tests were deselected (pytest's `1 deselected`, also from "
        "a configuration's addopts)",
        (),
        output=r"^=*\s*(?:.*?, )?(\d+) deselected\b.*\bin \d+(?:\.\d+)?s\b",
    ),
    SelectionRow(
        "P-filtered",
        "the output says tests were filtered out (cargo's `3 filtered out`)",
        (),
        output=r"^test result: .*?; (\d+) filtered out",
    ),
)


#: Words that name the runner: its flags are the words after the first of them
#: (``python3 -m pytest -m slow``: the first ``-m`` is the interpreter's).
_RUNNER_WORDS = frozenset({"pytest", "py.test", "unittest", "jest", "vitest", "mocha", "test"})


def _harmless(row: SelectionRow, flag: str, value: str | None) -> bool:
    """Whether ``flag`` with ``value`` (None: none given) is one of ``row.harmless``."""
    return value is not None and any(
        flag == f and re.fullmatch(pattern, value) for f, pattern in row.harmless
    )


def _runner_args(words: tuple[str, ...]) -> tuple[str, ...]:
    start = next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] in _RUNNER_WORDS), -1)
    return words[start + 1 :]


def deselected_ids(command: str) -> tuple[str, ...]:
    """The node ids a pytest ``command`` deselects (``--deselect ID``, ``--deselect=ID``),
    in order; empty for another runner or none."""
    runner = runner_of(command)
    if runner is None or runner.id != "T-pytest":
        return ()
    try:
        rest = _runner_args(tuple(shlex.split(command)))
    except ValueError:
        return ()
    found = [v for f, eq, v in (w.partition("=") for w in rest) if f == "--deselect" and eq]
    found += [nxt for w, nxt in itertools.pairwise(rest) if w == "--deselect"]
    return tuple(dict.fromkeys(found))


def _selects(row: SelectionRow, words: tuple[str, ...], excused: frozenset[str]) -> bool:
    rest = _runner_args(words)
    short = {f for f in row.flags if len(f) == 2 and f[1] != "-"}
    value_of = False  # the word is the value of the option before it (-W error::X)
    for n, word in enumerate(rest):
        if value_of:
            value_of = False
            continue
        if word == "--":
            continue
        flag, eq, attached = word.partition("=")
        if not eq and word[:2] in short and len(word) > 2 and not word.startswith("--"):
            flag, attached, eq = word[:2], word[2:], "="  # -kfoo, -pno:randomly
        takes = flag in _VALUE_FLAGS or flag in row.flags
        value = attached if eq else (rest[n + 1] if takes and n + 1 < len(rest) else None)
        value_of = takes and not eq and flag.startswith("-") and value is not None
        if flag in row.flags:
            if _harmless(row, flag, value) or (flag == "--deselect" and value in excused):
                continue
            return True
        if row.node_ids and not word.startswith("-") and "::" in word:
            return True
    return False


#: Options of pytest (and of the other runners) whose value is the next word: that word
#: is not an operand (``--tb short``, ``--junitxml out/r.xml``).
_VALUE_FLAGS = frozenset(
    {"-p", "-c", "-o", "-W", "-n", "--rootdir", "--confcutdir", "--basetemp", "--junitxml"}
    | {"--junit-xml", "--tb", "--maxfail", "--durations", "--dist", "--cov", "--cov-report"}
    | {"--import-mode", "--log-level", "--log-file", "--capture", "--override-ini"}
    | {"--config", "--reporter", "--require", "--timeout", "--test-reporter", "-count"}
    | {"-timeout", "-parallel", "-tags", "-coverprofile", "--pythonwarnings", "--deselect"}
)
#: File names a test runner's operand names when it names one file.
_TEST_FILE = re.compile(r"\.(?:py|js|mjs|cjs|jsx|ts|mts|cts|tsx|go)$")


def part_operands(command: str, links: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The operands of ``command``'s test runner that name part of the test tree: a test
    file (``tests/test_sub.py``, ``test_add.py``), a path below a top-level directory
    (``tests/unit``, ``./pkg/...``), a ``unittest`` module (``tests.test_add``), a
    ``unittest discover`` start directory below a top-level one or a file pattern other
    than its default (:func:`_discover_parts`). A
    top-level directory (``tests``, ``tests/``, ``./tests``) or ``.``/``./...`` is the
    whole tree; empty when the command runs no runner whose operands are paths.
    ``links``: operands that pass through a symbolic link of the tree, each to the path it
    resolves to from the tree's root, judged by that path (``all -> tests/unit`` is a
    part, not a top-level directory)."""
    runner = runner_of(command)
    if runner is None:
        return ()
    try:
        words = tuple(shlex.split(command))
    except ValueError:
        words = tuple(command.split())
    start = next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] in _RUNNER_WORDS), -1)
    found: list[str] = []
    skip = False
    for word in words[start + 1 :]:
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            skip = word in _VALUE_FLAGS
            continue
        if runner.id == "T-unittest":
            if word == "discover":  # its -s/-p/-t and positional values: their own rule
                return _discover_parts(words[words.index(word) + 1 :], links)
            found.append(word)
            continue
        if runner.id == "T-go":  # packages: ./... is every one of them
            if word not in ("./...", "..."):
                found.append(word)
            continue
        path = (links or {}).get(word, word).removeprefix("./").rstrip("/")
        if path in ("", ".") or ("/" not in path and not _TEST_FILE.search(path)):
            continue
        found.append(word)
    return tuple(found)


#: ``unittest discover``'s default file pattern: any other pattern selects some files.
_DISCOVER_PATTERN = "test*.py"


def _discover_parts(words: Sequence[str], links: Mapping[str, str] | None) -> tuple[str, ...]:
    """The words after ``unittest discover`` that narrow it to part of the test tree: a
    ``-p``/``--pattern`` other than ``test*.py``, or a start directory (``-s``/
    ``--start-directory``, or the first positional) below a top-level directory
    (``tests/unit``: a part, as ``pytest tests/unit`` is; ``tests`` or ``.`` is the whole).
    Positionals are ``start pattern top`` (``-t``/the third never narrows). ``links``: as
    :func:`part_operands` takes them. Empty when the run discovers the whole tree."""
    start: str | None = None
    pattern: str | None = None
    positional: list[str] = []
    it = iter(words)
    for word in it:
        flag, eq, value = word.partition("=")
        if flag in ("-s", "--start-directory", "-p", "--pattern", "-t", "--top-level-directory"):
            value = value if eq else next(it, "")
            if flag in ("-s", "--start-directory"):
                start = value
            elif flag in ("-p", "--pattern"):
                pattern = value
        elif word[:2] in ("-s", "-p") and len(word) > 2:  # -stests/unit, -ptest_a*
            if word[1] == "s":
                start = word[2:]
            else:
                pattern = word[2:]
        elif not word.startswith("-"):
            positional.append(word)
    start = start if start is not None else (positional[0] if positional else None)
    if pattern is None and len(positional) > 1:
        pattern = positional[1]
    found: list[str] = []
    if pattern is not None and pattern != _DISCOVER_PATTERN:
        found.append(f"-p {pattern}")
    if start is not None:
        path = (links or {}).get(start, start).removeprefix("./").rstrip("/")
        if "/" in path:
            found.append(start)
    return tuple(found)


def selection(
    command: str,
    output: str,
    *,
    operands: bool = True,
    steering: tuple[str, ...] = (),
    links: Mapping[str, str] | None = None,
    excused: frozenset[str] = frozenset(),
) -> SelectionRow | None:
    """The :data:`SELECTION_ROWS` row that shows ``command`` (a shell line or a quoted
    argument vector) ran some of its tests, by its words or by ``output``; None when it
    ran them all (or runs no recognised test runner). ``operands``: whether an operand
    naming part of the test tree selects (row P-operand: no full suite is declared);
    ``steering``: the paths the candidate adds, changes or removes that steer discovery
    (:func:`steers_discovery`); ``links``: as :func:`part_operands` takes them;
    ``excused``: node ids (of :func:`deselected_ids`) the caller saw fail on the candidate's
    base tree (rule R2's way out of a red base): deselecting them, and an output counting
    exactly that many deselected, selects nothing."""
    runner = runner_of(command)
    if runner is None:
        return None
    try:
        words = tuple(shlex.split(command))
    except ValueError:
        words = tuple(command.split())
    for row in SELECTION_ROWS:
        if row.runners and runner.id not in row.runners:
            continue
        if row.operands:
            if operands and part_operands(command, links):
                return row
            continue
        if row.steered:
            if steering:
                return row
            continue
        if row.flags or row.node_ids:
            if _selects(row, words, excused):
                return row
            continue
        assert row.output is not None
        counts = [int(m.group(1)) for m in re.finditer(row.output, output, re.MULTILINE)]
        allowed = len(excused) if row.id == "P-deselected" else 0  # the excused, deselected
        if any(n > allowed for n in counts):
            return row
    return None


def selection_said(row_id: str) -> str:
    """What a run that met the :data:`SELECTION_ROWS` row ``row_id`` did, for the verdict's
    evidence (:attr:`SelectionRow.said`); an unknown id (a stored outcome of an older
    table) reads as a run of some of the tests."""
    return next((r.said for r in SELECTION_ROWS if r.id == row_id), SelectionRow("", "", ()).said)


#: ``load_tests`` named as a word: defined (``def load_tests``), assigned or imported
#: (``from helpers import load_tests``) alike.
_LOAD_TESTS = re.compile(rb"\bload_tests\b")
#: A directory name of a test tree (``tests``, ``test``, ``unit_tests``, ``testing``).
_TEST_DIR = re.compile(r"^(?:tests?|testing|.*_tests?)$")


def steers_discovery(path: str, old: bytes | None, new: bytes | None) -> bool:
    """Whether a change of ``path`` from ``old`` to ``new`` (None: absent on that side)
    may change which tests ``python -m unittest`` discovers: a Python file that names
    ``load_tests`` on either side (discovery calls the one a package's ``__init__.py`` or a
    test module defines and collects what it returns), or a test package's ``__init__.py``
    (a directory named like a test tree on its path: added, changed or removed, it decides
    whether and how that directory is searched). False when both sides are the same."""
    if old == new or not path.endswith(".py"):
        return False
    if any(_LOAD_TESTS.search(side) for side in (old, new) if side is not None):
        return True
    parts = path.split("/")
    return parts[-1] == "__init__.py" and any(_TEST_DIR.match(p) for p in parts[:-1])
