"""The verdict ``gentle-hook verify run`` writes, from observations alone (seed 001).

Pure tests of :mod:`gentle_hooks.artifacts.observation` (every CHECK_ROWS and STATUS_ROWS
row), the verdict's binding to its candidate (:class:`CandidateRef`, :func:`binding_fault`),
:func:`recorded_status` and :func:`verdict_digest`, and the brief's checks. Each test names
the seed ``001_3bc4c9b08e2f7709.txt`` line it holds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.artifacts.brief import brief_id, parse_brief
from gentle_hooks.artifacts.jsonio import ArtifactInputError
from gentle_hooks.artifacts.markdown import render_verdict_markdown
from gentle_hooks.artifacts.observation import (
    CHECK_ROWS,
    STATUS_ROWS,
    Check,
    Observations,
    Outcome,
    check_result,
    observed_verdict,
    verdict_status,
)
from gentle_hooks.artifacts.verdict import (
    MAX_SUMMARY_CHARS,
    CandidateRef,
    CheckKind,
    as_recorded,
    binding_fault,
    parse_verdict,
    recorded_status,
    verdict_acceptance,
    verdict_digest,
    verdict_json,
)
from gentle_hooks.policy import testcount
from gentle_hooks.values.candidate import candidate_identity
from gentle_hooks.values.frozen import replace

BASE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
TREE = "a" * 40
OTHER_TREE = "b" * 40
CAND = CandidateRef(identity=candidate_identity(BASE, TREE), baseTree=BASE, tree=TREE)
DIGEST = "sha256:" + "1" * 64


def check(kind: CheckKind, text: str = "it works") -> Check:
    return Check(kind, text, f"run {kind}", ("sh", "-c", f"run {kind}"))


def out(kind: CheckKind, code: int | None, text: str = "it works") -> Outcome:
    """An observed check; a negative test that ran was also run on the base tree, where it
    passed (its outcome depends on the artifact)."""
    if code is None:
        return Outcome(check(kind, text), None, 0, None, error="No such file or directory")
    if kind == "negative":
        return Outcome(check(kind, text), code, 7, DIGEST, base_exit=0, base_same=code == 0)
    if kind == "suite":  # a test runner that ran three tests
        return Outcome(check(kind, text), code, 7, DIGEST, runner="T-pytest", tests_run=3)
    return Outcome(check(kind, text), code, 7, DIGEST)


def on_base(o: Outcome, code: int, same: bool) -> Outcome:
    """``o`` also run on the candidate's base tree: exit ``code``, the same outcome or not."""
    return replace(o, base_exit=code, base_same=same)


def failing(
    ids: tuple[str, ...] | None, base_ids: tuple[str, ...] | None, how: str = "h"
) -> Outcome:
    """A suite that exited 1 on the candidate and on its base tree with the same last line,
    failing the tests ``ids`` and ``base_ids`` (None: not read), each failing the same way
    on both trees but that the candidate's fail as ``how`` (the base's: ``h``)."""
    o = on_base(out("suite", 1), 1, True)
    hows = tuple((i, how) for i in ids or ()) if ids is not None else None
    base_hows = tuple((i, "h") for i in base_ids or ()) if base_ids is not None else None
    return replace(
        o,
        failed_tests=ids,
        base_failed_tests=base_ids,
        failed_how=hows,
        base_failed_how=base_hows,
    )


def hollow(o: Outcome, same: bool) -> Outcome:
    """``o`` with the same outcome on the base tree, also run on the candidate with its
    changed files emptied: the same outcome there or not."""
    return replace(o, base_exit=o.exit_code, base_same=True, hollow_exit=1, hollow_same=same)


def runner(o: Outcome, ran: int | None) -> Outcome:
    """``o`` as a pytest run whose output says ``ran`` tests ran (None: no count)."""
    return replace(o, runner="T-pytest", tests_run=ran)


def missing(o: Outcome, base_signature: str | None = "M-py-module") -> Outcome:
    """``o`` whose output holds row M-py-module's line, as did its run on the base tree
    (``base_signature``), where it gave the same exit status unless ``o`` says otherwise."""
    if o.base_same is None:
        o = on_base(o, o.exit_code or 0, True)
    return replace(o, signature="M-py-module", base_signature=base_signature)


def changed(o: Outcome, *paths: str) -> Outcome:
    """``o`` as a check that changed the candidate's files in the room."""
    return replace(o, changed=paths or ("src/app.py",))


# --- one observed check: CHECK_ROWS --------------------------------------------------------


def own(o: Outcome) -> Outcome:
    """``o`` not run: the change adds or changes ``check.sh``, which defines it."""
    return replace(o, defined_by=("check.sh",), error="the change adds or changes check.sh")


def refused(o: Outcome) -> Outcome:
    """``o`` not run: it starts ``python3 -I`` while the work tree holds other code."""
    return replace(o, room_refused=True, error="`python3 -I` (isolated mode): ...")


def lacking(o: Outcome) -> Outcome:
    """``o`` failed for ``localcfg.py``, a file of the work tree git ignores."""
    return replace(o, lacks="the file localcfg.py, which git ignores")


