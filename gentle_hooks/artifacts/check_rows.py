"""One observed check to its result: the check table of ``gentle-hook verify run`` (seed 001).

Room: artifacts (imports :mod:`.outcome`, :mod:`.verdict`, :mod:`gentle_hooks.values`);
pure. :data:`CHECK_ROWS` judges one :class:`~.outcome.Outcome`: a check that changed the
candidate's files in the room fails (seed 001 "Scope": "never repairs the artifact it
judges"), one the change itself defines is blocked (C1-own), a criterion passes on exit 0
(a test runner's only when its output shows tests ran:
:mod:`gentle_hooks.policy.testcount`), a negative test passes when its command fails, not
by a signal, and passes on the candidate's base tree (exit 0: so it depends on the
artifact), a criterion counts only when its outcome depends on the artifact (C4-nothing:
it differs on the base tree, or on the candidate with the files it adds or changes
emptied; "Guardrails": "do not accept a claim whose criteria have no observable check",
"Completion criteria": "every declared criterion has evidence, not an assertion"), the
suite passes on exit 0 (tests ran, as for a criterion), a check whose program is missing
is ``blocked`` ("stop and report blocked when a required tool ... is unavailable instead
of inferring the result"), and so is a check failing for a file of the work tree git
ignores that the room lacks (C1-ignored), and so is a full suite that runs no recognised test runner
(:data:`~gentle_hooks.policy.testcount.RUNNER_ROWS`: the suite is the one check not
compared with the base tree, so only a test runner's own report says it ran tests), and so
is a check whose runner skipped tests while the change adds a skip or expected-failure
marker (C1-skip: :mod:`gentle_hooks.policy.skipmarks`). :mod:`.observation` turns the
results into a verdict.
"""

from __future__ import annotations

from collections.abc import Callable

from gentle_hooks.artifacts.outcome import Outcome
from gentle_hooks.artifacts.verdict import Status
from gentle_hooks.values.frozen import frozen


@frozen
class CheckRow:
    """One row of :data:`CHECK_ROWS`: id, the case in words, its predicate and result;
    ``said``: the result's why in a few words, for the line people read (the id stays in
    ``--json``); ``evidence``: False for a row whose check says nothing of the candidate
    (C2-base: a negative test failing on the base tree too fails whatever the change is;
    C4-nothing: a criterion the candidate passes, as do its base and the candidate with
    the change emptied): its ``fail`` is the brief's fault, not an observed failure of the
    candidate (:mod:`gentle_hooks.ledger.fails`). A criterion the candidate fails is
    evidence even when it fails everywhere (C4-nothing-failed): nothing shows the
    candidate passes it."""

    id: str
    when: str
    matches: Callable[[Outcome], bool]
    result: Status
    said: str
    evidence: bool = True


#: The id of the :data:`CHECK_ROWS` row of a criterion that fails on every tree, the
#: candidate's, its base and the change emptied: evidence, but no run of its brief can pass
#: it (:data:`gentle_hooks.ledger.fails.FAILS_EVERYWHERE_ROW` names the same row).
FAILS_EVERYWHERE = "C4-nothing-failed"
#: The row of a full suite that fails the same way on the base tree (the same role).
SUITE_FAILS_ON_BASE = "C5-base"
#: The row of a full suite that fails on the base tree too, its failed tests not read on
#: one of them: the change's failure, not the brief's.
SUITE_FAILS_UNREAD = "C5-base-unread"

