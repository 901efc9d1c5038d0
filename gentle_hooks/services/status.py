"""The status service (SPEC §5, §6): the plan of the current candidate, what is recorded for
it, what is satisfied, and what is missing.

Room ``services``. Runs :func:`gentle_hooks.services.assess.run_assess` (which reads the ledger
read-only) and derives the missing items (as the policy's shortfalls) and hints; never
prints. It records only what every gate records on the way (SPEC §3 "Attribution follows
content"): this work tree's pending writer work whose content is nowhere any more expires
(:func:`~gentle_hooks.services.expiry.expire_pending`, one hint line each), so status and the
gates tell the same story. :mod:`gentle_hooks.report.fixes` writes the command for each.
"""

from __future__ import annotations

from collections.abc import Mapping

from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.shortfall import PlanShortfall
from gentle_hooks.services.assess import AssessRequest, AssessResult, run_assess
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Projection
from gentle_hooks.values.frozen import frozen


@frozen
class StatusResult:
    """The status of one candidate.

    Attributes:
        assessment: the assess result (plan, decision, candidate) with its ledger facts.
        facts: the ledger's facts for the candidate (``facts.present`` False: no ledger).
        missing: the decision's shortfalls, one per missing item (empty when satisfied);
            rendered with ``assessment.binding``.
        hints: extra lines: records that do not count here, why the gate does not apply
            (:mod:`gentle_hooks.report` puts the receipt a missing spot check needs first,
            when none is recorded, before them).
        unchecked_head: the id of the newest commit of ``HEAD`` on no remote-tracking
            ref that carries writer work without what its plan requires (a commit made
            with hooks off: the push gate blocks it) when this candidate carries none,
            else None.
    """

    assessment: AssessResult
    facts: LedgerFacts
    missing: tuple[PlanShortfall, ...]
    hints: tuple[str, ...]
    unchecked_head: str | None = None

    @property
    def satisfied(self) -> bool:
        """True when nothing the plan requires is missing for this candidate."""
        return not self.missing


def run_status(binding: Binding, env: Mapping[str, str]) -> StatusResult:
    """Assess the bound candidate and explain what is recorded, satisfied and missing.

    The candidate defaults to the snapshot (as recording commands bind), also with
    ``--base-ref`` and a dirty work tree. Informational: nothing is recorded.

    Raises:
        GitError / ConfigError / StoreError: as :func:`gentle_hooks.services.assess.run_assess`.
    """
    result = _assess(binding, binding.projection, env)
    facts = result.facts
    assert facts is not None
    d = result.decision
    hints: list[str] = []
    uncounted = [s for s in facts.spot_checks if s.kind == "rerun" and s.agreed and not s.counts]
    for s in uncounted:
        hints.append(f"spot check #{s.id} does not count: {s.note}")
    for s in facts.spot_checks:
        if s.kind == "rerun" and s.agreed and s.counts and s.observed_exit != 0:
            hints.append(
                f"spot check #{s.id} agreed on a failing result (exit {s.observed_exit}): it "
                "proves the report honest, not the change good"
            )
    others = sum(n for _, n in facts.other_candidates)
    if others:
        hints.append(
            f"{others} record(s) of this work tree are bound to other candidates and do not "
            "count for this one"
        )
    committed = _committed_unchecked(binding, env) if not d.applies and facts.present else None
    expired, away = _pending_elsewhere(binding, facts) if not d.applies else ([], ())
    hints.extend(expired)
    if away and committed is None:
        hints.append(
            f"pending writer work on {', '.join(away)} is recorded for this work tree and "
            "this candidate does not hold it, but its content is still held elsewhere (the "
            "index, a stash entry, another worktree, an unpushed commit or a local ref): "
            "the gate applies again when that content comes back"
        )
    elif committed is None and not d.applies and not expired:
        hints.append(
            "no pending writer work is recorded for this work tree, so the gate does not "
            "apply; a writer's edits are recorded by its runtime's hook (install --agent, "
            "the README's Agent runtimes), or by the record command naming the writer's model "
            "and effort (its --model and --effort options)"
        )
    if binding.projection is Projection.SNAPSHOT and result.candidate.is_empty:
        hints.append("the work tree equals the base: the candidate changes nothing")
    return StatusResult(result, facts, d.shortfalls, tuple(hints), committed)


def _pending_elsewhere(binding: Binding, facts: LedgerFacts) -> tuple[list[str], tuple[str, ...]]:
    """This work tree's pending writer work once the work whose content is nowhere expired
    (as a gate expires it, recorded): the expiry lines, and the paths still pending, sorted
    (no ledger: neither).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    if not facts.present:
        return [], ()
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.services.attribution import expiry_lines
    from gentle_hooks.services.expiry import expire_pending

    lines = expiry_lines(expire_pending(Repository.open(binding.cwd)))
    led = Ledger.open_existing(facts.path)
    if led is None:
        return lines, ()
    with led:
        return lines, tuple(sorted({e.path for e in led.open_entries(facts.root)}))


#: How many of HEAD's unpushed commits ``status`` reads for writer work committed with hooks
#: off (newest first); the push gate judges them all.
UNPUSHED_READ = 50


def _committed_unchecked(binding: Binding, env: Mapping[str, str]) -> str | None:
    """The newest of ``HEAD``'s unpushed commits (:data:`UNPUSHED_READ` of them) that
    carries writer work without what its plan requires (a commit made with hooks off:
    the work tree then holds nothing pending, yet the push gate blocks the commit), or
    None. Read only when this candidate is not delegated."""
    if binding.projection is Projection.COMMITTED:
        return None
    from gentle_hooks.git.repository import Repository

    repo = Repository.open(binding.cwd)
    head = repo.head()
    if head is None:
        return None
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.services.commit_delegation import commits_delegation

    commits = repo.unpushed_commits(head, UNPUSHED_READ)
    found = commits_delegation(repo, commits, ledger_path(repo.paths.common_dir))
    for commit in (c for c in commits if c in found):
        request = AssessRequest(
            cwd=binding.cwd,
            base_ref=binding.base_ref,
            projection=Projection.COMMITTED,
            allow_empty=True,
            delegated_by=found[commit],
            commit=commit,
        )
        judged = run_assess(request, env)
        if judged.decision.applies and judged.decision.shortfalls:
            return commit
    return None


def _assess(binding: Binding, projection: Projection, env: Mapping[str, str]) -> AssessResult:
    """Assess ``binding``'s candidate as ``projection`` projects it (an empty one too). A
    committed candidate is delegated as the
    push gate will judge its commit
    (:func:`~gentle_hooks.services.commit_delegation.commit_delegation`: writer content it
    carries or re-applies, a writer's commit record, an agent in its message), so status
    answers what the push will decide."""
    why = _committed_delegation(binding) if projection is Projection.COMMITTED else None
    request = AssessRequest(
        cwd=binding.cwd,
        base_ref=binding.base_ref,
        projection=projection,
        allow_empty=True,
        delegated_by=why,
    )
    return run_assess(request, env)


def _committed_delegation(binding: Binding) -> str | None:
    """Why the push gate will judge ``HEAD``'s commit delegated, or None (no commit, or a
    human's ordinary commit)."""
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.ledger.location import ledger_path
    from gentle_hooks.services.commit_delegation import commit_delegation

    repo = Repository.open(binding.cwd)
    head = repo.head()
    if head is None:
        return None
    return commit_delegation(repo, head, ledger_path(repo.paths.common_dir))