#: (id, outcome, result, row): seed 001 "Rules" and "Guardrails".
#: What an observed run that left a test out says (:func:`~.suite_coverage.unrun_line`).
UNRUN = (
    "1 of the 2 tests the whole suite collects (pytest at the tree's top, no arguments) did "
    "not run, e.g. extra/test_bad.py::test_bad"
)

CHECK_CASES: list[tuple[str, Outcome, str, str]] = [
    # seed 001 "Scope": "never repairs the artifact it judges"
    ("criterion-changed-the-artifact", changed(out("criterion", 0)), "fail", "C0"),
    ("negative-changed-the-artifact", changed(out("negative", 1)), "fail", "C0"),
    # seed 001 "Guardrails": a check whose definition the change writes observes nothing
    ("criterion-defined-by-the-change", own(out("criterion", None)), "blocked", "C1-own"),
    ("suite-defined-by-the-change", own(out("suite", None)), "blocked", "C1-own"),
    # issue 18 HIGH2: a check an isolated Python would run on the work tree's code
    ("criterion-room-refused", refused(out("criterion", None)), "blocked", "C1-room"),
    ("criterion-missing-program", out("criterion", None), "blocked", "C1"),
    ("criterion-shell-127", out("criterion", 127), "blocked", "C1"),
    ("criterion-not-executable-126", out("criterion", 126), "blocked", "C1"),
    ("negative-missing", out("negative", 127), "blocked", "C1"),
    ("suite-missing", out("suite", None), "blocked", "C1"),
    # issue 14 (refuter r14u): a failure for a file of the work tree git ignores, which the
    # room lacks, observes nothing of the change and no brief fixes it
    ("suite-lacks-an-ignored-file", lacking(out("suite", 1)), "blocked", "C1-ignored"),
    ("criterion-lacks-an-ignored-file", lacking(out("criterion", 1)), "blocked", "C1-ignored"),
    # seed 001 "Rules": "A pass verdict requires the full suite to have run": a suite that
    # runs no test runner (python3 -c 'print(1)', sha256sum, git status) shows no test ran
    ("suite-runs-no-test-runner", Outcome(check("suite"), 0, 7, DIGEST), "blocked", "C1-suite"),
    (
        "suite-no-runner-even-when-it-fails",
        Outcome(check("suite"), 1, 7, DIGEST),
        "blocked",
        "C1-suite",
    ),
    ("negative-fails-as-it-must", out("negative", 1), "pass", "C2"),
    ("negative-killed", out("negative", 137), "fail", "C2-signal"),
    (
        "negative-killed-even-if-base-passed",
        on_base(out("negative", 139), 0, False),
        "fail",
        "C2-signal",
    ),
    ("negative-fails-on-base-too", on_base(out("negative", 1), 1, True), "fail", "C2-base"),
    ("negative-not-run-on-base", replace(out("negative", 1), base_same=None), "fail", "C2-base"),
    # a negative test must pass on the base: failing otherwise there is failing too
    ("negative-fails-otherwise-on-base", on_base(out("negative", 1), 2, False), "fail", "C2-base"),
    ("negative-passes-on-base", on_base(out("negative", 1), 0, False), "pass", "C2"),
    # seed 001 "Guardrails": "do not accept a claim whose criteria have no observable check"
    ("criterion-same-on-base-and-hollow", hollow(out("criterion", 0), True), "fail", "C4-nothing"),
    (
        "criterion-fails-everywhere",
        hollow(out("criterion", 1), True),
        "fail",
        "C4-nothing-failed",
    ),
    ("criterion-reads-the-changed-files", hollow(out("criterion", 0), False), "pass", "C4"),
    ("criterion-differs-on-base", on_base(out("criterion", 0), 1, False), "pass", "C4"),
    # seed 001 "Completion criteria": "the full suite ran, or the verdict is blocked": a
    # suite that ran no test did not run
    ("suite-ran-no-test", runner(out("suite", 0), 0), "blocked", "C1-suite-none"),
    ("suite-no-tests-ran-exit-5", runner(out("suite", 5), 0), "blocked", "C1-suite-none"),
    # refuter r18x F3: a "full suite" that selects tests (-k test_add) is not the full suite
    (
        "suite-selects-tests",
        replace(runner(out("suite", 0), 1), selection="P-pytest-flag"),
        "blocked",
        "C1-suite-part",
    ),
    # issue 18, refuter r18r: a pytest suite that did not run the whole suite, observed
    (
        "suite-observed-unrun",
        replace(runner(out("suite", 0), 1), unrun=UNRUN),
        "blocked",
        "C1-suite-unrun",
    ),
    (
        "criterion-may-select-tests",
        replace(runner(out("criterion", 0), 1), selection="P-pytest-flag"),
        "pass",
        "C4",
    ),
    ("pytest-criterion-ran-no-test", runner(out("criterion", 0), 0), "fail", "C4-none"),
    ("pytest-no-count", runner(out("criterion", 0), None), "fail", "C4-none"),
    ("pytest-ran-tests", runner(out("suite", 0), 3), "pass", "C4"),
    # exit 0 while the runner's output says "1 failed": a later command hid the failure
    (
        "suite-exit-0-output-reports-failed",
        replace(runner(out("suite", 0), 3), tests_failed=True),
        "fail",
        "C4-failed",
    ),
    # refuter r18x F7: exit 1 with failed tests failed as such, not "it exited 0, but..."
    (
        "suite-exit-1-output-reports-failed",
        replace(runner(out("suite", 1), 3), tests_failed=True),
        "fail",
        "C5",
    ),
    (
        "criterion-exit-0-output-reports-failed",
        replace(runner(out("criterion", 0), 3), tests_failed=True),
        "fail",
        "C4-failed",
    ),
    (
        "wrapper-without-a-count",
        replace(out("suite", 0), runner="T-tox", tests_run=None),
        "pass",
        "C4",
    ),
    (
        "wrapper-ran-no-test",
        replace(out("suite", 0), runner="T-script", tests_run=0),
        "blocked",
        "C1-suite-none",
    ),
    (
        "suite-skipped-a-test-the-change-marks",
        replace(out("suite", 0), tests_skipped=1, skip_marks=("tests/test_app.py:9",)),
        "blocked",
        "C1-skip",
    ),
    (
        "criterion-skipped-a-test-the-change-marks",
        replace(runner(out("criterion", 0), 1), tests_skipped=2, skip_marks=("t.py:3",)),
        "blocked",
        "C1-skip",
    ),
    (
        "suite-skipped-tests-the-change-does-not-mark",
        replace(out("suite", 0), tests_skipped=1),
        "pass",
        "C4",
    ),
    ("negative-succeeded", out("negative", 0), "fail", "C3"),
    ("criterion-exit-0", out("criterion", 0), "pass", "C4"),
    ("suite-exit-0", out("suite", 0), "pass", "C4"),
    ("criterion-exit-1", out("criterion", 1), "fail", "C5"),
    ("suite-exit-2", out("suite", 2), "fail", "C5"),
    # issue 18, r18s finding 3 (rule R2): a suite failing the same way on the base tree,
    # on the same tests (refuter r18t MED: judged by the failed test ids)
    ("suite-fails-the-same-on-base", failing(("t::a",), ("t::a",)), "fail", "C5-base"),
    ("suite-fixes-one-adds-none", failing(("t::a",), ("t::a", "t::b")), "fail", "C5-base"),
    (
        "suite-fixes-one-other-last-line",
        replace(failing(("t::a",), ("t::a", "t::b")), base_same=False),
        "fail",
        "C5-base",
    ),
    (
        "suite-same-ids-other-exit",
        replace(failing(("t::a",), ("t::a",)), base_exit=2, base_same=False),
        "fail",
        "C5",
    ),
    # r18t MED: the base fails t::a, the change t::b too (or instead): the change's fault
    ("suite-adds-a-failure-to-base", failing(("t::a", "t::b"), ("t::a",)), "fail", "C5"),
    ("suite-fails-another-test", failing(("t::b",), ("t::a",)), "fail", "C5"),
    # r18u MED 1: the same test fails on both trees, another way here (an assert, an edit)
    ("suite-fails-the-same-test-otherwise", failing(("t::a",), ("t::a",), "x"), "fail", "C5"),
    # r18u LOW 1: the change deletes a test failing on the base: its failure, not the base's
    (
        "suite-deletes-a-base-failing-test",
        replace(failing(("t::a",), ("t::a", "g::b")), gone_tests=("g::b",)),
        "fail",
        "C5",
    ),
    # how a failed was not read: nothing claims "the same way"
    (
        "suite-how-unread",
        replace(failing(("t::a",), ("t::a",)), failed_how=None),
        "fail",
        "C5-base-unread",
    ),
    # ids not read on one tree (another runner, nothing observed): not "the same way"
    ("suite-ids-unread-on-candidate", failing(None, ("t::a",)), "fail", "C5-base-unread"),
    ("suite-ids-unread-on-base", failing(("t::a",), None), "fail", "C5-base-unread"),
    ("suite-ids-unread", on_base(out("suite", 1), 1, True), "fail", "C5-base-unread"),
    ("suite-failed-naming-none", failing((), ()), "fail", "C5-base-unread"),
    ("suite-fails-otherwise-on-base", on_base(out("suite", 1), 1, False), "fail", "C5"),
    # seed 001 "Guardrails": "stop and report blocked when a required tool ... is
    # unavailable": `python3 -m pytest` without pytest exits 1 with "No module named
    # pytest", and the same on the base tree
    ("suite-module-missing", missing(out("suite", 1)), "blocked", "C1"),
    ("criterion-module-missing", missing(out("criterion", 1)), "blocked", "C1"),
    (
        "negative-module-missing",
        missing(on_base(out("negative", 1), 1, True)),
        "blocked",
        "C1",
    ),
    (
        "module-missing-no-file-changed",
        replace(out("suite", 1), signature="M-py-module"),
        "blocked",
        "C1",
    ),
    # the line only on the candidate, or another exit status on the base: a real failure
    (
        "missing-line-only-on-candidate",
        missing(out("criterion", 1), base_signature=None),
        "fail",
        "C5",
    ),
    (
        "missing-line-other-exit-on-base",
        missing(on_base(out("criterion", 1), 0, False)),
        "fail",
        "C5",
    ),
    (
        "missing-line-other-row-on-base",
        missing(out("suite", 1), base_signature="M-sh-not-found"),
        "fail",
        "C5",
    ),
]


