"""The gates (SPEC §5 "Decision", §7 "Hooks"): commit, commit-msg and push.

Layer: service. Resolves the candidates a hook must judge, evaluates each with
:func:`gentle_hooks.services.assess.evaluate`, and turns the decisions into an exit code and the
lines the user reads. Blocks only when a delegated candidate lacks its spot check or, when
escalated, its verifier verdicts; everything else passes.

* commit gate (pre-commit, pre-merge-commit): the ``staged`` candidate — the index git hands
  the hook, so ``commit -a`` and ``commit <paths>`` are judged exactly as committed;
* commit-msg gate: the same candidate, when only the message shows delegation (an AI
  co-author trailer) and the commit gate did not already apply;
* push gate (pre-push): every delegated commit being pushed, each by its ``committed``
  candidate; a ref's verdict is its worst commit's, the push's is the worst ref's.

Overrides: ``GENTLE_HOOKS_SKIP="<reason>"`` lets a block through and records who, when, which
candidate and why; ``--warn`` or ``mode = "warn"`` reports without failing.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping, Sequence

from gentle_hooks.config.load import LoadedConfig, load_config
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, GitError, UsageError
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.ledger.facts import LedgerFacts, facts_from, read_facts
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import CommitRecord, OverrideRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.native.builtin import prefetch_builtin
from gentle_hooks.native.provider import BUILTIN
from gentle_hooks.policy.delegation import (
    Evidence,
    message_evidence,
    runtime_evidence,
    strip_comments,
)
from gentle_hooks.report.fixes import NO_RECEIPT, command, first_command, reason
from gentle_hooks.report.text import short
from gentle_hooks.services.assess import AssessResult, evaluate
from gentle_hooks.values.binding import Binding
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import frozen, replace

TYPE_CHECKING = False  # the commit gate needs no push parsing: pushspec loads when used
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.hooks.pushspec import PushUpdate

    T = TypeVar("T")
    U = TypeVar("U")

PREFIX = "gentle-hooks:"

#: The bindings of the candidates a gate judges, as a command run outside the hook names them.
STAGED = Binding(projection=Projection.STAGED)
COMMITTED = Binding(projection=Projection.COMMITTED)
WORK_TREE = Binding()


@frozen
class Judged:
    """One candidate a gate judged: where it came from and its assessment.

    Attributes:
        label: what the user recognises (``the staged change``, ``commit 1a2b3c4 on
            refs/heads/x``); target: the pushed ref, or None for commits.
        result: the assessment with its decision; fix_note: how to run the fix commands
            for this candidate (e.g. which commit to check out), or empty.
    """

    label: str
    target: str | None
    result: AssessResult
    fix_note: str = ""


def _say(line: str) -> None:
    print(f"{PREFIX} {line}", file=sys.stderr)


def _open(env: Mapping[str, str]) -> tuple[Repository, LoadedConfig]:
    repo = Repository.open()
    return repo, load_config(repo.paths.toplevel, repo.gentle_config(), env)


# -- commit gate ------------------------------------------------------------------------------


def commit_gate(call: HookCall, env: Mapping[str, str], runtime: Evidence | None) -> int:
    """Judge the staged candidate (pre-commit, pre-merge-commit).

    Args:
        call: the hook call; env: the environment; runtime: an agent runtime detected in
            the environment, or None.

    Returns:
        0 allowed (or overridden / warn mode), 1 blocked.

    Raises:
        GentleError: git, config or store failures (the hook fails closed, exit 2).
    """
    repo, config = _open(env)
    cand = repo.candidate(Projection.STAGED, config_ref=config.settings.base_ref)
    assert repo.paths.toplevel is not None
    facts = read_facts(ledger_path(repo.paths.common_dir), repo.paths.toplevel, cand.identity)
    why = f"{runtime.agent} ({runtime.detail})" if runtime else None
    result = evaluate(repo, config, cand, facts, delegated_by=why, binding=STAGED)
    note = ""
    if result.decision.applies and result.decision.shortfalls:
        # Which flag binds outside the hook costs a scan of the work tree (``add -A`` in a
        # private index): paid only when fix commands are printed, never on a pass.
        binding, note = staged_binding(repo, cand.tree)
        result = replace(result, binding=binding)
    return conclude(call, env, repo, config, [Judged("the staged change", None, result, note)])


#: Why the printed command needs the rest of the work tree set aside first.
DIRTY_NOTE = (
    "the work tree holds more than what is staged, and a spot check re-runs in the work "
    "tree: set the rest aside first (git stash push --keep-index --include-untracked), run "
    "the receipt and the spot check with --staged, then git stash pop"
)

#: How to make ``--staged`` bind exactly what is committed.
STAGE_NOTE = (
    "stage exactly what you commit (git add), commit without -a or paths, and bind with --staged"
)

#: Why no binding flag reaches what a partial commit (``commit <paths>``) commits.
PARTIAL_NOTE = (
    "git judged a temporary index (commit -a or commit <paths>) that neither --staged nor "
    "the work tree reproduces: " + STAGE_NOTE
)


def staged_binding(repo: Repository, tree: str) -> tuple[Binding, str]:
    """The binding that makes a command run outside the hook (``spot-check``, ``verdict
    add``) bind to the staged candidate judged here, and a note when none does.

    ``--staged`` binds the worktree's own index. Under ``commit -a`` git hands the hook the
    index with every tracked change staged: the work tree (the default binding) is that
    candidate when nothing untracked differs. Under ``commit <paths>`` it hands a temporary
    index of HEAD plus those paths, which no flag reproduces (and the work tree seen here is
    no guide: the pre-commit framework stashes the rest of it while hooks run).
    """
    kind = repo.index_kind()
    if kind == "partial":
        return STAGED, PARTIAL_NOTE
    try:
        snapshot = repo.snapshot_tree()
    except GitError as exc:  # a hint only: the block it explains still stands
        return STAGED, f"{exc}, so which flag binds this candidate is unknown; {STAGE_NOTE}"
    if kind == "own":
        return STAGED, DIRTY_NOTE if snapshot != tree else ""
    if snapshot == tree:
        return WORK_TREE, ""
    return STAGED, PARTIAL_NOTE


def commit_msg_gate(call: HookCall, env: Mapping[str, str]) -> int:
    """Judge the staged candidate when the message carries AI attribution (commit-msg).

    Only when the commit gate did not already apply (no runtime in the environment, no
    pending writer work, not ``applies_to = all``): one judgement per commit.

    Raises:
        UsageError: no message file argument.
    """
    if not call.args:
        raise UsageError("hook commit-msg: git passes the message file; none given")
    try:
        with open(call.args[0], encoding="utf-8", errors="replace") as fh:
            message = fh.read()
    except OSError as exc:
        raise UsageError(f"hook commit-msg: cannot read {call.args[0]}: {exc.strerror}") from None
    evidence = message_evidence(strip_comments(message))
    if evidence is None or runtime_evidence(env) is not None:
        return EXIT_OK
    from gentle_hooks.config.probe import applies_to_all
    from gentle_hooks.git.probe import config_value, locate
    from gentle_hooks.ledger.probe import has_pending_work

    where = locate(env)
    if (
        where is None
        or has_pending_work(where.common_dir, where.root)
        or applies_to_all(where.root, env, lambda key: config_value(key, env))
    ):
        return EXIT_OK  # the commit gate judged this candidate already
    return commit_gate(call, env, evidence)


# -- push gate --------------------------------------------------------------------------------


def push_updates(call: HookCall, env: Mapping[str, str]) -> list[PushUpdate]:
    """The ref updates of this push: git's stdin lines, or the pre-commit framework's
    variables (which hide stdin and describe one ref; absent means "compute it").

    Raises:
        UsageError: a malformed stdin line.
    """
    from gentle_hooks.hooks.pushspec import from_pre_commit_env, parse_pre_push

    # git's own stdin wins: a PRE_COMMIT=1 in the environment of a native hook must not
    # replace the refs git is really pushing (the framework leaves stdin empty).
    lines = parse_pre_push(call.stdin.decode("utf-8", "surrogateescape"))
    if lines:
        return lines
    framework = from_pre_commit_env(env)
    return [framework] if framework is not None else []


def commits_of(repo: Repository, update: PushUpdate, remote: str | None) -> list[str]:
    """The commits an update would give the remote, oldest first.

    An existing remote ref we have: ``remote_oid..local``. A new ref, an unknown remote id,
    or the framework's unranged form: the commits reachable from local and from no
    remote-tracking ref of that remote (of any remote when it is unnamed).
    """
    tip = repo.peel_commit(update.local_oid)
    if tip is None:
        return []
    if update.from_ref:
        base = repo.peel_commit(update.from_ref)
        return repo.new_commits(tip, exclude=[base] if base else [], remote=None if base else "")
    if update.remote_oid and not update.is_new and repo.has_object(update.remote_oid):
        return repo.new_commits(tip, exclude=[update.remote_oid])
    return repo.new_commits(tip, remote=remote if remote and _is_remote(repo, remote) else "")


def _is_remote(repo: Repository, name: str) -> bool:
    return repo.config_get(f"remote.{name}.url") is not None


def commit_evidence(
    info: CommitInfo,
    records: Sequence[CommitRecord],
    runtime: Evidence | None,
    applies_all: bool,
) -> str | None:
    """Why a pushed commit is delegated, or None for a human's ordinary commit."""
    if records:
        stale = (
            " (rewritten with a changed tree: records are stale)"
            if any(r.stale for r in records)
            else ""
        )
        return f"commit record from a writer{stale}"
    ev = message_evidence(info.message, info.author, info.committer)
    if ev is not None:
        return f"{ev.agent} ({ev.detail})"
    if runtime is not None:
        return f"{runtime.agent} ({runtime.detail})"
    return "gate.applies_to = all" if applies_all else None


