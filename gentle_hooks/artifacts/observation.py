"""A DelegationVerdict written from what was observed, never from what was claimed (seed 001).

Room: artifacts (imports :mod:`.verdict`, :mod:`gentle_hooks.values`); pure: the caller runs
the commands (:mod:`gentle_hooks.services.verify`) and hands the observations over. Seed
``001_3bc4c9b08e2f7709.txt`` "Rules", "Guardrails" and "Completion criteria" as two tables:

* :data:`CHECK_ROWS` — one observed check to its result: a check that changed the
  candidate's files in the room fails (seed 001 "Scope": "never repairs the artifact it
  judges"), one the change itself defines is blocked (C1-own); a criterion passes on exit
  0 (a test runner's only when its output shows tests ran:
  :mod:`gentle_hooks.policy.testcount`) and counts only when its outcome depends on the
  artifact (C4-nothing; "Guardrails": "do not accept a claim whose criteria have no
  observable check"); a negative test passes when its command fails, not by a signal,
  and passes on the base tree; the suite passes on exit 0 (tests ran). ``blocked`` ("stop
  and report blocked when a required tool ... is unavailable instead of inferring the
  result"): a missing program, a failure for a file of the work tree git ignores that
  the room lacks (C1-ignored), a full suite running no recognised test runner
  (:data:`~gentle_hooks.policy.testcount.RUNNER_ROWS`), a runner that skipped tests while
  the change adds a skip marker (C1-skip: :mod:`gentle_hooks.policy.skipmarks`).
* :data:`STATUS_ROWS` — the checks to the verdict's status, first match wins: ``blocked``
  when a check changed the artifact (the run stops there), anything was blocked, the full
  suite did not run, or a mutating artifact had no negative test; ``fail`` when any check
  failed; ``pass`` only when every criterion passed, negative tests ran where the artifact
  mutates, and the full suite ran.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gentle_hooks.artifacts.changed import changed_artifact

# the values this module's tables judge, where their users have always found them
from gentle_hooks.artifacts.outcome import MISSING_TOOL_EXITS as MISSING_TOOL_EXITS
from gentle_hooks.artifacts.outcome import SHARED_WORDS as SHARED_WORDS
from gentle_hooks.artifacts.outcome import Check as Check
from gentle_hooks.artifacts.outcome import Outcome as Outcome
from gentle_hooks.artifacts.outcome import evidence_words as _evidence
from gentle_hooks.artifacts.outcome import marks_words
from gentle_hooks.artifacts.verdict import (
    MAX_SUMMARY_CHARS,
    CandidateRef,
    CheckKind,
    Criterion,
    DelegationVerdict,
    Observed,
    Status,
)
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
        "the suite failed, and the same way (exit status, last line) on the base tree: the "
        "brief's suite fails whatever the change is; a corrected brief settles it (rule R2)",
        lambda o: o.suite_fails_on_base,
        "fail",
        said="it fails the same way on the base tree too",
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


@frozen
class Observations:
    """Every outcome of one verify run, with what the status rules need to know."""

    outcomes: tuple[Outcome, ...]
    mutating: bool

    def of(self, kind: CheckKind) -> tuple[Outcome, ...]:
        """The outcomes of one kind, in run order."""
        return tuple(o for o in self.outcomes if o.check.kind == kind)

    def results(self) -> tuple[Status, ...]:
        """Each outcome's result, in run order."""
        return tuple(check_result(o)[0] for o in self.outcomes)


@frozen
class StatusRow:
    """One row of :data:`STATUS_ROWS`: id, the case in words, its predicate and status."""

    id: str
    when: str
    matches: Callable[[Observations], bool]
    status: Status


#: Seed 001 "Rules", "Guardrails" and "Completion criteria": the verdict's status, first
#: match wins.
STATUS_ROWS: tuple[StatusRow, ...] = (
    StatusRow(
        "S0",
        "a check changed the artifact it judges: the checks after it saw another artifact",
        lambda v: any(o.changed for o in v.outcomes),
        "blocked",
    ),
    StatusRow(
        "S1-own",
        "the change adds or changes what defines a check: that check observes nothing of it",
        lambda v: any(o.defined_by for o in v.outcomes),
        "blocked",
    ),
    StatusRow(
        "S1-room",
        "a check starts a Python the room cannot keep the work tree out of: it was not run",
        lambda v: any(o.room_refused for o in v.outcomes),
        "blocked",
    ),
    StatusRow(
        "S1-suite",
        "the full suite runs no recognised test runner: nothing shows the project's tests ran",
        lambda v: any(check_result(o)[1] == "C1-suite" for o in v.of("suite")),
        "blocked",
    ),
    StatusRow(
        "S1-skip",
        "the change adds a skip or expected-failure marker and the run skipped tests: remove "
        "the marker, or let a person decide",
        lambda v: any(check_result(o)[1] == "C1-skip" for o in v.outcomes),
        "blocked",
    ),
    StatusRow(
        "S1-suite-none",
        "the full suite ran no test: a suite that ran nothing did not run",
        lambda v: any(check_result(o)[1] == "C1-suite-none" for o in v.of("suite")),
        "blocked",
    ),
    StatusRow(
        "S1-suite-part",
        "the full suite ran some of the tests, or under another configuration: it is not "
        "the full suite",
        lambda v: any(check_result(o)[1] == "C1-suite-part" for o in v.of("suite")),
        "blocked",
    ),
    StatusRow(
        "S1-suite-unrun",
        "the full suite did not run every test of the whole suite, as observed",
        lambda v: any(check_result(o)[1] == "C1-suite-unrun" for o in v.of("suite")),
        "blocked",
    ),
    StatusRow(
        "S1",
        "a required tool is missing, or a file git ignores the room lacks: blocked, not inferred",
        lambda v: "blocked" in v.results(),
        "blocked",
    ),
    StatusRow(
        "S2",
        "the full suite did not run (none was declared): a pass needs the full suite",
        lambda v: not any(o.ran for o in v.of("suite")),
        "blocked",
    ),
    StatusRow(
        "S3",
        "the artifact mutates the repository and no negative test was declared",
        lambda v: v.mutating and not v.of("negative"),
        "blocked",
    ),
    StatusRow("S4", "a check failed", lambda v: "fail" in v.results(), "fail"),
    StatusRow(
        "S5",
        "every criterion passed, negative tests ran where the artifact mutates, the full suite ran",
        lambda v: True,
        "pass",
    ),
)