@pytest.mark.parametrize(
    ("outcome", "result", "row"), [c[1:] for c in CHECK_CASES], ids=[c[0] for c in CHECK_CASES]
)
def test_check_rows(outcome: Outcome, result: str, row: str) -> None:
    """Seed 001 "Guardrails": "stop and report blocked when a required tool, source, or
    suite is unavailable instead of inferring the result"; "Rules": a negative test is "a
    check that must fail before the artifact can be trusted"."""
    assert check_result(outcome) == (result, row)


def test_every_check_row_is_covered() -> None:
    assert {c[3] for c in CHECK_CASES} == {r.id for r in CHECK_ROWS}


# --- the verdict's status: STATUS_ROWS -----------------------------------------------------

FULL = [out("criterion", 0), out("negative", 1), out("suite", 0)]

#: (id, outcomes, mutating, status, row).
STATUS_CASES: list[tuple[str, list[Outcome], bool, str, str]] = [
    ("all-pass", FULL, True, "pass", "S5"),
    ("read-only-needs-no-negative", [out("criterion", 0), out("suite", 0)], False, "pass", "S5"),
    (
        "tool-missing-blocks",
        [out("criterion", 127), out("negative", 1), out("suite", 0)],
        True,
        "blocked",
        "S1",
    ),
    (
        "suite-missing-blocks",
        [out("criterion", 0), out("negative", 1), out("suite", None)],
        True,
        "blocked",
        "S1",
    ),
    (
        "blocked-beats-fail",
        [out("criterion", 1), out("negative", 1), out("suite", 127)],
        True,
        "blocked",
        "S1",
    ),
    (
        "a-check-changed-the-artifact",
        [out("criterion", 0), changed(out("criterion", 0))],
        True,
        "blocked",
        "S0",
    ),
    (
        "the-suite-changed-the-artifact",
        [out("criterion", 0), out("negative", 1), changed(out("suite", 0))],
        True,
        "blocked",
        "S0",
    ),
    (
        "the-suite-is-defined-by-the-change",
        [out("criterion", 1), out("negative", 1), own(out("suite", None))],
        True,
        "blocked",
        "S1-own",
    ),
    (
        "a-check-the-room-refused",
        [refused(out("criterion", None)), out("negative", 1), out("suite", 0)],
        True,
        "blocked",
        "S1-room",
    ),
    ("no-suite-declared", [out("criterion", 0), out("negative", 1)], True, "blocked", "S2"),
    (
        "suite-is-no-test-runner",
        [out("criterion", 0), out("negative", 1), Outcome(check("suite"), 0, 7, DIGEST)],
        True,
        "blocked",
        "S1-suite",
    ),
    (
        "suite-ran-no-test",
        [out("criterion", 0), out("negative", 1), runner(out("suite", 5), 0)],
        True,
        "blocked",
        "S1-suite-none",
    ),
    (
        "suite-selected-some-tests",
        [
            out("criterion", 0),
            out("negative", 1),
            replace(runner(out("suite", 0), 1), selection="P-deselected"),
        ],
        True,
        "blocked",
        "S1-suite-part",
    ),
    (
        "suite-observed-unrun",
        [out("criterion", 0), out("negative", 1), replace(runner(out("suite", 0), 2), unrun=UNRUN)],
        True,
        "blocked",
        "S1-suite-unrun",
    ),
    (
        "suite-module-missing",
        [out("criterion", 0), out("negative", 1), missing(out("suite", 1))],
        True,
        "blocked",
        "S1",
    ),
    ("mutating-without-negative", [out("criterion", 0), out("suite", 0)], True, "blocked", "S3"),
    (
        "a-preserved-criterion-beside-one-that-depends",
        [on_base(out("criterion", 0), 0, True), out("negative", 1), out("suite", 0)],
        True,
        "pass",
        "S5",
    ),
    (
        "criterion-failed",
        [out("criterion", 1), out("negative", 1), out("suite", 0)],
        True,
        "fail",
        "S4",
    ),
    (
        "the-change-skips-a-test-the-suite-skipped",
        [
            out("criterion", 0),
            out("negative", 1),
            replace(out("suite", 0), tests_skipped=1, skip_marks=("tests/test_app.py:9",)),
        ],
        True,
        "blocked",
        "S1-skip",
    ),
    (
        "negative-passed",
        [out("criterion", 0), out("negative", 0), out("suite", 0)],
        True,
        "fail",
        "S4",
    ),
    (
        "suite-failed",
        [out("criterion", 0), out("negative", 1), out("suite", 1)],
        True,
        "fail",
        "S4",
    ),
]


