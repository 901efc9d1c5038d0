"""How many tests a test runner's output says it ran (SPEC §9; seed 001 "Guardrails": "do
not accept a claim whose criteria have no observable check").

Room ``policy`` (pure). A success criterion or full suite that runs a test runner checks
the artifact only through the tests it ran: ``pytest --version``, ``--collect-only``,
``--setup-plan``, ``-k nomatch`` or ``python -m unittest`` in a tree with no test module
exit 0 having run none. Two tables:

* :data:`RUNNER_ROWS` — which commands are test runners, and how each one's output
  states the number of tests it ran (the runner's own summary line); a full suite must
  run one of them (a command that runs no test runner shows nothing of the project's
  tests: ``python3 -c 'print(1)'``, ``sha256sum app.py``, ``git status``);
* :data:`NO_RUN_FLAGS` — flags with which a runner never runs a test: refused before
  anything runs (row ``T-no-run``).

:func:`tests_run` reads a runner's output: the count, or None when no summary line says;
:func:`tests_skipped`: how many it skipped (never tests that ran).
"""

from __future__ import annotations

import functools
import itertools
import re
import shlex
from collections.abc import Callable

from gentle_hooks.policy.wrappers import MAX_DEPTH, SHELLS, shell_script
from gentle_hooks.values.frozen import frozen


@frozen
class RunnerRow:
    """One test runner: id, the words that name it in a command, how many tests its
    output says it ran (None: no summary line; a skipped, xfailed, xpassed or todo test did
    not run), how many its output says it skipped or expected to fail (``skipped``: 0 when
    none or no summary line), and whether it always prints that count
    (``prints_count``: a run whose output has none ran no test; a wrapper such as ``tox``
    or ``make test`` prints one only when the runner it wraps does)."""

    id: str
    when: str
    names: Callable[[tuple[str, ...]], bool]
    count: Callable[[str], int | None]
    prints_count: bool = True
    skipped: Callable[[str], int] = lambda text: 0


