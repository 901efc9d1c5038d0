"""The change being delivered and what the ledger holds for it (SPEC §3 "Attribution
follows content", §6).

Room ``services``. :func:`delivery_changes` is what a candidate of this work tree changes,
path by path (against ``HEAD``, or a commit against its parent); :func:`facts_for` the
ledger's facts for it: the writer work it carries
(:func:`~gentle_hooks.services.attribution.carried`), its escalations and the records bound
to its identity. :func:`held_discarded` is the discarded writer work (``gentle-hook
discard``) a change still holds by the writer's own lines: a discard makes an edit a human
makes alike the human's, never the writer's own lines, at the commit gate as at the push.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.facts import LedgerFacts, facts_from
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger, open_for_gate
from gentle_hooks.services.attribution import (
    NOTHING,
    Carried,
    carried,
    carried_by_change,
    carried_of,
    expire_shaped,
    revised,
)
from gentle_hooks.services.commit_steps import commit_changes
from gentle_hooks.values.candidate import Candidate, Projection
from gentle_hooks.values.frozen import replace


def held_discarded(
    repo: Repository, led: Ledger, changes: Mapping[str, Sequence[BlobChange]]
) -> dict[str, Carried]:
    """For each change (keyed as :func:`~gentle_hooks.services.attribution.carried_by_change`
    keys them), the discarded entries no commit took yet that it holds by the writer's own
    lines (rows A1, A2:
    :func:`~gentle_hooks.policy.attribution.holds_own_lines`), as holding work. Claimed
    entries (:attr:`~gentle_hooks.ledger.records.DiscardRecord.claimed`) are not: a human
    typed that content again and claimed it; nor another worktree's entries a discard
    ended, held only at a person's other path (:func:`across_only`).

    Raises:
        GitError: a blob cannot be read; StoreError: the ledger cannot be read.
    """
    discarded = led.discarded_untaken()
    if discarded:  # a human typed it again and claimed it: no longer the writer's
        claimed = led.claimed_entry_ids()
        discarded = [e for e in discarded if e.id not in claimed]
    if not discarded:
        return dict.fromkeys(changes, NOTHING)
    others = claimed_elsewhere(led, discarded)
    out = {}
    for key, work in carried_by_change(repo, led, changes, discarded).items():
        gone = work.by_shape | work.claimable | across_only(work, others)
        held = [e for e in work.entries if e.id not in gone]
        out[key] = carried_of(led, held, {e.id for e in held}) if held else NOTHING
    return out


def claimed_elsewhere(led: Ledger, discarded: Sequence[WriterEntryRecord]) -> frozenset[int]:
    """The ids of ``discarded`` entries a ``discard`` run in another worktree than the
    entry's ended: :func:`~gentle_hooks.services.discard.discard` reaches another worktree's
    work only where that worktree's change carries it, and not where it holds the writer's
    own lines at the writer's path, so what it ended there is the writer's line at a path of
    the person's own (their file holding a line the writer also wrote: issue 13).

    Raises:
        StoreError: the ledger cannot be read.
    """
    roots = {e.id: e.root for e in discarded}
    return frozenset(
        i for d in led.discards() for i in d.entries if i in roots and roots[i] != d.root
    )


def across_only(work: Carried, ids: frozenset[int]) -> frozenset[int]:
    """Of ``ids`` (:func:`claimed_elsewhere`), those ``work`` holds only at other paths than
    the entry's own (:attr:`~gentle_hooks.services.attribution.Carried.held_at`): the person
    who discarded them claimed that content, in every worktree and at every gate alike (a
    commit's note carries the discard as an override line:
    :func:`~gentle_hooks.hooks.recorders.claimed_notes`). At the writer's own path they
    stay the writer's: a writer commit of it is noted as one."""
    if not ids:
        return frozenset()
    at: dict[str, set[str]] = {}
    for path, where in work.held_at:
        at.setdefault(path, set()).add(where)
    return frozenset(
        e.id for e in work.entries if e.id in ids and e.path not in at.get(e.path, {e.path})
    )


