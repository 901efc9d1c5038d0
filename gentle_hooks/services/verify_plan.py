"""What a verify run runs for one brief on one candidate: its checks, in order (SPEC §9;
seed 001 "Workflow" 1 and 5, "Guardrails").

Room ``services``. :func:`plan_checks` takes the brief's success criteria, negative tests and
full suite, the command line's (``--check``, ``--negative``, ``--suite``: :class:`ExtraChecks`)
and the repository's declared full suite, refuses a plan with no criterion or a check that
verifies nothing, and names the ``briefId`` its verdict claims. :mod:`.verify` runs it.
"""

from __future__ import annotations

import hashlib

from gentle_hooks.artifacts.brief import DelegationBrief, brief_id
from gentle_hooks.artifacts.observation import Check
from gentle_hooks.errors import UsageError
from gentle_hooks.services.brief_checks import check_of, command_fault
from gentle_hooks.values.frozen import frozen


@frozen
class ExtraChecks:
    """Checks given on the command line, added to the brief's.

    Attributes:
        criteria: ``--check CMD`` (each a success criterion named by its command);
        negatives: ``--negative CMD``; suite: ``--suite CMD`` (the full suite of a brief
        that declares none; beside the brief's own otherwise, which always runs).
    """

    criteria: tuple[str, ...] = ()
    negatives: tuple[str, ...] = ()
    suite: str | None = None


@frozen
class Plan:
    """What a verifier runs for one brief on one candidate.

    Attributes:
        brief / brief_id: the brief and the id its verdict names.
        checks: criteria, then negative tests, then the suite (run in this order).
        mutating: the artifact mutates the repository (negative tests are then mandatory):
            the brief says ``readOnly: false``, or the candidate changes the tree.
        declared: the repository's declared full suite (``verification.full_suite`` at the
            candidate's base), run first among the suites; None when none is declared
            (then a suite naming part of the test tree is not the full suite, row P-operand).
    """

    brief: DelegationBrief
    brief_id: str
    checks: tuple[Check, ...]
    mutating: bool
    declared: str | None = None


def plan_checks(
    brief: DelegationBrief, extra: ExtraChecks, changes_tree: bool, declared: str | None = None
) -> Plan:
    """The checks a verifier runs: the brief's and the command line's.

    Args:
        brief: the brief; extra: ``--check``/``--negative``/``--suite``;
        changes_tree: the candidate changes the base tree (its artifact mutates the
            repository); declared: the repository's full suite
            (:func:`~gentle_hooks.services.declared_suite.declared_suite`), which runs first
            and always, the brief's ``fullSuite`` and ``--suite`` beside it when they differ.
            It does not change the verdict's ``briefId``: it only adds the suite the
            repository requires of every brief.

    Raises:
        UsageError: no success criterion at all (seed 001 "Guardrails": "do not accept a
            claim whose criteria have no observable check"), a criterion or suite whose
            command verifies nothing (``true``, ``exit 0``, ``:``...), or a blank flag.
    """
    for flag, values in (("--check", extra.criteria), ("--negative", extra.negatives)):
        if any(not v.strip() for v in values):
            raise UsageError(f"{flag} is blank: give the command to run")
    if extra.suite is not None and not extra.suite.strip():
        raise UsageError("--suite is blank: give the full suite's command")
    criteria = [check_of("criterion", c.criterion, c.run) for c in brief.successCriteria]
    criteria += [check_of("criterion", cmd, cmd) for cmd in extra.criteria]
    negatives = [check_of("negative", c.criterion, c.run) for c in brief.negativeTests]
    negatives += [check_of("negative", cmd, cmd) for cmd in extra.negatives]
    # the brief's own suite always runs: --suite adds a suite, never swaps one out, so a
    # verdict of other checks cannot pass while the brief's suite fails
    suite = (
        [check_of("suite", "full suite (verification.full_suite)", declared)] if declared else []
    )
    if brief.fullSuite:
        own = check_of("suite", "full suite", brief.fullSuite)
        if own.command not in {c.command for c in suite}:
            suite.append(own)
    if extra.suite is not None:
        flag_suite = check_of("suite", "full suite (--suite)", extra.suite)
        if flag_suite.command not in {c.command for c in suite}:
            suite.append(flag_suite)
    if not criteria:
        raise UsageError(
            "no success criterion to re-check: add successCriteria "
            '[{"criterion": ..., "run": ...}] to the brief, or --check CMD (seed 001: no '
            "claim is accepted whose criteria have no observable check)"
        )
    for check in (*criteria, *negatives, *suite):
        _refuse_no_check(check)
    checks = (*criteria, *negatives, *suite)
    return Plan(
        brief=brief,
        brief_id=_effective_id(brief, extra, checks),
        checks=checks,
        mutating=not brief.readOnly or changes_tree,
        declared=declared,
    )


def _effective_id(brief: DelegationBrief, extra: ExtraChecks, checks: tuple[Check, ...]) -> str:
    """The ``briefId`` a verdict of these checks names: the brief's id
    (:func:`~gentle_hooks.artifacts.brief.brief_id`) when only the brief's checks run; when
    ``--check``/``--negative``/``--suite`` add or replace checks, that id, ``+flags-`` and
    the first 8 hex digits of the SHA-256 of the checks run (kind and command, in order),
    so a verdict never claims a brief whose checks it did not run as written."""
    own = brief_id(brief)
    if not (extra.criteria or extra.negatives or extra.suite is not None):
        return own
    ran = "\n".join(f"{c.kind}\t{c.command}" for c in checks)
    return f"{own}+flags-{hashlib.sha256(ran.encode()).hexdigest()[:8]}"


def _refuse_no_check(check: Check) -> None:
    """Raises UsageError: the check observes nothing (:func:`~.brief_checks.command_fault`)."""
    fault = command_fault(check)
    if fault is not None:
        raise UsageError(fault)
