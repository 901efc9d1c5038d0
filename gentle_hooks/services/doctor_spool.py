"""The doctor's view of the spool (SPEC §6): writer records waiting beside the ledger, and
spools moved aside for a line that was not a record.

Room ``services``. Plain ``doctor`` changes nothing: it reports what stands at the spool's
name (a link or another file that is not a spool included) and never folds, reads or moves
it; ``doctor --fix`` folds it, or moves it aside (kept, renamed).
"""

from __future__ import annotations

import os

from gentle_hooks.errors import Command, cli
from gentle_hooks.ledger import spool


def spool_findings(path: str) -> list[tuple[str, Command | None]]:
    """Per failing ``spool`` check of the ledger at ``path``, its detail and the command
    that resolves it: records waiting in the spool (``doctor --fix`` folds them in once
    the write lock is free), something other than a regular file at the spool's name (the
    fix moves it aside), and each spool moved aside before (kept for a person to read)."""
    out: list[tuple[str, Command | None]] = []
    where = spool.spool_path(path)
    if os.path.islink(where) or (os.path.lexists(where) and not os.path.isfile(where)):
        what = "a symbolic link" if os.path.islink(where) else "not a regular file"
        out.append(
            (
                f"{where}: is {what}, not a spool (not read; the fix moves it aside, kept as "
                "spool.jsonl.bad-TIME)",
                cli("doctor", "--fix"),
            )
        )
    elif spool.waiting(path):
        out.append(
            (
                f"{where}: writer records wait for the ledger's write lock (the gates fail "
                "closed until they are folded in; the next command that writes folds them)",
                cli("doctor", "--fix"),
            )
        )
    for kept in spool.kept_aside(path):
        out.append(
            (
                f"{kept}: a spool with a line that is not a writer record, kept aside; read "
                "it, record its writes again, then remove it",
                None,
            )
        )
    return out


def unchecked_while_spooled(path: str) -> str | None:
    """Why a check reading the ledger at ``path`` is not run now: a spool waits, which
    only ``doctor --fix`` folds (or moves aside); None when nothing stands at its name."""
    if not (os.path.lexists(path) and spool.waiting(path)):
        return None
    return (
        f"not checked while {spool.spool_path(path)} waits to be folded in (the fix folds it first)"
    )
