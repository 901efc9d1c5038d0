"""Installs the room cannot read from their files: a ``.pth`` whose ``import`` line installs
a meta path finder mapping the package into the work tree (hatchling's ``dev-mode-exact``
through editables, scikit-build-core, meson-python, pdm), and setuptools' strict mode (a
``build/__editable__.*`` farm of links to the work tree's files). The room asks each
interpreter where the room's names import from (issue 18: verify rather than believe;
SPEC §9: a verify run checks "the candidate's exact tree").

Venvs are real (``python -m venv``); the finder and the farm are written by hand as the
installers write them, and one venv gets a real ``pip install -e . --config-settings
editable_mode=strict`` (skipped when pip cannot install ``wheel``, which setuptools 65's
editable build needs). Git is real.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import _exits, _verify
from tests.integration.test_verify_other_copy import BASE, BUGGY, CALC_BRIEF, FIXED, MUL_TEST

PYPROJECT = """[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"
[project]
name = "calc"
version = "0.1"
[tool.setuptools.packages.find]
where = ["src"]
"""

#: What editables (hatchling ``dev-mode-exact``) writes: a module the ``.pth`` imports,
#: appending a finder that maps ``calc`` to the work tree's file.
REDIRECTOR = """import importlib.util
import sys


class RedirectingFinder:
    _redirections = {}

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if "." in fullname or path is not None or fullname not in cls._redirections:
            return None
        return importlib.util.spec_from_file_location(fullname, cls._redirections[fullname])

    @classmethod
    def install(cls):
        if cls not in sys.meta_path:
            sys.meta_path.@WHERE@


RedirectingFinder.install()
RedirectingFinder._redirections["calc"] = @INIT@
"""

#: A ``sitecustomize`` that imports the work tree's ``calc`` itself and leaves it in
#: ``sys.modules``: no finder is asked, nothing the room's guard can block.
PRELOADER = """import importlib.util
import sys

_spec = importlib.util.spec_from_file_location("calc", @INIT@)
_calc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_calc)
sys.modules["calc"] = _calc
"""


def _calc(root: Path) -> Path:
    """A src-layout ``calc`` with a unittest suite, ``build/`` ignored, base committed."""
    root.mkdir()
    git(root, "init", "-q")
    write(root / "pyproject.toml", PYPROJECT)
    write(root / ".gitignore", "__pycache__/\n*.egg-info/\n.agents/\nbuild/\n")
    write(root / "src" / "calc" / "__init__.py", BASE)
    write(
        root / "tests" / "test_add.py",
        "import unittest\n\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    )
    commit_all(root, "base")
    return root


def _venv(where: Path, work: Path, kind: str) -> Path:
    """A venv at ``where`` importing ``calc`` from ``work`` as ``kind`` installs it:
    ``finder`` (a ``.pth`` ``import`` line appending a finder), ``first`` (the same finder
    put first on ``sys.meta_path`` by the venv's own ``sitecustomize``, which the room's
    guard runs), ``preloaded`` (the venv's ``sitecustomize`` puts the work tree's ``calc``
    in ``sys.modules`` itself), ``farm`` (setuptools strict mode's link farm, by hand) or
    ``strict`` (pip itself)."""
    pip = kind == "strict"
    args = [sys.executable, "-m", "venv", *(() if pip else ("--without-pip",)), str(where)]
    subprocess.run(args, check=True)
    (site,) = where.glob("lib/python*/site-packages")
    init = str(work / "src" / "calc" / "__init__.py")
    if kind == "finder":
        code = REDIRECTOR.replace("@WHERE@", "append(cls)").replace("@INIT@", repr(init))
        (site / "_editable_impl_calc.py").write_text(code)
        (site / "_editable_impl_calc.pth").write_text("import _editable_impl_calc\n")
    elif kind == "first":
        code = REDIRECTOR.replace("@WHERE@", "insert(0, cls)").replace("@INIT@", repr(init))
        (site / "sitecustomize.py").write_text(code)
    elif kind == "preloaded":
        (site / "sitecustomize.py").write_text(PRELOADER.replace("@INIT@", repr(init)))
    elif kind == "farm":
        farm = work / "build" / "__editable__.calc-0.1-py3-none-any"
        (farm / "calc").mkdir(parents=True)
        (farm / "calc" / "__init__.py").symlink_to(init)
        (site / "__editable__.calc-0.1.pth").write_text(f"{farm}\n")
    else:
        py = where / "bin" / "python"
        got = subprocess.run([py, "-m", "pip", "install", "-q", "wheel"], capture_output=True)
        if got.returncode != 0:
            pytest.skip("pip cannot install wheel here (setuptools 65 needs it for -e)")
        strict = ("--config-settings", "editable_mode=strict")
        subprocess.run(
            [py, "-m", "pip", "install", "-q", "--no-build-isolation", "-e", str(work), *strict],
            check=True,
            capture_output=True,
        )
        assert list(work.glob("build/__editable__.calc-0.1-*/calc")), "no strict farm"
    return where


def _staged_bug_fixed_tree(work: Path) -> None:
    """Stage a ``mul`` that adds, with its test; then fix it in the work tree only."""
    write(work / "src" / "calc" / "__init__.py", BUGGY)
    write(work / "tests" / "test_mul.py", MUL_TEST)
    git(work, "add", "-A")
    write(work / "src" / "calc" / "__init__.py", FIXED)


@pytest.mark.parametrize("kind", ["finder", "first", "farm", "strict"])
def test_a_staged_bug_fails_whatever_the_install_imports_from(tmp_path: Path, kind: str) -> None:
    """The staged ``mul`` adds; the work tree's (which the venv imports) multiplies. The
    probe finds ``calc`` in the work tree, the room redirects it and checks again: the
    criterion and the suite fail (the verdict was ``pass``, both importing the work tree's
    ``calc``). ``first``: the guard blocks again after the venv's ``sitecustomize`` put its
    finder first (refuter r18k HIGH 2; it was ``blocked``, the finder out of reach)."""
    work = _calc(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work, kind)
    _staged_bug_fixed_tree(work)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert _exits(out) == [("criterion", 1), ("negative", 1), ("suite", 1)], out["outcomes"]
    assert out["verdict"]["status"] == "fail"
    (line,) = [n for n in out["notes"] if n.startswith("import probe: `calc` at ")]
    assert "resolved outside the room" in line
    assert not [n for n in out["notes"] if "is in your work tree but not in the candidate" in n]


@pytest.mark.parametrize("kind", ["finder", "farm"])
def test_an_honest_change_passes_its_base_runs_lacking_mul(tmp_path: Path, kind: str) -> None:
    """The base holds ``mul``'s test; the staged change adds ``mul``, as the work tree
    does: the verdict is ``pass`` (row C4). It was ``fail`` (row C4-nothing, the brief
    blamed): the base and emptied runs imported the work tree's ``mul`` and passed too."""
    work = _calc(tmp_path / "w")
    write(work / "tests" / "test_mul.py", MUL_TEST)
    commit_all(work, "mul's test")
    venv = _venv(tmp_path / "venv", work, kind)
    write(work / "src" / "calc" / "__init__.py", FIXED)
    git(work, "add", "-A")
    brief = {
        **CALC_BRIEF,
        "negativeTests": [
            {
                "criterion": "the tree had no mul",
                "run": "python3 -c 'import calc; assert not hasattr(calc, \"mul\")'",
            }
        ],
    }
    out = _verify(work, tmp_path, venv, "--staged", code=0, brief_data=brief)
    assert out["verdict"]["status"] == "pass", out["outcomes"]
    assert out["outcomes"][0]["row"] == "C4", out["outcomes"]


def test_a_name_still_found_in_the_work_tree_blocks_the_verdict(tmp_path: Path) -> None:
    """The venv's own ``sitecustomize`` (run by the room's guard) imports the work tree's
    ``calc`` and leaves it in ``sys.modules``: the redirect cannot hold, the probe says
    so, no check runs and the verdict is ``blocked`` with the line naming ``calc`` and
    where it resolved (it was ``pass``)."""
    work = _calc(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work, "preloaded")
    _staged_bug_fixed_tree(work)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "blocked", out["outcomes"]
    assert {o["exit_code"] for o in out["outcomes"]} == {None}
    (line,) = [n for n in out["notes"] if n.startswith("`calc` still resolves to ")]
    assert str(work / "src" / "calc") in line and "no check ran" in line
    # the notes are true: none says the redirect made the work tree's `calc` unimportable
    # (it said so beside this line)
    assert not [n for n in out["notes"] if n.startswith("import probe: `calc`")], out["notes"]
    assert os.path.isfile(venv / "bin" / "python")