@pytest.mark.parametrize(
    ("outcomes", "mutating", "status", "row"),
    [c[1:] for c in STATUS_CASES],
    ids=[c[0] for c in STATUS_CASES],
)
def test_status_rows(outcomes: list[Outcome], mutating: bool, status: str, row: str) -> None:
    """Seed 001 "Rules": "Negative tests are mandatory ... when the artifact mutates the
    repository"; "A pass verdict requires the full suite to have run"; "Completion
    criteria": "the full suite ran, or the verdict is blocked explaining why it could not"."""
    got, matched = verdict_status(Observations(tuple(outcomes), mutating))
    assert (got, matched.id) == (status, row)


def test_every_status_row_is_covered() -> None:
    assert {c[4] for c in STATUS_CASES} == {r.id for r in STATUS_ROWS}


def _verdict(outcomes: list[Outcome], mutating: bool = True) -> Any:
    return observed_verdict(
        "brief-7",
        outcomes,
        mutating=mutating,
        candidate=CAND,
        caller="Ann <ann@example.com>",
        artifact_ref=".agents/skills/platform/artifacts/verify-delegation/brief-7.json",
        duration_ms=42,
    )


def test_a_pass_verdict_binds_candidate_brief_and_caller_and_is_accepted() -> None:
    """Seed 001 "Completion criteria": "every declared criterion has evidence, not an
    assertion ... the caller is identified"; SPEC §9 "it binds the candidate it judged"."""
    v = _verdict(FULL)
    assert (v.status, v.negativeTestsRun, v.fullSuiteRun, v.artifactMutating) == (
        "pass",
        1,
        True,
        True,
    )
    assert (v.briefId, v.candidate, v.caller, v.durationMs) == (
        "brief-7",
        CAND,
        "Ann <ann@example.com>",
        42,
    )
    assert [c.criterion for c in v.criteria] == [
        "it works",
        "negative test: it works",
        "full suite",
    ]
    assert v.criteria[0].evidence == f"`run criterion` exited 0 in 7 ms; output {DIGEST}"
    assert v.criteria[0].observed.model_dump() == {  # type: ignore[union-attr]
        "kind": "criterion",
        "command": "run criterion",
        "exitCode": 0,
        "durationMs": 7,
        "outputDigest": DIGEST,
        "env": None,
        "envDigest": None,
        "programs": None,
        "sharedPrograms": None,
    }
    assert verdict_acceptance(v) == (True, ())


