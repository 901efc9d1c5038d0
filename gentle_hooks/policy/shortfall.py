"""What a candidate lacks, as values: one frozen shortfall per missing item (SPEC §5
"Decision", §8 "Notes").

Room ``policy`` (pure). A shortfall holds the facts a renderer needs to say what is missing,
why, and which command supplies it; it holds no words and no shell text. The binding the
commands need is a separate value (:class:`gentle_hooks.values.binding.Binding`);
:mod:`gentle_hooks.report.fixes` turns a shortfall and a binding into the reason line and
the exact command.

* :class:`VerifierShortfall` and :class:`SpotCheckShortfall` are what
  :func:`gentle_hooks.policy.plan.decide` returns (:data:`PlanShortfall`);
* :class:`NoValidNote` and :class:`StaleRecords` are the range gate's, for a commit judged
  from its ``refs/notes/gentle-hooks`` note (:data:`Shortfall` is the union of all four).
"""

from __future__ import annotations

from gentle_hooks.policy.escalation import EscalationItem
from gentle_hooks.policy.selfcheck import Disagreement, RefusedReceipt
from gentle_hooks.policy.stakes import Stakes
from gentle_hooks.policy.vocabulary import Missing, PlanRisk
from gentle_hooks.values.frozen import frozen


@frozen
class CreatedFiles:
    """Files a counting writer report's run created, git does not ignore them, and the
    candidate holds them: a re-run that rewrites them changes the candidate, so it cannot
    count while they are part of it.

    Attributes:
        paths: the files, relative to the repository top.
        command / cwd: the report's command (shell words) and where it ran, relative to
            the top: the report to make again once they are kept out.
    """

    paths: tuple[str, ...]
    command: str
    cwd: str = "."


@frozen
class VerifierShortfall:
    """The high plan's verifier verdicts are not met (SPEC §5, §9).

    Attributes:
        items: the Task Size items the escalations named, in plan order.
        needed: accepted ``gentle-ai-verify`` verdicts the stakes require (``plan.verifiers``).
        found: accepted verdicts for this candidate.
        ruled: verifier verdicts ruled on, abstentions left out (audit counts a majority
            of these).
        stakes / critical: the plan's stakes and whether an escalation is critical.
        rejected: why each other stored verdict was not accepted, one sentence each.
        repeated: verdicts that are another run by a verifier already counted, one sentence
            each (seed 003: a second verifier; seed 001: no same-role reviewers).
        brief_faults: the (kind, command) of checks the latest verify run failed on
            without evidence, and on nothing else (its brief is at fault, not the change).
        change_fails / everywhere_fails: the (kind, command) of the checks the latest verify
            run failed on with the change at fault, and of those that fail on every tree,
            when it failed on both (else both empty): the change and the brief are to fix.
    """

    items: tuple[EscalationItem, ...]
    needed: int
    found: int
    ruled: int
    stakes: Stakes
    critical: bool
    rejected: tuple[str, ...] = ()
    repeated: tuple[str, ...] = ()
    brief_faults: tuple[tuple[str, str], ...] = ()
    change_fails: tuple[tuple[str, str], ...] = ()
    everywhere_fails: tuple[tuple[str, str], ...] = ()

    #: What the shortfall says is missing (a class constant, not a field).
    what = Missing.VERIFIER

    @property
    def majority(self) -> bool:
        """True when the stakes rule by majority (audit), not by a count."""
        return self.stakes is Stakes.AUDIT


@frozen
class SpotCheckShortfall:
    """No spot check satisfies this candidate (required in every tier).

    Attributes:
        risk: the plan risk.
        disagreements: the re-runs that failed after a report of success (non-empty: only
            a changed candidate, reported and spot-checked again, can satisfy the
            requirement).
        readback: a structural readback would satisfy it instead (passive plan, no
            disagreement).
        no_receipt: no writer report that counts is recorded for this candidate, so one
            must be made before the spot check can re-run it.
        refused: the receipts recorded for it that cannot count, and why.
        declared: the declared verification commands (empty: none declared).
        earlier: the command reported last, successfully, for another candidate of the
            work tree (empty: none): the report to make again for this one.
        created: files the counting report's run created that the candidate holds (None:
            none), to keep out of it before the spot check.
        unbacked: the commands of re-runs a note holds for the candidate without the
            receipt they re-ran (a note written before notes carried it): they cannot count.
        job_lacks: re-runs a CI job's ``--reverify`` could not run (each: the command and
            what the job's environment lacks, in words): the job's want, not the
            commit's fault; the way out is the job's (install, run again).
    """

    risk: PlanRisk
    disagreements: tuple[Disagreement, ...] = ()
    readback: bool = False
    no_receipt: bool = False
    refused: tuple[RefusedReceipt, ...] = ()
    declared: tuple[str, ...] = ()
    earlier: tuple[str, ...] = ()
    created: CreatedFiles | None = None
    unbacked: tuple[str, ...] = ()
    job_lacks: tuple[str, ...] = ()

    #: What the shortfall says is missing (a class constant, not a field).
    what = Missing.SPOT_CHECK


@frozen
class NoValidNote:
    """A delegated commit has no note line for its own tree, so no spot check can count
    (SPEC §8).

    Attributes:
        stale: the note records another tree (rewritten after verification); False when
            the commit has no gentle-hooks note for its tree at all.
        shallow: the note records this tree, but against a base commit a shallow clone
            does not hold (more history makes it checkable).
    """

    stale: bool
    shallow: bool = False


@frozen
class StaleRecords:
    """A blocked commit's note also holds records for an earlier tree: the commit was
    rewritten with a changed tree, so those records are stale (SPEC §8)."""


#: What :func:`gentle_hooks.policy.plan.decide` can find missing.
PlanShortfall = VerifierShortfall | SpotCheckShortfall

#: Every shortfall a gate reports.
Shortfall = VerifierShortfall | SpotCheckShortfall | NoValidNote | StaleRecords