def verdict_status(observations: Observations) -> tuple[Status, StatusRow]:
    """The verdict's status from its observed checks, and the :data:`STATUS_ROWS` row."""
    row = next(r for r in STATUS_ROWS if r.matches(observations))
    return row.status, row


_PLURALS: tuple[tuple[CheckKind, str], ...] = (("negative", "negative tests"), ("suite", "suite"))


def _label(kind: CheckKind, text: str) -> str:
    return {"criterion": text, "negative": f"negative test: {text}", "suite": "full suite"}[kind]


def observed_criterion(o: Outcome) -> Criterion:
    """The verdict's criterion for one observed check: its words, the evidence it showed,
    its result, and the raw observation (:class:`~.verdict.Observed`)."""
    result, _ = check_result(o)
    return Criterion(
        criterion=_label(o.check.kind, o.check.criterion),
        evidence=_evidence(o),
        result=result,
        observed=Observed(
            kind=o.check.kind,
            command=o.check.command,
            exitCode=o.exit_code,
            durationMs=o.duration_ms,
            outputDigest=o.output_digest,
            env=o.env,
            envDigest=o.env_digest,
            programs=o.programs,
            sharedPrograms=tuple(sorted(set(o.shared))) or None,
        ),
    )


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarize(status: Status, row: StatusRow, observations: Observations) -> str:
    """The bounded summary (seed 001: "a summary plus an artifact reference, never a
    transcript"): status and why, then counts per kind, then each check that did not
    pass with why (a skip marker's ``path:line`` before the clipped evidence, whole); at
    most :data:`~.verdict.MAX_SUMMARY_CHARS` characters. People read it: the rows' ids are
    not in it (they are in ``verify run --json``)."""
    counts = []
    names: tuple[tuple[CheckKind, str], ...] = (("criterion", "criteria"), *_PLURALS)
    for kind, name in names:
        group = observations.of(kind)
        if group:
            passed = sum(1 for o in group if check_result(o)[0] == "pass")
            counts.append(f"{name} {passed}/{len(group)} passed")
    lines = [f"{status} ({row.when}); " + ("; ".join(counts) or "no checks")]
    shared = sorted({p for o in observations.outcomes for p in o.shared})
    if shared:
        lines.append(f"{SHARED_WORDS}: {_clip(', '.join(shared), 200)}")
    for o in observations.outcomes:
        decided = check_row(o)
        if decided.result != "pass":
            what = _clip(_label(o.check.kind, o.check.criterion), 80)
            # where the marker is comes first, whole: the evidence after it is clipped
            at = f"; marker at {marks_words(o.skip_marks)}" if decided.id == "C1-skip" else ""
            lines.append(
                f"{decided.result} ({decided.said}{at}): {what}: {_clip(_evidence(o), 160)}"
            )
    return _clip("\n".join(lines), MAX_SUMMARY_CHARS)


def observed_verdict(
    brief_id: str,
    outcomes: Sequence[Outcome],
    *,
    mutating: bool,
    candidate: CandidateRef,
    caller: str,
    artifact_ref: str,
    duration_ms: int,
) -> DelegationVerdict:
    """The DelegationVerdict of one verify run, from its observations alone (seed 001).

    Args:
        brief_id: the brief verified; outcomes: every check run, in run order.
        mutating: the artifact mutates the repository (negative tests are then mandatory).
        candidate: the candidate judged; caller: who asked for it; artifact_ref: where the
            verdict's JSON is written; duration_ms: the whole run's wall time.

    Returns:
        The verdict: status from :data:`STATUS_ROWS`; one criterion per check;
        ``negativeTestsRun`` counts negative tests whose tool was there; ``fullSuiteRun``
        holds when every declared suite run (the brief's, ``--suite``) runs a recognised
        runner that was there, ran tests, selected none out and, observed, ran the whole
        suite (:attr:`~.outcome.Outcome.unrun`); ``changedArtifact``: what a check changed.
    """
    observations = Observations(tuple(outcomes), mutating)
    status, row = verdict_status(observations)
    changed = [o for o in outcomes if o.changed]  # the run stopped at the first (row S0)
    return DelegationVerdict(
        briefId=brief_id,
        status=status,
        criteria=tuple(observed_criterion(o) for o in outcomes),
        negativeTestsRun=sum(1 for o in observations.of("negative") if o.ran),
        fullSuiteRun=bool(observations.of("suite"))
        and all(
            o.ran
            and o.runner is not None
            and not o.no_tests
            and o.selection is None
            and o.unrun is None
            for o in observations.of("suite")
        ),
        artifactMutating=mutating,
        summary=summarize(status, row, observations),
        artifactRef=artifact_ref,
        durationMs=duration_ms,
        candidate=candidate,
        caller=caller,
        changedArtifact=next(
            (changed_artifact(o.check.kind, o.check.command, o.changed) for o in changed),
            None,
        ),
    )
