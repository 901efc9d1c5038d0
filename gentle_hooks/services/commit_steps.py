"""What each commit changed against its parents, path by path (SPEC §3 "Attribution
follows content"): the diffs :func:`~gentle_hooks.services.attribution.carried_by_commits`
reads writer work from, and the push gate composes its candidates' diffs from.

Room ``services``. Wires the git room only: one ``diff-tree`` for many commits
(:meth:`Repository.tree_deltas`, or counted and kept: :meth:`Repository.step_changes`),
started early where the caller has other work to do (:func:`start_commit_changes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.delta import BlobChange, blob_change
from gentle_hooks.git.objects import CommitInfo
from gentle_hooks.git.repository import Repository


def commit_changes(
    repo: Repository, infos: Sequence[CommitInfo], counted: bool = False
) -> dict[str, list[BlobChange]]:
    """What each commit changed against its parents, path by path, in one ``diff-tree``.

    A root commit against the empty tree; an ordinary commit against its parent; a merge
    only where it differs from every parent (what the merge itself brought: a conflict's
    resolution), against its first parent. With ``counted`` the diff also counts lines
    and is kept (:meth:`Repository.step_changes`): the push gate composes its candidates'
    diffs from these same steps.

    Raises:
        GitError: a parent is not in this clone (a shallow boundary: nothing to compare).
    """
    trees = {i.id: i.tree for i in infos}
    unknown = sorted({p for i in infos for p in i.parents if p not in trees})
    for info in repo.read_commits(unknown):
        trees[info.id] = info.tree
    pairs = _step_pairs(repo, infos, trees)
    steps = repo.step_changes(pairs) if counted else None
    if steps is not None:
        deltas = iter([[blob_change(c) for c in step] for step in steps])
    else:
        deltas = iter(repo.tree_deltas(pairs))
    out: dict[str, list[BlobChange]] = {}
    for info in infos:
        per_parent = [next(deltas) for _ in (info.parents or ("root",))]
        first = per_parent[0]
        if len(per_parent) > 1:
            everywhere = set.intersection(*({c.path for c in d} for d in per_parent))
            first = [c for c in first if c.path in everywhere]
        out[info.id] = first
    return out


def start_commit_changes(
    repo: Repository, infos: Sequence[CommitInfo], parents: Sequence[CommitInfo]
) -> None:
    """Start the diff :func:`commit_changes` with ``counted`` runs for ``infos`` (their
    parents outside them read already: ``parents``), so that git diffs while the caller
    reads the ledger (:meth:`Repository.start_steps`); nothing when a parent is not among
    them."""
    trees = {i.id: i.tree for i in (*infos, *parents)}
    if all(p in trees for i in infos for p in i.parents):
        repo.start_steps(_step_pairs(repo, infos, trees))


def _step_pairs(
    repo: Repository, infos: Sequence[CommitInfo], trees: dict[str, str]
) -> list[tuple[str, str]]:
    """Each commit's (parent tree, tree) pairs, one per parent (the empty tree for a root
    commit), in order."""
    pairs: list[tuple[str, str]] = []
    for info in infos:
        parents = info.parents or ()
        bases = [trees.get(p) or repo.tree_of(p) for p in parents] or [repo.empty_tree]
        pairs.extend((b, info.tree) for b in bases)
    return pairs