def test_a_missing_tool_is_evidence_of_the_blocker_not_of_the_artifact() -> None:
    v = _verdict([out("criterion", 0), out("negative", 1), out("suite", None)])
    assert (v.status, v.fullSuiteRun) == ("blocked", False)
    assert v.criteria[2].evidence == ("`run suite` could not be started: No such file or directory")
    assert v.criteria[2].observed.exitCode is None  # type: ignore[union-attr]
    assert v.summary.splitlines()[0].startswith("blocked (a required tool is missing")


def test_a_suite_that_runs_no_test_runner_is_blocked_and_says_why() -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is blocked
    explaining why it could not"."""
    v = _verdict([out("criterion", 0), out("negative", 1), Outcome(check("suite"), 0, 7, DIGEST)])
    assert (v.status, v.fullSuiteRun) == ("blocked", False)
    assert v.summary.splitlines()[0].startswith("blocked (the full suite runs no ")
    assert "it runs no recognised test runner" in v.criteria[2].evidence
    assert verdict_acceptance(v)[0] is False


def test_an_unavailable_suite_did_not_run() -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is blocked
    explaining why it could not": neither a suite whose tool is unavailable nor one that
    ran no test counts as run."""
    v = _verdict([out("criterion", 0), out("negative", 1), missing(out("suite", 1))])
    assert (v.status, v.fullSuiteRun) == ("blocked", False)
    assert "its tool is unavailable (M-py-module)" in v.criteria[2].evidence
    v = _verdict([out("criterion", 0), out("negative", 1), runner(out("suite", 5), 0)])
    assert (v.status, v.fullSuiteRun) == ("blocked", False)
    assert v.summary.splitlines()[0].startswith("blocked (the full suite ran no")


#: (selection row, what the suite's evidence says, what it never says): issue 18, LOW: a
#: suite run under another configuration (``-p plug``, ``-W ignore::...``) selected nothing.
SELECTION_SAID = [
    ("P-pytest-flag", "it ran some of the tests, not the full suite", "configuration"),
    ("P-deselected", "it ran some of the tests, not the full suite", "configuration"),
    (
        "P-pytest-config",
        "it ran under options that override the repository's pytest configuration",
        "some of the tests",
    ),
]


@pytest.mark.parametrize(
    ("row", "said", "unsaid"), SELECTION_SAID, ids=[r[0] for r in SELECTION_SAID]
)
def test_a_suite_that_selected_tests_is_not_the_full_suite(
    row: str, said: str, unsaid: str
) -> None:
    """Seed 001 "Rules": "A pass verdict requires the full suite to have run"; refuter r18x
    F3: ``pytest -q -k test_add`` as the full suite passed with fullSuiteRun true. The
    evidence says what the run did: selected tests, or ran under another configuration."""
    suite = replace(out("suite", 0), selection=row)
    v = _verdict([out("criterion", 0), out("negative", 1), suite])
    assert (v.status, v.fullSuiteRun) == ("blocked", False)
    assert v.summary.splitlines()[0].startswith(
        "blocked (the full suite ran some of the tests, or under another configuration: it "
        "is not the full suite)"
    )
    assert said in v.criteria[2].evidence and unsaid not in v.criteria[2].evidence
    assert "selected or deselected" not in v.summary
    assert verdict_acceptance(v)[0] is False


def test_a_suite_observed_not_to_run_the_whole_suite_is_not_the_full_suite() -> None:
    """Issue 18, refuter r18r: ``cd sub && pytest -q`` passed with fullSuiteRun true; the
    run's observed ids now decide (row C1-suite-unrun), whatever its words and output say."""
    suite = replace(runner(out("suite", 0), 1), unrun=UNRUN)
    v = _verdict([out("criterion", 0), out("negative", 1), suite])
    assert (v.status, v.fullSuiteRun) == ("blocked", False)
    assert v.summary.splitlines()[0].startswith("blocked (the full suite did not run every ")
    assert UNRUN in v.criteria[2].evidence
    assert verdict_acceptance(v)[0] is False


