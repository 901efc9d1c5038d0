"""A plain (non-editable) ``pip install ./w`` of the work tree into the verifier's venv: a
copy of the work tree's files, untracked ones too, in ``site-packages`` (issue 18: the
room imports nothing from the work tree it does not hold; SPEC §9: a verify run checks
"the candidate's exact tree").

The staged ``calc`` imports ``mul`` from ``fastmul``, a work-tree file never added to git:
in the candidate's tree the mul test cannot pass. The install copied both into the venv's
``site-packages`` (its ``direct_url.json`` names the work tree); the room made ``calc``
unimportable there but imported the copied ``fastmul``, and the run passed. The install
is real: pip (``--no-deps --no-build-isolation``) builds the work tree's tiny pyproject
with an in-tree backend (no index, no setuptools needed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import _verify
from tests.integration.test_verify_other_copy import CALC_BRIEF
from tests.integration.test_verify_unguarded import MUL_TEST

#: An in-tree PEP 517 backend writing a wheel of ``calc.py`` and ``fastmul.py``.
BACKEND = """import base64, hashlib, os, zipfile

FILES = ("calc.py", "fastmul.py")
INFO = "calc-0.1.dist-info"


def _row(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = "calc-0.1-py3-none-any.whl"
    meta = {
        INFO + "/METADATA": b"Metadata-Version: 2.1\\nName: calc\\nVersion: 0.1\\n",
        INFO + "/WHEEL": b"Wheel-Version: 1.0\\nGenerator: tiny\\nRoot-Is-Purelib: true\\n"
        b"Tag: py3-none-any\\n",
    }
    rows = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as whl:
        for f in FILES:
            data = open(f, "rb").read()
            whl.writestr(f, data)
            rows.append(_row(f, data))
        for f, data in meta.items():
            whl.writestr(f, data)
            rows.append(_row(f, data))
        rows.append(INFO + "/RECORD,,")
        whl.writestr(INFO + "/RECORD", "\\n".join(rows) + "\\n")
    return name
"""
PYPROJECT = (
    '[build-system]\nrequires = []\nbuild-backend = "tinyback"\nbackend-path = ["."]\n\n'
    '[project]\nname = "calc"\nversion = "0.1"\n'
)


def _work(root: Path) -> Path:
    """``calc.py`` and a unittest suite committed; staged: ``calc`` importing
    ``fastmul`` and the mul test; untracked: ``fastmul.py``, the pyproject and backend."""
    root.mkdir()
    git(root, "init", "-q")
    write(root / ".gitignore", "__pycache__/\n.agents/\n")
    write(root / "calc.py", "def add(a, b):\n    return a + b\n")
    write(root / "tests" / "__init__.py", "")
    write(
        root / "tests" / "test_add.py",
        "import unittest\n\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    )
    commit_all(root, "base")
    write(root / "calc.py", "def add(a, b):\n    return a + b\n\n\nfrom fastmul import mul\n")
    write(root / "tests" / "test_mul.py", MUL_TEST)
    git(root, "add", "calc.py", "tests/test_mul.py")
    write(root / "fastmul.py", "def mul(a, b):\n    return a * b\n")
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "tinyback.py", BACKEND)
    return root


def _installed(where: Path, work: Path) -> Path:
    """A venv (no pip of its own) into which this pip installs ``work``, not editable."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
    subprocess.run(
        [*pip, "--no-deps", "--no-build-isolation", "--no-index", str(work)],
        check=True,
        cwd=work,
    )
    (site,) = where.glob("lib/python*/site-packages")
    assert (site / "fastmul.py").is_file() and list(site.glob("calc-*.dist-info"))
    return where


def test_a_plain_install_of_the_work_tree_is_no_place_a_check_imports_from(
    tmp_path: Path,
) -> None:
    """Every module the install's RECORD lists is unimportable in the room's runs: the mul
    test fails (``fastmul`` is the work tree's, never the candidate's), and a note names
    the distribution and the ``pip uninstall`` to run; the run passed on the copy."""
    work = _work(tmp_path / "w")
    venv = _installed(tmp_path / "venv", work)
    brief: dict[str, Any] = {**CALC_BRIEF}
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=brief)
    assert out["verdict"]["status"] != "pass", out["outcomes"]
    (first, *_) = out["outcomes"]
    assert first["exit_code"] == 1, out["outcomes"]
    (line,) = [n for n in out["notes"] if "pip uninstall calc" in n]
    assert "fastmul" in line and str(work) in line, line
