"""Why a commit is delegated, decided once for every gate that judges commits and for
``status --committed`` (SPEC §3 "Attribution follows content", §5 "Decision").

Room ``services``. A commit is delegated when it carries writer content against its parent
(decided from its trees and the recorded blobs:
:func:`gentle_hooks.services.attribution.carried_by_change`), re-applies content a push
settled onto another base (:mod:`gentle_hooks.services.reapplied`), when a writer's commit
record names it, when its message or the environment shows an agent, or under
``gate.applies_to = all``. The push gate (:mod:`gentle_hooks.hooks.pushed_commits`) and
``gate --range`` in a clone with a ledger read :func:`commits_work` and
:func:`delegated_commits`; ``status --committed`` reads :func:`commit_delegation`, so it
answers what the push gate will decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import shown_writer
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import CommitRecord, PendingMutation, WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.delegation import Evidence, message_evidence
from gentle_hooks.services.attribution import (
    NOTHING,
    Carried,
    carried_by_change,
    expire_shaped,
)
from gentle_hooks.services.commit_steps import commit_changes
from gentle_hooks.services.reapplied import reapplied_by_commits

#: What the ledger knows of some commits: the writer work each carries, the commit records
#: that name it, and the mutations those records delivered (for a commit with records but
#: no live writer content).
CommitsWork = tuple[
    dict[str, Carried],
    dict[str, tuple[CommitRecord, ...]],
    dict[str, tuple[PendingMutation, ...]],
]


def _shown(paths: Sequence[str], held_at: Sequence[tuple[str, str]] = ()) -> str:
    """``paths`` where the change holds them (``held_at``:
    :func:`~gentle_hooks.services.attribution.held_paths`, ``b.py (was a.py)`` after ``git
    mv``), the first three, on one line."""
    from gentle_hooks.services.attribution import held_paths

    named = held_paths(paths, held_at)
    return ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")


def commit_evidence(
    info: CommitInfo,
    work: Carried,
    records: Sequence[CommitRecord],
    runtime: Evidence | None,
    applies_all: bool,
    delivered: Sequence[PendingMutation] = (),
) -> str | None:
    """Why a commit is delegated, or None for a human's ordinary commit.

    Args:
        info: the commit; work: the writer work it carries; records: writer commit
            records that name it; runtime: an agent runtime in the environment, or None;
        applies_all: the gate applies to every commit (``gate.applies_to = all``);
        delivered: the writer mutations its commit records delivered (named in the
            reason when the content itself is no longer live: its entries were settled
            by an earlier push of the same commit elsewhere).
    """
    if work.delegated:
        found = f"({', '.join(work.writers())}) in {_shown(work.paths(), work.held_at)}"
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


def commits_work(
    repo: Repository, led: Ledger, infos: Sequence[CommitInfo], counted: bool = False
) -> tuple[CommitsWork, list[WriterEntryRecord]]:
    """What the open ledger ``led`` knows of ``infos`` (:data:`CommitsWork`: live work, or
    for a commit with neither live work nor a record, settled work it re-applies onto
    another base), and the pending entries that expired on the way (their content is
    nowhere: the caller says so, one line per path). ``counted`` as
    :func:`~gentle_hooks.services.attribution.commit_changes` takes it.

    Raises:
        GitError: a commit's parent is not in this clone; StoreError: the ledger cannot be
            read or written.
    """
    changes = commit_changes(repo, infos, counted=counted)
    work = carried_by_change(repo, led, changes)
    expired = expire_shaped(repo, led.path, work.values())
    if expired:
        work = carried_by_change(repo, led, changes)
    records: dict[str, list[CommitRecord]] = {}
    for rec in led.commit_records([i.id for i in infos]):
        records.setdefault(rec.commit_id, []).append(rec)
    plain = [i for i in infos if i.id not in records and not work[i.id].delegated]
    work.update(reapplied_by_commits(repo, led, plain, changes))
    # rare (an earlier push settled the commit's entries): one query per such commit
    delivered = {
        c: tuple(led.delivered_work([c])[0]) for c in records if not work.get(c, NOTHING).delegated
    }
    return (work, {k: tuple(v) for k, v in records.items()}, delivered), expired


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


def commit_delegation(repo: Repository, commit: str, path: str) -> str | None:
    """Why the push gate will judge ``commit`` delegated (:func:`commits_delegation` of
    that one commit); None for a human's ordinary commit.

    Raises:
        GitError: git failed; StoreError: the ledger exists but cannot be read.
    """
    return commits_delegation(repo, [commit], path).get(commit)


def commits_delegation(repo: Repository, commits: Sequence[str], path: str) -> dict[str, str]:
    """Why the push gate will judge each of ``commits`` delegated (:func:`delegated_commits`
    of :func:`commits_work`, with the ledger at ``path``), leaving aside what only the
    pushing process knows (an agent runtime in its environment) and ``gate.applies_to`` (the
    caller's configuration); a human's ordinary commit is left out. Records nothing but what
    every gate records on the way (entries settled or expired).

    Raises:
        GitError: git failed; StoreError: the ledger exists but cannot be read.
    """
    from gentle_hooks.ledger.store import open_for_gate

    infos = repo.read_commits(list(commits))
    if not infos:
        return {}
    led = open_for_gate(path)
    if led is None:
        found: CommitsWork = ({}, {}, {})
    else:
        with led:
            led.refuse_held_work()  # writer work the gate cannot read: closed, naming it
            led.refuse_foreign_triggers()
            found = commits_work(repo, led, infos)[0]
    work, records, delivered = found
    judged = delegated_commits(infos, work, records, None, False, delivered)
    return {info.id: why for info, why in judged}
