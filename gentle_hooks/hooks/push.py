"""The push gate (SPEC §5 "Decision", §7 "Hooks"): pre-push.

Room ``hooks``. Every delegated commit being pushed (:mod:`gentle_hooks.hooks.pushed` says
which and why) is judged by its ``committed`` candidate; a ref's verdict is its worst
commit's, the push's is the worst ref's (:mod:`gentle_hooks.hooks.outcome`). The commits
of a push are judged as a batch: one ``rev-parse`` for every candidate, one merge-base for
the push, the built-in classifier's diffs fetched ahead, and the remaining git processes
of several commits overlapped on threads.

The notes ref itself is never judged as code: its commits are records. When the remote
carries the notes (``install --share``) and the push does not already send them (an
explicit refspec such as ``git push -u origin topic`` replaces the configured ones), a
push the gate lets through shares them first (:func:`share_notes`), so the server and CI
see the records with no extra command.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from gentle_hooks.config.load import LoadedConfig
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.call import HookCall
from gentle_hooks.hooks.outcome import COMMITTED, Judged, conclude, open_gate, say
from gentle_hooks.hooks.pushed import commits_facts, delegated_commits, pushed_work
from gentle_hooks.ledger.facts import LedgerFacts
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.native.builtin import prefetch_builtin
from gentle_hooks.native.provider import BUILTIN
from gentle_hooks.notes.codec import NOTES_REF
from gentle_hooks.policy.delegation import runtime_evidence
from gentle_hooks.report.text import short
from gentle_hooks.services.assess import evaluate
from gentle_hooks.services.attribution import NOTHING
from gentle_hooks.values.candidate import Candidate, Projection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from gentle_hooks.hooks.pushspec import PushUpdate

    T = TypeVar("T")
    U = TypeVar("U")
    #: A delegated commit (with why), its committed candidate, and the ledger's facts.
    Item = tuple[tuple[CommitInfo, str], Candidate, LedgerFacts]


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
    repo, config = open_gate(env)
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
        if where == NOTES_REF:
            say(f"{where}: the gentle-hooks records themselves, not code")
            continue
        if update.is_deletion:
            say(f"{where}: deletion, nothing to assess")
            continue
        commits = commits_of(repo, update, remote)
        if not commits:
            tip = repo.peel_commit(update.local_oid)
            nothing = (
                f"every commit is already on {remote or 'the remote'}"
                if tip
                else "not a commit (nothing to assess)"
            )
            say(f"{where}: {nothing}")
            continue
        infos = repo.read_commits(commits)
        work, records = pushed_work(path, repo, infos)
        delegated = delegated_commits(infos, work, records, runtime, applies_all)
        repo.peel_commits([info.id for info, _ in delegated])  # one rev-parse for all
        base = repo.base_commit(config.settings.base_ref) if len(delegated) > 1 else None
        if base is not None:  # one merge-base process for the push, not one per commit
            repo.learn_merge_bases(base, commits[-1], infos)  # every pushed commit: chains
        base_ref = config.settings.base_ref
        cands = [
            repo.candidate(Projection.COMMITTED, commit=info.id, config_ref=base_ref)
            for info, _ in delegated
        ]
        pairs = [(c.base.tree, c.tree) for c in cands]
        prefetched = config.settings.native_provider == BUILTIN and prefetch_builtin(
            repo, pairs, config.settings.risk, _previous(infos, delegated, pairs)
        )  # a few git processes for the push instead of a few per commit
        facts = commits_facts(path, repo, cands, [work.get(i.id, NOTHING) for i, _ in delegated])
        items: list[Item] = list(zip(delegated, cands, facts, strict=True))
        judge = partial(_judge_commit, repo, config, head, where)
        if prefetched:  # the diffs are at hand: judging is pure Python, threads would contend
            judged.extend(judge(item) for item in items)
        else:
            judged.extend(in_order(judge, items))
    code = conclude(call, env, repo, config, judged)
    if code == EXIT_OK and remote:
        share_notes(repo, remote, updates, path)
    return code


def share_notes(repo: Repository, remote: str, updates: Sequence[PushUpdate], path: str) -> None:
    """Send the notes along with a push that does not carry them itself, when the remote
    is set up to share them: the notes of recorded commits that lack one are written, the
    remote's notes merged in, and ``refs/notes/gentle-hooks`` pushed (without hooks) before
    git sends the branches, so the server judges them with their records.

    A failure is reported with the command to run, never turned into a block: the local
    gate has already decided, and the server judges what arrives.
    """
    from gentle_hooks.errors import GentleError
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.notes.sync import is_sharing, sync_push

    if any(u.remote_ref == NOTES_REF for u in updates) or all(u.is_deletion for u in updates):
        return
    if not _is_remote(repo, remote) or not is_sharing(repo, remote):
        return
    try:
        led = Ledger.open_existing(path)
        try:
            say(sync_push(repo, remote, led))
        finally:
            if led is not None:
                led.close()
    except GentleError as exc:
        from gentle_hooks.errors import cli
        from gentle_hooks.report.fixes import labelled

        say(f"the notes were not shared ({exc.message}); {labelled(cli('sync', 'push', remote))}")


def _previous(
    infos: Sequence[CommitInfo],
    delegated: Sequence[tuple[CommitInfo, str]],
    pairs: Sequence[tuple[str, str]],
) -> list[str | None]:
    """For each delegated commit's pair, the tree of the pair it follows: its parent's,
    when the parent is pushed too and its pair has the same base, or when the parent's
    tree is the base (:func:`~gentle_hooks.native.builtin.prefetch_builtin`)."""
    trees = {i.id: i.tree for i in infos}
    wanted = set(pairs)
    out: list[str | None] = []
    for (info, _), (base, _) in zip(delegated, pairs, strict=True):
        parent = trees.get(info.parents[0]) if info.parents else None
        follows = parent is not None and (parent == base or (base, parent) in wanted)
        out.append(parent if follows else None)
    return out


def _judge_commit(
    repo: Repository,
    config: LoadedConfig,
    head: Callable[[], str | None],
    where: str,
    item: Item,
) -> Judged:
    """Evaluate one delegated commit of a pushed ref: ``item`` holds its info and why it is
    delegated, its committed candidate, and the ledger's facts for it; ``head`` reads the
    commit HEAD is at (for the fix note of a blocked commit)."""
    (info, why), cand, facts = item
    result = evaluate(repo, config, cand, facts, delegated_by=why, binding=COMMITTED)
    commit = None
    if result.decision.blocked and info.id != head():  # the fix commands run with it out
        commit = info.id
    return Judged(f"commit {short(info.id)} on {where}", where, result, commit=commit)


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
