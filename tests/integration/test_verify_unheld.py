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

import pytest

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


#: What a ``.pth`` ``import`` line may do to put the work tree's ignored ``build/lib`` on
#: ``sys.path`` (or behind a meta path finder): no install file names that place.
IMPORT_LINES = {
    "append": "import sys; sys.path.append(@LIB@)",
    "join": "import os, sys; sys.path.extend([os.path.join(@WORK@, 'build', 'lib')])",
    "addsitedir": "import site; site.addsitedir(@LIB@)",
    "finder": "import _extra_finder",
}

#: A meta path finder mapping ``pkg_extra`` into the work tree (as an editables-style
#: installer's ``.pth`` ``import`` line installs one).
EXTRA_FINDER = """import sys
from importlib.util import spec_from_file_location


class _Finder:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname == "pkg_extra":
            return spec_from_file_location(fullname, @LIB@ + "/pkg_extra.py")
        return None


sys.meta_path.append(_Finder)
"""


def _extra_project(tmp_path: Path, where: str = "build/lib") -> tuple[Path, Path, Path]:
    """(the work tree, its venv, the venv's site-packages): ``pkgx`` installed editable from
    ``src``, ``pkg_extra`` in the ignored folder ``where`` of the work tree only, and a test
    of the candidate importing it."""
    work = _project(tmp_path / "w")
    (work / ".git" / "info" / "exclude").write_text("vendor/\n")
    write(work / where / "pkg_extra.py", "VALUE = 6\n")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "__editable__.pkgx-0.1.pth").write_text(f"{work / 'src'}\n")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    _mul_test(work)
    write(
        work / "tests" / "test_extra.py",
        "import unittest\n\nfrom pkg_extra import VALUE\nfrom pkgx import mul\n\n\n"
        "class T(unittest.TestCase):\n    def test_extra(self):\n"
        "        self.assertEqual(mul(2, 3), VALUE)\n",
    )
    return work, venv, site


def _filled(text: str, work: Path) -> str:
    return text.replace("@LIB@", repr(str(work / "build" / "lib"))).replace(
        "@WORK@", repr(str(work))
    )


@pytest.mark.parametrize("kind", sorted(IMPORT_LINES))
def test_an_ignored_folder_a_pth_import_line_adds_is_not_imported(
    tmp_path: Path, kind: str
) -> None:
    """r18k HIGH 1: a ``.pth`` ``import`` line puts the work tree's ignored ``build/lib`` on
    ``sys.path`` (``sys.path.append``, ``os.path.join``, ``site.addsitedir``) or a finder
    into it on ``sys.meta_path``; no install file names the place: the room's guard still
    blocks it (a place in the work tree the room does not hold), the suite fails as in the
    candidate's tree, and the verdict is not ``pass``."""
    work, venv, site = _extra_project(tmp_path)
    if kind == "finder":
        (site / "_extra_finder.py").write_text(_filled(EXTRA_FINDER, work))
    (site / "zz_extra.pth").write_text(_filled(IMPORT_LINES[kind], work) + "\n")
    out = _verify(work, tmp_path, venv, code=1, brief_data=EXTRA_BRIEF)
    assert out["verdict"]["status"] != "pass", out
    assert _exits(out)[-1] == ("suite", 1), out["outcomes"]


def test_an_ignored_folder_the_interpreters_sitecustomize_adds_is_not_imported(
    tmp_path: Path,
) -> None:
    """r18k HIGH 2: the venv's own ``sitecustomize.py`` (which the guard runs after
    filtering) extends ``sys.path`` with the work tree's ``build/lib``: the guard blocks
    again after it ran, and the verdict is not ``pass``."""
    work, venv, site = _extra_project(tmp_path)
    (site / "sitecustomize.py").write_text(
        _filled("import sys\nsys.path.extend([@LIB@])\nSEEN = True\n", work)
    )
    out = _verify(work, tmp_path, venv, code=1, brief_data=EXTRA_BRIEF)
    assert out["verdict"]["status"] != "pass", out
    assert _exits(out)[-1] == ("suite", 1), out["outcomes"]


def test_a_work_tree_folder_named_site_packages_is_no_installation(tmp_path: Path) -> None:
    """r18k HIGH 3: ``vendor/site-packages`` (``pip install -t``, ignored) of the work tree,
    on ``sys.path`` through a ``.pth`` path line, is not a virtual environment's own site
    directory: hidden, not only named; the note says it is unimportable."""
    work, venv, site = _extra_project(tmp_path, "vendor/site-packages")
    (site / "zz_vendor.pth").write_text(f"{work / 'vendor' / 'site-packages'}\n")
    out = _verify(work, tmp_path, venv, code=1, brief_data=EXTRA_BRIEF)
    assert out["verdict"]["status"] != "pass", out
    assert _exits(out)[-1] == ("suite", 1), out["outcomes"]
    (line,) = [n for n in out["notes"] if str(work / "vendor" / "site-packages") in n]
    assert "unimportable" in line, line
