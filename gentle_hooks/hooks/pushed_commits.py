"""Pushed commits and the ledger (SPEC §3 "Attribution follows content", §5, §6): which
commits an update sends, why each is delegated, and the facts it was delivered with.

Room ``hooks``, for the push gate (:mod:`gentle_hooks.hooks.push_gate`). A pushed commit is
delegated when it carries writer content against its parent (decided from its trees and
the recorded blobs: :func:`gentle_hooks.services.attribution.carried_by_commits`), when a
writer's commit record names it, when its message or the environment shows an agent, or
under ``gate.applies_to = all``. Its facts are the records bound to its committed
candidate and the writer work it carries — not the work tree's pending work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gentle_hooks.errors import shown_writer
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.outcome import say
from gentle_hooks.hooks.push_input import PushUpdate
from gentle_hooks.hooks.recorders import note_discarded
from gentle_hooks.ledger.facts import LedgerFacts, facts_of_commits
from gentle_hooks.ledger.records import CommitRecord, PendingMutation
from gentle_hooks.ledger.store import Ledger, open_for_gate
from gentle_hooks.policy.delegation import Evidence, message_evidence
from gentle_hooks.policy.shellwords import shown_paths
from gentle_hooks.services.attribution import (
    NOTHING,
    Carried,
    carried_by_change,
    commit_changes,
    expire_shaped,
    expiry_lines,
)
from gentle_hooks.services.reapplied import reapplied_by_commits
from gentle_hooks.values.candidate import Candidate


def _shown(paths: Sequence[str]) -> str:
    named = ", ".join(shown_paths(paths[:3]))  # one line, whatever the names hold
    return named + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def commit_evidence(
    info: CommitInfo,
    work: Carried,
    records: Sequence[CommitRecord],
    runtime: Evidence | None,
    applies_all: bool,
    delivered: Sequence[PendingMutation] = (),
) -> str | None:
    """Why a pushed commit is delegated, or None for a human's ordinary commit.

    Args:
        info: the commit; work: the writer work it carries; records: writer commit
            records that name it; runtime: an agent runtime in the environment, or None;
        applies_all: the gate applies to every commit (``gate.applies_to = all``);
        delivered: the writer mutations its commit records delivered (named in the
            reason when the content itself is no longer live: its entries were settled
            by an earlier push of the same commit elsewhere).
    """
    if work.delegated:
        found = f"({', '.join(work.writers())}) in {_shown(work.paths())}"
        if all(e.state == "settled" for e in work.entries):
            return f"writer content {found} re-applied on another base (checked elsewhere)"
        return f"writer content {found}"
    if records:
        stale = (
            " (rewritten with a changed tree: records are stale)"
            if any(r.stale for r in records)
            else ""
        )
        writers = ", ".join(dict.fromkeys(shown_writer(m.model, m.effort) for m in delivered))
        paths = sorted({p for m in delivered for p in m.paths})
        named = f" ({writers}) in {_shown(paths)}" if writers and paths else ""
        return f"commit record from a writer{named}{stale}"
    ev = message_evidence(info.message, info.author_ident, info.committer_ident)
    if ev is not None:
        return f"{ev.agent} ({ev.detail})"
    if runtime is not None:
        return f"{runtime.agent} ({runtime.detail})"
    return "gate.applies_to = all" if applies_all else None


PushedWork = tuple[
    dict[str, Carried],
    dict[str, tuple[CommitRecord, ...]],
    dict[str, tuple[PendingMutation, ...]],
]


def pushed_work(path: str, repo: Repository, infos: Sequence[CommitInfo]) -> PushedWork:
    """What the ledger knows of pushed commits: the writer work each carries against its
    parent (live work, or for a commit with neither live work nor a record, settled work
    it re-applies onto another base: :mod:`gentle_hooks.services.reapplied`), the commit
    records that name it, and — for a commit with records but no live writer content —
    the mutations those records delivered. All empty when no ledger exists.

    Raises:
        GitError: a commit's parent is not in this clone; StoreError: the ledger exists
            but cannot be read, or a file kept aside holds writer records no command has
            read (:func:`~gentle_hooks.ledger.kept.refuse_kept`).
    """
    note_discarded(repo, path, list(infos), "pre-push")  # discarded work still in them
    led = open_for_gate(path)  # a waiting spool folded in; closed while records sit aside
    if led is None:
        return {}, {}, {}
    with led:
        led.refuse_held_work()  # writer work the gate cannot read: closed, naming it
        led.refuse_foreign_triggers()  # a trigger may rewrite what it says: closed
        # counted: the gate composes the candidates' diffs from these same steps
        changes = commit_changes(repo, infos, counted=True)
        work = carried_by_change(repo, led, changes)
        expired = expire_shaped(repo, path, work.values())
        if expired:
            work = carried_by_change(repo, led, changes)
        for line in expiry_lines(expired):
            say(line)
        records: dict[str, list[CommitRecord]] = {}
        for rec in led.commit_records([i.id for i in infos]):
            records.setdefault(rec.commit_id, []).append(rec)
        plain = [i for i in infos if i.id not in records and not work[i.id].delegated]
        work.update(reapplied_by_commits(repo, led, plain, changes))
        # rare (an earlier push settled the commit's entries): one query per such commit
        delivered = {
            c: tuple(led.delivered_work([c])[0])
            for c in records
            if not work.get(c, NOTHING).delegated
        }
    return work, {k: tuple(v) for k, v in records.items()}, delivered


def delegated_commits(
    infos: Sequence[CommitInfo],
    work: dict[str, Carried],
    records: dict[str, tuple[CommitRecord, ...]],
    runtime: Evidence | None,
    applies_all: bool,
    delivered: dict[str, tuple[PendingMutation, ...]] | None = None,
) -> list[tuple[CommitInfo, str]]:
    """The delegated commits among ``infos`` (in their order), each with why."""
    out = []
    for info in infos:
        why = commit_evidence(
            info,
            work.get(info.id, NOTHING),
            records.get(info.id, ()),
            runtime,
            applies_all,
            (delivered or {}).get(info.id, ()),
        )
        if why is not None:
            out.append((info, why))
    return out


def commits_facts(
    path: str,
    repo: Repository,
    cands: Sequence[Candidate],
    work: Sequence[Carried],
) -> list[LedgerFacts]:
    """Facts for pushed commits, each ledger table read once for all of them
    (:func:`~gentle_hooks.ledger.facts.facts_of_commits`): for each candidate the records
    bound to its identity and the writer work its commit carries (``work``, one per
    candidate); a commit recorded before contents were kept falls back to the work its
    commit record consumed.

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
    with led:
        return facts_of_commits(
            led,
            root,
            [(c.identity, w.entries, c.head) for c, w in zip(cands, work, strict=True)],
        )


