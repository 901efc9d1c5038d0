"""Pending writer work that ends without a commit: its expiry (SPEC §3
"Attribution follows content": pending work whose content is gone "expires with a status
line, never a block").

Room ``services``: :func:`expire_pending` runs
:func:`~gentle_hooks.services.attribution.expire_gone` over this work tree's open entries;
the words of what expired are
:func:`~gentle_hooks.services.attribution.expiry_lines`. A writer's mode change alone
(``chmod +x``: its blob stays in ``HEAD``) expires once no local version holds the flip
(:func:`~gentle_hooks.services.shell_modes.flips_held`): put back, a person's own flip of
the path later is theirs.
"""

from __future__ import annotations

from collections.abc import Sequence

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import LIVE_STATES, WriterEntryRecord
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.services.attribution import expire_gone
from gentle_hooks.services.shell_modes import flips_held, is_flip


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
        flips = [e for e in entries if is_flip(e) and e.state in LIVE_STATES]
        held = flips_held(repo, flips) if flips else set()
        gone = [e for e in flips if e.id not in held]
        writable.set_entry_state([e.id for e in gone], "expired")
        return gone + expire_gone(repo, writable, [e for e in entries if not is_flip(e)])
