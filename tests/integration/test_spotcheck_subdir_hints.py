"""From a subdirectory, ``spot-check --committed``'s way out keeps the binding and names
the repository top, as the push block did (refuter r14z finding 3, issue 14): after
``receipt run --committed -- python3 -m unittest`` ran no tests in ``src/``, the hint
printed ``prefix: gentle-hook receipt run --committed --`` and ``spot-check --committed``,
dropping the ``--cwd <top>`` the push block had printed."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.conftest import gh, git, paste, write


def test_the_hints_from_a_subdirectory_name_the_top(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "writer change")
    sub = repo / "src"
    assert git(sub, "rev-parse", "--show-prefix").strip() == "src/"  # the premise
    ran = gh(sub, "receipt", "run", "--committed", "--", "python3", "-m", "unittest")
    assert ran.returncode == 0 and "ran no tests" in ran.stdout + ran.stderr, ran.stderr
    proc = gh(sub, "spot-check", "--committed")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    top = shlex.quote(str(repo))
    prefix = f"gentle-hook receipt run --cwd {top} --committed --"
    again = f"gentle-hook spot-check --cwd {top} --committed"
    assert f"; prefix: {prefix}; run: {again}" in proc.stderr, proc.stderr
    assert f"it runs in {repo}, the repository top" in proc.stderr
    # pasted as printed from the subdirectory, the prefix completed with the project's test
    # command: the report counts and the spot check passes
    done = paste(f"{prefix} {sys.executable} -m pytest -q -p no:cacheprovider", sub)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = paste(again, sub)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_at_the_top_the_hints_stay_as_they_were(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "writer change")
    ran = gh(repo / "src", "receipt", "run", "--committed", "--", "python3", "-m", "unittest")
    assert ran.returncode == 0
    proc = gh(repo, "spot-check", "--committed")
    assert proc.returncode == 2
    assert (
        "; prefix: gentle-hook receipt run --committed --; run: gentle-hook spot-check "
        "--committed" in proc.stderr
    ), proc.stderr
