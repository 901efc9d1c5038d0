"""The assess service: candidate -> native assessment -> plan -> decision (SPEC §3-§5).

Layer: service. Wires the git adapter, config, the native provider
(:mod:`gentle_hooks.native.provider`), the ledger's facts (:mod:`gentle_hooks.ledger.facts`,
read-only: assess never creates a ledger) and the pure policy together for one candidate;
the CLI renders what it returns. No printing here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gentle_hooks.config.load import LoadedConfig, load_config
from gentle_hooks.errors import UsageError, shown_writer
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.native.provider import assess_native, parse_provider
from gentle_hooks.native.result import NativeAssessment
from gentle_hooks.policy.escalation import Escalation, make_escalation
from gentle_hooks.policy.plan import Decision, Plan, PlanInputs, build_plan, decide
from gentle_hooks.policy.rdd import resolve_rdd
from gentle_hooks.policy.stakes import parse_stakes
from gentle_hooks.policy.vocabulary import NativeRisk, ReviewOutcome
from gentle_hooks.policy.writer import WriterProfile, parse_effort
from gentle_hooks.services import agent_window_settle
from gentle_hooks.services.passive_check import checked_answer
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Candidate, PathChange, Projection
from gentle_hooks.values.frozen import field, frozen, replace


@frozen
class AssessRequest:
    """What the caller asked for (``gentle-hook assess`` flags).

    Attributes:
        cwd: directory inside the repository, or None for the current one.
        base_ref: ``--base-ref`` or None.
        projection: ``committed``/``staged``, or None for the default (``snapshot``).
        escalate_item / escalate_reason: a requested escalation (item number or slug).
        review_outcome: ``--review-outcome`` value or None (a bare ``closed`` resolves to
            ``unknown``: only native's consumed fact for this candidate closes it).
        writer_model / writer_effort: caller writer profile.
        allow_empty: accept an empty candidate (hooks) instead of refusing it (assess).
        delegated_by: delegated evidence found outside the ledger, or None.
        native: ``--native`` provider (``builtin``, ``gentle-ai``, ``auto``), or None for
            the configured one.
        commit: for ``committed``, the commit judged (None: ``HEAD``).
    """

    cwd: str | None = None
    base_ref: str | None = None
    projection: Projection | None = None
    escalate_item: str | None = None
    escalate_reason: str | None = None
    review_outcome: str | None = None
    writer_model: str | None = None
    writer_effort: str | None = None
    allow_empty: bool = False
    delegated_by: str | None = None
    native: str | None = None
    commit: str | None = None


@frozen
class AssessResult:
    """Everything one assessment produced.

    Attributes:
        candidate: the candidate judged; changes: its per-path diff stats.
        native: the native envelope, or None when assessment failed (then
            ``native_error`` says why and the native tier is ``unassessable``).
        native_provider: the provider that answered (``auto`` resolved).
        plan / decision: the pure policy's answers.
        config: the compiled settings and RDD sources.
        escalations: every escalation applied (requested and recorded, one per item).
        facts: what the ledger holds for this candidate (empty when there is none).
        delegated_by: why the gate applies (ledger writer work, an AI trailer, an agent
            runtime, ``applies_to = all``), or None when it does not.
        binding: the candidate the fix commands bind to (the decision's shortfalls are
            rendered with it by :mod:`gentle_hooks.report.fixes`).
        native_note: one line about the native answer taken, or None: why a ``passive``
            native answer was not taken
            (:func:`~gentle_hooks.services.passive_check.checked_answer`), or that the
            binary's escalated call failed and its envelope without the escalation stands.
    """

    candidate: Candidate
    changes: tuple[PathChange, ...]
    native: NativeAssessment | None
    native_error: str | None
    native_provider: str
    plan: Plan
    decision: Decision
    config: LoadedConfig
    escalations: tuple[Escalation, ...] = field(default=())
    facts: LedgerFacts | None = None
    delegated_by: str | None = None
    binding: Binding = field(default=Binding())
    native_note: str | None = None


def caller_writer(model: str | None, effort: str | None) -> WriterProfile | None:
    """The caller's writer profile from flags, or None when neither flag is given.

    Raises:
        PolicyInputError: an unknown effort level.
    """
    if not model and not effort:
        return None
    return WriterProfile(model or None, parse_effort(effort) if effort else None)


def parse_review_outcome(text: str | None) -> ReviewOutcome | None:
    """``--review-outcome`` value to the enum (``closed`` is accepted, and resolves later
    to ``unknown`` without a consumed fact)."""
    if text is None:
        return None
    try:
        return ReviewOutcome(text)
    except ValueError:
        raise UsageError(
            f"unknown review outcome {text!r}: use declined, unavailable, unknown or closed"
        ) from None


def delegation_reason(facts: LedgerFacts) -> str:
    """Why a change carrying writer content is delegated, in words: whose content, where.

    A path the writer's test run wrote (a counting receipt's ``created`` files, or those of
    the earlier receipt to report again: ``report.xml`` of ``--junitxml``) is named as the
    run's file, not as writer content, though a later record of the writer saw it in the
    work tree and holds it as its work."""
    writers = ", ".join(dict.fromkeys(shown_writer(m.model, m.effort) for m in facts.mutations))
    writers = writers or "unknown/unknown"  # the mutation's row was discarded from quarantine
    from gentle_hooks.services.attribution import held_paths

    made_by_run = {
        *facts.earlier_created,
        *(p for r in facts.receipts if r.exit_code == 0 for p in r.created or ()),
    }
    written = facts.writer_paths()
    made = [p for p in written if p in made_by_run]
    # where the change holds them (b.py (was a.py) after git mv), on one line
    paths = held_paths([p for p in written if p not in made_by_run], facts.held_at)
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    said = f"writer content ({writers}) in {shown}" if paths else f"writer work ({writers})"
    if made:
        files = ", ".join(made[:3]) + (f" and {len(made) - 3} more" if len(made) > 3 else "")
        said += f"; {files} written by the writer's test run"
    return said


def merge_escalations(
    requested: tuple[Escalation, ...], recorded: tuple[Escalation, ...]
) -> tuple[Escalation, ...]:
    """Requested escalations first, then recorded ones; one per item (the first wins).
    An escalation only raises: merging never removes one."""
    out: dict[int, Escalation] = {}
    for e in (*requested, *recorded):
        out.setdefault(e.item.number, e)
    return tuple(out.values())


def parse_request(
    req: AssessRequest,
) -> tuple[tuple[Escalation, ...], WriterProfile | None, ReviewOutcome | None, str | None]:
    """The request's arguments, checked before any repository is read: the escalation
    asked for, the caller's writer profile, review outcome and native provider.

    Raises:
        UsageError / PolicyInputError: an argument is refused (a reason without an item, an
            unknown item, effort, outcome or provider).
    """
    escalations: tuple[Escalation, ...] = ()
    if req.escalate_item is not None or req.escalate_reason is not None:
        if req.escalate_item is None:
            raise UsageError("--escalate-reason needs --escalate-item N|SLUG")
        escalations = (make_escalation(req.escalate_item, req.escalate_reason),)
    writer = caller_writer(req.writer_model, req.writer_effort)
    outcome = parse_review_outcome(req.review_outcome)
    provider = parse_provider(req.native) if req.native is not None else None
    return escalations, writer, outcome, provider


def run_assess(req: AssessRequest, env: Mapping[str, str]) -> AssessResult:
    """Assess one candidate: resolve it, classify it, build its plan and decision.

    Args:
        req: the request; env: the process environment (config overrides, ``GENTLE_RDD``).

    The ledger, when one exists, supplies the writer work the change carries (its runtime
    writer profiles and sticky escalations: SPEC §3 "Attribution follows content"), the
    review facts and what was satisfied for this exact candidate; the gate applies when
    the change carries writer content (or ``gate.applies_to = "all"``).

    Raises:
        GitError: not a repository, bare, unknown base ref, unmerged index.
        StoreError: the ledger exists but cannot be read.
        UsageError: dirty tracked files with ``--base-ref`` and no projection flag; an
            empty candidate (unless ``allow_empty``).
        ConfigError / PolicyInputError: invalid config, escalation, effort.
    """
    escalations, writer, outcome, provider = parse_request(req)

    repo = Repository.open(req.cwd)
    if repo.paths.toplevel is not None:  # what a background process wrote in its grace
        agent_window_settle.settle(repo.paths.toplevel, repo.paths.common_dir, env)
    config = load_config(repo.paths.toplevel, repo.gentle_config(), env)
    if provider is not None:  # the flag wins over env, git config and file
        config = replace(config, settings=replace(config.settings, native_provider=provider))
    settings = config.settings
    projection = req.projection or Projection.SNAPSHOT
    if req.base_ref is not None and req.projection is None and repo.has_dirty_tracked():
        raise UsageError(
            f"tracked files have uncommitted changes; rerun with --committed-only to assess "
            f"what is committed against {req.base_ref} (or --staged for the index)"
        )
    cand = repo.candidate(
        projection, flag_ref=req.base_ref, config_ref=settings.base_ref, commit=req.commit
    )
    if cand.is_empty and not req.allow_empty:
        what = {"committed": "HEAD's tree", "staged": "the index", "snapshot": "the work tree"}[
            projection.value
        ]
        has_parent = cand.head is not None and repo.peel_commit(cand.head + "~1") is not None
        hint = (
            "pass an older --base-ref (e.g. --base-ref HEAD~1 --committed-only)"
            if has_parent
            else "there is no earlier commit to compare with: assess the work tree "
            "(drop --committed-only) once it changes"
        )
        raise UsageError(
            f"the candidate is empty: {what} equals the base ({cand.base.note}); {hint}"
        )
    assert repo.paths.toplevel is not None  # Repository.open refuses bare repositories
    # imported here: the gates judge from facts of their own (the pass path stays light)
    from gentle_hooks.services.change_facts import facts_for

    facts = facts_for(repo, cand)
    return evaluate(
        repo,
        config,
        cand,
        facts,
        requested=escalations,
        caller=writer,
        outcome=outcome,
        delegated_by=req.delegated_by,
        binding=Binding(cwd=req.cwd, projection=projection, base_ref=req.base_ref),
        env=env,
    )


def evaluate(
    repo: Repository,
    config: LoadedConfig,
    cand: Candidate,
    facts: LedgerFacts,
    *,
    requested: tuple[Escalation, ...] = (),
    caller: WriterProfile | None = None,
    outcome: ReviewOutcome | None = None,
    delegated_by: str | None = None,
    binding: Binding,
    env: Mapping[str, str] | None = None,
    check_passive: bool = True,
) -> AssessResult:
    """Classify one resolved candidate and decide it (SPEC §4, §5).

    Args:
        repo / config: the open repository and its compiled configuration.
        cand: the candidate; facts: the ledger's facts for it (writer work, escalations,
            records bound to its identity).
        requested: escalations asked for on the command line.
        caller / outcome: caller writer profile and review outcome.
        delegated_by: why the gate applies beyond the ledger (an AI trailer, an agent
            runtime in the environment), or None.
        binding: the candidate the fix commands bind to, as a command run outside this
            process names it; carried on the result, never read by the policy.
        env: the process environment for an external provider (default ``os.environ``).
        check_passive: a ``passive`` answer stands only as the built-in classifier with
            the risk tables committed at the candidate's base gives it
            (:func:`~gentle_hooks.services.passive_check.checked_answer`); False where
            ``config`` was already read from a base commit (``gate --range``, the server);
            True also reads ``verification.commands`` from the candidate's base commit
            (:func:`~gentle_hooks.services.declared_suite.base_commands`).

    The native provider is ``config.settings.native_provider``
    (:func:`~gentle_hooks.native.provider.assess_native`). A failed external assessment
    gives native risk ``unassessable``, which informs only: the plan is medium unless
    escalated (row T-informs). The review closes only on the native answer's own
    ``candidate.consumed`` for this candidate, with every provider: a recorded
    ``review ack`` is a caller's word, never closure (seed 000), and the built-in provider
    never reports it true. ``nativeRisk`` is the native tier before escalation.

    Raises:
        GitError: a git command failed; PolicyInputError: a bad recorded escalation.
    """
    settings = config.settings
    # the provider is handed the recorded (sticky) escalations too, as the plan has them:
    # a gentle-ai binary then answers the same whether the escalation is on the command
    # line or in the ledger
    escalations = merge_escalations(requested, facts.policy_escalations())
    env_now = os.environ if env is None else env
    answer = assess_native(repo, cand, settings, escalations, env_now)
    note = answer.note
    if check_passive:
        answer, checked = checked_answer(repo, cand, settings, answer, escalations, env_now)
        note = checked or note
    native = answer.native
    consumed = bool(native is not None and native.candidate.consumed)
    review = facts.review_evidence(outcome, consumed)
    rdd = resolve_rdd(config.rdd_env, config.rdd_git, settings.rdd_file)
    plan = build_plan(
        PlanInputs(
            native_risk=(
                NativeRisk(native.native_risk) if native is not None else NativeRisk.UNASSESSABLE
            ),
            escalations=escalations,
            review=review,
            runtime_writers=facts.runtime_writers(),
            caller_writer=caller,
            rdd=rdd,
            stakes=parse_stakes(settings.stakes),
        )
    )
    if delegated_by:
        why: str | None = delegated_by
    elif facts.delegated:
        why = delegation_reason(facts)
    elif settings.applies_to == "all":
        why = "gate.applies_to = all"
    else:
        why = None
    # verification.commands and require_observed come from a commit the change cannot
    # have written (services.settings_base: the candidate's base commit when a remote
    # holds it): read here for the local gates, only when the gate applies (require_observed
    # only when a verdict is there to judge); gate --range and the server load their whole
    # configuration from the base already (check_passive False)
    if check_passive and why is not None:
        from gentle_hooks.services.settings_base import judged_settings

        settings, moved = judged_settings(repo, cand, settings, env_now, bool(facts.verdicts))
        config = replace(config, settings=settings)
        if moved:
            note = f"{note}; {moved}" if note else moved
    elif facts.verdicts and not settings.verification.require_observed:
        from gentle_hooks.services.settings_base import require_observed_at, require_observed_for

        if (  # no base commit: on
            require_observed_for(repo, cand, settings, env_now)[0]
            if check_passive
            else require_observed_at(repo, cand.base.commit, env_now)
        ):
            verification = replace(settings.verification, require_observed=True)
            settings = replace(settings, verification=verification)
            config = replace(config, settings=settings)
    done = facts.satisfaction(
        settings.verification.commands, settings.verification.require_observed
    )
    decision = decide(plan, done, why is not None)
    if (
        check_passive
        and decision.blocked
        and done.receipts
        and not done.disagreements
        and binding.projection is not Projection.COMMITTED
    ):
        # a receipt whose command runs a file the change writes: the spot check refuses it,
        # so the block names the report to make (blocked path only: it reads the trees; not
        # for committed candidates, where a push judges many and the git processes of a
        # push must not grow with its commits)
        from gentle_hooks.services.own_receipts import without_own

        own = without_own(repo, cand, settings, facts.receipts, done, env_now)
        decision = decide(plan, own, why is not None) if own is not done else decision
    return AssessResult(
        candidate=cand,
        changes=answer.changes,
        native=native,
        native_error=answer.error,
        native_provider=answer.provider,
        plan=plan,
        decision=decision,
        config=config,
        escalations=escalations,
        facts=facts,
        delegated_by=why,
        binding=replace(binding, brief=brief_path(repo, cand.identity), top=repo.paths.toplevel),
        native_note=note,
    )


#: Where a block tells the writer to put the verifier's brief, under the git dir:
#: ``brief-<the candidate's identity, first 12 hex digits>.json``.
BRIEF_FILE = "brief-{short}.json"


def brief_path(repo: Repository, identity: str) -> str:
    """The absolute path a block names for the verifier's brief of the candidate
    ``identity`` (``sha256:`` and hex): ``gentle-hooks/brief-<first 12 hex digits>.json``
    under this worktree's git dir, outside the work tree (a file inside it would change
    the candidate it is about), per worktree (each has its own pending work) and per
    candidate: a brief written for an earlier candidate is never the file named for
    this one."""
    short = identity.rsplit(":", 1)[-1][:12]
    return os.path.join(repo.paths.git_dir, "gentle-hooks", BRIEF_FILE.format(short=short))
