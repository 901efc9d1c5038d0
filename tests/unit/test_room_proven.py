"""Whether a room's check provably starts every Python under the import guard (issue 18;
SPEC §9: "the candidate's exact tree"): :func:`~gentle_hooks.services.room_proven.unproven`
reads shell lines, wrappers, programs on ``PATH`` and ``#!`` lines; a word it cannot read
refuses the check (fail closed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from gentle_hooks.services.room_proven import unproven


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A ``bin`` with ``python3`` (a link to this interpreter), ``py`` (a link to that),
    a console script run by it, a ``#!/bin/sh`` script and a binary-looking ``tool``."""
    b = tmp_path / "bin"
    b.mkdir()
    (b / "python3").symlink_to(os.path.realpath(sys.executable))
    (b / "py").symlink_to(b / "python3")
    scripts = {
        "pytest": f"#!{b / 'python3'}\nimport pytest\n",
        "flagged": f"#!{b / 'python3'} -E\nimport pytest\n",
        "envpy": "#!/usr/bin/env python3\nimport pytest\n",
        "envS": "#!/usr/bin/env -S PYTHONPATH= python3\n",
        "rt": "#!/bin/sh\nexec python3 -E -m unittest\n",
    }
    for name, text in scripts.items():
        (b / name).write_text(text)
        (b / name).chmod(0o755)
    (b / "tool").write_bytes(b"\x7fELF")
    (b / "tool").chmod(0o755)
    return b


def _why(line: str, b: Path) -> str | None:
    return unproven(("sh", "-c", line), f"{b}:/usr/bin:/bin", str(b.parent))


@pytest.mark.parametrize(
    "line",
    [
        "python3 -m unittest tests.test_mul",
        "py -m pytest -q",
        "pytest -q && test ! -e x",
        "envpy",
        "CI=1 PYTHONPATH=src python3 -m pytest",
        "env CI=1 python3 -m pytest",
        "timeout 60 nice -n 5 python3 -m pytest",
        "grep -q add calc.py",
        "no-such-program",
        # issue 18, r18o finding 4: env -S read as env; awk whose program starts nothing
        "env -S 'CI=1 python3 -m pytest' -q",
        "env --split-string='python3 -m pytest'",
        "awk 'END{exit NR>2}' src/calc/__init__.py",
        "awk 'NR>1 || NR<3' f",
    ],
)
def test_a_line_every_python_of_which_the_guard_reaches_is_proven(bin_dir: Path, line: str) -> None:
    assert _why(line, bin_dir) is None


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("python3 $F -m unittest", "`$F`"),
        ("env -uPYTHONPATH python3 -m unittest", "`env -uPYTHONPATH`"),
        ("env -S 'python3 -E' -m unittest", "`python3 -E`"),
        ("env -S 'PYTHONPATH= python3' -m unittest", "`env -S` sets `PYTHONPATH=`"),
        ("env -S 'python3 $F' -m unittest", "holds a variable"),
        ("awk -f prog.awk f", "`awk -f`"),
        ("awk 'BEGIN{system(\"python3 -E\")}'", "may start a program"),
        ("awk '{print | \"sh\"}' f", "may start a program"),
        ("py -E -m unittest", "`py -E`"),
        ("make test", "`make`"),
        ("rt", "script run by `/bin/sh`"),
        ("envS", "#! line `/usr/bin/env -S PYTHONPATH= python3`"),
        ("flagged", "-E"),
        ("PYTHONHOME=/x python3 -m pytest", "PYTHONHOME"),
        ("PATH=. python3 -m pytest", "PATH=."),
        ("eval python3 -m pytest", "`eval`"),
        ("tool", "may start a Python"),
        ("if true; then python3; fi", "cannot read"),
    ],
)
def test_anything_else_is_refused_naming_what(bin_dir: Path, line: str, said: str) -> None:
    why = _why(line, bin_dir)
    assert why is not None and said in why, why


def test_a_list_command_is_looked_up_as_a_program(bin_dir: Path) -> None:
    path = f"{bin_dir}:/usr/bin:/bin"
    assert unproven(("python3", "-m", "pytest"), path, str(bin_dir)) is None
    assert unproven(("make", "test"), path, str(bin_dir)) is not None
