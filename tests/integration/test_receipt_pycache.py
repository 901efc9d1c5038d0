"""``gentle-hook receipt run`` reads no ``__pycache__`` of the tree (SPEC §5 "Spot check": a
receipt is the writer's report of what its command observed on the candidate's files).

A ``__pycache__/app.<tag>.pyc`` compiled with ``UNCHECKED_HASH`` from a correct ``add`` is
run by Python in place of the broken ``app.py`` beside it, whatever the source says. The
writer's own ``receipt run`` gives its command a ``PYTHONPYCACHEPREFIX`` of its own, as the
spot check's re-run and the verify room do, so the source decides the receipt.
"""

from __future__ import annotations

import py_compile
import sys
from pathlib import Path

from tests.conftest import commit_all, gh, write

GOOD = "def add(a, b):\n    return a + b\n"
BROKEN = "def add(a, b):\n    return a - b\n"
CHECK = ("python3", "-c", "import app; assert app.add(2, 2) == 4, 'add is broken'")


def test_a_planted_unchecked_pyc_does_not_decide_the_writers_receipt(
    repo: Path, tmp_path: Path
) -> None:
    """The command fails on the broken source (exit 1, recorded as ``exit 1``), though the
    planted bytecode beside it would pass; the pyc is neither read nor rewritten."""
    write(repo / "app.py", GOOD)
    commit_all(repo, "base")
    write(repo / "app.py", BROKEN)
    pyc = repo / "__pycache__" / f"app.{sys.implementation.cache_tag}.pyc"
    pyc.parent.mkdir()
    good = write(tmp_path / "good" / "app.py", GOOD)
    py_compile.compile(
        str(good), cfile=str(pyc), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
    )
    planted = pyc.read_bytes()
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    env = {"PYTHONPYCACHEPREFIX": "", "PYTHONDONTWRITEBYTECODE": ""}
    ran = gh(repo, "receipt", "run", "--", *CHECK, env=env)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "add is broken" in ran.stderr, ran.stderr
    listed = gh(repo, "receipt", "list", env=env)
    assert "exit 1" in listed.stdout, listed.stdout + listed.stderr
    assert pyc.read_bytes() == planted