def push_gate(call: HookCall, env: Mapping[str, str]) -> int:
    """Judge every delegated commit of every pushed ref (pre-push).

    Args:
        call: ``args`` are git's (remote name, URL); ``stdin`` git's ref lines.

    Returns:
        0 allowed, 1 blocked (the worst ref decides, whatever the order).

    Raises:
        GentleError: malformed input, git, config or store failures (fails closed).
    """
    remote = call.args[0] if call.args else env.get("PRE_COMMIT_REMOTE_NAME")
    updates = push_updates(call, env)
    repo, config = _open(env)
    repo.hold_refs()  # every candidate of this push is based on the refs as they are now
    runtime = runtime_evidence(env)
    applies_all = config.settings.applies_to == "all"
    path = ledger_path(repo.paths.common_dir)
    heads: list[str | None] = []  # HEAD, read once and only when a fix note needs it

    def head() -> str | None:
        if not heads:
            heads.append(repo.head())
        return heads[0]

    judged: list[Judged] = []
    for update in updates:
        where = update.remote_ref
        if update.is_deletion:
            _say(f"{where}: deletion, nothing to assess")
            continue
        commits = commits_of(repo, update, remote)
        if not commits:
            tip = repo.peel_commit(update.local_oid)
            why = (
                f"every commit is already on {remote or 'the remote'}"
                if tip
                else "not a commit (nothing to assess)"
            )
            _say(f"{where}: {why}")
            continue
        infos = repo.read_commits(commits)
        records, pending_since = _records_by_commit(path, infos, repo.paths.toplevel)
        delegated = []
        for info in infos:
            why = commit_evidence(info, records.get(info.id, ()), runtime, applies_all)
            if (
                why is None
                and pending_since is not None
                and info.committed_at >= int(pending_since)
            ):
                why = (
                    "writer work recorded before this commit was never consumed: it was "
                    "committed with its hooks skipped"
                )
            if why is not None:
                delegated.append((info, why))
        repo.peel_commits([info.id for info, _ in delegated])  # one rev-parse for all
        base = repo.base_commit(config.settings.base_ref) if len(delegated) > 1 else None
        if base is not None:  # one merge-base process for the push, not one per commit
            repo.learn_merge_bases(base, commits[-1], infos)  # every pushed commit: chains
        base_ref = config.settings.base_ref
        cands = [
            repo.candidate(Projection.COMMITTED, commit=info.id, config_ref=base_ref)
            for info, _ in delegated
        ]
        prefetched = config.settings.native_provider == BUILTIN and prefetch_builtin(
            repo, [(c.base.tree, c.tree) for c in cands], config.settings.risk
        )  # a few git processes for the push instead of a few per commit
        facts = _commits_facts(path, repo, cands, [records.get(i.id, ()) for i, _ in delegated])
        items = list(zip(delegated, cands, facts, strict=True))
        if prefetched:  # the diffs are at hand: judging is pure Python, threads would contend
            judged.extend(_judge_commit(repo, config, head, where, *item) for item in items)
        else:
            judged.extend(
                in_order(
                    lambda item, where=where: _judge_commit(repo, config, head, where, *item),
                    items,
                )
            )
    return conclude(call, env, repo, config, judged)


