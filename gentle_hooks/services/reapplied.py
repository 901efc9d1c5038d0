"""Writer content a push settled, re-applied onto another base (SPEC §3 "Attribution follows
content", §5 "Spot check": a check binds to its candidate's exact trees).

Room ``services``, for the push gate and the commit gate. A push settles a writer's entry
once the pushed commits hold all of its content
(:func:`gentle_hooks.services.settle.delivered_left_out`): from then on what builds on that
content is nobody's new writer work. A change that *adds* that content again against its
parent (``git cherry-pick -n``, ``git checkout featX -- path``, ``git merge --squash`` onto a
branch that moved on, a revert of its revert) is a new candidate: the check bound to the
commit that delivered it first does not transfer, so the change is delegated again
(:func:`gentle_hooks.policy.attribution.reapplies`). A revert of a revert pushed after the
first revert is judged as the pair of trees the writer's commit was verified as (its
records count); pushed with it, against the writer's commit, a pair no record binds: the
block's ``--committed`` re-run settles it (docs/spec-notes.md §3).

Not read here, each on purpose: merge commits and a merge being committed (what a merge
brings was judged on its branch), commits that took the entry themselves (their records
delegate them), and a copy into another path. The commit gate reads a staged change only
when its hook reaches Python: the fast path sends it there when a staged blob is an ended
entry's writer blob (or other writer work is live), so content re-applied and merged with
other edits of the same file passes the commit gate and is stopped at push.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.facts import LedgerFacts, facts_from
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.attribution import Carried, carried_of
from gentle_hooks.values.candidate import Candidate


def reapplied_by_commits(
    repo: Repository,
    led: Ledger,
    infos: Sequence[CommitInfo],
    changes: Mapping[str, Sequence[BlobChange]],
) -> dict[str, Carried]:
    """The settled writer work each of ``infos`` re-applies (only commits that re-apply
    some are keys): :func:`reapplied_by_change` of the commits that are not merges.

    Args:
        repo: where the blobs are; led: the ledger;
        infos: the commits to judge (merges among them are skipped);
        changes: what each commit changed against its parent
            (:func:`gentle_hooks.services.attribution.commit_changes`).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    singles = {i.id for i in infos if len(i.parents or ()) <= 1}
    return reapplied_by_change(repo, led, {k: cs for k, cs in changes.items() if k in singles})


def reapplied_by_change(
    repo: Repository, led: Ledger, changes: Mapping[str, Sequence[BlobChange]]
) -> dict[str, Carried]:
    """The settled writer work each change re-applies (only changes that re-apply some
    are keys).

    Args:
        repo: where the blobs are; led: the ledger;
        changes: each change path by path, keyed by the commit it is (an entry that
            commit took is its own, not re-applied) or by ``""`` for the change being
            committed here.

    Cost: none without settled entries of the changes' paths (one indexed query); else
    one ``cat-file`` for the changed blobs and, when a stored key of an entry is among
    the lines a change adds (or the change adds the entry's blob, or a short telling
    line), one more for those entries' blobs.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    todo = {k: [c for c in cs if c.new_blob] for k, cs in changes.items()}
    paths = sorted({c.path for cs in todo.values() for c in cs})
    if not paths:
        return {}
    by_path: dict[str, list[WriterEntryRecord]] = {}
    for rec in led.settled_entries(paths):
        by_path.setdefault(rec.path, []).append(rec)
    if not by_path:
        return {}
    # imported here: a change of no path with settled writer work compares no lines
    from gentle_hooks.policy.linekeys import any_line_keys, line_keys, telling_keys

    todo = {k: [c for c in cs if c.path in by_path] for k, cs in todo.items()}
    blobs = sorted({b for cs in todo.values() for c in cs for b in (c.old_blob, c.new_blob) if b})
    contents = repo.read_blobs(blobs)
    maybe: dict[str, list[tuple[BlobChange, WriterEntryRecord]]] = {}
    for key, cs in todo.items():
        for c in cs:
            new = contents.get(c.new_blob) if c.new_blob else None
            old = contents.get(c.old_blob) if c.old_blob else None
            known = any_line_keys(old)
            introduced = any_line_keys(new) - known
            short = bool(telling_keys(new) - known - line_keys(new))  # a short action added
            for rec in by_path[c.path]:
                if c.new_blob == rec.blob or introduced & set(rec.added) or short:
                    maybe.setdefault(key, []).append((c, rec))
    if not maybe:
        return {}
    # imported here: most changes re-apply nothing (a push's commits take no settled work)
    from gentle_hooks.policy.attribution import reapplies
    from gentle_hooks.services.across import path_change
    from gentle_hooks.services.settle import entry_blobs, policy_entry

    recs = {rec.id: rec for pairs in maybe.values() for _, rec in pairs}
    contents |= repo.read_blobs(sorted(entry_blobs(recs.values()) - contents.keys()))
    rules = {i: policy_entry(rec, contents) for i, rec in recs.items()}
    took = {(t.entry_id, t.commit_id) for t in led.entry_takes(sorted(recs))}
    out: dict[str, Carried] = {}
    for key, pairs in maybe.items():
        found = [
            rec
            for c, rec in pairs
            if (rec.id, key) not in took and reapplies(path_change(c, contents), rules[rec.id])
        ]
        if found:
            out[key] = carried_of(led, found, {e.id for e in found})
    return out


def reapplied_staged(repo: Repository, cand: Candidate, *, amend: bool) -> LedgerFacts | None:
    """The ledger's facts for a staged candidate that re-applies settled writer content
    (:func:`reapplied_by_change` of :func:`~gentle_hooks.services.change_facts.delivery_changes`),
    or None when it re-applies none (or no ledger exists).

    Args:
        repo: the hook's repository; cand: the staged candidate, not a merge being
            committed (the caller's to tell);
        amend: the commit replaces ``HEAD``: its change is against ``HEAD``'s parent, and
            what ``HEAD`` took is the commit's own, not re-applied.

    Raises:
        GitError: git failed; StoreError: the ledger exists but cannot be read.
    """
    from gentle_hooks.services.change_facts import delivery_changes

    root = repo.paths.toplevel
    assert root is not None  # Repository.open refuses bare repositories here
    led = Ledger.open_existing(ledger_path(repo.paths.common_dir))
    if led is None:
        return None
    with led:
        key = (cand.head or "") if amend else ""
        found = reapplied_by_change(repo, led, {key: delivery_changes(repo, cand, amend=amend)})
        if key not in found:
            return None
        return facts_from(led, root, cand.identity, found[key].entries)