#: (command, the RUNNER_ROWS row it runs, or None).
RUNNER_CASES: list[tuple[str, str | None]] = [
    ("python3 -m pytest -q tests", "T-pytest"),
    ("pytest", "T-pytest"),
    ("python3 -m unittest discover -s tests", "T-unittest"),
    ("tox -e py312", "T-tox"),
    ("python -m nox", "T-tox"),
    ("npm test", "T-script"),
    ("npm run test", "T-script"),
    ("yarn test", "T-script"),
    ("make test", "T-script"),
    ("go test ./...", "T-go"),
    ("cargo test --all", "T-cargo"),
    ("python3 -c 'print(1)'", None),
    ("sha256sum app.py", None),
    ("git status", None),
    ("wc -c app.py", None),
    ("make build", None),
    ("npm install", None),
    # a shell's -c script runs what its words name
    ("sh -c 'python3 -m unittest'", "T-unittest"),
    ("bash -c 'cd tests && pytest -q'", "T-pytest"),
    ("sh -c 'python3 -c print'", None),
]


@pytest.mark.parametrize(("command", "row"), RUNNER_CASES, ids=[c[0] for c in RUNNER_CASES])
def test_which_commands_run_a_test_runner(command: str, row: str | None) -> None:
    found = testcount.runner_of(command)
    assert (found.id if found else None) == row


#: (runner command, output, tests run).
COUNT_CASES: list[tuple[str, str, int | None]] = [
    ("cargo test", "test result: ok. 3 passed; 1 failed; 0 ignored\n", 4),
    ("cargo test", "test result: ok. 0 passed; 0 failed; 0 ignored\n", 0),
    ("go test -v ./...", "=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  x 0.1s\n", 1),
    ("go test ./...", "ok  \tx\t0.1s\n", None),
    ("tox", "py: commands[0]> pytest\n===== 5 passed in 0.1s =====\n", 5),
    ("make test", "Ran 2 tests in 0.001s\n\nOK\n", 2),
    ("make test", "nothing to do\n", None),
    # skipped, expected-to-fail and todo tests did not run
    ("python3 -m unittest", "Ran 1 test in 0.000s\n\nOK (skipped=1)\n", 0),
    ("python3 -m unittest", "Ran 3 tests in 0.0s\n\nOK (skipped=1, expected failures=1)\n", 1),
    ("python3 -m unittest", "Ran 2 tests in 0.0s\n\nFAILED (failures=1, skipped=1)\n", 1),
    ("pytest -q", "1 xfailed in 0.01s\n", 0),
    ("pytest -q", "1 passed, 1 skipped, 1 xpassed in 0.01s\n", 1),
    ("node --test", "# tests 2\n# pass 0\n# fail 0\n# skipped 1\n# todo 1\n", 0),
    ("node --test", "# tests 2\n# pass 1\n# skipped 1\n# todo 0\n", 1),
    ("npx jest", "Tests:       1 skipped, 1 todo, 1 passed, 3 total\n", 1),
    ("tox", "Ran 2 tests in 0.0s\n\nOK (skipped=2)\n", 0),
    ("sh -c 'python3 -m unittest'", "Ran 0 tests in 0.000s\n\nNO TESTS RAN\n", 0),
]

#: (runner command, output, tests skipped, expected to fail or left to do).
SKIPPED_CASES: list[tuple[str, str, int]] = [
    ("python3 -m pytest", "== 1 passed, 2 skipped, 1 xfailed, 1 xpassed in 0.1s ==\n", 4),
    ("python3 -m unittest", "Ran 3 tests in 0.0s\n\nOK (skipped=1, expected failures=1)\n", 2),
    ("node --test", "# tests 3\n# pass 1\n# skipped 1\n# todo 1\n", 2),
    ("jest", "Tests:       1 skipped, 1 todo, 1 passed, 3 total\n", 2),
    ("mocha", "  1 passing (5ms)\n  2 pending\n", 2),
    ("cargo test", "test result: ok. 3 passed; 0 failed; 1 ignored\n", 0),
    ("make test", "== 1 passed, 1 skipped in 0.1s ==\n", 1),
    ("python3 -m pytest", "== 3 passed in 0.1s ==\n", 0),
    ("echo hi", "1 skipped in 0.1s\n", 0),
]


@pytest.mark.parametrize(("command", "output", "skipped"), SKIPPED_CASES)
def test_skipped_counts_of_runners_and_wrappers(command: str, output: str, skipped: int) -> None:
    assert testcount.tests_skipped(command, output) == skipped


@pytest.mark.parametrize(("command", "output", "count"), COUNT_CASES)
def test_test_counts_of_runners_and_wrappers(command: str, output: str, count: int | None) -> None:
    assert testcount.tests_run(command, output) == count


