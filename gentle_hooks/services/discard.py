"""Abandon pending writer work on purpose (SPEC §3 "Pending work ends cleanly"):
``gentle-hook discard [PATH...|--all] --reason TEXT``.

Room ``services``. The work tree's live writer entries (open, or taken by a commit not
pushed yet) of the named paths (or all of them) stop attributing content to a writer,
recorded like an override: who, when, which paths and entries, and why. A commit that took
one keeps its commit record and trailer. Nothing is deleted; the user's files are not touched.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.errors import UsageError
from gentle_hooks.ledger.records import DiscardRecord
from gentle_hooks.policy.inputs import validate_label, validate_paths
from gentle_hooks.services.record import open_root, open_store


def discard(
    cwd: str | None, paths: Sequence[str], everything: bool, reason: str | None
) -> DiscardRecord:
    """Discard the work tree's pending writer work of ``paths`` (all of it with
    ``everything``).

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
        # taken too: a writer commit not pushed yet can be dropped on purpose
        pending = sorted({e.path for e in led.live_entries(root=root)})
        if not pending:
            raise UsageError("no pending writer work in this work tree: nothing to discard")
        unknown = [p for p in wanted if p not in pending]
        if unknown:
            raise UsageError(
                f"no pending writer work on {', '.join(unknown)} (pending: {', '.join(pending)})"
            )
        return led.discard_entries(root, wanted, repo.ident(), why)
