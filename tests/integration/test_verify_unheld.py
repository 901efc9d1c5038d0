"""An ignored folder of the work tree on ``sys.path`` through a ``.pth`` file (``build/lib``
added beside an editable install), holding a module the candidate's tree lacks: the room's
checks must not import it (issue 18: the room fails closed on places it does not hold;
SPEC §9: a verify run checks "the candidate's exact tree").

The venv is real (``python -m venv``); the ``.pth`` files are written as ``pip install -e``
and a hand-made path file leave them. Git is real.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import write
from tests.integration.test_verify_editable import (
    BRIEF,
    FIXED,
    _exits,
    _mul_test,
    _project,
    _verify,
)

#: The brief, its suite importing ``pkg_extra`` (a module only the work tree's ignored
#: ``build/lib`` holds).
EXTRA_BRIEF: dict[str, Any] = {**BRIEF, "id": "extra-1"}


def _venv_with_build(where: Path, work: Path) -> Path:
    """A venv at ``where`` with ``pkgx`` installed editable from ``work/src`` and a second
    ``.pth`` adding the work tree's ignored ``build/lib`` to ``sys.path``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python*/site-packages")
    (site / "__editable__.pkgx-0.1.pth").write_text(f"{work / 'src'}\n")
    (site / "zz_build.pth").write_text(f"{work / 'build' / 'lib'}\n")
    return where


def test_a_module_only_an_ignored_work_tree_folder_holds_is_not_imported(
    tmp_path: Path,
) -> None:
    """The work tree's ignored ``build/lib`` (on ``sys.path`` through a ``.pth``) holds
    ``pkg_extra``, which a test of the candidate imports and the candidate does not hold:
    the room hides that place, the suite fails as it does in the candidate's tree, and the
    verdict is not ``pass``; the note names the place."""
    work = _project(tmp_path / "w")
    write(work / "build" / "lib" / "pkg_extra.py", "VALUE = 6\n")
    venv = _venv_with_build(tmp_path / "venv", work)
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    _mul_test(work)
    write(
        work / "tests" / "test_extra.py",
        "import unittest\n\nfrom pkg_extra import VALUE\nfrom pkgx import mul\n\n\n"
        "class T(unittest.TestCase):\n    def test_extra(self):\n"
        "        self.assertEqual(mul(2, 3), VALUE)\n",
    )
    out = _verify(work, tmp_path, venv, code=1, brief_data=EXTRA_BRIEF)
    assert out["verdict"]["status"] != "pass", out
    assert _exits(out)[-1] == ("suite", 1), out["outcomes"]
    (line,) = [n for n in out["notes"] if str(work / "build" / "lib") in n]
    assert "unimportable" in line, line
