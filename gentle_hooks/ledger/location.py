"""Where gentle-hooks keeps its state (SPEC §6): ``<git-common-dir>/gentle-hooks/``.

Room: ledger; a leaf (``os.path`` only), so the hook pass path can find the ledger without
importing the store.
"""

from __future__ import annotations

import os

STATE_DIR = "gentle-hooks"
LEDGER_FILE = "ledger.sqlite3"


def ledger_path(common_dir: str) -> str:
    """The ledger file for a repository: ``<common_dir>/gentle-hooks/ledger.sqlite3``.

    Args:
        common_dir: absolute git common dir, shared by linked worktrees.
    """
    return os.path.join(common_dir, STATE_DIR, LEDGER_FILE)
