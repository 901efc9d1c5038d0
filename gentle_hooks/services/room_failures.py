"""How a verify run's check failed, read from what was observed (SPEC §9 rule R2; seed 001
"Guardrails"; issue 18).

Room ``services``. :func:`failure_line` is a check's failure in one line (a criterion's
"the same way" on every tree, row C4-nothing-failed); :func:`failed_tests` the tests a
failing full suite failed, each with how it failed (row C5-base judges "the same way" by
them: :mod:`gentle_hooks.policy.failed_tests`; for unittest, the failing test's file is
read in the tree to count its own failing line from its ``def``); :func:`deselect_reach`
the passing tests a ``--deselect`` of those would hide too (pytest's ``--deselect``
matches by prefix).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Collection, Sequence

from gentle_hooks.artifacts.outcome import Check
from gentle_hooks.policy.failed_tests import unittest_failed, unittest_how
from gentle_hooks.policy.suite_coverage import (
    Session,
    covered,
    failed_ids,
    failure_hows,
    ran_ids,
    tree_id,
)
from gentle_hooks.policy.testcount import runner_of

#: What differs between runs of one failure and is not the failure: numbers (a duration,
#: a count, an address, a line number).
_NUMBERS = re.compile(r"0x[0-9a-fA-F]+|\d+")


def failure_line(text: str) -> str:
    """How a check's run failed, from its output ``text``: its last non-blank line (a
    Python exception's type and message, a test runner's summary), numbers masked
    (:data:`_NUMBERS`: ``1 failed in 0.03s`` is the same failure on every run)."""
    last = next((line for line in reversed(text.splitlines()) if line.strip()), "")
    return _NUMBERS.sub("#", last.strip())


#: The ids and how each failed (:func:`failed_tests`).
Failed = tuple[tuple[str, ...] | None, tuple[tuple[str, str], ...] | None]


def failed_tests(
    check: Check, exit_code: int, run: Sequence[Session], tree: str, text: str
) -> Failed:
    """For a full suite that failed, the ids of the tests it failed, sorted, and each
    one's failure as ``(id, digest)``
    (:mod:`gentle_hooks.policy.failed_tests`): a pytest run's observed ``run`` (ids from
    ``tree``'s top), else unittest's report in ``text`` (the failing tests' files read in
    ``tree``: :func:`_reader`); ``(None, None)`` when it passed or
    they were not read; the failures None when the ids were read but not how each failed."""
    if check.kind != "suite" or exit_code == 0:
        return None, None
    tops = (tree, os.path.realpath(tree))
    if any(not s.collect_only for s in run):
        hows = failure_hows(run, tops)
        return tuple(sorted(failed_ids(run, tops))), tuple(sorted(hows.items()))
    runner = runner_of(check.command)
    if runner is None or runner.id != "T-unittest":
        return None, None
    ids, hows_u = unittest_failed(text), unittest_how(text, _reader(tree))
    return ids, None if ids is None or hows_u is None else tuple(sorted(hows_u.items()))


#: The most bytes of a test file read to find a failing test's ``def`` line.
_MAX_SOURCE = 2 * 1024 * 1024


def _reader(tree: str) -> Callable[[str], str | None]:
    """A reader of the files a traceback names, for
    :func:`~gentle_hooks.policy.failed_tests.unittest_how`: a regular file inside
    ``tree`` (resolved; a relative path from its top), at most :data:`_MAX_SOURCE`
    bytes, as text; None for any other (outside, a FIFO, too large, unreadable)."""
    top = os.path.realpath(tree)

    def read(path: str) -> str | None:
        real = os.path.realpath(os.path.join(top, path))
        if not real.startswith(top.rstrip(os.sep) + os.sep):
            return None
        try:
            # O_NONBLOCK: a FIFO the candidate put at a traceback's path never blocks
            with os.fdopen(os.open(real, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
                st = os.fstat(fh.fileno())
                if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_SOURCE:
                    return None
                return fh.read(_MAX_SOURCE).decode("utf-8", "replace")
        except OSError:
            return None

    return read


def suite_ran(check: Check, run: Sequence[Session], tree: str) -> frozenset[str] | None:
    """For a full suite the observer watched (``run`` holds a session that ran), the ids it
    ran from ``tree``'s top (:func:`~gentle_hooks.policy.suite_coverage.ran_ids`); None
    otherwise."""
    if check.kind != "suite" or not any(not s.collect_only for s in run):
        return None
    return ran_ids(run, (tree, os.path.realpath(tree)))


def gone_tests(
    base_failed: Collection[str] | None,
    ran: Collection[str] | None,
    deselected: Sequence[str] = (),
) -> tuple[str, ...]:
    """Of the tests a suite failed on the base tree (``base_failed``), those the
    candidate's run (``ran``: :func:`suite_ran`) did not run, sorted: the change deletes or
    renames them (a module id whose tests ran counts as run:
    :func:`~gentle_hooks.policy.suite_coverage.covered`; one the suite's ``--deselect``
    ids reach, a prefix match, is the suite's doing, judged as a selection); empty when
    either is not read."""
    if not base_failed or ran is None:
        return ()
    missing = {i for i in set(base_failed) - set(ran) if not i.startswith(tuple(deselected))}
    return tuple(sorted(missing - covered(missing, ran)))


def deselect_reach(run: Sequence[Session], failed: Collection[str], tree: str) -> tuple[str, ...]:
    """The tests ``run`` selected, other than ``failed``, whose id starts with one of
    ``failed`` (ids from ``tree``'s top), sorted: what a ``--deselect`` of each failed id
    would deselect too (pytest's ``--deselect`` matches by prefix: ``test_broken``
    deselects ``test_broken_edge``; a parameter id ends with its ``]``)."""
    if not failed:
        return ()
    tops = (tree, os.path.realpath(tree))
    selected = {tree_id(i, s.rootpath, tops) for s in run if not s.collect_only for i in s.selected}
    prefixes = tuple(failed)
    return tuple(sorted(i for i in selected - set(failed) if i.startswith(prefixes)))
