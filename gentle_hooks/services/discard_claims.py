"""The person's claims a ``gentle-hook discard`` records instead of ending writer work
(SPEC §3 "Pending work ends cleanly", §6 ``discard``; :mod:`gentle_hooks.services.discard`):
a person's own paths holding writer lines copied there (:func:`copied_here`,
:func:`held_alone_here`, :func:`claim_own_paths`), the same fix made by hand in another
worktree (:func:`claim_copies`), the writer's work moved to another path, which no claim
makes a person's (:func:`left_its_path`, :func:`moved_here`), and the trees of this work
tree's change they are read from (:func:`change_trees`).

Room ``services``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from contextlib import suppress

from gentle_hooks.errors import GitError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import DiscardRecord, WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.attribution import carried


def claim_copies(
    repo: Repository, led: Ledger, root: str, why: str, entries: Sequence[WriterEntryRecord]
) -> DiscardRecord:
    """Record the person's claim of the copy this work tree's change (files or index
    against ``HEAD``) holds of other worktrees' open ``entries`` (their own lines, or their
    blob: the same fix made by hand here), bound to the blobs the change holds at their
    paths (:class:`~gentle_hooks.services.claims.Claims`): it ends no entry, so the
    writer's work stays pending in its own worktree and blocks a change made there.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    ids = {e.id for e in entries}
    paths = sorted({e.path for e in entries})
    base, trees = change_trees(repo)
    bound: set[str] = set()
    for tree in trees:
        if {e.id for e in carried(repo, led, repo.tree_delta(base, tree)).entries} & ids:
            bound |= {f"{b} {p}" for p, b in repo.blobs_in(tree, paths).items()}
    rec = DiscardRecord(
        root, repo.ident(), why, tuple(paths), (), tuple(sorted(ids)), tuple(sorted(bound))
    )
    return led.add(rec)


def copied_here(repo: Repository, led: Ledger, paths: Sequence[str]) -> dict[str, set[int]]:
    """Of ``paths`` (none a path of pending work), those this work tree's change (files or
    index against ``HEAD``) holds writer content of a live entry at, copied from the
    entry's own path (:attr:`~gentle_hooks.services.attribution.Carried.held_at`: two of
    its lines, one that counts alone, its renamed blob), each with those entries' ids; a
    path holding an entry's writer blob byte for byte (the writer's file copied), or the
    writer's path moved there (``HEAD`` has it, the change's tree not), is left out: no discard
    makes that a person's.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    base, trees = change_trees(repo)
    wanted = set(paths)
    found: dict[str, set[int]] = {}
    writer_blobs = {e.blob for e in led.live_entries() if e.blob}
    for tree in trees:
        work = carried(repo, led, repo.tree_delta(base, tree))
        live = [e for e in work.entries if e.state in ("open", "taken")]
        sources = {p for p, _ in work.held_at}
        blobs = repo.blobs_in(tree, sorted(wanted | sources))
        had = repo.blobs_in(base, sorted(sources))
        for path, where in work.held_at:
            if where not in wanted or path == where or blobs.get(where) in writer_blobs:
                continue
            if path in had and path not in blobs:  # the writer's path moved there
                continue
            ids = {e.id for e in live if e.path == path}
            if ids:
                found.setdefault(where, set()).update(ids)
    return found


def left_its_path(repo: Repository, led: Ledger, root: str) -> dict[int, str]:
    """This work tree's (``root``) open writer entries whose content neither its files (as
    ``git add -A`` would stage them) nor its index hold at the entry's own path any more,
    each with that path: the writer's file moved or renamed (``mv deploy.py ship.py``), or
    its lines cut from it. Content of theirs at another path is the writer's work moved
    there, never a person's own file sharing a few lines copied (the writer's path still
    holds those).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    mine = [e for e in led.live_entries() if e.root == root and e.state == "open"]
    if not mine:
        return {}
    base, trees = change_trees(repo)
    stays: set[str] = set()
    for tree in trees:
        work = carried(repo, led, repo.tree_delta(base, tree))
        stays |= {p for p, where in work.held_at if p == where}
    return {e.id: e.path for e in mine if e.path not in stays}