def delivery_changes(repo: Repository, cand: Candidate, *, amend: bool = False) -> list[BlobChange]:
    """What the change being delivered does, path by path: a snapshot or staged candidate
    against ``HEAD`` (what the next commit adds; against ``HEAD``'s parent when ``amend``:
    the commit being made replaces ``HEAD``), a committed one as its commit against its
    parent (:func:`~gentle_hooks.services.attribution.commit_changes`).

    Raises:
        GitError: git failed.
    """
    if cand.projection is Projection.COMMITTED:
        if cand.head is None:
            return []
        infos = repo.read_commits([cand.head])
        return commit_changes(repo, infos)[cand.head] if infos else []
    parent = cand.head
    if cand.projection is Projection.STAGED and not amend and parent is not None:
        found = repo.staged_delta()  # the hook's own index against HEAD, asked once
        if found is not None:
            return found
    if amend and parent is not None:
        infos = repo.read_commits([parent])
        parent = infos[0].parents[0] if infos and infos[0].parents else None
    base = repo.tree_of(parent) if parent else repo.empty_tree
    return repo.tree_delta(base, cand.tree)


def facts_for(repo: Repository, cand: Candidate, *, amend: bool = False) -> LedgerFacts:
    """The ledger's facts for a candidate of this work tree: the writer work the change
    being delivered carries (:func:`delivery_changes`; ``amend`` as there), the escalations
    sticky for it, and the records bound to its identity. Creates no ledger.

    Raises:
        GitError: git failed; StoreError: the ledger exists but cannot be read.
    """
    return facts_and_expired(repo, cand, amend=amend)[0]


def facts_and_expired(
    repo: Repository, cand: Candidate, *, amend: bool = False
) -> tuple[LedgerFacts, list[WriterEntryRecord]]:
    """:func:`facts_for`, and the pending entries that expired on the way. An amend of a
    writer's commit is that commit revised
    (:func:`~gentle_hooks.services.attribution.revised`).

    A pending entry the change carries only by the shape of its change whose content is
    nowhere any more expires instead of delegating
    (:func:`~gentle_hooks.services.attribution.expire_shaped`): after ``reset --hard`` of a
    writer's edit, a human's edit of the same lines is the human's (SPEC §3: it "expires
    with a status line, never a block"). Entries holding the writer's content
    (rows A1, A2) are in the candidate, so never gone. Discarded work the change still
    holds by the writer's own lines delegates it too (:func:`held_discarded`).

    Raises:
        GitError: git failed; StoreError: the ledger exists but cannot be read or written,
            holds writer work in quarantine, holds a trigger no migration creates
            (:meth:`~gentle_hooks.ledger.connection.LedgerConnection.refuse_foreign_triggers`),
            or a file kept aside holds writer records no command has read
            (:func:`~gentle_hooks.ledger.kept.refuse_kept`).
    """
    root = repo.paths.toplevel
    assert root is not None  # Repository.open refuses bare repositories here
    path = ledger_path(repo.paths.common_dir)
    led = open_for_gate(path)  # a waiting spool folded in; closed while records sit aside
    if led is None:
        return LedgerFacts(path=path, present=False, root=root, identity=cand.identity), []
    with led:
        led.refuse_held_work()  # writer work the gate cannot read: closed, naming it
        led.refuse_foreign_triggers()  # a trigger may rewrite what it says: closed
        changes = delivery_changes(repo, cand, amend=amend)
        commit = (cand.head or "") if cand.projection is Projection.COMMITTED else ""
        work = carried(repo, led, changes, commit)
        expired = expire_shaped(repo, path, [work])
        if expired:
            work = carried(repo, led, changes, commit)
        if amend and cand.head:
            work = revised(repo, led, work, cand.head, cand.tree)
        kept = held_discarded(repo, led, {commit: changes})[commit]
        if kept.delegated:  # discarded, yet the writer's own lines: the push judges it so
            held = {e.id for e in (*work.entries, *kept.entries)} - work.by_shape
            both = [*work.entries, *kept.entries]
            places = [*work.held_at, *kept.held_at]
            work = carried_of(led, both, held, held - work.claimable, places)
        facts = facts_from(led, root, cand.identity, work.entries, commit=commit or None)
        own = frozenset(e.id for e in work.entries) - work.by_shape - work.claimable
        return replace(facts, own_lines=own, held_at=work.held_at), expired
