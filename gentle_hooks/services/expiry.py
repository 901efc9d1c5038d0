"""Pending writer work that ends without a commit: its expiry (SPEC §3
"Attribution follows content": pending work whose content is gone "expires with a status
line, never a block").

Room ``services``: :func:`expire_pending` runs
:func:`~gentle_hooks.services.attribution.expire_gone` over this work tree's open entries;
the words of what expired are
:func:`~gentle_hooks.services.attribution.expiry_lines`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.attribution import expire_gone


def expire_pending(repo: Repository, paths: Sequence[str] | None = None) -> list[WriterEntryRecord]:
    """:func:`expire_gone` for this work tree's open entries (of ``paths``, or all), through
    the ledger when one exists; what expired, for the one status line each gets."""
    root = repo.paths.toplevel
    led = Ledger.open_existing(ledger_path(repo.paths.common_dir)) if root else None
    if led is None or root is None:
        return []
    led.close()
    with Ledger.open(led.path) as writable:
        entries = writable.open_entries(root, paths)
        return expire_gone(repo, writable, entries)
