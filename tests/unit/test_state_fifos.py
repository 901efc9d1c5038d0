"""A FIFO put where gentle-hooks reads one of its own state files is refused at once, never
waited on (SPEC §7 "Exit codes": bad input is one line and exit 2, never a hang).

An ``open()`` of a FIFO blocks until a writer opens its other end, so a reader that opens
first and checks the file type after hangs the commit hook (refuter r16y: a FIFO at
``.git/gentle-hooks/ledger.key`` held pre-commit, status and assess; one at
``subagents/x.json`` held doctor). Each case runs in a child process bounded by a timeout,
so a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_KEY = """
import sys
from gentle_hooks.ledger.seal import KeyFault, ledger_key
try:
    ledger_key(sys.argv[1], create=False)
except KeyFault as exc:
    print("refused:", exc)
"""

_MARKERS = """
import sys
from gentle_hooks.services.agent_subagents import stale
print("stale:", stale(sys.argv[1], now=0.0))
"""


def _child(code: str, arg: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, arg], capture_output=True, text=True, timeout=60, check=False
    )


def test_a_fifo_at_the_ledger_key_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "ledger.key")
    proc = _child(_KEY, str(tmp_path / "ledger.sqlite3"))
    assert proc.returncode == 0, proc.stderr
    assert "refused:" in proc.stdout and "not a regular file" in proc.stdout


def test_a_fifo_among_the_subagent_markers_is_skipped_without_waiting(tmp_path: Path) -> None:
    common = tmp_path / "git"
    markers = Path(
        _child(
            "import sys\nfrom gentle_hooks.services.agent_subagents import "
            "marker_dir\nprint(marker_dir(sys.argv[1]))",
            str(common),
        ).stdout.strip()
    )
    markers.mkdir(parents=True)
    os.mkfifo(markers / "x.json")
    proc = _child(_MARKERS, str(common))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("stale:")
