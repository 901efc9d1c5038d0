"""Which tests a failing full suite failed, and whether a base tree failed the same ones
(SPEC §9 rule R2; seed 001 "Guardrails": "do not accept a claim whose criteria have no
observable check"; issue 18, refuter r18t MED).

Room ``policy`` (pure: the caller reads the observer's file and the run's output). A full
suite that fails on the candidate and on its base tree is the brief's fault only when the
change adds no failure: the same exit status and last line say nothing of that (``1
failed`` on the base, a different ``1 failed`` on the candidate). The failed tests are read
by id, per runner:

* pytest, observed (:mod:`gentle_hooks.services.suite_observer`): the node ids its
  sessions reported failed, and its collectors that failed
  (:func:`~gentle_hooks.policy.suite_coverage.failed_ids`);
* ``python -m unittest`` (:func:`unittest_failed`): each ``FAIL:``, ``ERROR:`` or
  ``UNEXPECTED SUCCESS:`` heading of its report, when their number is the one its
  ``FAILED (...)`` line counts;
* anything else: not read (None).

A test failing on both trees is the base's failure only when it fails the same way (issue
18, refuter r18u MED): another assert of it failing, or the change editing it, is a failure
of the change. How each failed is a digest: for pytest, the observer's (the failing line's
file and text, its message, the test function's own source, addresses ``0x...`` masked);
for unittest, :func:`unittest_how` (its report's traceback, line numbers and addresses
masked: a test moved in its file fails the same way). Both also hold the test's own
failing line, counted from the test function's first line (issue 18, refuter r18v HIGH
1): a helper failing at its one line, with the same message, from another line of the
test is another failure. A failure whose message differs from one run to the next (a
time, a random value) reads as another failure: fail closed.

:func:`adds_failures` compares the two: None when either side's ids, or how they failed,
were not read (the caller fails closed: it does not claim "the same way").
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Callable, Collection, Sequence

#: A unittest report's heading of one failed test (after a line of ``=``).
_UNITTEST_HEADING = re.compile(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (.+?)\s*$")
#: unittest's closing line, ``FAILED (failures=1, errors=2, unexpected successes=1)``.
_UNITTEST_FAILED = re.compile(r"^FAILED \(([^)]*)\)\s*$", re.MULTILINE)
_UNITTEST_COUNTS = re.compile(r"(failures|errors|unexpected successes)=(\d+)")
#: unittest's summary after the report, ``Ran 3 tests in 0.002s`` (its time differs per run).
_UNITTEST_RAN = re.compile(r"^Ran \d+ tests? in ")


def unittest_failed(text: str) -> tuple[str, ...] | None:
    """The tests ``python -m unittest``'s output ``text`` reports failed (the heading's
    words, e.g. ``test_u (unit.test_u.T.test_u)``), sorted; None when its last ``FAILED
    (...)`` line is missing or counts other than the headings found (a report cut short,
    another runner's output)."""
    closing = list(_UNITTEST_FAILED.finditer(text))
    if not closing:
        return None
    counted = sum(int(n) for _, n in _UNITTEST_COUNTS.findall(closing[-1].group(1)))
    found: list[str] = []
    after_rule = False
    for line in text[: closing[-1].start()].splitlines():
        heading = _UNITTEST_HEADING.match(line) if after_rule else None
        if heading:
            found.append(heading.group(1))
        after_rule = line.startswith("=" * 20)
    if not found or len(found) != counted:
        return None
    return tuple(sorted(found))


#: What a unittest traceback holds that differs when nothing failed otherwise: line numbers
#: (a test moved in its file), addresses.
_MOVING = re.compile(r"(?<=, line )\d+|0x[0-9a-fA-F]+")


#: A traceback's frame line: its file, line number and function.
_FRAME = re.compile(r'^  File "(.+)", line (\d+), in (\S+)\s*$')


def unittest_how(text: str, read: Callable[[str], str | None]) -> dict[str, str] | None:
    """Each test ``python -m unittest``'s output ``text`` reports failed (as
    :func:`unittest_failed` names it) to a digest of its report's block: the traceback
    after its heading, line numbers and addresses masked (:data:`_MOVING`), and the
    test's own failing line (:func:`_own_line`, its file's text from ``read``: a path as
    the traceback names it to the file's text, None when not read); None when
    :func:`unittest_failed` reads none."""
    if unittest_failed(text) is None:
        return None
    closing = list(_UNITTEST_FAILED.finditer(text))[-1]
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    after_rule = False
    for line in text[: closing.start()].splitlines():
        heading = _UNITTEST_HEADING.match(line) if after_rule else None
        after_rule = line.startswith("=" * 20)
        if heading:
            current = found.setdefault(heading.group(1), [])
        elif after_rule or _UNITTEST_RAN.match(line):  # the next block, or the summary
            current = None
        elif current is not None:
            current.append(line)
    return {
        k: _digest([*(_MOVING.sub("#", ln) for ln in v), _own_line(k, v, read)])
        for k, v in found.items()
    }


def _own_line(heading: str, block: Sequence[str], read: Callable[[str], str | None]) -> str:
    """Where the test of ``heading`` (``test_a (m.T.test_a)``) failed in its own method:
    the first frame of its traceback ``block`` in a function of its name, as the line
    counted from that function's ``def`` (:func:`_def_line` in the text ``read`` gives);
    its line number itself when that is not read (a test moved in its file then reads
    as another failure: fail closed); empty when no frame is the test's (a module that
    failed to import)."""
    name = heading.split(" ", 1)[0]
    for line in block:
        frame = _FRAME.match(line)
        if frame and frame.group(3) == name:
            at = int(frame.group(2))
            source = read(frame.group(1))
            start = None if source is None else _def_line(source, name, at)
            return f"test line +{at - start}" if start is not None else f"test line {at}"
    return ""


def _def_line(source: str, name: str, at: int) -> int | None:
    """The ``def`` line of the innermost function ``name`` of ``source`` holding line
    ``at``; None when none does or ``source`` is no Python."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    found = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name == name
        and node.lineno <= at <= (node.end_lineno or node.lineno)
    ]
    return max(found, default=None)


def _digest(lines: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(lines).strip().encode("utf-8", "replace")).hexdigest()


def adds_failures(
    failed: Collection[str] | None,
    base_failed: Collection[str] | None,
    how: Sequence[tuple[str, str]] | None = None,
    base_how: Sequence[tuple[str, str]] | None = None,
) -> bool | None:
    """Whether a suite that failed on the candidate (``failed``: the ids it failed) fails a
    test its base tree did not (``base_failed``), or fails one another way (``how`` /
    ``base_how``: ``(id, digest)`` of how each failed on the candidate and on the base):
    True when it does, False when every test it failed failed there too, the same way (it
    adds none, and may fix some); None when either side was not read, how one of its
    failed tests failed was not read on either tree, or the candidate's names none (it
    failed some other way: nothing says which)."""
    if failed is None or base_failed is None or not failed:
        return None
    if not set(failed) <= set(base_failed):
        return True
    mine, theirs = dict(how or ()), dict(base_how or ())
    if any(mine.get(i) is None or theirs.get(i) is None for i in failed):
        return None
    return any(mine[i] != theirs[i] for i in failed)
