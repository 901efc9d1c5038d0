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


def framework_lines(tool: str, hook_types: Sequence[str], config: str) -> list[str]:
    """What uninstall says when the framework still runs the gate: plainly, and the
    command that removes the framework's hooks."""
    flags = " ".join(f"-t {shlex.quote(t)}" for t in hook_types)
    return [
        f"still gated: {tool}'s hooks here run the gate, from the gentle-hooks ids "
        f"{config} lists (uninstall removes only what gentle-hook install placed)",
        f"  to stop it: remove the gentle-hooks entries from {config}, or remove {tool}'s hooks:",
        f"  run: {tool} uninstall {flags}",
    ]
