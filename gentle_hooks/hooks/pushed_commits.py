"""Pushed commits and the ledger (SPEC §3 "Attribution follows content", §5, §6): which
commits an update sends, why each is delegated, and the facts it was delivered with.

Room ``hooks``, for the push gate (:mod:`gentle_hooks.hooks.push_gate`). Why a pushed commit
is delegated is decided by :mod:`gentle_hooks.services.commit_delegation` (writer content
it carries or re-applies, a writer's commit record, an agent in its message or the
environment, ``gate.applies_to = all``), which ``status --committed`` reads too. Its facts
are the records bound to its committed candidate and the writer work it carries — not the
work tree's pending work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.hooks.outcome import say
from gentle_hooks.hooks.push_input import PushUpdate
from gentle_hooks.hooks.recorders import note_discarded
from gentle_hooks.ledger.facts import LedgerFacts, facts_of_commits
from gentle_hooks.ledger.kept import refuse_kept
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.attribution import Carried, expiry_lines
from gentle_hooks.services.commit_delegation import (
    CommitsWork,
    commit_evidence,
    commits_work,
    delegated_commits,
)
from gentle_hooks.values.candidate import Candidate

__all__ = ["commit_evidence", "delegated_commits", "open_push_ledger", "pushed_work"]


PushedWork = CommitsWork


def open_push_ledger(path: str) -> Ledger | None:
    """The ledger at ``path`` opened once for a push's whole judgement (the caller closes
    it): a waiting spool folded in (:meth:`~gentle_hooks.ledger.store.Ledger.open_existing`);
    None when no ledger exists. The kept-aside check of
    :func:`~gentle_hooks.ledger.store.open_for_gate` is :func:`pushed_work`'s, after the
    discarded work in the pushed commits is recorded.

    Raises:
        StoreError: the ledger exists but cannot be read.
    """
    return Ledger.open_existing(path)


def pushed_work(
    led: Ledger | None,
    path: str,
    repo: Repository,
    infos: Sequence[CommitInfo],
    say: Callable[[str], None] = say,
) -> PushedWork:
    """What the ledger knows of pushed commits
    (:func:`~gentle_hooks.services.commit_delegation.commits_work`): the writer work each
    carries against its parent (live work, or for a commit with neither live work nor a
    record, settled work it re-applies onto another base), the commit records that name it,
    and — for a commit with records but no live writer content — the mutations those
    records delivered. All empty when no ledger exists. Pending work whose content is
    nowhere expires, one line per path, said with ``say``.

    ``led``: the ledger at ``path`` as :func:`open_push_ledger` opened it (left open).

    Raises:
        GitError: a commit's parent is not in this clone; StoreError: the ledger exists
            but cannot be read, or a file kept aside holds writer records no command has
            read (:func:`~gentle_hooks.ledger.kept.refuse_kept`).
    """
    if led is None:
        refuse_kept(path)  # records kept aside with no ledger beside them: closed too
        return {}, {}, {}
    note_discarded(repo, path, list(infos), "pre-push", led)  # discarded work still in them
    refuse_kept(path)  # writer records kept aside, never read: closed, naming them
    led.refuse_held_work()  # writer work the gate cannot read: closed, naming it
    led.refuse_foreign_triggers()  # a trigger may rewrite what it says: closed
    # counted: the gate composes the candidates' diffs from these same steps
    found, expired = commits_work(repo, led, infos, counted=True)
    for line in expiry_lines(expired):
        say(line)
    return found


def commits_facts(
    led: Ledger | None,
    path: str,
    repo: Repository,
    cands: Sequence[Candidate],
    work: Sequence[Carried],
) -> list[LedgerFacts]:
    """Facts for pushed commits, each ledger table read once for all of them
    (:func:`~gentle_hooks.ledger.facts.facts_of_commits`): for each candidate the records
    bound to its identity and the writer work its commit carries (``work``, one per
    candidate); a commit recorded before contents were kept falls back to the work its
    commit record consumed. ``led``: the ledger at ``path``, open (None: there is none).

    Raises:
        StoreError: the ledger exists but cannot be read.
    """
    root = repo.paths.toplevel
    assert root is not None
    if led is None:
        return [
            LedgerFacts(path=path, present=False, root=root, identity=c.identity) for c in cands
        ]
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
