"""``receipt run --staged`` runs in a temporary checkout of the staged tree: an editable
install the checkout cannot read from its files (a ``.pth`` ``import`` line installing a
finder that maps the package into the work tree, as hatchling's ``dev-mode-exact`` does)
must import the checkout's copy there, as the verify room's checks do (issue 18; SPEC §5
"Spot check": the re-run is on "the candidate's exact tree").

Venvs are real (``python -m venv``); the finder is written as the installer writes it. Git
is real.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from tests.conftest import gh
from tests.integration.test_verify_probe import _calc, _staged_bug_fixed_tree, _venv


def test_receipt_run_staged_imports_the_staged_copy_through_a_finder(tmp_path: Path) -> None:
    """The staged ``mul`` adds, the work tree's (which the venv's finder maps) multiplies:
    the staged run fails (it passed, importing the work tree's ``calc``)."""
    work = _calc(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work, "finder")
    _staged_bug_fixed_tree(work)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    check = "from calc import mul; assert mul(2, 3) == 6"
    proc = gh(work, "receipt", "run", "--staged", "--", "python3", "-c", check, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr


def test_a_checkout_that_cannot_keep_imports_in_its_tree_says_what_to_do(tmp_path: Path) -> None:
    """The venv's own ``sitecustomize`` imports the work tree's ``calc`` into
    ``sys.modules``, out of the guard's reach: ``calc`` still resolves to the work tree.
    ``receipt run --staged`` makes no checkout (exit 2, one line) and the line says how to
    get past it."""
    work = _calc(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work, "preloaded")
    _staged_bug_fixed_tree(work)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    proc = gh(work, "receipt", "run", "--staged", "--", "python3", "-c", "pass", env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "still resolves to" in x]
    # the way out names the run's own interpreter, so the pasted command repairs the
    # environment the run used (a bare `python` was whichever one the shell found first)
    pip = f"`{shlex.quote(sys.executable)} -m pip install --no-deps --force-reinstall .`"
    assert pip in line, line
    assert "(`git add -A`)" in line, line