def test_summary_names_a_skip_markers_path_and_line_whole() -> None:
    """Seed 001 "Rules": "a bounded summary"; the marker the block is about is named in it
    whole, however long the command before it in the evidence."""
    long = Check("suite", "", "python3 -m pytest -q " + "tests/unit/x " * 12, ("sh", "-c", "x"))
    marks = ("tests/integration/test_payments_refund_flow.py:128", "tests/b.py:2")
    suite = Outcome(long, 0, 7, DIGEST, runner="T-pytest", tests_run=3, tests_skipped=1)
    v = _verdict([replace(suite, skip_marks=marks)], mutating=False)
    assert v.status == "blocked"
    line = v.summary.split("\n")[1]
    assert line.startswith(
        "blocked (the change adds a skip marker and tests were skipped; marker at "
        "tests/integration/test_payments_refund_flow.py:128, tests/b.py:2): full suite: "
    ), line
    # the evidence names it too, and says the output named no skipped test
    assert "the output does not name every skipped test" in v.criteria[0].evidence


def test_summary_is_bounded() -> None:
    """Seed 001 "Rules": "a bounded summary plus an artifact reference. Never a transcript"."""
    many = [out("criterion", 1, "x" * 500) for _ in range(60)] + [out("suite", 0)]
    v = _verdict(many, mutating=False)
    assert len(v.summary) <= MAX_SUMMARY_CHARS
    assert v.summary.endswith("…")


outcome_st = st.builds(
    lambda kind, code: out(kind, code),
    st.sampled_from(["criterion", "negative", "suite"]),
    st.one_of(st.none(), st.integers(min_value=0, max_value=255)),
)


@given(st.lists(outcome_st, max_size=8), st.booleans())
def test_written_verdicts_never_contradict_the_seed(
    outcomes: list[Outcome], mutating: bool
) -> None:
    """Invariants of every verdict verify run can write: a pass is always accepted by the
    gate (V1-V6); fail or pass never comes without the full suite (seed 001 "Completion
    criteria"), so its recorded status is its own; it reads back as itself (seed 001
    "Artifact": "Validate the JSON ... before returning it")."""
    v = _verdict(outcomes, mutating)
    if v.status == "pass":
        assert verdict_acceptance(v) == (True, ())
        assert all(c.result == "pass" for c in v.criteria)
        assert v.fullSuiteRun and (v.negativeTestsRun >= 1 or not mutating)
    if v.status in ("pass", "fail"):
        assert v.fullSuiteRun
    assert recorded_status(v) == v.status
    assert parse_verdict(verdict_json(v)) == v


# --- the candidate binding ------------------------------------------------------------------


def test_candidate_identity_must_be_the_identity_of_its_trees() -> None:
    """How a verdict binds the candidate is checkable, not believed: the identity must be
    the identity of its trees."""
    good = json.loads(verdict_json(_verdict(FULL)))
    parse_verdict(json.dumps(good))
    forged = {**good, "candidate": {**good["candidate"], "tree": OTHER_TREE}}
    with pytest.raises(ArtifactInputError, match="identity is not the identity of baseTree"):
        parse_verdict(json.dumps(forged))
    bad = {**good, "candidate": {**good["candidate"], "identity": "sha256:xyz"}}
    with pytest.raises(ArtifactInputError, match=r"candidate\.identity"):
        parse_verdict(json.dumps(bad))


def test_binding_fault() -> None:
    """SPEC §10: "a verdict for any other candidate never unblocks it"."""
    v = _verdict(FULL)
    assert binding_fault(v, CAND.identity) is None
    other = candidate_identity(BASE, OTHER_TREE)
    fault = binding_fault(v, other)
    assert fault == (
        f"the verdict judged candidate {CAND.identity[:19]}… (tree {TREE[:12]}), not this one "
        f"({other[:19]}…)"
    )
    unbound = parse_verdict(json.dumps({**json.loads(verdict_json(v)), "candidate": None}))
    assert binding_fault(unbound, other) == (
        "the verdict names no candidate (no candidate.identity, baseTree, tree): it could be "
        f"added for any candidate, and counts for none ({other[:19]}… here)"
    )


# --- recorded status and digest -------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "suite", "recorded"),
    [
        ("fail", False, "blocked"),
        ("pass", False, "blocked"),
        ("blocked", False, "blocked"),
        ("fail", True, "fail"),
        ("pass", True, "pass"),
        ("blocked", True, "blocked"),
    ],
)
def test_recorded_status(status: str, suite: bool, recorded: str) -> None:
    """Seed 001 "Completion criteria": "the full suite ran, or the verdict is blocked"."""
    v = parse_verdict(
        json.dumps(
            {
                "briefId": "b",
                "status": status,
                "criteria": [{"criterion": "c", "evidence": "ran pytest: 3 passed"}],
                "negativeTestsRun": 1,
                "fullSuiteRun": suite,
                "artifactMutating": True,
                "summary": "s",
            }
        )
    )
    assert recorded_status(v) == recorded
    # seed 001 "Completion criteria": the JSON written and stored says the same status
    assert as_recorded(v).status == recorded
    assert as_recorded(v).model_dump(exclude={"status"}) == v.model_dump(exclude={"status"})
    head = render_verdict_markdown(v).splitlines()[2]
    assert head.startswith(f"- **Status:** {recorded}")
    assert ("(reported " in head) == (recorded != status)