def moved_here(
    repo: Repository, led: Ledger, root: str, held: Mapping[str, Set[int]]
) -> dict[str, list[str]]:
    """Of the paths ``held`` (a person's own paths, each with the ids of the entries whose
    writer content the change holds there), those holding content of an entry that left
    its own path (:func:`left_its_path`), each with those writers' paths, sorted.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    if not held:
        return {}
    gone = left_its_path(repo, led, root)
    out = {w: sorted({gone[i] for i in ids if i in gone}) for w, ids in held.items()}
    return {w: ps for w, ps in sorted(out.items()) if ps}


def claim_own_paths(
    repo: Repository, led: Ledger, root: str, why: str, paths: Sequence[str], ids: Set[int]
) -> DiscardRecord:
    """Record the person's claim of their own ``paths`` (no path of pending work), which
    this work tree's change holds the live writer content of the entries ``ids`` at,
    copied from the writer's path (:func:`copied_here`, :func:`held_alone_here`): bound
    to the blobs the change (files and index) holds there
    (:class:`~gentle_hooks.services.claims.Claims`), so exactly that content there is the
    person's in changes made in this worktree. It ends no entry (the writer's work stays
    pending, its own path the writer's); other content at those paths (an edit since,
    more of the writer's lines) is judged again.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be written.
    """
    _, trees = change_trees(repo)
    bound = {f"{b} {p}" for tree in trees for p, b in repo.blobs_in(tree, paths).items()}
    rec = DiscardRecord(
        root, repo.ident(), why, tuple(paths), (), tuple(sorted(ids)), tuple(sorted(bound))
    )
    return led.add(rec)


def held_alone_here(
    repo: Repository, live: Sequence[WriterEntryRecord], paths: Sequence[str]
) -> dict[str, set[int]]:
    """Of ``paths`` (none a path of pending work), those this work tree's change (files or
    index against ``HEAD``) holds one line of a live entry at, alone
    (:func:`~gentle_hooks.policy.across.by_one_line`: a person's own file holding one
    writer line that runs or reaches something), each with those entries' ids: a discard
    naming them claims that line there, and nothing else (the entry stays pending; two
    writer lines there, or its blob, are the writer's again).

    Raises:
        GitError: git failed.
    """
    from gentle_hooks.policy.across import by_one_line
    from gentle_hooks.services.across import path_change
    from gentle_hooks.services.settle import entry_blobs, policy_entry

    text = [e for e in live if not e.binary]
    if not text:
        return {}
    base, trees = change_trees(repo)
    found: dict[str, set[int]] = {}
    for tree in trees:
        changes = [c for c in repo.tree_delta(base, tree) if c.path in paths and c.new_blob]
        blobs = {b for c in changes for b in (c.old_blob, c.new_blob) if b} | entry_blobs(text)
        contents = repo.read_blobs(sorted(blobs))
        for c in changes:
            change = path_change(c, contents)
            for e in text:
                if by_one_line(change, policy_entry(e, contents)):
                    found.setdefault(c.path, set()).add(e.id)
    return found


def change_trees(repo: Repository) -> tuple[str, list[str]]:
    """``HEAD``'s tree (the empty tree before the first commit) and the trees of this work
    tree's change against it: the work tree as ``git add -A`` would stage it, then the index
    (left out while a conflict is in progress: the work tree's files are the change);
    equal trees once.

    Raises:
        GitError: git failed.
    """
    head = repo.head()
    base = repo.tree_of(head) if head else repo.empty_tree
    trees = [repo.snapshot_tree()]
    with suppress(GitError):
        trees.append(repo.staged_tree())
    return base, list(dict.fromkeys(trees))
