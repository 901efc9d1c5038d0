"""What ``gentle-hook uninstall`` says it removed and what it kept.

Room ``report``. Pure string building.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence


def removed_config_lines(removed: Sequence[str]) -> list[str]:
    """One line per git config value uninstall removed."""
    return [f"git config: removed {line}" for line in removed]


def kept_lines(ledger: str | None, notes_ref: str | None) -> list[str]:
    """What uninstall keeps on purpose (the records), and the commands that remove them."""
    lines = []
    if ledger is not None:
        lines.append(
            f"kept: the ledger of records, {ledger} (remove it: rm -r {shlex.quote(ledger)})"
        )
    if notes_ref is not None:
        lines.append(f"kept: the notes, {notes_ref} (remove them: git update-ref -d {notes_ref})")
    return lines
