"""A module a virtual environment's own ``sitecustomize`` imports from the work tree and
leaves in ``sys.modules`` under a name the candidate's tree lacks: no finder is asked, so
the room's import guard cannot block it, and a check importing that name would test the
work tree's file (issue 18: the room imports nothing from the work tree it does not hold;
SPEC §9: a verify run checks "the candidate's exact tree").

The venv is real (``python -m venv``), its ``.pth`` and ``sitecustomize`` written as an
editable install and a user would. Git is real.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import git, write
from tests.integration.test_verify_editable import _verify
from tests.integration.test_verify_other_copy import BASE, CALC_BRIEF, MUL_TEST
from tests.integration.test_verify_probe import _calc

#: The venv's ``sitecustomize``: the work tree's ``fastmul.py`` loaded by path, left in
#: ``sys.modules``.
PRELOADER = """import importlib.util
import sys

_spec = importlib.util.spec_from_file_location("fastmul", @FILE@)
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
sys.modules["fastmul"] = _mod
"""


def _preloading_venv(where: Path, work: Path) -> Path:
    """A venv whose ``.pth`` names ``work/src`` (an editable install) and whose own
    ``sitecustomize`` preloads ``work/src/fastmul.py`` as ``fastmul``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python*/site-packages")
    (site / "calc.pth").write_text(f"{work / 'src'}\n")
    file = repr(str(work / "src" / "fastmul.py"))
    (site / "sitecustomize.py").write_text(PRELOADER.replace("@FILE@", file))
    return where


def test_a_module_preloaded_from_the_work_tree_under_a_name_the_candidate_lacks(
    tmp_path: Path,
) -> None:
    """The staged ``calc`` imports ``mul`` from ``fastmul``, which only the work tree holds
    (never staged): in the candidate's tree the mul test cannot pass. The venv preloads
    the work tree's ``fastmul``: no check runs, the verdict is ``blocked`` and the line
    names ``fastmul`` and the work tree's file (the verdict was ``pass``)."""
    work = _calc(tmp_path / "w")
    venv = _preloading_venv(tmp_path / "venv", work)
    write(work / "src" / "calc" / "__init__.py", BASE + "\nfrom fastmul import mul\n")
    write(work / "tests" / "test_mul.py", MUL_TEST)
    git(work, "add", "-A")
    write(work / "src" / "fastmul.py", "def mul(a, b):\n    return a * b\n")
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "blocked", out["outcomes"]
    assert {o["exit_code"] for o in out["outcomes"]} == {None}, out["outcomes"]
    (line,) = [n for n in out["notes"] if "`fastmul`" in n]
    assert line.startswith(f"`fastmul` is loaded from {work / 'src' / 'fastmul.py'} "), line
    assert "sys.modules" in line and line.endswith("no check ran"), line
    # each check's evidence says the same
    assert all("`fastmul`" in (o["error"] or "") for o in out["outcomes"]), out["outcomes"]
