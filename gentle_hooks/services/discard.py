"""Abandon pending writer work on purpose (SPEC §3 "Pending work ends cleanly"):
``gentle-hook discard [PATH...|--all] --reason TEXT``.

Room ``services``. The work tree's live writer entries (open, or taken by a commit not
pushed yet) of the named paths (or all of them), and of the clone's other worktrees only
the open entries this work tree's own change carries (the ledger is shared: a change made
in linked worktree B can carry work recorded in A, and the block in B offers this
discard), stop attributing content to a writer, recorded like an override: who, when,
which paths and entries, and why. Another worktree's work that this one's change does not
carry is that worktree's to discard (``--cwd`` names it): a discard run in B never ends
A's work behind A's back. A commit that took one keeps its commit record and trailer.
Nothing is deleted; the user's files are not touched.

Only what a human makes alike can be discarded (an edit of row A6 or A7, a removal, a
binary change): pending work whose own lines (rows A1, A2) this work tree or its index
still holds is refused, one line naming the paths, since a commit holding them stays the
writer's at every gate (its note carries the writer and the discard): a discard the commit
gate honoured and the push gate did not would be two decisions. The work tree checked is
the one the discard runs in: another worktree's writer lines stay the writer's there.

Writer content that went away and is here again (an expired entry whose blob the change
holds, or open work thrown away by a ``git reset`` and typed again byte for byte:
:func:`~gentle_hooks.services.settle.returned_ids`) is the exception: content decides, so
the gates judge it the writer's, and a human who typed it claims it with a discard. The
discard records it as claimed (:attr:`~gentle_hooks.ledger.records.DiscardRecord.claimed`):
it delegates no change any more, and the note of a commit holding it carries the discard
as an override line (who, why).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress

from gentle_hooks.errors import GitError, UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.records import DiscardRecord, WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.policy.inputs import validate_label, validate_paths
from gentle_hooks.policy.shellwords import shown_paths
from gentle_hooks.services.attribution import carried
from gentle_hooks.services.record import open_root, open_store
from gentle_hooks.services.settle import own_lines_kept, returned_ids


def discard(
    cwd: str | None, paths: Sequence[str], everything: bool, reason: str | None
) -> DiscardRecord:
    """Discard the pending writer work of ``paths`` (all of it with ``everything``): the
    work tree's, and the open work of the clone's other worktrees that this work tree's
    change carries (:func:`carried_here`).

    Raises:
        UsageError: no reason, paths and ``--all`` together or neither, a bad path, or
            nothing pending for what was named (with what is pending).
        GitError / StoreError: not a repository; the store cannot be written.
    """
    why = validate_label(reason, "--reason", required=True)
    assert why is not None
    if bool(paths) == everything:
        raise UsageError("name the paths to discard, or pass --all (not both)")
    wanted = validate_paths(paths)
    repo, root = open_root(cwd)
    with open_store(repo) as led:
        live = led.live_entries()
        # taken too: a writer commit not pushed yet can be dropped on purpose; another
        # worktree's open work only where this work tree's change carries it
        others = [e for e in live if e.root != root and e.state == "open"]
        cited = carried_here(repo, led, [e.id for e in others]) if others else set()
        live = [e for e in live if e.root == root or e.id in cited]
        live += came_back(repo, led)  # expired work typed again: the gates see it too
        pending = sorted({e.path for e in live})
        if not pending:
            raise UsageError(
                "no pending writer work in this work tree: nothing to discard"
                + (elsewhere_hint(others, wanted) if others else "")
            )
        unknown = [p for p in wanted if p not in pending]
        if unknown:
            raise UsageError(
                f"no pending writer work on {', '.join(unknown)} (pending: {', '.join(pending)})"
                + elsewhere_hint([e for e in others if e.path in unknown], wanted)
            )
        named = [e for e in live if e.path in wanted or everything]
        back = returned_ids(repo, named)
        kept = own_lines_kept(repo, [e for e in named if e.state == "open" and e.id not in back])
        if kept:
            raise UsageError(
                f"{', '.join(shown_paths(kept))}: still holds lines the writer wrote; a discard "
                "would not make them yours (the commit and push gates judge a change holding "
                "them the writer's): verify them with the spot check the block names, or take "
                "them out and discard what is left"
            )
        # a returned entry whose content is here again is claimed: no change holding it
        # is the writer's any more (the commit's note carries the discard)
        here = own_lines_kept(repo, [e for e in named if e.id in back])
        claimed = sorted(e.id for e in named if e.id in back and e.path in here)
        return led.discard_entries(
            root, wanted, repo.ident(), why, others=sorted(cited), claimed=claimed
        )


def _change_trees(repo: Repository) -> tuple[str, list[str]]:
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


def came_back(repo: Repository, led: Ledger) -> list[WriterEntryRecord]:
    """The expired entries whose writer blob this work tree's change holds again at their
    path (the work tree as ``git add -A`` would stage it, or the index, against ``HEAD``):
    the gates judge such a change the writer's (content decides), so a ``discard`` reaches
    them.

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    base, trees = _change_trees(repo)
    held = {
        (c.path, c.new_blob) for tree in trees for c in repo.tree_delta(base, tree) if c.new_blob
    }
    if not held:
        return []
    blobs = sorted({b for _, b in held})
    return [e for e in led.expired_entries_of_blobs(blobs) if (e.path, e.blob) in held]


def carried_here(repo: Repository, led: Ledger, ids: Sequence[int]) -> set[int]:
    """Of the entries ``ids``, those this work tree's change carries: the work tree as
    ``git add -A`` would stage it, or its index, against ``HEAD`` (what a commit made here
    would add, as the commit gate reads it).

    Raises:
        GitError: git failed; StoreError: the ledger cannot be read.
    """
    base, trees = _change_trees(repo)
    wanted = set(ids)
    found: set[int] = set()
    for tree in trees:
        found |= {e.id for e in carried(repo, led, repo.tree_delta(base, tree)).entries}
    return found & wanted


def elsewhere_hint(entries: Sequence[WriterEntryRecord], paths: Sequence[str]) -> str:
    """The tail of the refusal naming the worktrees whose pending work ``entries`` are,
    which this work tree's change does not carry ("" for none)."""
    roots = sorted({e.root for e in entries if not paths or e.path in paths})
    if not roots:
        return ""
    return (
        f"; the writer work pending in {', '.join(shown_paths(roots))} is not in this work "
        "tree's change: it is that worktree's to discard, run there"
    )
