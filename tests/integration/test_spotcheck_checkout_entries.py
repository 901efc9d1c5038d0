"""A spot check that re-runs in a temporary checkout judges "defined by the change" with the
``PYTHONPATH`` entries that checkout really puts first (issue 18; SPEC §5 "Spot check",
row C1-own): an editable install the install files do not name (a ``.pth`` ``import``
line installing a finder, as hatchling's ``dev-mode-exact`` writes) makes the checkout put
its ``src`` first, so a ``src/pytest.py`` the change adds runs as ``python3 -m pytest``.

The venv is real (``python -m venv``, no pip: its ``python3`` has no pytest of its own);
the finder is written as the installer writes it. Git is real.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import commit_all, gh, git, write
from tests.integration.test_verify_probe import REDIRECTOR

FAKE = 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n'
BROKEN = "def add(a, b):\n    return a - b\n"


def _finder_venv(repo: Path) -> dict[str, str]:
    """An ignored ``.venv`` in ``repo`` whose ``.pth`` ``import`` line maps ``app`` to the
    work tree's ``src/app.py``; the environment with its ``bin`` first on ``PATH``."""
    write(repo / ".gitignore", "__pycache__/\n.pytest_cache/\n.venv/\n")
    commit_all(repo, "ignore the venv")
    venv = repo / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    init = repr(str(repo / "src" / "app.py"))
    code = REDIRECTOR.replace("@WHERE@", "append(cls)").replace("@INIT@", init)
    (site / "_editable_impl_app.py").write_text(code.replace('["calc"]', '["app"]'))
    (site / "_editable_impl_app.pth").write_text("import _editable_impl_app\n")
    return {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}


def test_a_module_shadowing_the_runner_on_the_checkouts_first_entry_is_not_re_run(
    repo: Path,
) -> None:
    """Staged: a broken ``add`` and ``src/pytest.py`` exiting 0; the work tree then mends
    ``add`` (the spot check re-runs in a checkout). The receipt of ``python3 -m pytest``
    passed only through the change's ``src/pytest.py``; the spot check refuses it naming
    that file (it re-ran it and passed)."""
    env = _finder_venv(repo)
    write(repo / "src" / "app.py", BROKEN)
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(repo / "src" / "pytest.py", FAKE)
    git(repo, "add", "-A")
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b\n")
    command = ("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider")
    ran = gh(repo, "receipt", "run", "--staged", "--", *command, env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr  # the change's own pytest said so
    proc = gh(repo, "spot-check", "--staged", env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "cannot count" in x]
    assert "the change adds or changes src/pytest.py, which defines what it runs" in line, line
