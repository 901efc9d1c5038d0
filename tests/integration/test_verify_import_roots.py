"""A wheel-installed copy of the project in the verifier's venv, the candidate's package
kept where the root and ``src`` do not hold it: ``lib/calc`` (setuptools ``where``),
``pkgs/core/calc`` (a monorepo) and the PEP 420 namespace package ``src/acme/calc``
(issue 18, r18o finding 1; SPEC §9: a verify run checks "the candidate's exact tree").

The wheel is real (written as a build backend writes one, ``RECORD`` and all) and installed
by pip into a real venv; it holds ``mul`` right. The candidate multiplies wrongly: the
room's checks import the candidate's copy and the mul test fails (it passed, importing the
wheel's copy).
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import _exits, _verify
from tests.integration.test_verify_other_copy import BASE, BUGGY, CALC_BRIEF, FIXED

#: (layout, the package's directory in the tree, its dotted name, pyproject's tables)
LAYOUTS = {
    "lib": ("lib/calc", "calc", '[tool.setuptools.packages.find]\nwhere = ["lib"]\n'),
    "monorepo": (
        "pkgs/core/calc",
        "calc",
        '[tool.setuptools]\npackages={find={where=["pkgs/core"]}}\n',
    ),
    "namespace": (
        "src/acme/calc",
        "acme.calc",
        '[tool.setuptools.packages.find]\nwhere = ["src"]\n',
    ),
}


def _wheel(where: Path, package: str, text: str) -> Path:
    """A wheel of ``package`` (dotted; no ``__init__.py`` above its last part) holding
    ``text``."""
    info = "calc-0.1.dist-info"
    files = {
        package.replace(".", "/") + "/__init__.py": text.encode(),
        info + "/METADATA": b"Metadata-Version: 2.1\nName: calc\nVersion: 0.1\n",
        info
        + "/WHEEL": b"Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    rows = []
    path = where / "calc-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for name, data in files.items():
            whl.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            rows.append(f"{name},sha256={digest.decode()},{len(data)}")
        whl.writestr(info + "/RECORD", "\n".join([*rows, info + "/RECORD,,"]) + "\n")
    return path


def _venv(where: Path, wheel: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(where / "bin" / "python"), "install"]
    subprocess.run([*pip, "-q", "--no-deps", "--no-index", str(wheel)], check=True)
    return where


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_room_imports_the_candidate_s_package_not_the_installed_wheel(
    tmp_path: Path, layout: str
) -> None:
    rel, package, tables = LAYOUTS[layout]
    work = tmp_path / "w"
    work.mkdir()
    git(work, "init", "-q")
    write(work / ".gitignore", "__pycache__/\n.agents/\n")
    write(work / "pyproject.toml", '[project]\nname = "calc"\nversion = "0.1"\n' + tables)
    write(work / rel / "__init__.py", BASE)
    write(work / "tests" / "__init__.py", "")
    commit_all(work, "base")
    write(work / rel / "__init__.py", BUGGY)
    test = CALC_BRIEF_TEST.replace("PKG", package)
    write(work / "tests" / "test_mul.py", test)
    git(work, "add", "-A")
    (tmp_path / "wh").mkdir()
    venv = _venv(tmp_path / "venv", _wheel(tmp_path / "wh", package, FIXED))
    brief: dict[str, Any] = {**CALC_BRIEF, "outputFormat": f"a patch to {rel}/__init__.py"}
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=brief)
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]
    assert out["verdict"]["status"] == "fail"
    (line,) = [n for n in out["notes"] if n.startswith("import probe:")]
    assert (
        str(venv) in line
        and f"the room's {rel.rsplit('/', 2 if package == 'acme.calc' else 1)[0]} first" in line
    ), line


CALC_BRIEF_TEST = (
    "import unittest\n\nfrom PKG import mul\n\n\nclass T(unittest.TestCase):\n"
    "    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n"
)


def test_a_package_dir_renaming_the_package_blocks_while_a_copy_is_installed(
    tmp_path: Path,
) -> None:
    """``package-dir = {calc = "src/impl"}``: no PYTHONPATH entry imports the candidate's
    ``calc``; with the wheel's ``calc`` installed the checks would test it (they passed):
    every check is refused and the verdict is ``blocked``, the line naming package-dir."""
    work = tmp_path / "w"
    work.mkdir()
    git(work, "init", "-q")
    write(work / ".gitignore", "__pycache__/\n.agents/\n")
    tables = '[tool.setuptools]\npackages = ["calc"]\npackage-dir = {calc = "src/impl"}\n'
    write(work / "pyproject.toml", '[project]\nname = "calc"\nversion = "0.1"\n' + tables)
    write(work / "src" / "impl" / "__init__.py", BASE)
    write(work / "tests" / "__init__.py", "")
    commit_all(work, "base")
    write(work / "src" / "impl" / "__init__.py", BUGGY)
    write(work / "tests" / "test_mul.py", CALC_BRIEF_TEST.replace("PKG", "calc"))
    git(work, "add", "-A")
    (tmp_path / "wh").mkdir()
    venv = _venv(tmp_path / "venv", _wheel(tmp_path / "wh", "calc", FIXED))
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "blocked", out["outcomes"]
    assert any("(package-dir)" in n for n in out["notes"]), out["notes"]
