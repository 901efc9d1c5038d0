"""Observed failures that stand: a ``verify run`` that failed for a candidate keeps its
verifier requirement unmet until the same checks pass (SPEC §9; seed 001 "Rules": "A pass
verdict requires the full suite to have run"; refuter r18x F4).

Room: ledger (imports :mod:`.records`). Trying briefs until one passes (the real suite
fails, a suite of ``-k test_add`` passes) must not turn an observed ``fail`` into an
accepted ``pass``: a ``fail`` run is settled only by a later ``pass`` run for the same
candidate of the same brief id that ran every check the failing run ran (it may add
checks, never drop one). Anything else that would let the change through is an override
(``GENTLE_HOOKS_SKIP``), recorded and visible.

A check that gave no evidence is the brief's fault, not the candidate's: a negative test
that fails on the candidate's base tree too (row C2-base) fails whatever the change is, and
a criterion the candidate passes that gives the same answer on its base tree and with the
change emptied (row C4-nothing) observes nothing of it (both recorded ``evidence: false``:
:func:`gentle_hooks.artifacts.recorded.recorded_observations`). It is not required of
the settling run (a corrected brief drops or replaces it), and a
run whose failed checks are all such checks is no observed failure of the candidate: it
stands as nothing, and :func:`brief_faults` names the checks to correct. A run recorded
without per-check results (a start row, or one recorded before results were) is judged as
before: every check it ran is required.

A criterion that fails on every tree, the candidate's, its base and the change emptied
(row C4-nothing-failed, recorded ``row`` with ``evidence: true``), keeps its run an observed
failure, but no run of that brief can ever pass it. Such a run is settled too by a later
``pass`` run of another brief id (the corrected brief) that ran every other check with
evidence the failing run ran: it drops only the checks that fail everywhere. A later run of
the same brief id is held to every check, as before.

A run is recorded when it starts too, before any check runs: a ``fail`` row whose
``verdict_digest`` is :data:`STARTED` and whose ``observations`` list the checks it will
run. Its end (the row of the same room and artifact) ends it; a run killed before its end
leaves the started row, which stands as an observed failure, settled as one is: a run
killed while the suite failed would otherwise leave nothing behind.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.ledger.records import VerifyRun

#: The rule id of an accepted verdict held back by a standing observed failure.
STANDING_FAIL_RULE = "R2"
#: The ``verdict_digest`` of a run's start row (no verdict written yet).
STARTED = "started"
#: The row id (:data:`gentle_hooks.artifacts.observation.CHECK_ROWS`) of a criterion that
#: fails on every tree: no run of its brief can pass.
FAILS_EVERYWHERE_ROW = "C4-nothing-failed"
#: The rows that fail the same way on the base tree: that row, and a suite's (C5-base).
FAILS_ON_BASE_ROWS = frozenset({FAILS_EVERYWHERE_ROW, "C5-base"})


def is_ended(started: VerifyRun, later: Sequence[VerifyRun]) -> bool:
    """Whether the start row ``started`` has its end among ``later`` (the row the same run
    wrote when it ended: same room and artifact, a verdict's digest)."""
    return any(
        r.verdict_digest != STARTED
        and r.room == started.room
        and r.artifact_ref == started.artifact_ref
        for r in later
    )


def _seen(run: VerifyRun) -> list[dict[str, object]]:
    """The per-check objects ``run`` recorded (empty when unreadable)."""
    import json  # on use: the push gate that passes reads no verify run and loads no json

    try:
        seen = json.loads(run.observations)
    except ValueError:
        return []
    return [o for o in seen if isinstance(o, dict)] if isinstance(seen, list) else []


def _check(o: dict[str, object]) -> tuple[str, str]:
    return (str(o.get("kind")), str(o.get("command")))


def _no_evidence(o: dict[str, object]) -> bool:
    # only an explicit false: a record without the key is evidence, as it always was
    return o.get("evidence") is False


def run_checks(run: VerifyRun) -> frozenset[tuple[str, str]]:
    """The (kind, command) of every check ``run`` observed that gave evidence (a check
    recorded with ``evidence: false`` is left out: it says nothing of the candidate);
    empty when unreadable."""
    return frozenset(_check(o) for o in _seen(run) if not _no_evidence(o))


def fails_everywhere(run: VerifyRun) -> frozenset[tuple[str, str]]:
    """The (kind, command) of the checks ``run`` recorded as failing on every tree
    (:data:`FAILS_ON_BASE_ROWS`: a criterion; a suite, on its base tree); empty for a
    start row or a run without rows."""
    if run.verdict_digest == STARTED:
        return frozenset()
    return frozenset(
        _check(o)
        for o in _seen(run)
        if o.get("row") in FAILS_ON_BASE_ROWS and o.get("result") == "fail"
    )


def _settles(failed: VerifyRun, later: VerifyRun) -> bool:
    """Whether ``later`` settles the observed failure ``failed``: a ``pass`` of the same
    brief id that ran every check with evidence ``failed`` ran, or of another brief id that
    ran all of them but those that fail everywhere, when ``failed`` has such a check."""
    if later.status != "pass":
        return False
    checks = run_checks(failed)
    if later.brief_id == failed.brief_id:
        return checks <= run_checks(later)
    everywhere = fails_everywhere(failed)
    return bool(everywhere) and checks - everywhere <= run_checks(later)


def _faults(run: VerifyRun) -> tuple[tuple[str, str], ...]:
    """The checks of ``run``, a ``fail``, that failed without evidence, when every check
    that failed did (its failure is the brief's); empty otherwise (it is an observed
    failure of the candidate, or it recorded no per-check result)."""
    if run.status != "fail" or run.verdict_digest == STARTED:
        return ()
    seen = _seen(run)
    if not seen or any("result" not in o for o in seen):
        return ()
    failed = [o for o in seen if o.get("result") == "fail"]
    if not failed or not all(_no_evidence(o) for o in failed):
        return ()
    return tuple(_check(o) for o in failed)


def is_observed_failure(run: VerifyRun) -> bool:
    """Whether ``run`` failed for its candidate: a ``fail`` (or a start row), unless every
    check that failed gave no evidence (:func:`_faults`: the brief is at fault)."""
    return run.status == "fail" and not _faults(run)


def brief_faults(runs: Sequence[VerifyRun]) -> tuple[tuple[str, str], ...]:
    """The (kind, command) of the checks to correct in the brief: those that failed
    without evidence in the latest ended run of ``runs`` (one candidate's), when that run
    failed on nothing else, nor on a check that fails on every tree
    (:func:`fails_everywhere`: a new brief id without it is the way out); empty
    otherwise."""
    ended = [r for r in runs if r.verdict_digest != STARTED]
    if not ended:
        return ()
    latest = max(ended, key=lambda r: r.id)
    everywhere = fails_everywhere(latest)
    failed = [o for o in _seen(latest) if o.get("result") == "fail"]
    if everywhere and all(_no_evidence(o) or _check(o) in everywhere for o in failed):
        return tuple(dict.fromkeys(_check(o) for o in failed))
    return _faults(latest)


def standing_fails(runs: Sequence[VerifyRun]) -> tuple[VerifyRun, ...]:
    """The ``fail`` runs of ``runs`` (one candidate's, any order) that are observed
    failures (:func:`is_observed_failure`) and that no later ``pass`` run settles
    (:func:`_settles`: the same brief id running every check with evidence the failing one
    ran; or a corrected brief, another id, when the failing one has a check that fails
    everywhere); oldest first."""
    ordered = sorted(runs, key=lambda r: r.id)
    out = []
    for n, failed in enumerate(ordered):
        if not is_observed_failure(failed):
            continue
        if failed.verdict_digest == STARTED and is_ended(failed, ordered[n + 1 :]):
            continue
        if not any(_settles(failed, later) for later in ordered[n + 1 :]):
            out.append(failed)
    return tuple(out)


def _named(checks: Sequence[tuple[str, str]]) -> str:
    """At most three checks' commands, each in backquotes, ``, ``-joined (`` ...`` after)."""
    return ", ".join(f"`{c}`" for _, c in checks[:3]) + (" ..." if len(checks) > 3 else "")


def failed_on_change(run: VerifyRun) -> tuple[tuple[str, str], ...]:
    """The (kind, command) of the checks ``run`` recorded as failed with evidence that do
    not fail on every tree: the change's own failures, to fix in the change; in run
    order, empty for a start row or a run without per-check results."""
    if run.verdict_digest == STARTED:
        return ()
    everywhere = fails_everywhere(run)
    return tuple(
        dict.fromkeys(
            _check(o)
            for o in _seen(run)
            if o.get("result") == "fail" and not _no_evidence(o) and _check(o) not in everywhere
        )
    )


def mixed_failures(
    runs: Sequence[VerifyRun],
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The latest ended run of ``runs`` (one candidate's), when it failed both on checks of
    the change (:func:`failed_on_change`) and on checks that fail on every tree
    (:func:`fails_everywhere`): the (kind, command) of each, in that order; two empty
    tuples otherwise (:func:`brief_faults` names a run that failed on the brief alone)."""
    ended = [r for r in runs if r.verdict_digest != STARTED]
    if not ended:
        return (), ()
    latest = max(ended, key=lambda r: r.id)
    own, everywhere = failed_on_change(latest), tuple(sorted(fails_everywhere(latest)))
    return (own, everywhere) if own and everywhere else ((), ())


#: How a person lets the held-back change through on purpose, the end of every reason.
_SKIP = "or let it through on purpose with GENTLE_HOOKS_SKIP set to the reason (recorded)"


def standing_fail_reason(failed: VerifyRun) -> str:
    """One sentence, prefixed with :data:`STANDING_FAIL_RULE`: which observed failure holds
    an accepted verdict back, the checks it failed on (the change's own failures, and
    those that fail on every tree: :func:`fails_everywhere`), and the way out that settles
    it (:func:`_settles`), then the override."""
    run = f"{STANDING_FAIL_RULE} verify run #{failed.id} of brief {failed.brief_id!r}"
    brief = repr(failed.brief_id)
    if failed.verdict_digest == STARTED:
        return (
            f"{run} started for this candidate and never ended (stopped before its verdict: "
            f"it counts as failed): re-run brief {brief} until it passes (its checks "
            f"unchanged; a pass of other checks does not settle it), {_SKIP}"
        )
    own = failed_on_change(failed)
    on = f" on {_named(own)}" if own else ""
    everywhere = sorted(fails_everywhere(failed))
    if everywhere:
        fix = "fix the change, then verify" if own else "verify"
        return (
            f"{run} failed for this candidate{on}, and its {_everywhere(everywhere)}, so no "
            f"run of brief {brief} can pass: {fix} again under a new brief id, "
            f"{_without(everywhere)} and with every other check it ran (the brief and verify "
            f"run lines below), {_SKIP}"
        )
    return (
        f"{run} failed for this candidate{on} and no later run of that brief passed: "
        f"{'fix the change and ' if own else ''}re-run brief {brief} until it passes (its "
        f"checks unchanged; a pass of other checks does not settle it), {_SKIP}"
    )


def _everywhere(checks: Sequence[tuple[str, str]]) -> str:
    """How ``checks`` (each failing everywhere) fail: a full suite on the base tree (it
    runs on no other: row C5-base), a criterion on every tree (C4-nothing-failed)."""
    suites = [c for c in checks if c[0] == "suite"]
    others = [c for c in checks if c[0] != "suite"]
    parts = [f"full suite {_named(suites)} fails the same way on the base tree"] if suites else []
    if others:
        parts.append(f"{_named(others)} fails on every tree (the base and the change emptied too)")
    return ", and ".join(parts)


def _without(checks: Sequence[tuple[str, str]]) -> str:
    """What the corrected brief does instead of ``checks``: a full suite cannot be dropped,
    only run as the repository runs its tests."""
    if any(kind == "suite" for kind, _ in checks):
        return (
            "with a full suite run as the repository runs its tests (from the tree's top; on "
            "a red base, with a --deselect of the base's own failing tests: the suite line "
            "verify run prints)"
        )
    return "without what fails everywhere"


def carried_fails(earlier: Sequence[VerifyRun], runs: Sequence[VerifyRun]) -> tuple[VerifyRun, ...]:
    """The observed failures of earlier candidates of the same delegated change that carry
    forward to this one: of ``earlier`` (the runs of the other candidates of the change,
    :func:`~gentle_hooks.ledger.facts.earlier_runs`, grouped by identity), each
    candidate's :func:`standing_fails` that no later ``pass`` of ``runs`` (this
    candidate's) settles by running every check with
    evidence it failed on but those that fail everywhere (:func:`carried_checks`; any
    brief id: ``verify run`` adds them to its plan). A failed check binds to the change,
    not to one candidate of it: a comment line and a new candidate do not end it."""
    by_identity: dict[str, list[VerifyRun]] = {}
    for r in earlier:
        by_identity.setdefault(r.identity, []).append(r)
    out: list[VerifyRun] = []
    for same in by_identity.values():
        for failed in standing_fails(same):
            needed = frozenset(carried_checks((failed,)))
            if not any(
                later.id > failed.id and later.status == "pass" and needed <= run_checks(later)
                for later in runs
            ):
                out.append(failed)
    return tuple(sorted(out, key=lambda r: r.id))


def carried_checks(fails: Sequence[VerifyRun]) -> tuple[tuple[str, str], ...]:
    """The (kind, command) of the checks the observed failures ``fails`` failed on with
    evidence (:func:`failed_on_change`; for a run stopped before its verdict, every check
    it was to run), in order, once each: what a later candidate must pass."""
    found: list[tuple[str, str]] = []
    for failed in fails:
        if failed.verdict_digest == STARTED:
            found += [_check(o) for o in _seen(failed)]
        else:
            found += list(failed_on_change(failed))
    return tuple(dict.fromkeys(found))


def carried_fail_reason(failed: VerifyRun) -> str:
    """One sentence, prefixed with :data:`STANDING_FAIL_RULE`: the observed failure of an
    earlier candidate of this change that holds an accepted verdict back, its checks, and
    the way out (:func:`carried_fails`), then the override."""
    checks = carried_checks((failed,))
    on = f" on {_named(checks)}" if checks else ""
    return (
        f"{STANDING_FAIL_RULE} verify run #{failed.id} of brief {failed.brief_id!r} failed{on} "
        "for an earlier candidate of this change (the same writer work): a failed check "
        "stands for the change until it passes on this candidate: fix the change and run "
        f"verify run again (it re-runs those checks), {_SKIP}"
    )
