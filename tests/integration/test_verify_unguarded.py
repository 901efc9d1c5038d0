"""A check that starts Python without the room's import guard — ``python3 -E``, ``python3
-I``, ``env -u PYTHONPATH``, a console script whose ``#!`` line carries ``-E`` — while
nothing is redirected: a venv ``.pth`` ``import`` line still puts a work-tree directory on
``sys.path`` (issue 18: the room imports nothing from the work tree it does not hold;
SPEC §9: a verify run checks "the candidate's exact tree").

The staged ``calc`` imports ``mul`` from ``fastmul``, which only the work tree holds
(never staged): in the candidate's tree the mul test cannot pass. The venv's ``.pth``
appends the work tree's ``extra/`` to ``sys.path`` (an ``import`` line: no install file
names it). Under the guard that place is fenced; a Python started without the guard must
not run the check (it ran, and passed). Git and the venv are real.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import _verify
from tests.integration.test_verify_other_copy import CALC_BRIEF

MUL_TEST = (
    "import unittest\n\nfrom calc import mul\n\n\nclass T(unittest.TestCase):\n"
    "    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n"
)
#: How each check starts its Python without the guard ("runtests": the venv's console
#: script whose ``#!`` line is ``python -E``).
STARTS = {
    "E": "python3 -E -m unittest tests.test_mul",
    "I": "python3 -I -c \"import sys; sys.path[:0] = ['']; import unittest; "
    "unittest.main(module='tests.test_mul')\"",
    "unset": "env -u PYTHONPATH python3 -m unittest tests.test_mul",
    "shebang": "runtests",
}


def _work(root: Path) -> Path:
    """A flat ``calc.py`` with a unittest suite; ``extra/`` ignored; base committed."""
    root.mkdir()
    git(root, "init", "-q")
    write(root / ".gitignore", "__pycache__/\n.agents/\nextra/\n")
    write(root / "calc.py", "def add(a, b):\n    return a + b\n")
    write(root / "tests" / "__init__.py", "")
    write(
        root / "tests" / "test_add.py",
        "import unittest\n\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    )
    commit_all(root, "base")
    return root


def _venv(where: Path, extra: Path) -> Path:
    """A venv whose ``.pth`` ``import`` line appends ``extra`` to ``sys.path``, with a
    console script ``runtests`` whose ``#!`` line starts its Python with ``-E``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python*/site-packages")
    (site / "extra_path.pth").write_text(f"import sys; sys.path.append({str(extra)!r})\n")
    script = where / "bin" / "runtests"
    script.write_text(
        f"#!{where / 'bin' / 'python'} -E\nimport sys, unittest\nsys.path[:0] = ['']\n"
        "unittest.main(module='tests.test_mul', argv=sys.argv[:1])\n"
    )
    script.chmod(0o755)
    return where


@pytest.mark.parametrize("start", sorted(STARTS))
def test_a_python_started_without_the_guard_never_passes_on_the_work_trees_code(
    tmp_path: Path, start: str
) -> None:
    """The criterion starts Python without the guard: it is not run (its evidence says
    why) and the verdict is not ``pass``; it ran and passed, importing the work tree's
    ``fastmul``."""
    work = _work(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "extra")
    write(work / "calc.py", "def add(a, b):\n    return a + b\n\n\nfrom fastmul import mul\n")
    write(work / "tests" / "test_mul.py", MUL_TEST)
    git(work, "add", "-A")
    write(work / "extra" / "fastmul.py", "def mul(a, b):\n    return a * b\n")
    brief: dict[str, Any] = {
        **CALC_BRIEF,
        "successCriteria": [{"criterion": "the mul test passes", "run": STARTS[start]}],
    }
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=brief)
    assert out["verdict"]["status"] != "pass", out["outcomes"]
    (first, *_) = out["outcomes"]
    assert first["exit_code"] is None, out["outcomes"]
    assert str(work / "extra") in (first["error"] or ""), first