def _judge_commit(
    repo: Repository,
    config: LoadedConfig,
    head: Callable[[], str | None],
    where: str,
    delegated: tuple[CommitInfo, str],
    cand: Candidate,
    facts: LedgerFacts,
) -> Judged:
    """Evaluate one delegated commit (its info and why it is delegated) of a pushed ref by
    its committed candidate ``cand`` and the ledger's ``facts`` for it; ``head`` reads the
    commit HEAD is at (for the fix note of a blocked commit)."""
    info, why = delegated
    result = evaluate(repo, config, cand, facts, delegated_by=why, binding=COMMITTED)
    note = ""
    if result.decision.blocked and info.id != head():  # the fix commands run with it out
        note = f"with {short(info.id)} checked out (git switch --detach {short(info.id)})"
    return Judged(f"commit {short(info.id)} on {where}", where, result, note)


def in_order(fn: Callable[[T], U], items: Sequence[T], workers: int = 4) -> list[U]:
    """``[fn(x) for x in items]`` on up to ``workers`` threads.

    Judging a commit is mostly waiting for its git processes (merge-base, the numstat diff
    and the process scan); on threads those of several commits overlap. Results keep the
    order of ``items``; when calls fail, the first failure in that order is raised, as the
    loop would have raised it.
    """
    if len(items) < 2:
        return [fn(x) for x in items]
    results: list[U | None] = [None] * len(items)
    errors: list[BaseException | None] = [None] * len(items)
    todo = iter(range(len(items)))
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            try:
                results[i] = fn(items[i])
            except BaseException as exc:  # re-raised in order below
                errors[i] = exc

    threads = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(items)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for err in errors:
        if err is not None:
            raise err
    return results  # type: ignore[return-value]


