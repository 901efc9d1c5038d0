"""Whether a check a verifier would run can observe anything (SPEC §9; seed 001 "Guardrails").

Room ``services``. One judgement serves ``verify prepare|run``, which refuse such a check
before running anything, and ``brief check``, which rejects a brief holding one: a brief
``brief check`` calls ok is one ``verify run`` accepts.
"""

from __future__ import annotations

import shlex

from gentle_hooks.artifacts.brief import DelegationBrief, command_load_faults
from gentle_hooks.artifacts.jsonio import Command
from gentle_hooks.artifacts.observation import Check
from gentle_hooks.artifacts.verdict import CheckKind
from gentle_hooks.policy.checkshape import argv_fault
from gentle_hooks.policy.hidden import judge_hidden
from gentle_hooks.policy.nocheck import judge_command, judge_negative, row_text
from gentle_hooks.policy.reach import reach_faults
from gentle_hooks.policy.testcount import no_run_flags

#: Why such a check is refused (seed 001 "Guardrails").
_SEED = "seed 001: no claim is accepted whose criteria have no observable check"


def check_of(kind: CheckKind, criterion: str, command: Command) -> Check:
    """The check for a brief's or a flag's command: a string runs under ``sh -c``, a list
    as its argv."""
    if isinstance(command, str):
        return Check(kind, criterion, command, ("sh", "-c", command))
    return Check(kind, criterion, shlex.join(command), tuple(command))


def brief_checks(brief: DelegationBrief) -> tuple[Check, ...]:
    """The brief's own checks: its success criteria, negative tests and full suite (which
    ``verify run`` always runs, whatever ``--suite`` adds)."""
    suite = () if brief.fullSuite is None else (check_of("suite", "full suite", brief.fullSuite),)
    return (
        *(check_of("criterion", c.criterion, c.run) for c in brief.successCriteria),
        *(check_of("negative", c.criterion, c.run) for c in brief.negativeTests),
        *suite,
    )


def command_fault(check: Check) -> str | None:
    """Why ``check`` observes nothing, in one line, or None when it can.

    A success criterion or full suite whose command succeeds whatever the artifact is
    (``true``, ``exit 0``, ``:``, ``echo ok``, a failure masked by ``|| true``...), or a
    negative test whose command fails whatever it is (``false``, ``exit 1``, ``! true``:
    :func:`~gentle_hooks.policy.nocheck.judge_negative`), observes nothing; so does a test
    runner told to list instead of run (``--collect-only``); a criterion or suite that can
    succeed while one of its commands fails (``a || b``, ``a; b``:
    :func:`~gentle_hooks.policy.hidden.judge_hidden`) is refused too, and so is one not of
    the one shape that cannot hide a failing command, simple commands joined by ``&&``
    (:func:`~gentle_hooks.policy.checkshape.argv_fault`: ``$(...)``, ``if``, ``find -exec
    ... ;`` are refused, naming the construct). Judged as receipts
    are (:func:`gentle_hooks.policy.nocheck.judge_command`, SPEC §5 "a command that
    verifies nothing does not count").
    """
    negative = check.kind == "negative"
    flags = () if negative else no_run_flags(check.command)
    what = "the full suite" if check.kind == "suite" else f"criterion {check.criterion!r}"
    if flags:
        return (
            f"{what}: `{check.command}` runs no test: {', '.join(flags)} makes the test "
            f"runner print or list instead of running tests; give the command that runs "
            f"them ({_SEED})"
        )
    judged = (judge_negative if negative else judge_command)(check.command)
    if judged.checks and not negative and not judge_hidden(check.command).checks:
        return (
            f"{what}: `{check.command}` can succeed while one of its commands fails (;, ||, "
            "a newline, & or a pipe without pipefail): write one command, or `a && b`"
        )
    fault = None if negative or not judged.checks else argv_fault(check.argv)
    if fault is not None:
        return (
            f"{what}: `{check.command}` uses {fault.construct}: {fault.why} (row "
            f"{fault.row}); a check is simple commands joined by `&&`: write one command, "
            "or `a && b`"
        )
    if judged.checks:
        return None
    if negative:
        what = f"negative test {check.criterion!r}"
    rows = "; ".join(row_text(r) for r in judged.rows)
    return (
        f"{what}: `{check.command}` verifies nothing: {rows}; give a command that fails when "
        f"the artifact does not meet it ({_SEED})"
    )


#: Why a run with no success criterion is refused (as ``plan_checks`` words it).
NO_CRITERION = (
    "no success criterion to re-check: add successCriteria "
    '[{"criterion": ..., "run": ...}] to the brief, or --check CMD (seed 001: no '
    "claim is accepted whose criteria have no observable check)"
)


def run_faults(
    brief: DelegationBrief, flags: tuple[tuple[str, str], ...]
) -> tuple[list[str], list[str]]:
    """Why a verifier may not start on ``brief`` with the checks ``flags`` add
    (``("--check", CMD)``, ``("--negative", CMD)``, ``("--suite", CMD)``): seed 001
    "Guardrails", "Rule: do not accept a claim whose criteria have no observable check".
    A policy refusal (exit 1, SPEC §7), as rules B1-B5 are: the brief was read, and a rule
    decides that nothing may run on it.

    Returns:
        (the brief's faults, the flags' faults), one line each, in order: no success
        criterion in the brief and no ``--check`` (:data:`NO_CRITERION`, with the brief's);
        each check whose command observes nothing (:func:`command_fault`). Both empty when
        a flag is blank: that is a usage error (exit 2), raised when the checks are planned.
    """
    if any(not command.strip() for _, command in flags):
        return [], []
    own = brief_command_faults(brief)
    if not brief.successCriteria and not any(flag == "--check" for flag, _ in flags):
        own = [NO_CRITERION, *own]
    kinds: dict[str, CheckKind] = {"--check": "criterion", "--negative": "negative"}
    given = [
        command_fault(check_of(kinds.get(flag, "suite"), command, command))
        for flag, command in flags
    ]
    return own, [f for f in given if f is not None]


def brief_command_faults(brief: DelegationBrief) -> list[str]:
    """:func:`command_fault` of each of the brief's own checks, in order (empty: every
    command can observe something)."""
    return [f for f in map(command_fault, brief_checks(brief)) if f is not None]


def flag_reach_faults(flags: tuple[tuple[str, str], ...]) -> list[str]:
    """Why each command given by a flag (``("--check", CMD)``...) reaches outside the clean
    room's tree (:func:`~gentle_hooks.policy.reach.reach_faults`), one line each, as the
    brief's own checks are judged by rule B4 (empty: none does)."""
    return [
        f"{flag} `{command}` {found.row.said} ({found.word}): it would observe another tree "
        "than the candidate's; checks run in the candidate's tree: name paths relative to it"
        for flag, command in flags
        for found in reach_faults(("sh", "-c", command))
    ]


def flag_load_faults(flags: tuple[tuple[str, str], ...]) -> list[str]:
    """Why each command given by a flag (``("--suite", CMD)``...) sets a variable that
    changes what its runner loads (``PYTEST_ADDOPTS=--ignore=x pytest``), one line each
    naming it, as the brief's own checks are judged by rule B5
    (:func:`~gentle_hooks.artifacts.brief.command_load_faults`; empty: none does)."""
    return list(command_load_faults((f"{flag} `{command}`", command) for flag, command in flags))
