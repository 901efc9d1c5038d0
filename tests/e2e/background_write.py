"""A shell tool call whose process writes after the call returned (``( ... ) &``), held
until the test lets it go: shared by the OpenCode and Pi shell rows
(tests/e2e/test_shell_opencode.py, tests/e2e/test_shell_pi.py).
"""

from __future__ import annotations

import time
from pathlib import Path


def held_in_background(flag: Path, command: str) -> str:
    """A shell command line that returns at once and runs ``command`` in the background
    once ``flag`` exists, then creates ``flag.done``. Bounded: the process runs it after
    10 s whatever happens, so no process outlives a test run."""
    wait = f"for i in $(seq 1 200); do [ -e '{flag}' ] && break; sleep 0.05; done"
    return f"( {wait}; {command}; touch '{flag}.done' ) >/dev/null 2>&1 &"


def release(flag: Path) -> None:
    """Let :func:`held_in_background`'s process go and wait (at most 20 s) until it has
    written; AssertionError if it never did."""
    flag.touch()
    done = Path(f"{flag}.done")
    for _ in range(400):
        if done.exists():
            break
        time.sleep(0.05)
    assert done.exists()
