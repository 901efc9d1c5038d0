"""Pushed commits and the ledger (SPEC §5 "Delegation", §6): why each is delegated, and
the facts it was delivered with.

Room ``hooks``, for the push gate (:mod:`gentle_hooks.hooks.push`). A pushed commit is
delegated when a writer's commit record names it (or its tree), when its message or the
environment shows an agent, under ``gate.applies_to = all``, or when writer work recorded
before it was made was never consumed (it was committed with its hooks skipped). Its facts
are the records bound to its committed candidate and the writer work its commit records
delivered — not the work tree's pending work.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.facts import LedgerFacts, facts_from
from gentle_hooks.ledger.records import CommitRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.delegation import Evidence, message_evidence
from gentle_hooks.values.candidate import Candidate
from gentle_hooks.values.frozen import replace

#: Why a commit with no evidence of its own is delegated: pending work predates it.
SKIPPED_HOOKS = (
    "writer work recorded before this commit was never consumed: it was committed with its "
    "hooks skipped"
)


def commit_evidence(
    info: CommitInfo,
    records: Sequence[CommitRecord],
    runtime: Evidence | None,
    applies_all: bool,
) -> str | None:
    """Why a pushed commit is delegated, or None for a human's ordinary commit.

    Args:
        info: the commit; records: the writer's commit records that name it or its tree;
        runtime: an agent runtime in the environment, or None; applies_all: the gate
            applies to every commit (``gate.applies_to = all``).
    """
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


def delegated_commits(
    infos: Sequence[CommitInfo],
    records: dict[str, tuple[CommitRecord, ...]],
    pending_since: float | None,
    runtime: Evidence | None,
    applies_all: bool,
) -> list[tuple[CommitInfo, str]]:
    """The delegated commits among ``infos`` (in their order), each with why.

    Args:
        records / pending_since: what :func:`records_by_commit` returned for ``infos``;
        runtime / applies_all: as for :func:`commit_evidence`.
    """
    out = []
    for info in infos:
        why = commit_evidence(info, records.get(info.id, ()), runtime, applies_all)
        if why is None and pending_since is not None and info.committed_at >= int(pending_since):
            why = SKIPPED_HOOKS
        if why is not None:
            out.append((info, why))
    return out


def records_by_commit(
    path: str, infos: Sequence[CommitInfo], root: str | None
) -> tuple[dict[str, tuple[CommitRecord, ...]], float | None]:
    """Writer records that bear on pushed commits, and when pending writer work began.

    A commit counts as delivered by a writer when a commit record names it, or names
    another commit with the same tree (the same content re-committed: ``reset --soft``
    and commit again). Pending work that was recorded before a commit was made and never
    consumed means that commit was made with its hooks skipped.

    Args:
        path: the ledger file; infos: the pushed commits; root: the work tree root (None
            in a bare repository: no pending work).

    Returns:
        (commit id -> its records, the earliest pending record time in Unix seconds or
        None); both empty when no ledger exists.

    Raises:
        StoreError: the ledger exists but cannot be read.
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


def commits_facts(
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
