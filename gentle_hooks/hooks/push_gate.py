"""The push gate (SPEC §5 "Decision", §7 "Hooks"): pre-push.

Room ``hooks``. Every delegated commit being pushed (:mod:`gentle_hooks.hooks.push_input`
reads the updates, :mod:`gentle_hooks.hooks.pushed_commits` says which commits they send,
which are delegated and why) is judged by its ``committed`` candidate; a ref's verdict is
its worst commit's, the push's is the worst ref's (:mod:`gentle_hooks.hooks.outcome`). The commits
of a push are judged as a batch: one ``rev-parse`` for every candidate, one merge-base for
the push, the built-in classifier's diffs fetched ahead, and the remaining git processes
of several commits overlapped on threads (:mod:`gentle_hooks.hooks.worker_pool`).

The notes ref itself is never judged as code: its commits are records. When the remote
carries the notes (``install --share``) and the push does not name the notes ref
itself, a push the gate judged shares them (a blocked one too, without a line, so a server
gate knows what it blocked when it comes again with ``--no-verify``)
(:func:`gentle_hooks.hooks.notes_sharing.share_notes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.errors import UsageError
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall, time_check
from gentle_hooks.hooks.outcome import COMMITTED, Judged, Told, conclude, open_gate, say
from gentle_hooks.hooks.push_input import push_updates
from gentle_hooks.hooks.push_record import record_pushed, unrecorded
from gentle_hooks.hooks.pushed_commits import (
    commits_facts,
    commits_of_updates,
    delegated_commits,
    open_push_ledger,
    pushed_work,
)
from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.probe import calls_open, windows_open
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.native.builtin import prefetch_builtin
from gentle_hooks.native.provider import BUILTIN
from gentle_hooks.notes.sharing import NOTES_REF
from gentle_hooks.policy.delegation import Evidence, runtime_evidence
from gentle_hooks.report.text import short
from gentle_hooks.services.assess import AssessResult, evaluate
from gentle_hooks.services.attribution import NOTHING
from gentle_hooks.services.commit_steps import start_commit_changes
from gentle_hooks.values.candidate import Candidate, Projection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gentle_hooks.hooks.push_early import EarlyWalks

    #: A delegated commit (with why), its committed candidate, and the ledger's facts.
    Item = tuple[tuple[CommitInfo, str], Candidate, LedgerFacts]
    #: A delegated commit's assessment, and the commit its fix commands run with checked
    #: out (None when it is HEAD or nothing is blocked).
    Verdict = tuple[AssessResult, str | None]


def push_gate(call: HookCall, env: Mapping[str, str], early: EarlyWalks | None = None) -> int:
    """Judge every delegated commit of every pushed ref (pre-push).

    Work is shared across the refs of a push: updates with the same range (local id,
    remote id, lower bound) are listed once, the new refs' commits in one walk, and each
    pushed commit is judged once; its decision is reported on every ref that sends it
    (a block is printed once, naming those refs).

    The listing and judging stop after :data:`~gentle_hooks.hooks.call.HOOK_SECONDS`
    with one line (exit 2: the push is refused, as any push the gate cannot judge).

    Args:
        call: ``args`` are git's (remote name, URL); ``stdin`` git's ref lines.
        early: the walks the hook's entry started for those lines
            (:mod:`gentle_hooks.hooks.push_early`): answers the listing takes instead of
            asking git again, when they are the same questions.

    Returns:
        0 allowed, 1 blocked (the worst ref decides, whatever the order).

    Raises:
        UsageError: a malformed input line, a local object missing, or the time limit
            reached (fails closed).
        GentleError: git, config or store failures (fails closed).
    """
    remote = call.args[0] if call.args else env.get("PRE_COMMIT_REMOTE_NAME")
    updates = push_updates(call, env)
    repo, config = open_gate(env)
    top, common = repo.paths.toplevel, repo.paths.common_dir
    if top is not None and windows_open(common):
        # an agent's call still open may have written what a person commits and pushes
        # before its session's next hook event: that is the writer's before the push is judged
        from gentle_hooks.services.agent_window_settle import settle

        settle(top, common, env)
    if top is not None and calls_open(common):  # so may a shell call still running
        from gentle_hooks.services.agent_inflight_settle import settle as move_calls

        move_calls(top, common, env)
    if early is not None:
        early.give(repo)
    repo.hold_refs()  # every candidate of this push is based on the refs as they are now
    # loosening settings count from what the remote pushed to holds, never a base ref's pick
    url = call.args[1] if len(call.args) > 1 else env.get("PRE_COMMIT_REMOTE_URL")
    sides = [(u.remote_oid, u.remote_ref) for u in updates if u.remote_oid and not u.is_new]
    repo.push_destination(remote, url, sides)
    runtime = runtime_evidence(env)
    applies_all = config.settings.applies_to == "all"
    path = ledger_path(repo.paths.common_dir)
    heads: list[str | None] = []  # HEAD, read once and only when a fix note needs it

    def head() -> str | None:
        if not heads:
            heads.append(repo.head())
        return heads[0]

    in_time = time_check("pre-push", len(updates), env)

    judged_refs = [u for u in updates if u.remote_ref != NOTES_REF and not u.is_deletion]
    # identical updates (local id, remote id, lower bound) are listed once
    ranges = {(u.local_oid, u.remote_oid, u.from_ref): u for u in judged_refs}
    lists = commits_of_updates(repo, list(ranges.values()), remote, in_time)
    listed = dict(zip(ranges, lists, strict=True))
    sent: list[tuple[str, list[str]]] = []  # each ref with new commits, and those commits
    # said once every update is read: a later line refused is then the only line printed
    status: list[str] = []
    for update in updates:
        where = update.remote_ref
        if where == NOTES_REF:
            status.append(f"{where}: the gentle-hooks records themselves, not code")
            continue
        if update.is_deletion:
            status.append(f"{where}: deletion, nothing to assess")
            continue
        commits = listed[(update.local_oid, update.remote_oid, update.from_ref)]
        if not commits:
            tip = repo.peel_commit(update.local_oid)
            if tip is None and not repo.has_object(update.local_oid):
                # git only sends ids it has; one this clone lacks cannot be judged
                raise UsageError(
                    f"pre-push: {where}: local object {update.local_oid[:80]} does not exist "
                    "in this repository; cannot judge it (push refused)"
                )
            nothing = (
                f"every commit is already on {remote or 'the remote'}"
                if tip
                else "not a commit (nothing to assess)"
            )
            status.append(f"{where}: {nothing}")
            continue
        sent.append((where, commits))
    told = Told(env)
    for line in status:
        told.say(line)
    judging = (repo, config, path, runtime, applies_all, head, in_time)
    ranges_sent = [r for r in listed.values() if r]
    verdicts = judge_push_commits(*judging, ranges_sent, record=env, say=told.say) if sent else {}
    back = {c: _returned(repo, v[0]) for c, v in verdicts.items() if v and v[0].decision.blocked}
    judged = [
        Judged(
            f"commit {short(c)}",
            where,
            v[0],
            commit=v[1],
            remote=remote or "",
            returned=back.get(c, ()),
        )
        for where, commits in sent
        for c in commits
        if (v := verdicts[c]) is not None  # a delegated commit, on every ref sending it
    ]

    def share() -> list[str]:  # once decided: its line is the gate's last, when allowed
        from gentle_hooks.hooks.notes_sharing import share_notes

        return share_notes(repo, remote, updates, path, bool(judged)) if remote else []

    return conclude(call, env, repo, config, judged, told, share)


def judge_push_commits(
    repo: Repository,
    config: LoadedConfig,
    path: str,
    runtime: Evidence | None,
    applies_all: bool,
    head: Callable[[], str | None],
    in_time: Callable[[], None],
    ranges: Sequence[Sequence[str]],
    record: Mapping[str, str] | None = None,
    say: Callable[[str], None] = say,
) -> dict[str, Verdict | None]:
    """Judge the commits of a push as one batch: each commit's :data:`Verdict` (the caller
    names the refs it is pushed on), or None for a commit that is not delegated.

    ``ranges`` are the distinct commit lists of the push's updates, each oldest first
    with the pushed tip last; a commit in several is judged once. The ledger is read once
    for all of them, one ``rev-parse`` peels every candidate, one merge-base serves each
    range with commits no longer range holds, and the built-in classifier's diffs are
    fetched ahead. With ``record`` (the environment), delegated commits no hook recorded
    (hooks off) are recorded once judged (:mod:`gentle_hooks.hooks.push_record`). The
    lines said on the way (expiries, commits recorded) go to ``say`` (a gate's
    :meth:`~gentle_hooks.hooks.outcome.Told.say` keeps them for its decision object).

    Raises:
        GentleError: git, config or store failures (the gate fails closed).
    """
    # in the order the refs send them, each once (judging a commit needs no other first)
    commits = list(dict.fromkeys(c for commits in ranges for c in commits))
    # the commits they step from are read in the same process (kept): the attribution diffs
    # each pushed commit against its parents
    pushed = set(commits)
    read = repo.read_commits([*commits, *repo.outside_parents(commits)])
    infos = [info for info in read if info.id in pushed]
    # git diffs each commit's step while the ledger is opened and read
    start_commit_changes(repo, infos, [info for info in read if info.id not in pushed])
    led = open_push_ledger(path)  # once for the whole judgement
    try:
        return _judge_batch(
            repo,
            config,
            path,
            led,
            runtime,
            applies_all,
            head,
            in_time,
            ranges,
            infos,
            record,
            say,
        )
    finally:
        if led is not None:
            led.close()


def _judge_batch(
    repo: Repository,
    config: LoadedConfig,
    path: str,
    led: Ledger | None,
    runtime: Evidence | None,
    applies_all: bool,
    head: Callable[[], str | None],
    in_time: Callable[[], None],
    ranges: Sequence[Sequence[str]],
    infos: Sequence[CommitInfo],
    record: Mapping[str, str] | None,
    say: Callable[[str], None],
) -> dict[str, Verdict | None]:
    """:func:`judge_push_commits` with the pushed commits read and the ledger at ``path``
    open (``led``, None when there is none), which it closes once the facts are read."""
    commits = list(dict.fromkeys(c for commits in ranges for c in commits))
    work, records, delivered = pushed_work(led, path, repo, infos, say)
    delegated = delegated_commits(infos, work, records, runtime, applies_all, delivered)
    out: dict[str, Verdict | None] = dict.fromkeys(commits)
    repo.peel_commits([info.id for info, _ in delegated])  # one rev-parse for all
    base = repo.base_commit(config.settings.base_ref) if len(delegated) > 1 else None
    if base is not None:  # one merge-base process per range, not one per commit
        by_id = {info.id: info for info in infos}
        learnt: set[str] = set()
        for chain in sorted(ranges, key=len, reverse=True):  # the longest covers most
            if not learnt.issuperset(chain):  # every pushed commit of the range: chains
                repo.learn_merge_bases(base, chain[-1], [by_id[c] for c in chain])
                learnt.update(chain)
    base_ref = config.settings.base_ref
    cands = [
        repo.candidate(Projection.COMMITTED, commit=info.id, config_ref=base_ref)
        for info, _ in delegated
    ]
    pairs = [(c.base.tree, c.tree) for c in cands]
    prefetched = config.settings.native_provider == BUILTIN and prefetch_builtin(
        repo, pairs, config.settings.risk, _previous(infos, delegated, cands)
    )  # a few git processes for the push instead of a few per commit
    facts = commits_facts(led, path, repo, cands, [work.get(i.id, NOTHING) for i, _ in delegated])
    if led is not None:
        led.close()  # read whole: the judging and recording below need no ledger open
    items: list[Item] = list(zip(delegated, cands, facts, strict=True))
    judge = partial(_judge_commit, repo, config, head, in_time)
    # the diffs at hand make judging pure Python, where threads would only contend
    if prefetched:
        found = [judge(item) for item in items]
    else:
        from gentle_hooks.hooks.worker_pool import in_order

        found = in_order(judge, items)
    for (info, _), one in zip(delegated, found, strict=True):
        out[info.id] = one
    if record is not None and (missing := unrecorded([i for i, _ in delegated], work, records)):
        here = head()
        # only what this work tree's HEAD holds was (as far as git tells) made here: a
        # commit of another worktree's branch is judged here by the documented fallback,
        # not frozen into a record of this work tree's view
        mine = [i for i in missing if here and (i.id == here or repo.is_ancestor(i.id, here))]
        record_pushed(repo, path, mine, work, record, say)  # judged first: as if recorded
    return out


def _returned(repo: Repository, result: AssessResult) -> tuple[str, ...]:
    """The paths of a blocked pushed commit whose writer work is only content that went
    away and came back (:func:`~gentle_hooks.services.settle.returned_ids`): this work
    tree's open content reset away and written again since, or expired content (it was
    nowhere), a person's typing of it: the ``discard`` the block prints claims it, as the
    commit gate's would have (a commit made with hooks off never met that gate;
    :func:`~gentle_hooks.services.discard.came_back` reaches the unpushed commits). A path
    holding any other writer work: none."""
    facts = result.facts
    if facts is None or not facts.entries:
        return ()
    from gentle_hooks.services.settle import returned_ids  # only a block asks

    here = repo.paths.toplevel
    back = returned_ids(facts.entries, repo)
    ours = {
        e.path
        for e in facts.entries
        if e.id in back and (e.state == "expired" or (e.state == "open" and e.root == here))
    }
    return tuple(sorted(ours - {e.path for e in facts.entries if e.id not in back}))


def _previous(
    infos: Sequence[CommitInfo],
    delegated: Sequence[tuple[CommitInfo, str]],
    cands: Sequence[Candidate],
) -> list[str | None]:
    """For each delegated commit's candidate, the tree of the pair it follows: its
    parent's, when the parent is pushed too and its pair has the same base, or when the
    parent is the candidate's base commit or its tree the base tree
    (:func:`~gentle_hooks.native.builtin.prefetch_builtin`)."""
    trees = {i.id: i.tree for i in infos}
    wanted = {(c.base.tree, c.tree) for c in cands}
    out: list[str | None] = []
    for (info, _), cand in zip(delegated, cands, strict=True):
        base = cand.base.tree
        first = info.parents[0] if info.parents else None
        if first is not None and first == cand.base.commit:
            out.append(base)  # the parent is the base: the pair follows the empty diff
            continue
        parent = trees.get(first) if first is not None else None
        follows = parent is not None and (parent == base or (base, parent) in wanted)
        out.append(parent if follows else None)
    return out


def _judge_commit(
    repo: Repository,
    config: LoadedConfig,
    head: Callable[[], str | None],
    in_time: Callable[[], None],
    item: Item,
) -> Verdict:
    """Evaluate one delegated pushed commit: ``item`` holds its info and why it is
    delegated, its committed candidate, and the ledger's facts for it; ``head`` reads the
    commit HEAD is at (for the fix note of a blocked commit)."""
    in_time()
    (info, why), cand, facts = item
    result = evaluate(repo, config, cand, facts, delegated_by=why, binding=COMMITTED)
    commit = None
    if result.decision.blocked and info.id != head():  # the fix commands run with it out
        commit = info.id
    return result, commit