def test_verdict_digest_names_content_not_formatting() -> None:
    v = _verdict(FULL)
    compact = json.dumps(json.loads(verdict_json(v)), separators=(",", ":"))
    assert verdict_digest(parse_verdict(compact)) == verdict_digest(v)
    edited = json.loads(verdict_json(v))
    edited["summary"] += "."
    assert verdict_digest(parse_verdict(json.dumps(edited))) != verdict_digest(v)


def test_a_check_that_changed_the_artifact_is_named_by_the_verdict_not_as_no_negative_test() -> (
    None
):
    """Row C0/S0: the run stopped at the criterion that changed the candidate's files, before
    the negative test and the suite. The verdict names that check and the paths it changed
    (bounded), and its one reason is that check: not "no negative test ran" nor "the full
    suite did not run", which only follow from the stop."""
    many = tuple(f"f{n:02d}.txt" for n in range(25))
    v = _verdict([changed(out("criterion", 0), "README.md", *many)])
    assert v.status == "blocked"
    assert v.changedArtifact is not None
    assert (v.changedArtifact.kind, v.changedArtifact.command) == ("criterion", "run criterion")
    assert v.changedArtifact.paths == ("README.md", *many[:19])
    assert v.changedArtifact.morePaths == 6
    assert verdict_acceptance(v) == (
        False,
        (
            "V0 the verify run stopped where the criterion `run criterion` changed README.md, "
            "f00.txt, f01.txt and 23 more in the clean room: a verifier never judges an "
            "artifact it changed, so the checks after it did not run; make that check leave "
            "the candidate's files alone (its outputs in a path .gitignore ignores, or under "
            "$TMPDIR): correct the brief (or the change's own test that writes them), then "
            "verify again",
        ),
    )
    assert "- **Stopped:** the criterion `run criterion` changed README.md" in (
        render_verdict_markdown(v)
    )
    assert parse_verdict(verdict_json(v), "v") == v  # the field reads back


def test_a_verdict_without_a_changed_check_has_no_changed_artifact() -> None:
    assert _verdict(FULL).changedArtifact is None
    assert "changedArtifact" not in verdict_json(_verdict(FULL))


def test_markdown_names_candidate_and_caller() -> None:
    md = render_verdict_markdown(_verdict(FULL))
    assert f"- **Candidate:** `{CAND.identity}` (base tree `{BASE}`, tree `{TREE}`)" in md
    assert "- **Caller:** Ann <ann@example.com>" in md


# --- the brief's checks ----------------------------------------------------------------------

BRIEF = {
    "objective": "o",
    "outputFormat": "a patch",
    "successCriteria": [{"criterion": "adds", "run": ["python3", "-m", "pytest", "-q"]}],
    "negativeTests": [{"criterion": "rejects", "run": "python3 -c 'raise SystemExit(1)'"}],
    "fullSuite": "pytest",
}


def test_brief_checks_parse_and_id() -> None:
    b = parse_brief(json.dumps(BRIEF))
    assert b.successCriteria[0].run == ("python3", "-m", "pytest", "-q")
    assert b.negativeTests[0].run == "python3 -c 'raise SystemExit(1)'"
    assert brief_id(b) == brief_id(parse_brief(json.dumps(BRIEF, indent=4)))
    assert brief_id(b).startswith("brief-") and len(brief_id(b)) == 18
    assert brief_id(parse_brief(json.dumps({**BRIEF, "id": " b-9 "}))) == "b-9"


@pytest.mark.parametrize(
    ("run", "message"),
    [
        ("  ", "a command must not be blank"),
        ([], "an argument vector must not be empty"),
        ([" ", "x"], "the program (the first argument) must not be blank"),
        ([1], "every argument must be a string"),
        (3, "a command is a string or an array of strings"),
    ],
)
def test_brief_check_commands_are_refused_in_one_line(run: object, message: str) -> None:
    data = {**BRIEF, "successCriteria": [{"criterion": "c", "run": run}]}
    with pytest.raises(ArtifactInputError) as info:
        parse_brief(json.dumps(data))
    assert info.value.message == (f"brief: not a DelegationBrief: successCriteria.0.run: {message}")


def test_the_report_and_the_ledger_name_check_rows_by_the_table_s_ids() -> None:
    """What ``verify run`` prints compares a check's row with the id the table holds
    (:data:`gentle_hooks.artifacts.observation.FAILS_EVERYWHERE`), never a copy of it in a
    string: no module of the report room spells a :data:`CHECK_ROWS` id, and the ledger's
    name for the row that fails on every tree is the table's."""
    import ast
    import pathlib

    import gentle_hooks.report
    from gentle_hooks.artifacts.observation import CHECK_ROWS, FAILS_EVERYWHERE
    from gentle_hooks.ledger.fails import FAILS_EVERYWHERE_ROW

    ids = {r.id for r in CHECK_ROWS if "-" in r.id}  # C4-nothing-failed, C1-own, ...
    assert FAILS_EVERYWHERE in ids and FAILS_EVERYWHERE_ROW == FAILS_EVERYWHERE
    spelled = []
    for path in sorted(pathlib.Path(gentle_hooks.report.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in ids:
                spelled.append(f"{path.name}:{node.lineno}: {node.value}")
    assert spelled == []
