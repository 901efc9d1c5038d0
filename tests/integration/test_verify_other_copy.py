"""An editable install of ANOTHER clone of the project (a directory outside this
repository's work trees): a verify run's checks import the room's copy, not the clone's
(SPEC §9: a verify run checks "the candidate's exact tree"; issue 18, HIGH1).

The clone is a real ``git clone``; the venv is real (``python -m venv``) and its editable
install the files setuptools writes for ``pip install -e`` (a ``.pth`` naming the clone's
``src``, or the ``__editable___*_finder.py`` with its ``MAPPING``), written by hand as
in :mod:`tests.integration.test_verify_editable`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import BRIEF, _exits, _venv, _verify

BASE = "def add(a, b):\n    return a + b\n"
FIXED = BASE + "\n\ndef mul(a, b):\n    return a * b\n"
BUGGY = BASE + "\n\ndef mul(a, b):\n    return a + b\n"
MUL_TEST = (
    "import unittest\n\nfrom calc import mul\n\n\nclass T(unittest.TestCase):\n"
    "    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n"
)

CALC_BRIEF: dict[str, Any] = {
    **BRIEF,
    "id": "calc-mul-1",
    "objective": "calc.mul(a, b) returns the product, with its test",
    "outputFormat": "a patch to src/calc/__init__.py and tests/test_mul.py",
    "successCriteria": [
        {"criterion": "the mul test passes", "run": "python3 -m unittest tests.test_mul"}
    ],
    "negativeTests": [
        {"criterion": "the tree had no mul test", "run": "test ! -e tests/test_mul.py"}
    ],
    "fullSuite": "python3 -m unittest discover -s tests",
}


def _calc(root: Path) -> Path:
    """Repository A: a src-layout package ``calc`` with a unittest suite, base committed."""
    root.mkdir()
    git(root, "init", "-q")
    write(root / ".gitignore", "__pycache__/\n*.egg-info/\n.agents/\n")
    write(root / "src" / "calc" / "__init__.py", BASE)
    write(
        root / "tests" / "test_add.py",
        "import unittest\n\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    )
    commit_all(root, "base")
    return root


def _other_clone(work: Path, where: Path) -> Path:
    """A real clone of ``work`` at ``where`` (outside its work trees) where ``mul`` is right."""
    git(where.parent, "clone", "-q", str(work), str(where))
    write(where / "src" / "calc" / "__init__.py", FIXED)
    commit_all(where, "mul, right")
    return where


@pytest.mark.parametrize("kind", ["pth", "finder"])
def test_an_editable_install_of_another_clone_is_not_what_the_checks_import(
    tmp_path: Path, kind: str
) -> None:
    """The venv's editable install names another clone of the project (``mul`` right
    there); the candidate in this repository multiplies wrongly and adds the test. The
    room's checks import the room's ``calc``: the criterion fails, and so does the
    verdict (it passed, the checks importing the clone's ``calc``)."""
    work = _calc(tmp_path / "a")
    other = _other_clone(work, tmp_path / "other-clone")
    venv = _venv(tmp_path / "venv", other / "src", kind, ("calc",))
    write(work / "src" / "calc" / "__init__.py", BUGGY)
    write(work / "tests" / "test_mul.py", MUL_TEST)
    out = _verify(work, tmp_path, venv, code=1, brief_data=CALC_BRIEF)
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]
    assert out["verdict"]["status"] == "fail"
    (line,) = [n for n in out["notes"] if "another copy of the project" in n]
    assert str(other / "src") in line
