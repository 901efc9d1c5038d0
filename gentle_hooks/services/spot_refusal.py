"""Why the parent's spot check will not re-run a receipt, and what to run instead (SPEC §5
"Spot check", §6).

Room ``services``. :func:`refusal_of` judges one receipt for the bound candidate: a report
that cannot count (the policy's standing rows,
:func:`gentle_hooks.policy.selfcheck.receipt_standing`), or one whose command runs what
the change itself defines (its script, Makefile, test configuration, a plugin, a module
Python imports in the runner's place:
:func:`~gentle_hooks.services.defined_command.receipt_defined_by_change`, the verifier's
rule, row C1-own); :func:`checkout_refusal` judges it again once the temporary checkout it
re-runs in exists, with the ``PYTHONPATH`` that checkout really has. Each refusal is a
:class:`~gentle_hooks.errors.UsageError` carrying the commands that get past it, runnable
as printed: the writer's report (``receipt run`` of the same command; of it without the
part that hides a failure, ``make -i test`` → ``make test``; or the prefix for the writer
to complete), then the spot check. With ``verification.commands`` declared only a
declared command counts, so the report offered is the first declared command whose
definition the change leaves as the base has it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gentle_hooks.errors import Command, GentleError, UsageError, cli
from gentle_hooks.git.location import is_away_from, is_on_server
from gentle_hooks.ledger.records import Receipt
from gentle_hooks.policy.nocheck import unhidden
from gentle_hooks.policy.outputs import declared_outputs
from gentle_hooks.policy.selfcheck import is_declared, report_argv
from gentle_hooks.policy.shellwords import shown as one_line_command
from gentle_hooks.policy.toolmissing import lacked_words, not_run
from gentle_hooks.services.defined_command import (
    Reported,
    checkout_defined,
    command_defined_by_change,
    receipt_defined_by_change,
)
from gentle_hooks.services.record import Binding, Bound, refusal, standing
from gentle_hooks.values.frozen import replace

#: What the change defines among the files a reported command runs.
Judge = Callable[[Reported], tuple[str, ...]]


def report_binding(bound: Bound, rel: str = ".") -> Binding:
    """The binding a printed ``receipt run`` of a command that ran in ``rel`` carries
    (:meth:`Binding.for_report`: ``--cwd`` when it ran below the root or the user is
    elsewhere), the same the blocks print."""
    b = replace(bound.binding, top=bound.binding.top or bound.root)
    return b.for_report(rel, is_away_from(bound.root), is_on_server())


def report_command(bound: Bound, command: str, rel: str = ".") -> Command:
    """``receipt run [binding flags] -- COMMAND``: the writer's report of ``command``, which
    ran in ``rel`` (relative to the root)."""
    words = report_binding(bound, rel).words()
    return cli("receipt", "run", *words, "--", *report_argv(command))


def what_to_report(bound: Bound) -> tuple[str, Command]:
    """The report the writer makes instead: a declared command, runnable as printed, or
    the prefix its own test command completes."""
    declared = bound.settings.verification.commands
    if declared:
        return "the writer reports a declared one", report_command(bound, declared[0])
    # from a subdirectory the prefix names the top, as the gate's block did: the
    # writer's command runs there wherever the line is pasted
    prefix = report_binding(bound).for_prefix()
    where = (
        f"; it runs in {prefix.cwd}, the repository top (another directory after --cwd runs "
        "it there)"
        if prefix.cwd is not None and bound.binding.cwd is None
        else ""
    )
    return (
        "the writer reports the command that tests the change after the prefix (or declares "
        f"it in verification.commands){where}",
        cli("receipt", "run", *prefix.words(), "--", label="prefix"),
    )


def refusal_of(
    bound: Bound, rec: Receipt, env: Mapping[str, str], in_checkout: bool = False
) -> UsageError | None:
    """Why ``rec`` cannot be spot-checked, with what to do instead; None when it counts.
    A receipt whose command runs what the change itself defines, judged with ``env`` as
    the re-run gets it (``in_checkout``: in a temporary checkout), cannot count: its
    re-run's outcome would be the change's own word."""
    st = standing(rec, bound.settings)
    if st.counts:
        own = receipt_defined_by_change(bound, rec, env, in_checkout=in_checkout)
        judge = _judge(bound, env, in_checkout)
        return _defined_refusal(bound, rec, own, judge) if own else None
    why = refusal(rec, st, bound.settings.verification.commands)
    remedy = unhidden(rec.command) if st.row == "S-no-check" else None
    first: tuple[Command, ...] = ()
    if st.row == "S-failed":
        never = not_run(rec.exit_code)  # it never started: where it ran, not the change
        words, fix = (
            f"its command could not run ({never}): make it runnable there, not the change, "
            "then the writer reports it again"
            if never
            else f"{lacked_words(rec.observed) or 'fix the change'}, then the writer reports "
            "it again",
            report_command(bound, rec.command, rec.cwd),
        )
        if lacked_words(rec.observed) is None:  # else the file it lacked is why
            first, words = _unseen(bound, words, declared_outputs(rec.command, bound.root, rec.cwd))
    elif remedy is not None and _may_count(bound, remedy):
        words, fix = (
            "the writer reports the same command without the part that hides a failure",
            report_command(bound, remedy, rec.cwd),
        )
    else:
        words, fix = what_to_report(bound)
    return UsageError(
        f"receipt #{rec.id} ({one_line_command(rec.command)}) cannot count: {why}; {words}",
        commands=(*first, fix, cli("spot-check", *report_binding(bound).words())),
    )


def _unseen(bound: Bound, words: str, outputs: tuple[str, ...]) -> tuple[tuple[Command, ...], str]:
    """The ``git add`` of the untracked files a failed staged report's run did not see
    (:func:`~gentle_hooks.services.receipt_guard.unseen_add`; ``outputs``, the reports its
    command names, it wrote), to run before the report again, and ``words`` saying so;
    ``((), words)`` when there is none."""
    from gentle_hooks.services.receipt_guard import unseen_add

    try:
        add = unseen_add(bound.repo, bound.candidate.tree, bound.binding.projection, outputs)
    except GentleError:
        add = None
    if add is None:
        return (), words
    shown = ", ".join(p.removeprefix(":(top,literal)") for p in add.words[2:])
    return (add,), (
        f"its run, in a temporary checkout of the staged tree, did not see {shown} (in the "
        f"work tree, not staged): if the command needs it, stage it (the git add that "
        f"follows); else {words}"
    )


def _may_count(bound: Bound, command: str) -> bool:
    """Whether a report of ``command`` can count: nothing is declared, or it is declared."""
    declared = bound.settings.verification.commands
    return not declared or is_declared(command, declared)


def checkout_refusal(
    bound: Bound, rec: Receipt, root: str, env: Mapping[str, str]
) -> UsageError | None:
    """Why ``rec`` (one :func:`refusal_of` let through) cannot be re-run in the temporary
    checkout of the candidate's tree at ``root`` after all, judged with ``env``, the
    environment its re-run gets there (:func:`~gentle_hooks.services.defined_command.
    checkout_defined`: the ``PYTHONPATH`` entries the checkout really puts first, an
    editable install only the interpreter showed included); None when it may.

    Raises:
        GitError: reading the trees failed.
    """

    def judge(command: Reported) -> tuple[str, ...]:
        return checkout_defined(bound.repo, bound.candidate, root, command, env)

    own = judge((rec.command, rec.argv, rec.cwd))
    return _defined_refusal(bound, rec, own, judge) if own else None


def _judge(bound: Bound, env: Mapping[str, str], in_checkout: bool) -> Judge:
    """What a command run with ``env`` (``in_checkout``: in a temporary checkout not made
    yet) runs that the change defines, as :func:`refusal_of` judges it."""

    def judge(command: Reported) -> tuple[str, ...]:
        return command_defined_by_change(
            bound.repo,
            bound.root,
            bound.candidate,
            command,
            env,
            bound.settings.verification.dependency_dirs,
            in_checkout=in_checkout,
        )

    return judge


def _declared_not_defined(bound: Bound, judge: Judge) -> str | None:
    """The first of ``verification.commands`` whose definition the change leaves as the
    base has it (run at the repository's top, as its printed report runs it; ``judge``
    names what the change defines), or None."""
    for command in bound.settings.verification.commands:
        if not judge((command, None, ".")):
            return command
    return None


def _defined_refusal(bound: Bound, rec: Receipt, own: tuple[str, ...], judge: Judge) -> UsageError:
    """The refusal of a receipt whose command runs what the change defines (``own``), with
    the report that counts instead: a declared command the change does not define (only a
    declared one counts when there are any), else the prefix for the writer's own."""
    shown = ", ".join(own[:3]) + (f" and {len(own) - 3} more" if len(own) > 3 else "")
    spot = cli("spot-check", *report_binding(bound).words())
    fix: tuple[Command, ...]
    if bound.settings.verification.commands:  # only a declared command counts
        other = _declared_not_defined(bound, judge)
        if other is not None:
            words = (
                "the writer reports a declared verification command the change does not "
                "define, or lands it on its own first"
            )
            fix = (report_command(bound, other), spot)
        else:
            words = (
                "every declared verification command runs what the change defines: land it "
                "on its own first, or take it out of the change (status shows what the "
                "candidate still needs)"
            )
            fix = (cli("status", *report_binding(bound).words()),)
    else:
        words = (
            "the writer reports, after the prefix, a command that runs the tests without it, "
            "or lands it on its own first"
        )
        fix = (what_to_report(bound)[1], spot)
    return UsageError(
        f"receipt #{rec.id} ({one_line_command(rec.command)}) cannot count: the change adds "
        f"or changes {shown}, which {'defines' if len(own) == 1 else 'define'} what it "
        f"runs, so its re-run would be the change's own word; {words}",
        commands=fix,
    )