def commits_of_updates(
    repo: Repository,
    updates: Sequence[PushUpdate],
    remote: str | None,
    check: Callable[[], None],
) -> list[list[str]]:
    """The commits each update would give the remote, oldest first with its tip last; one
    list per update, in order (empty when its local id is not a commit).

    An existing remote ref we have: ``remote_oid..local``. An explicit lower bound (the
    framework's ``PRE_COMMIT_FROM_REF``): ``from..local``, or the commits on no
    remote-tracking ref when it does not resolve. A new ref, an unknown remote id, or the
    framework's unranged form: the commits reachable from local and from no remote-tracking
    ref of that remote (of any remote when it is unnamed or unknown).

    Git processes are shared: every local id is peeled in one ``rev-parse``, every remote id
    looked up in one ``cat-file``, and the commits of every new ref come from one
    ``rev-list`` walking all their tips; a ranged update lists its own. ``check`` is called
    before each update's work (the caller's time bound: it raises to stop).

    Raises:
        GitError: git failed; whatever ``check`` raises.
    """
    repo.peel_many([u.local_oid for u in updates])
    known = [u.remote_oid for u in updates if u.remote_oid and not u.is_new and not u.from_ref]
    absent = set(repo.missing_objects(list(dict.fromkeys(known))))
    fresh: dict[int, str] = {}  # update index -> its tip, for the new refs
    out: list[list[str]] = []
    for number, update in enumerate(updates):
        check()
        tip = repo.peel_commit(update.local_oid)
        commits: list[str] = []
        if tip is None:
            pass
        elif update.from_ref:
            base = repo.peel_commit(update.from_ref)
            commits = repo.new_commits(
                tip, exclude=[base] if base else [], remote=None if base else ""
            )
        elif update.remote_oid and not update.is_new and update.remote_oid not in absent:
            commits = repo.new_commits(tip, exclude=[update.remote_oid])
        else:
            fresh[number] = tip  # filled in below, from the one walk of every new ref
        out.append(commits)
    if fresh:
        check()
        scope = remote if remote and repo.has_remote(remote) else ""
        walked = repo.new_commits_of_tips(list(fresh.values()), scope)
        for number, tip in fresh.items():
            out[number] = walked[tip]
    return out
