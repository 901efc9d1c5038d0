"""``gentle-hook spot-check`` does not re-run a receipt whose command runs what the change
itself defines (issue 18): the verifier's rule (row C1-own,
:func:`gentle_hooks.services.defined.defined_by_change`) applied to the receipt, so a
``src/pytest.py`` printing ``2 passed``, a Makefile ``test:`` made ``@echo``, or a
``conftest.py`` mending what the test imports cannot make the parent's re-run agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import commit_all, gh, paste, write

FAKE = 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n'
BROKEN = "def add(a, b):\n    return a - b\n"
#: A conftest.py that mends the broken ``add`` before the test imports it.
PATCH = "import app\n\napp.add = lambda a, b: a + b\n"


def _delegated(repo: Path) -> None:
    write(repo / "src" / "app.py", BROKEN)
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0


@pytest.mark.parametrize(
    ("fake", "text", "command"),
    [
        ("src/pytest.py", FAKE, ("python3", "-m", "pytest", "-q")),
        ("tests/conftest.py", PATCH, ("python3", "-m", "pytest")),
        ("unittest.py", FAKE, ("python3", "-m", "unittest")),
    ],
)
def test_a_receipt_whose_definition_the_change_writes_is_not_re_run(
    repo: Path, fake: str, text: str, command: tuple[str, ...]
) -> None:
    """The receipt (exit 0, the change's own word) is refused with one line naming the
    file; the gate then still blocks the commit."""
    _delegated(repo)
    write(repo / fake, text)
    env = {"PYTHONPATH": "src"}
    ran = gh(repo, "receipt", "run", "--", *command, env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr  # the writer's report counts as such
    proc = gh(repo, "spot-check", env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "cannot count" in x]
    assert f"the change adds or changes {fake}, which defines what it runs" in line, line
    assert "re-running" not in proc.stderr


def test_a_make_target_the_change_rewrites_is_not_re_run_and_the_way_out_works(
    repo: Path,
) -> None:
    """``make test`` whose ``test:`` the change makes ``@echo 1 passed``: refused naming
    the Makefile; the prefix printed, completed with the runner itself, is a report that
    counts, and the printed spot check then runs it."""
    write(repo / "Makefile", "test:\n\tpython3 -m pytest -q -p no:cacheprovider\n")
    commit_all(repo, "make test")
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    write(repo / "Makefile", "test:\n\t@echo 1 passed\n")
    assert gh(repo, "receipt", "run", "--", "make", "test").returncode == 0
    proc = gh(repo, "spot-check")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "the change adds or changes Makefile, which defines what it runs" in proc.stderr
    prefix = "gentle-hook receipt run --"
    assert f"prefix: {prefix}; run: gentle-hook spot-check" in proc.stderr, proc.stderr
    done = paste(f"{prefix} {sys.executable} -m pytest -q -p no:cacheprovider", repo)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = paste("gentle-hook spot-check", repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_receipt_the_change_does_not_define_is_re_run(repo: Path) -> None:
    """The change to ``src/app.py`` is the artifact, not the check's definition."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low").returncode == 0
    env = {"PYTHONPATH": str(repo / "src")}
    assert (
        gh(repo, "receipt", "run", "--", "python3", "-m", "pytest", "-q", env=env).returncode == 0
    )
    proc = gh(repo, "spot-check", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