#: Seed 001: one observed check to its result; first match wins.
CHECK_ROWS: tuple[CheckRow, ...] = (
    CheckRow(
        "C0",
        "the check changed the artifact it judges: a verifier never repairs it",
        lambda o: bool(o.changed),
        "fail",
        said="it changed the artifact it judges",
    ),
    CheckRow(
        "C1-own",
        "the change adds or changes what defines the check (the script it runs, a Makefile, "
        "package.json's scripts, a test runner's configuration): its outcome would be the "
        "change's own word, and running the base's definition would patch what it judges",
        lambda o: bool(o.defined_by),
        "blocked",
        said="the change writes its definition",
    ),
    CheckRow(
        "C1-room",
        "the check starts a Python the room's import redirects do not reach (-I, -E, -S, env "
        "-i, PYTHONPATH unset or set inside quotes) while the work tree holds other code: it "
        "would import the work tree's copy, not the candidate's",
        lambda o: o.room_refused,
        "blocked",
        said="the room cannot keep the work tree out of it",
    ),
    CheckRow(
        "C1",
        "the tool is missing: the program (exit 126/127, or it could not be started), or the "
        "tool it runs, failing the same way on the base tree with an unavailable tool's line "
        "(M-py-module 'No module named pytest', M-sh-not-found, M-exec-missing): nothing was "
        "observed",
        lambda o: not o.ran,
        "blocked",
        said="the tool it needs is missing",
    ),
    CheckRow(
        "C1-ignored",
        "the check failed for a file of the work tree that git ignores, which its output "
        "names ('No module named localcfg', 'No such file or directory'): the room holds the "
        "candidate's tree alone, so nothing was observed of the change, and no brief fixes it",
        lambda o: o.lacks is not None,
        "blocked",
        said="the room lacks a file git ignores",
    ),
    CheckRow(
        "C1-suite",
        "the full suite runs no recognised test runner (pytest, python -m unittest, tox, nox, "
        "npm test, go test, cargo test, make test...): nothing shows the project's tests ran",
        lambda o: o.check.kind == "suite" and o.runner is None,
        "blocked",
        said="it runs no recognised test runner",
    ),
    CheckRow(
        "C1-skip",
        "a criterion or the suite whose test runner skipped or expected the failure of tests "
        "while the change adds a skip or expected-failure marker "
        "(:data:`~gentle_hooks.policy.skipmarks.SKIP_MARK_ROWS`: @unittest.skip, "
        "pytest.mark.xfail, pytestmark, test.skip, {skip: ...}): the test that would judge "
        "the change may be the one it silenced",
        lambda o: o.tests_skipped > 0 and bool(o.skip_marks),
        "blocked",
        said="the change adds a skip marker and tests were skipped",
    ),
    CheckRow(
        "C1-suite-none",
        "the full suite runs a test runner whose output shows no test ran (0, or no count "
        "from a runner that always prints one): a suite that ran nothing did not run",
        lambda o: o.check.kind == "suite" and o.no_tests,
        "blocked",
        said="its output shows no test ran",
    ),
    CheckRow(
        "C1-suite-part",
        "the full suite selects or deselects tests (pytest -k, -m, --deselect, a node id, go "
        "test -run...; or its output says tests were deselected or filtered out), or runs "
        "under options that override the repository's pytest configuration (-o, -c, -p "
        "PLUGIN, -W ignore...): :data:`~gentle_hooks.policy.selection.SELECTION_ROWS`, whose "
        "row the evidence names in words: it is not the full suite",
        lambda o: o.check.kind == "suite" and o.selection is not None,
        "blocked",
        said="it is not the full suite",
    ),
    CheckRow(
        "C1-suite-unrun",
        "an observed pytest full suite did not run every test `pytest` collects at the tree's "
        "top (a run narrowed by its directory, a variable, an @file...), nothing observed it "
        "(env -i), or it skipped, xfailed or lost a test that runs on the base tree",
        lambda o: o.check.kind == "suite" and o.unrun is not None,
        "blocked",
        said="it did not run the whole suite",
    ),
    CheckRow(
        "C2-signal",
        "a negative test killed by a signal (exit above 128): a crash is not the failure it "
        "must show",
        lambda o: o.check.kind == "negative" and o.exit_code is not None and o.exit_code > 128,
        "fail",
        said="killed by a signal, not the failure it must show",
    ),
    CheckRow(
        "C2-base",
        "a negative test that fails on the candidate's base tree too (any non-zero status: "
        "`grep -q x new_file` exits 2 there, 1 here), or was not run there (the candidate "
        "changes no file): it fails whatever the artifact is; it must pass on the base",
        lambda o: (
            o.check.kind == "negative"
            and o.exit_code != 0
            and (o.base_same is not False or o.base_exit != 0)
        ),
        "fail",
        said="it fails on the base tree too, whatever the change",
        evidence=False,
    ),
    CheckRow(
        "C2",
        "a negative test whose command failed, as it must, and passed or failed otherwise on "
        "the base tree",
        lambda o: o.check.kind == "negative" and o.exit_code != 0,
        "pass",
        said="it failed, as it must",
    ),
    CheckRow(
        "C3",
        "a negative test whose command succeeded: the check that must fail did not",
        lambda o: o.check.kind == "negative",
        "fail",
        said="it succeeded, but it must fail",
    ),
    CheckRow(
        FAILS_EVERYWHERE,
        "a criterion that fails on the candidate, and fails the same way (exit status and "
        "last line of output, numbers aside) on the candidate's base tree and on the "
        "candidate with every file it adds or changes emptied: it "
        "observes nothing of the artifact, but the candidate did not pass it either",
        lambda o: o.checks_nothing and o.exit_code != 0,
        "fail",
        said="it fails with the change emptied too: it observes nothing of it",
    ),
    CheckRow(
        "C4-nothing",
        "a criterion whose exit status is the same on the candidate's base tree and on the "
        "candidate with every file it adds or changes emptied: it observes nothing of the "
        "artifact (`test -n x`, `test -e` of a file the change leaves alone; `sha256sum`, "
        "`wc -c` or `stat` of a changed file print another line but judge nothing)",
        lambda o: o.checks_nothing,
        "fail",
        said="it gives the same answer with the change emptied: it observes nothing of it",
        evidence=False,
    ),
    CheckRow(
        "C4-none",
        "a criterion or the suite runs a test runner whose output shows no test ran (0, or "
        "no count from a runner that always prints one)",
        lambda o: o.no_tests,
        "fail",
        said="its output shows no test ran",
    ),
    CheckRow(
        "C4-failed",
        "a criterion or the suite exited 0 but its test runner's output reports failed tests "
        "(`1 failed`): a later command hid the failure",
        lambda o: o.tests_failed and o.exit_code == 0,
        "fail",
        said="it exited 0, but its output reports failed tests",
    ),
    CheckRow(
        "C4", "a criterion or the suite exited 0", lambda o: o.exit_code == 0, "pass", "it passed"
    ),
    CheckRow(
        SUITE_FAILS_ON_BASE,
        "the suite failed, and the same way on the base tree (exit status, last line) on "
        "tests that all failed there too, by id (a pytest run observed, unittest's report: "
        ":mod:`gentle_hooks.policy.failed_tests`): the change adds no failed test, the "
        "brief's suite fails whatever the change is; a corrected brief settles it (rule R2)",
        lambda o: o.suite_fails_on_base,
        "fail",
        said="it fails the same way on the base tree too",
    ),
    CheckRow(
        SUITE_FAILS_UNREAD,
        "the suite failed, with the same exit status and last line on the base tree, but "
        "which tests failed was not read on one of them (a runner other than pytest or "
        "unittest, a pytest run not observed): nothing shows the change adds no failed "
        "test, so it is judged as the change's failure (fail closed)",
        lambda o: o.suite_fails_on_base_unread,
        "fail",
        said="it fails on the base tree too, but which tests failed could not be read: "
        "the change must be judged",
    ),
    CheckRow("C5", "a criterion or the suite exited non-zero", lambda o: True, "fail", "it failed"),
)


def check_row(outcome: Outcome) -> CheckRow:
    """The :data:`CHECK_ROWS` row that decides one observed check (first match)."""
    return next(r for r in CHECK_ROWS if r.matches(outcome))


def check_result(outcome: Outcome) -> tuple[Status, str]:
    """The result of one observed check and the id of the :data:`CHECK_ROWS` row that
    decided it."""
    row = check_row(outcome)
    return row.result, row.id