def _records_by_commit(
    path: str, infos: Sequence[CommitInfo], root: str | None
) -> tuple[dict[str, tuple[CommitRecord, ...]], float | None]:
    """Writer records that bear on pushed commits, and when pending writer work began.

    A commit counts as delivered by a writer when a commit record names it, or names
    another commit with the same tree (the same content re-committed: ``reset --soft``
    and commit again). Pending work that was recorded before a commit was made and never
    consumed means that commit was made with its hooks skipped: the second value is the
    earliest such record time (Unix seconds), or None.
    """
    led = Ledger.open_existing(path)
    if led is None:
        return {}, None
    with led:
        out: dict[str, list[CommitRecord]] = {}
        for rec in led.commit_records([i.id for i in infos]):
            out.setdefault(rec.commit_id, []).append(rec)
        by_tree: dict[str, list[CommitRecord]] = {}
        for rec in led.commit_records_by_tree(sorted({i.tree for i in infos})):
            by_tree.setdefault(rec.tree, []).append(rec)
        for info in infos:
            if info.id not in out and info.tree in by_tree:
                out[info.id] = by_tree[info.tree]
        pending = led.pending_mutations(root) if root else []
    since = min((m.recorded_at for m in pending), default=None)
    return {k: tuple(v) for k, v in out.items()}, since


