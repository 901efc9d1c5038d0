"""A DelegationVerdict written from what was observed, never from what was claimed (seed 001).

Room: artifacts (imports :mod:`.check_rows`, :mod:`.verdict`, :mod:`gentle_hooks.values`);
pure: the caller runs the commands (:mod:`gentle_hooks.services.verify`) and hands the
observations over. Seed
``001_3bc4c9b08e2f7709.txt`` "Rules", "Guardrails" and "Completion criteria" as two tables:

* :data:`CHECK_ROWS` — one observed check to its result (:mod:`.check_rows`, re-exported
  here).
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
from gentle_hooks.artifacts.check_rows import CHECK_ROWS as CHECK_ROWS
from gentle_hooks.artifacts.check_rows import FAILS_EVERYWHERE as FAILS_EVERYWHERE
from gentle_hooks.artifacts.check_rows import SUITE_FAILS_ON_BASE as SUITE_FAILS_ON_BASE
from gentle_hooks.artifacts.check_rows import CheckRow as CheckRow
from gentle_hooks.artifacts.check_rows import check_result as check_result
from gentle_hooks.artifacts.check_rows import check_row as check_row
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
    names: tuple[tuple[CheckKind, str], ...] = (
        ("criterion", "criteria"),
        ("negative", "negative tests"),
        ("suite", "suite"),
    )
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
        The verdict: status from :data:`STATUS_ROWS`; one criterion per check with its
        observation; ``negativeTestsRun`` counts negative tests whose tool was there;
        ``fullSuiteRun`` is true when a suite was declared and every suite run (the
        brief's, and ``--suite`` beside it) runs a recognised test runner, its tool was
        there, its output shows tests ran, it selected none of them out, and, observed,
        it ran every test of the whole suite (:attr:`~.outcome.Outcome.unrun`);
        ``changedArtifact`` names the check that changed the candidate's files and what it
        changed (:func:`~.changed.changed_artifact`), when one did.
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
