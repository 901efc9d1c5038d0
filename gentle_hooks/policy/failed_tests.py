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

:func:`adds_failures` compares the two: None when either side's ids were not read (the
caller fails closed: it does not claim "the same way").
"""

from __future__ import annotations

import re
from collections.abc import Collection

#: A unittest report's heading of one failed test (after a line of ``=``).
_UNITTEST_HEADING = re.compile(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (.+?)\s*$")
#: unittest's closing line, ``FAILED (failures=1, errors=2, unexpected successes=1)``.
_UNITTEST_FAILED = re.compile(r"^FAILED \(([^)]*)\)\s*$", re.MULTILINE)
_UNITTEST_COUNTS = re.compile(r"(failures|errors|unexpected successes)=(\d+)")


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


def adds_failures(
    failed: Collection[str] | None, base_failed: Collection[str] | None
) -> bool | None:
    """Whether a suite that failed on the candidate (``failed``: the ids it failed) fails a
    test its base tree did not (``base_failed``): True when it does, False when every test
    it failed failed there too (it adds none, and may fix some); None when either side was
    not read or the candidate's names none (it failed some other way: nothing says which)."""
    if failed is None or base_failed is None or not failed:
        return None
    return not set(failed) <= set(base_failed)
