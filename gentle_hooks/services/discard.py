"""Abandon pending writer work on purpose (SPEC §3 "Pending work ends cleanly"):
``gentle-hook discard [PATH...|--all] --reason TEXT``.

Room ``services``. The work tree's live writer entries (open, or taken by a commit not
pushed yet), and the open ones of the clone's other worktrees (the ledger is shared: a
change made in linked worktree B carries work recorded in A, and the block in B offers
this discard), of the named paths (or all of them) stop attributing content to a writer,
recorded like an override: who, when, which paths and entries, and why. A commit that took
one keeps its commit record and trailer. Nothing is deleted; the user's files are not touched.

Only what a human makes alike can be discarded (an edit of row A6 or A7, a removal, a
binary change): pending work whose own lines (rows A1, A2) this work tree or its index
still holds is refused, one line naming the paths, since a commit holding them stays the
writer's at every gate (its note carries the writer and the discard): a discard the commit
gate honoured and the push gate did not would be two decisions. The work tree checked is
the one the discard runs in: another worktree's writer lines stay the writer's there.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import UsageError
from gentle_hooks.ledger.records import DiscardRecord
from gentle_hooks.policy.inputs import validate_label, validate_paths
from gentle_hooks.policy.shellwords import shown_paths
from gentle_hooks.services.record import open_root, open_store
from gentle_hooks.services.settle import own_lines_kept


def discard(
    cwd: str | None, paths: Sequence[str], everything: bool, reason: str | None
) -> DiscardRecord:
    """Discard the pending writer work of ``paths`` (all of it with ``everything``): the
    work tree's, and the open work of the clone's other worktrees.

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
        # taken too: a writer commit not pushed yet can be dropped on purpose; another
        # worktree's open work too (a commit of its own is that worktree's to drop)
        live = [e for e in led.live_entries() if e.root == root or e.state == "open"]
        pending = sorted({e.path for e in live})
        if not pending:
            raise UsageError("no pending writer work in this work tree: nothing to discard")
        unknown = [p for p in wanted if p not in pending]
        if unknown:
            raise UsageError(
                f"no pending writer work on {', '.join(unknown)} (pending: {', '.join(pending)})"
            )
        named = [e for e in live if e.path in wanted or everything]
        kept = own_lines_kept(repo, [e for e in named if e.state == "open"])
        if kept:
            raise UsageError(
                f"{', '.join(shown_paths(kept))}: still holds lines the writer wrote; a discard "
                "would not make them yours (the commit and push gates judge a change holding "
                "them the writer's): verify them with the spot check the block names, or take "
                "them out and discard what is left"
            )
        return led.discard_entries(root, wanted, repo.ident(), why, others=True)