def _program(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _module(words: tuple[str, ...], name: str) -> bool:
    return any(w == "-m" and nxt == name for w, nxt in itertools.pairwise(words))


def _last(pattern: str, text: str) -> re.Match[str] | None:
    matches = list(re.finditer(pattern, text, re.MULTILINE))
    return matches[-1] if matches else None


#: pytest's summary line counts: the outcomes of tests that ran (a skipped or deselected
#: test did not run, nor did an xfailed or xpassed one count: its outcome is not its verdict).
_PYTEST_RAN = ("passed", "failed", "error", "errors")
#: pytest's summary line counts of tests skipped or expected to fail.
_PYTEST_SKIPPED = ("skipped", "xfailed", "xpassed")


def _pytest_count(text: str) -> int | None:
    line = _last(r"^=*\s*(.*\bin \d+(?:\.\d+)?s\b.*?)\s*=*\s*$", text)
    if line is None:
        return None
    pairs = re.findall(r"(\d+) ([a-z]+)", line.group(1))
    if not pairs and "no tests ran" not in line.group(1):
        return None
    return sum(int(n) for n, what in pairs if what in _PYTEST_RAN)


def _pytest_skipped(text: str) -> int:
    line = _last(r"^=*\s*(.*\bin \d+(?:\.\d+)?s\b.*?)\s*=*\s*$", text)
    pairs = re.findall(r"(\d+) ([a-z]+)", line.group(1)) if line else []
    return sum(int(n) for n, what in pairs if what in _PYTEST_SKIPPED)


def _unittest_skipped(text: str) -> int:
    # after "Ran N tests": "OK (skipped=1, expected failures=1)", "FAILED (failures=1, skipped=2)"
    found = _last(r"^(?:OK|FAILED)\b.*$", text)
    if found is None:
        return 0
    counts = re.findall(r"(skipped|expected failures|unexpected successes)=(\d+)", found.group(0))
    return sum(int(n) for _, n in counts)


def _unittest_count(text: str) -> int | None:
    found = _last(r"^Ran (\d+) tests? in ", text)
    return max(0, int(found.group(1)) - _unittest_skipped(text)) if found else None


def _node_test_skipped(text: str) -> int:
    found = (
        _last(rf"^(?:#|\N{{INFORMATION SOURCE}}) {w} (\d+)\s*$", text) for w in ("skipped", "todo")
    )
    return sum(int(m.group(1)) for m in found if m is not None)


def _node_test_count(text: str) -> int | None:
    found = _last(r"^(?:#|\N{INFORMATION SOURCE}) tests (\d+)\s*$", text)
    return max(0, int(found.group(1)) - _node_test_skipped(text)) if found else None


def _jest_skipped(text: str) -> int:
    found = _last(r"^Tests:\s+.*?(\d+) total", text)
    if found is None:
        return 0
    return sum(int(n) for n in re.findall(r"(\d+) (?:skipped|todo)\b", found.group(0)))


def _jest_count(text: str) -> int | None:
    found = _last(r"^Tests:\s+.*?(\d+) total", text)
    return int(found.group(1)) - _jest_skipped(text) if found else None


def _mocha_skipped(text: str) -> int:
    found = _last(r"^\s*(\d+) pending\b", text)
    return int(found.group(1)) if found else 0


def _mocha_count(text: str) -> int | None:
    passing = _last(r"^\s*(\d+) passing\b", text)
    if passing is None:
        return None
    failing = _last(r"^\s*(\d+) failing\b", text)
    return int(passing.group(1)) + (int(failing.group(1)) if failing else 0)


def _cargo_count(text: str) -> int | None:
    found = re.findall(r"^test result: \w+\. (\d+) passed; (\d+) failed", text, re.MULTILINE)
    return sum(int(p) + int(f) for p, f in found) if found else None


def _go_count(text: str) -> int | None:
    # `go test -v` prints one line per test; without -v only the packages' `ok` lines
    found = re.findall(r"^\s*--- (?:PASS|FAIL): ", text, re.MULTILINE)
    return len(found) if found else None


def _any_count(text: str) -> int | None:
    """A wrapper's output: the count of the first runner it wrapped whose summary line is
    there (unittest, cargo, go test -v, node --test, jest, mocha, then pytest: its summary
    line's pattern, any line ending "in 0.1s", is the loosest)."""
    for count in (
        _unittest_count,
        _cargo_count,
        _go_count,
        _node_test_count,
        _jest_count,
        _mocha_count,
        _pytest_count,
    ):
        found = count(text)
        if found is not None:
            return found
    return None


def _any_skipped(text: str) -> int:
    """A wrapper's output: the skipped count of the runner :func:`_any_count` reads."""
    pairs = (
        (_unittest_count, _unittest_skipped),
        (_node_test_count, _node_test_skipped),
        (_jest_count, _jest_skipped),
        (_mocha_count, _mocha_skipped),
        (_pytest_count, _pytest_skipped),
    )
    for count, skipped in pairs:
        if count(text) is not None:
            return skipped(text)
    return 0


def _script(words: tuple[str, ...], tools: tuple[str, ...], target: str) -> bool:
    """``TOOL target`` or ``TOOL run target`` (``npm test``, ``yarn run test``,
    ``make test``) anywhere in the command's words."""
    for i, word in enumerate(words):
        if _program(word) not in tools:
            continue
        rest = [w for w in words[i + 1 :] if not w.startswith("-")]
        if rest[:1] == [target] or rest[:2] == ["run", target]:
            return True
    return False


#: Test runners, first match wins.
RUNNER_ROWS: tuple[RunnerRow, ...] = (
    RunnerRow(
        "T-pytest",
        "pytest (or py.test, python -m pytest): its summary line's passed, failed and error "
        "counts; skipped: its skipped, xfailed and xpassed counts",
        lambda w: any(_program(x) in ("pytest", "py.test") for x in w) or _module(w, "pytest"),
        _pytest_count,
        skipped=_pytest_skipped,
    ),
    RunnerRow(
        "T-unittest",
        "python -m unittest: its 'Ran N tests' line less skipped: its 'OK (skipped=N, expected "
        "failures=N)' counts",
        lambda w: _module(w, "unittest"),
        _unittest_count,
        skipped=_unittest_skipped,
    ),
    RunnerRow(
        "T-node-test",
        "node --test: its '# tests N' line less skipped: its '# skipped N' and '# todo N'",
        lambda w: any(_program(x) == "node" for x in w) and "--test" in w,
        _node_test_count,
        skipped=_node_test_skipped,
    ),
    RunnerRow(
        "T-jest",
        "jest or vitest: its 'Tests: ... N total' line less skipped: its skipped and todo",
        lambda w: any(_program(x) in ("jest", "vitest") for x in w),
        _jest_count,
        skipped=_jest_skipped,
    ),
    RunnerRow(
        "T-mocha",
        "mocha: its 'N passing' and 'N failing' lines; skipped: its 'N pending'",
        lambda w: any(_program(x) == "mocha" for x in w),
        _mocha_count,
        skipped=_mocha_skipped,
    ),
    RunnerRow(
        "T-cargo",
        "cargo test: its 'test result: ... N passed; M failed' lines, summed",
        lambda w: _script(w, ("cargo",), "test"),
        _cargo_count,
    ),
    RunnerRow(
        "T-go",
        "go test: with -v its '--- PASS'/'--- FAIL' lines; without, no count",
        lambda w: _script(w, ("go",), "test"),
        _go_count,
        prints_count=False,
    ),
    RunnerRow(
        "T-tox",
        "tox or nox: the count of the runner they wrap, when it prints one",
        lambda w: (
            any(_program(x) in ("tox", "nox") for x in w) or _module(w, "tox") or _module(w, "nox")
        ),
        _any_count,
        prints_count=False,
        skipped=_any_skipped,
    ),
    RunnerRow(
        "T-script",
        "npm/yarn/pnpm test, make test: the count of the runner they wrap, when it prints one",
        lambda w: _script(w, ("npm", "yarn", "pnpm"), "test") or _script(w, ("make",), "test"),
        _any_count,
        prints_count=False,
        skipped=_any_skipped,
    ),
)

#: Flags with which a test runner runs no test (row ``T-no-run``): it prints its version
#: or help, or lists, collects or plans the tests without running them.
NO_RUN_FLAGS: frozenset[str] = frozenset(
    {
        "--version",
        "-V",
        "--help",
        "-h",
        "--co",
        "--collect-only",
        "--collectonly",
        "--setup-plan",
        "--setup-only",
        "--fixtures",
        "--fixtures-per-test",
        "--markers",
        "--list",
        "--no-run",
        "-list",
        "--listTests",
    }
)


def _words(command: str, depth: int = 0) -> tuple[str, ...]:
    """The words of ``command``, and after them the words of the ``-c`` script a shell
    runs (``sh -c 'python -m unittest'`` runs unittest: its count decides as the bare
    command's does), to :data:`~gentle_hooks.policy.wrappers.MAX_DEPTH` shells deep."""
    try:
        words = tuple(shlex.split(command))
    except ValueError:
        words = tuple(command.split())
    if words and _program(words[0]) in SHELLS and depth < MAX_DEPTH:
        script, _ = shell_script(words)
        if script is not None:
            return words + _words(script, depth + 1)
    return words


def runner_of(command: str) -> RunnerRow | None:
    """The :data:`RUNNER_ROWS` row of the test runner ``command`` runs (a shell line or a
    quoted argument vector), or None when it runs none."""
    words = _words(command)
    return next((r for r in RUNNER_ROWS if r.names(words)), None)


def no_run_flags(command: str) -> tuple[str, ...]:
    """The :data:`NO_RUN_FLAGS` a test runner's command carries (empty when it runs no
    runner, or none)."""
    if runner_of(command) is None:
        return ()
    return tuple(w for w in _words(command) if w in NO_RUN_FLAGS)


def prints_count(runner_id: str) -> bool:
    """Whether the :data:`RUNNER_ROWS` row ``runner_id`` always prints how many tests ran
    (an unknown id does: no count is then trusted)."""
    row = next((r for r in RUNNER_ROWS if r.id == runner_id), None)
    return True if row is None else row.prints_count


def tests_run(command: str, output: str) -> int | None:
    """How many tests ``command``'s test runner says it ran in ``output``: None when
    ``command`` runs no test runner or its output has no summary line (neither is a count
    a verifier may trust)."""
    row = runner_of(command)
    return None if row is None else row.count(output)


def tests_skipped(command: str, output: str) -> int:
    """How many tests ``command``'s test runner says it skipped, expected to fail (xfailed,
    xpassed, expected failures) or left to do in ``output``: 0 when it runs no test runner
    or says none."""
    row = runner_of(command)
    return 0 if row is None else row.skipped(output)


#: Summary lines in which a recognised test runner reports failed tests (pytest, unittest,
#: cargo, go test, node --test, jest, mocha), matched anywhere in the output: a line that
#: runs the runner twice prints two summaries, and the first may be the failing one.
FAILED_PATTERNS: tuple[str, ...] = (
    r"^=*\s*(?:\d+ \w+, )*[1-9]\d* (?:failed|errors?)\b.*\bin \d+(?:\.\d+)?s\b",
    r"^FAILED \((?:failures|errors)=[1-9]",
    r"^test result: FAILED\.",
    r"^--- FAIL: ",
    r"^(?:#|\N{INFORMATION SOURCE}) fail [1-9]",
    r"^Tests:\s+.*\b[1-9]\d* failed",
    r"^\s*[1-9]\d* failing\b",
)


@functools.cache
def _failed_patterns() -> tuple[re.Pattern[str], ...]:
    # compiled on first use: a gate that judges no runner's output never pays for them
    return tuple(re.compile(p, re.MULTILINE) for p in FAILED_PATTERNS)


def reports_failures(command: str, output: str) -> bool:
    """Whether ``command`` runs a recognised test runner (:func:`runner_of`) and ``output``
    holds one of its summary lines reporting failed tests (:data:`FAILED_PATTERNS`), e.g.
    pytest's ``1 failed, 3 passed in 0.1s``: then an exit 0 is not the runner's verdict."""
    if runner_of(command) is None:
        return False
    return any(p.search(output) for p in _failed_patterns())
