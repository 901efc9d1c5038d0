"""Writer content a push settled, re-applied onto another base (SPEC §3 "Attribution follows
content", §5 "Spot check": a check binds to its candidate's exact trees).

Room ``services``, for the push gate. A push settles a writer's entry once the pushed
commits hold all of its content (:func:`gentle_hooks.services.settle.delivered_left_out`):
from then on what builds on that content is nobody's new writer work. A pushed commit that
*adds* that content again against its parent (``git cherry-pick -n``, ``git checkout featX
-- path``, ``git merge --squash`` onto a branch that moved on, a revert of its revert) is
a new candidate: the check bound to the commit that delivered it first does not transfer,
so the commit is delegated again (:func:`gentle_hooks.policy.attribution.reapplies`).

Not read here, each on purpose: merge commits (what a merge brings was judged on its
branch), commits that took the entry themselves (their records delegate them), a copy into
another path, and the commit gate (the fast path sends a commit staging a settled writer
blob to Python, but the gate does not read re-applications: a merge in progress would need
telling apart): re-applied content passes the commit gate and is stopped at push.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gentle_hooks.git.delta import BlobChange
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.attribution import reapplies
from gentle_hooks.policy.linekeys import any_line_keys, line_keys, telling_keys
from gentle_hooks.services.across import path_change
from gentle_hooks.services.attribution import Carried, carried_of
from gentle_hooks.services.settle import entry_blobs, policy_entry


def reapplied_by_commits(
    repo: Repository,
    led: Ledger,
    infos: Sequence[CommitInfo],
    changes: Mapping[str, Sequence[BlobChange]],
) -> dict[str, Carried]:
    """The settled writer work each of ``infos`` re-applies (only commits that re-apply
    some are keys).

    Args:
        repo: where the blobs are; led: the ledger;
        infos: the commits to judge (merges among them are skipped);
        changes: what each commit changed against its parent
            (:func:`gentle_hooks.services.attribution.commit_changes`).

    Cost: none without settled entries of the commits' paths (one indexed query); else
    one ``cat-file`` for the changed blobs and, when a stored key of an entry is among
    the lines a commit adds (or the commit adds the entry's blob, or a short telling
    line), one more for those entries' blobs.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    singles = {i.id for i in infos if len(i.parents or ()) <= 1}
    todo = {k: [c for c in cs if c.new_blob] for k, cs in changes.items() if k in singles}
    paths = sorted({c.path for cs in todo.values() for c in cs})
    if not paths:
        return {}
    by_path: dict[str, list[WriterEntryRecord]] = {}
    for rec in led.settled_entries(paths):
        by_path.setdefault(rec.path, []).append(rec)
    if not by_path:
        return {}
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