def _commits_facts(
    path: str,
    repo: Repository,
    cands: Sequence[Candidate],
    records: Sequence[Sequence[CommitRecord]],
) -> list[LedgerFacts]:
    """Facts for pushed commits, read through one ledger connection: for each candidate the
    records bound to its identity, and the writer work and escalations its commit records
    (``records``, one sequence per candidate) delivered — not the work tree's pending work.

    Raises:
        StoreError: the ledger exists but cannot be read.
    """
    root = repo.paths.toplevel
    assert root is not None
    led = Ledger.open_existing(path)
    if led is None:
        return [
            LedgerFacts(path=path, present=False, root=root, identity=c.identity) for c in cands
        ]
    out = []
    with led:
        for cand, recs in zip(cands, records, strict=True):
            facts = facts_from(led, root, cand.identity)
            mutations, escalations = led.delivered_work(sorted({r.origin for r in recs}))
            out.append(replace(facts, mutations=tuple(mutations), escalations=tuple(escalations)))
    return out


# -- conclusion: messages, overrides, warn mode -----------------------------------------------


def block_lines(j: Judged) -> list[str]:
    """The lines that explain one blocked candidate: what, why, and the commands to run."""
    r = j.result
    plan, cand, d = r.plan, r.candidate, r.decision
    base = f"{cand.base.ref} @ {short(cand.base.commit)}" if cand.base.commit else "empty tree"
    lines = [
        f"BLOCKED {j.label}: delegated ({r.delegated_by})",
        f"  candidate {cand.identity[:19]}… ({cand.projection.value} tree {short(cand.tree)} "
        f"vs {base})",
        f"  plan risk {plan.risk.value} (native {plan.native_risk.value}; rows "
        f"{' '.join(plan.rows)})",
    ]
    for s in d.shortfalls:
        lines.append(f"  missing: {reason(s)}")
        first = first_command(s, r.binding)
        if first is not None:
            lines.append(f"  first: {first}  ({NO_RECEIPT})")
        lines.append(
            f"  run: {command(s, r.binding)}" + (f"  [{j.fix_note}]" if j.fix_note else "")
        )
    return lines


def conclude(
    call: HookCall,
    env: Mapping[str, str],
    repo: Repository,
    config: LoadedConfig,
    judged: Sequence[Judged],
) -> int:
    """Print the outcome and return the exit code; record overrides.

    A clean outcome prints at most one line; a block prints, per blocked candidate, what is
    missing, why and the exact command, then how to override.
    """
    blocked = [j for j in judged if j.result.decision.blocked]
    applied = [j for j in judged if j.result.decision.applies]
    if not blocked:
        if applied:
            _say(f"ok: {len(applied)} delegated candidate(s) verified as their plan requires")
        return EXIT_OK
    for j in blocked:
        for line in block_lines(j):
            _say(line)
    reason = env.get("GENTLE_HOOKS_SKIP", "").strip()
    if reason:
        who = record_overrides(repo, call.name, blocked, reason)
        _say(f"GENTLE_HOOKS_SKIP: let through by {who} and recorded ({reason!r})")
        return EXIT_OK
    if call.warn or config.settings.mode == "warn":
        _say("warn mode: reported, not blocking")
        return EXIT_OK
    _say('to let it through on purpose (recorded): GENTLE_HOOKS_SKIP="<reason>" git ...')
    return EXIT_BLOCKED


def record_overrides(repo: Repository, hook: str, blocked: Sequence[Judged], reason: str) -> str:
    """Record one override per blocked candidate; return who overrode (committer ident)."""
    who = repo.ident()
    root = repo.paths.toplevel or repo.paths.git_dir
    with Ledger.open(ledger_path(repo.paths.common_dir)) as led:
        for j in blocked:
            led.add(
                OverrideRecord(
                    root=root,
                    identity=j.result.candidate.identity,
                    hook=hook,
                    who=who,
                    reason=reason,
                    missing=tuple(m.value for m in j.result.decision.missing),
                    target=j.target,
                )
            )
        from gentle_hooks.notes.sync import refresh_for_identity

        for j in blocked:  # the override travels with the commit's note (SPEC §5, §8)
            refresh_for_identity(repo, led, j.result.candidate)
    return who


def receive_gate(call: HookCall, env: Mapping[str, str]) -> int:
    """The server gate (pre-receive on a bare repository): :mod:`gentle_hooks.hooks.rangegate`."""
    from gentle_hooks.hooks.rangegate import receive_gate as judge_receive

    return judge_receive(call.stdin, env)
