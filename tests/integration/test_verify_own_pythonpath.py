"""A check that sets its own ``PYTHONPATH``, or starts an isolated Python, in a room whose
checks import the room's copy of an editable install (issue 18, HIGH2; SPEC §9: a verify
run checks "the candidate's exact tree").

The staged candidate multiplies wrongly and adds the test; the work tree, which the venv's
editable install imports (:mod:`tests.integration.test_verify_editable`), is fixed. Git
and the venv are real.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import git, write
from tests.integration.test_verify_editable import (
    BRIEF,
    BUGGY,
    FIXED,
    _exits,
    _mul_test,
    _project,
    _venv,
    _verify,
)

#: A criterion run by ``PYTHONPATH=tests python3``: the check's own PYTHONPATH.
OWN: dict[str, Any] = {
    **BRIEF,
    "id": "mul-own-path",
    "successCriteria": [
        {
            "criterion": "the mul test passes",
            "run": "PYTHONPATH=tests python3 -m unittest test_mul",
        }
    ],
    "negativeTests": [
        {"criterion": "the tree had no mul test", "run": "test ! -e tests/test_mul.py"}
    ],
    "fullSuite": "PYTHONPATH=tests python3 -m unittest discover -s tests",
}
#: The same criterion run by an isolated Python (``-I``: no PYTHONPATH, no guard).
ISOLATED: dict[str, Any] = {
    **OWN,
    "id": "mul-isolated",
    "successCriteria": [
        {
            "criterion": "the mul test passes",
            "run": "python3 -I -c \"import sys; sys.path[:0] = ['tests']; import unittest; "
            "unittest.main(module='test_mul')\"",
        }
    ],
    "fullSuite": "python3 -m unittest discover -s tests",
}


def _staged_bug(tmp_path: Path) -> tuple[Path, Path]:
    work = _project(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "src")
    write(work / "src" / "pkgx" / "__init__.py", BUGGY)
    _mul_test(work)
    git(work, "add", "-A")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    return work, venv


def test_a_checks_own_pythonpath_keeps_the_rooms_entries_first(tmp_path: Path) -> None:
    """``PYTHONPATH=tests python3 ...``: the room's entries stay in front of ``tests``, so
    the staged bug is observed (it passed, importing the work tree's fix)."""
    work, venv = _staged_bug(tmp_path)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=OWN)
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]
    assert out["verdict"]["status"] == "fail"


def test_an_isolated_python_is_refused_while_the_work_tree_differs(tmp_path: Path) -> None:
    """``python3 -I`` ignores PYTHONPATH and the guard: the check is not run, the verdict
    is blocked and says why (it passed, importing the work tree's fix)."""
    work, venv = _staged_bug(tmp_path)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=ISOLATED)
    assert _exits(out)[0] == ("criterion", None), out["outcomes"]
    assert out["verdict"]["status"] == "blocked"
    (evidence,) = [c["evidence"] for c in out["verdict"]["criteria"] if "-I" in c["evidence"]]
    assert "`python3 -I` (isolated mode)" in evidence
    assert "the room cannot keep your work tree's code" in evidence


def test_an_isolated_python_runs_when_the_work_tree_is_the_candidate(tmp_path: Path) -> None:
    """The same check with the work tree as the candidate: what it imports from the work
    tree is the room's files, so it runs (and the verdict passes)."""
    work = _project(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "src")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    _mul_test(work)
    out = _verify(work, tmp_path, venv, code=0, brief_data=ISOLATED)
    assert _exits(out) == [("criterion", 0), ("negative", 1), ("suite", 0)], out["outcomes"]
    assert out["verdict"]["status"] == "pass"
