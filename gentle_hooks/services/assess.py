"""The assess service: candidate -> native assessment -> plan -> decision (SPEC §3-§5).

Layer: service. Wires the git adapter, config, the built-in classifier, the ledger's facts
(:mod:`gentle_hooks.ledger.facts`, read-only: assess never creates a ledger) and the pure policy
together for one candidate; the CLI renders what it returns. No printing here.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence

from gentle_hooks.config.load import LoadedConfig, load_config
from gentle_hooks.config.settings import RiskSettings, Settings
from gentle_hooks.errors import GitError, UsageError
from gentle_hooks.git.parse import AddedLine, Listed, listing
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.facts import LedgerFacts, read_facts
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.native.classifier import (
    SHEBANG,
    classify,
    doc_blobs_to_prove,
    prepare_paths,
    process_needles,
)
from gentle_hooks.native.result import NativeAssessment
from gentle_hooks.policy.escalation import Escalation, make_escalation
from gentle_hooks.policy.plan import Decision, Plan, PlanInputs, build_plan, decide
from gentle_hooks.policy.rdd import resolve_rdd
from gentle_hooks.policy.stakes import parse_stakes
from gentle_hooks.policy.vocabulary import NativeRisk, ReviewOutcome
from gentle_hooks.policy.writer import WriterProfile, parse_effort
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import MODE_GITLINK, Candidate, PathChange, Projection
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
            ``unknown``: only a recorded ``review ack`` for this candidate closes it).
        writer_model / writer_effort: caller writer profile.
        allow_empty: accept an empty candidate (hooks) instead of refusing it (assess).
        delegated_by: delegated evidence found outside the ledger, or None.
        native: ``--native`` provider (``builtin``, ``gentle-ai``, ``auto``), or None for
            the configured one.
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


def assess_native_builtin(
    repo: Repository, cand: Candidate, risk: RiskSettings, consumed: bool | None = None
) -> tuple[tuple[PathChange, ...], NativeAssessment]:
    """Run the built-in classifier on a candidate (SPEC §4 ``builtin``).

    Process execution is looked for only where it can be (:class:`_ProcessScan`): while
    git counts lines, the candidate side's blobs are read and searched for what a flagged
    line must hold; git's ``-G`` scan then runs only over the changes that may bring a hit
    (on most candidates, none). Same hits as one ``-G`` scan over the whole diff.

    Returns:
        (per-path diff stats, the review-assessment envelope).

    A pair the push gate diffed ahead (:meth:`Repository.prefetch_diffs`: numstat and the
    whole ``-G`` scan) is answered from those, without a process.

    Raises:
        GitError: a git command failed.
    """
    base_tree, tree, ere = cand.base.tree, cand.tree, risk.process_preselect
    if repo.prefetched(base_tree, tree, ere):
        changes = repo.diff_stats(base_tree, tree)
        blobs = repo.read_blobs(doc_blobs_to_prove(changes, risk))
        added = repo.added_lines_matching(base_tree, tree, ere)
    else:
        scan = _ProcessScan(repo, cand, risk)
        try:
            changes = repo.diff_stats(base_tree, tree, on_listed=scan.feed)
            blobs = repo.read_blobs(doc_blobs_to_prove(changes, risk))
            added = scan.finish(changes)
        finally:
            scan.abort()
    envelope = classify(
        changes,
        blobs,
        added,
        risk,
        kind=cand.projection.value,
        base_ref=cand.base.ref,
        consumed=consumed,
    )
    return changes, envelope


def prefetch_builtin(
    repo: Repository, pairs: Sequence[tuple[str, str]], risk: RiskSettings
) -> bool:
    """Diff the candidates of many commits ahead for :func:`assess_native_builtin` (the push
    gate): a handful of git processes for all of them instead of a few for each.

    Every pair's numstat comes from one ``git diff-tree --stdin``; the new blobs of all of
    them are searched in one ``git cat-file --batch`` for what a flagged line must hold
    (as :class:`_ProcessScan` does for one candidate); the ``-G`` scan then runs, in one
    more ``diff-tree``, only over the pairs with a change that may bring a hit (a blob that
    may, or a submodule commit). A pair with none gets the scan's answer proved empty of
    hits. Without needles every pair is scanned whole, as before.

    Args:
        pairs: (base tree, candidate tree) ids; risk: the classifier settings.

    Returns:
        True when every pair is now answered without a process.

    Raises:
        GitError: cat-file failed.
    """
    ere = risk.process_preselect
    needles = process_needles(risk)
    if needles is None:
        return repo.prefetch_diffs(pairs, ere)
    if not repo.prefetch_diffs(pairs, None):
        return False
    changes = {pair: repo.diff_stats(*pair) for pair in dict.fromkeys(pairs)}
    search = repo.search_blobs(needles, SHEBANG)
    try:
        search.add([blob for cs in changes.values() for c in cs if (blob := listing(c)[2])])
        maybe = search.finish()
    finally:
        search.abort()
    scan = []
    for pair, cs in changes.items():
        if any(c.new_oid in maybe or c.new_mode == MODE_GITLINK for c in cs):
            scan.append(pair)
        else:  # no added line of this pair can be flagged: nothing to scan
            repo.know_scan(*pair, ere, [])
    return repo.prefetch_scans(scan, ere)


#: More paths than this go to one scan of the whole diff instead: git matches every path
#: against every pathspec, so 2,000 literal pathspecs cost more than the whole scan (a
#: refuter measured 1.45 s against 0.61 s on a 10,000-file range).
_MAX_PATHSPECS = 64

#: Pathspecs beyond this many bytes in all go to one scan of the whole diff instead (the
#: command line has a limit).
_MAX_PATHSPEC_BYTES = 256 * 1024


class _ProcessScan:
    """The process-execution scan of one candidate (``risk.process_patterns``).

    :func:`~gentle_hooks.native.classifier.process_hits` flags, among the lines :meth:`finish` returns,
    exactly the lines, in the same order, it flags among those of one
    ``git diff -U0 -G <process_preselect>`` over the whole diff. A flagged line is an added
    line of a file that scan selects, and it is in that file's new blob, which therefore
    holds one of :func:`~gentle_hooks.native.classifier.process_needles` (or starts with ``#!``: a
    shebang on line 1). So the new blobs are read while git counts lines
    (:class:`~gentle_hooks.git.repository.BlobSearch`), and only the changes whose blob may hold a hit
    are scanned (submodule commits always: they have no blob here): none on most
    candidates; path to path when none of them is a rename or copy (each then has the same
    old and new blob as in the diff with renames, hence the same patch); else the whole
    diff, as before. Without needles (patterns with no literal to look for) the whole diff
    is scanned while git counts.
    """

    def __init__(self, repo: Repository, cand: Candidate, risk: RiskSettings) -> None:
        self.repo, self.cand, self.risk = repo, cand, risk
        needles = process_needles(risk)
        self.search = repo.search_blobs(needles, SHEBANG) if needles is not None else None
        self.whole: threading.Thread | None = None
        self.added: list[AddedLine] = []
        self.errors: list[GitError] = []
        # Both start before the diff: cat-file is then ready when git lists the first blob
        # (on a small candidate its start-up would otherwise follow the diff's), and a scan
        # of the whole diff runs alongside it, as it always did.
        if self.search is not None:
            self.search.start()
        else:
            self.whole = threading.Thread(target=self._scan_whole, daemon=True)
            self.whole.start()

    def feed(self, listed: list[Listed], done: bool) -> None:
        """Changed paths as git lists them (``done``: all of them now)."""
        if self.search is not None:
            self.search.add([blob for _, _, blob in listed if blob is not None])
        # while git counts lines, the path rules can learn these paths
        prepare_paths((path for path, _, _ in listed), self.risk)
        prepare_paths((old for _, old, _ in listed if old), self.risk)

    def _scan_whole(self) -> None:
        try:
            self.added = self._whole()
        except GitError as exc:
            self.errors.append(exc)

    def _whole(self) -> list[AddedLine]:
        return self.repo.added_lines_matching(
            self.cand.base.tree, self.cand.tree, self.risk.process_preselect
        )

    def finish(self, changes: tuple[PathChange, ...]) -> list[AddedLine]:
        """The added lines to judge, once the diff's ``changes`` are known.

        Raises:
            GitError: a git command failed.
        """
        if self.search is None:
            assert self.whole is not None
            self.whole.join()
            if self.errors:
                raise self.errors[0]
            return self.added
        maybe = self.search.finish()
        wanted = [c for c in changes if c.new_oid in maybe or c.new_mode == MODE_GITLINK]
        if not wanted:
            return []
        paths = [c.path for c in wanted]
        if (
            len(paths) > _MAX_PATHSPECS
            or any(c.status in ("R", "C") for c in wanted)
            or sum(len(os.fsencode(p)) + 1 for p in paths) > _MAX_PATHSPEC_BYTES
        ):
            return self._whole()
        return self.repo.added_lines_matching(
            self.cand.base.tree, self.cand.tree, self.risk.process_preselect, paths
        )

    def abort(self) -> None:
        """Stop what still runs (after :meth:`finish`, or when the diff failed)."""
        if self.search is not None:
            self.search.abort()
        if self.whole is not None:
            self.whole.join()


#: Native providers (SPEC §4; config ``native.provider``, ``--native``).
BUILTIN, GENTLE_AI, AUTO = "builtin", "gentle-ai", "auto"
PROVIDERS = (BUILTIN, GENTLE_AI, AUTO)


@frozen
class NativeAnswer:
    """What the native provider answered for one candidate.

    Attributes:
        changes: per-path diff stats, from git whichever provider answered (so a plan made
            from an ``unassessable`` answer can still be explained path by path).
        native: the envelope, or None when the external provider failed.
        error: why there is no envelope (one line, the binary's own message kept), or None.
        provider: the provider that answered: ``builtin`` or ``gentle-ai`` (``auto``
            resolved).
    """

    changes: tuple[PathChange, ...]
    native: NativeAssessment | None
    error: str | None
    provider: str


def parse_provider(text: str) -> str:
    """``--native`` value: ``builtin``, ``gentle-ai`` or ``auto``.

    Raises:
        UsageError: anything else (exit 2, one line listing the three).
    """
    value = text.strip()
    if value not in PROVIDERS:
        raise UsageError(f"unknown native provider {text!r}: use {', '.join(PROVIDERS)} (SPEC §4)")
    return value


def assess_native(
    repo: Repository,
    cand: Candidate,
    settings: Settings,
    facts: LedgerFacts,
    requested: tuple[Escalation, ...],
    env: Mapping[str, str],
) -> NativeAnswer:
    """Ask the configured native provider about a candidate (SPEC §4 "Providers").

    ``builtin`` runs :func:`assess_native_builtin` exactly as before (no pydantic, no extra
    process); its ``candidate.consumed`` is a recorded ``review ack`` for this candidate.
    ``gentle-ai`` runs the binary (:mod:`gentle_hooks.native.binary`, imported only here) bounded
    by ``native.timeout``, passing the first requested escalation on; every failure is an
    answer without an envelope, never an exception. ``auto`` is ``gentle-ai`` when it is
    on PATH, else ``builtin``.

    Raises:
        GitError: a git command failed (the diff, HEAD).
    """
    provider = settings.native_provider
    if provider == AUTO:
        from gentle_hooks.native.binary import find_binary

        provider = GENTLE_AI if find_binary(env) is not None else BUILTIN
    if provider != GENTLE_AI:
        changes, native = assess_native_builtin(
            repo, cand, settings.risk, consumed=True if facts.consumed else None
        )
        return NativeAnswer(changes, native, None, BUILTIN)
    from gentle_hooks.native.binary import assess_gentle_ai

    changes = repo.diff_stats(cand.base.tree, cand.tree)
    head = repo.head()
    assert repo.paths.toplevel is not None  # Repository.open refuses bare repositories
    escalation = (requested[0].item.number, requested[0].reason) if requested else None
    answer = assess_gentle_ai(
        repo.paths.toplevel,
        cand,
        head,
        repo.tree_of(head) if head else None,
        timeout=settings.native_timeout,
        escalation=escalation,
        env=env,
    )
    return NativeAnswer(changes, answer.native, answer.error, GENTLE_AI)


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


def merge_escalations(
    requested: tuple[Escalation, ...], recorded: tuple[Escalation, ...]
) -> tuple[Escalation, ...]:
    """Requested escalations first, then recorded ones; one per item (the first wins).
    An escalation only raises: merging never removes one."""
    out: dict[int, Escalation] = {}
    for e in (*requested, *recorded):
        out.setdefault(e.item.number, e)
    return tuple(out.values())


def run_assess(req: AssessRequest, env: Mapping[str, str]) -> AssessResult:
    """Assess one candidate: resolve it, classify it, build its plan and decision.

    Args:
        req: the request; env: the process environment (config overrides, ``GENTLE_RDD``).

    The ledger, when one exists, supplies the runtime writer profiles and sticky
    escalations of the root's pending work, the review facts and what was satisfied for
    this exact candidate; the gate applies when the root has pending writer work (or
    ``gate.applies_to = "all"``).

    Raises:
        GitError: not a repository, bare, unknown base ref, unmerged index.
        StoreError: the ledger exists but cannot be read.
        UsageError: dirty tracked files with ``--base-ref`` and no projection flag; an
            empty candidate (unless ``allow_empty``).
        ConfigError / PolicyInputError: invalid config, escalation, effort.
    """
    escalations: tuple[Escalation, ...] = ()
    if req.escalate_item is not None or req.escalate_reason is not None:
        if req.escalate_item is None:
            raise UsageError("--escalate-reason needs --escalate-item N|SLUG")
        escalations = (make_escalation(req.escalate_item, req.escalate_reason),)
    writer = caller_writer(req.writer_model, req.writer_effort)
    outcome = parse_review_outcome(req.review_outcome)

    provider = parse_provider(req.native) if req.native is not None else None

    repo = Repository.open(req.cwd)
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
    cand = repo.candidate(projection, flag_ref=req.base_ref, config_ref=settings.base_ref)
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
    facts = read_facts(ledger_path(repo.paths.common_dir), repo.paths.toplevel, cand.identity)
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

    The native provider is ``config.settings.native_provider`` (:func:`assess_native`).
    A failed external assessment gives native risk ``unassessable``, which informs only:
    the plan is medium unless escalated (row T-informs). With the ``gentle-ai`` provider
    the review closes only on the binary's ``candidate.consumed`` for this candidate; a
    local ``review ack`` is the built-in provider's consumed fact.

    Raises:
        GitError: a git command failed; PolicyInputError: a bad recorded escalation.
    """
    settings = config.settings
    answer = assess_native(
        repo, cand, settings, facts, requested, os.environ if env is None else env
    )
    native = answer.native
    consumed = bool(native is not None and native.candidate.consumed)
    review = facts.review_evidence(outcome, consumed)
    if answer.provider != BUILTIN:
        review = replace(review, consumed=consumed)
    escalations = merge_escalations(requested, facts.policy_escalations())
    rdd = resolve_rdd(config.rdd_env, config.rdd_git, settings.rdd_file)
    plan = build_plan(
        PlanInputs(
            native_risk=NativeRisk(native.risk) if native is not None else NativeRisk.UNASSESSABLE,
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
        why = "pending writer work recorded for this work tree"
    elif settings.applies_to == "all":
        why = "gate.applies_to = all"
    else:
        why = None
    decision = decide(plan, facts.satisfaction(), why is not None)
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
        binding=binding,
    )
