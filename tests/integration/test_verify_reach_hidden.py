"""What a Python started without the room's import guard reaches that no ``sys.path`` entry
of a work tree shows (issue 18: the room imports nothing from the work tree it does not
hold; SPEC §9: a verify run checks "the candidate's exact tree"; refuter r18n HIGH A, HIGH
C, MED V).

The staged ``calc`` imports ``mul`` from ``fastmul``, which only the work tree holds
(ignored, never staged): in the candidate's tree the mul test cannot pass. An outside
venv reaches that file

* A — through a symbolic link in its ``site-packages`` (no ``.pth`` at all);
* C — through a meta path finder (editables-style) a ``.pth`` ``import`` line installs,
  mapping ``fastmul`` to the work tree's file;
* V — through a ``.pth`` path line naming the ``site-packages`` of a virtual environment
  kept (ignored) in the work tree, which holds ``fastmul.py``.

A check starting Python without the guard is not run; plain ``python3`` runs under the
guard and fails (the module is absent there, as in the candidate's tree). Git and the
venvs are real.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git, write
from tests.integration.test_verify_editable import _verify
from tests.integration.test_verify_other_copy import CALC_BRIEF
from tests.integration.test_verify_unguarded import MUL_TEST, _work

#: Checks starting Python without the guard (``$F`` is ``-E`` in the brief's ``env``).
UNGUARDED = {
    "E": "python3 -E -m unittest tests.test_mul",
    "variable": "python3 $F -m unittest tests.test_mul",
    "unset": "env -u PYTHONPATH python3 -m unittest tests.test_mul",
}
FASTMUL = "def mul(a, b):\n    return a * b\n"
FINDER = """import importlib.util, sys
from importlib.abc import MetaPathFinder
MAP = {"fastmul": %r}
class F(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in MAP:
            return importlib.util.spec_from_file_location(name, MAP[name])
        return None
sys.meta_path.append(F())
"""


def _staged(tmp: Path) -> tuple[Path, Path, Path]:
    """(the work tree with ``calc`` importing ``fastmul`` staged, a bare outside venv, its
    ``site-packages``); ``extra/fastmul.py`` only in the work tree."""
    work = _work(tmp / "w")
    write(work / "calc.py", "def add(a, b):\n    return a + b\n\n\nfrom fastmul import mul\n")
    write(work / "tests" / "test_mul.py", MUL_TEST)
    git(work, "add", "-A")
    write(work / "extra" / "fastmul.py", FASTMUL)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    return work, venv, site


def _run(work: Path, tmp: Path, venv: Path, check: str, code: int) -> dict[str, Any]:
    brief: dict[str, Any] = {
        **CALC_BRIEF,
        "successCriteria": [{"criterion": "the mul test passes", "run": check}],
        "env": {"F": "-E"},
    }
    return _verify(work, tmp, venv, "--staged", code=code, brief_data=brief)


def _not_run(out: dict[str, Any], place: str) -> None:
    assert out["verdict"]["status"] != "pass", out["outcomes"]
    (first, *_) = out["outcomes"]
    assert first["exit_code"] is None, out["outcomes"]
    assert place in (first["error"] or ""), first


def _failed_under_guard(out: dict[str, Any]) -> None:
    assert out["verdict"]["status"] == "fail", out["outcomes"]
    assert out["outcomes"][0]["exit_code"] == 1, out["outcomes"]


@pytest.mark.parametrize("start", sorted(UNGUARDED))
def test_a_symlink_in_site_packages_to_the_work_tree_is_a_work_tree_place(
    tmp_path: Path, start: str
) -> None:
    """r18n HIGH A: ``site-packages/fastmul.py`` links to the work tree's ignored file; no
    ``.pth`` names the work tree. An unguarded start is refused naming the link (it ran
    and passed: the probe counted only entries and modules in a work tree)."""
    work, venv, site = _staged(tmp_path)
    (site / "fastmul.py").symlink_to(work / "extra" / "fastmul.py")
    out = _run(work, tmp_path, venv, UNGUARDED[start], code=1)
    _not_run(out, str(work / "extra" / "fastmul.py"))
    if start == "variable":  # refused by room_proven: it names what to remove
        assert (
            f"the symbolic link {site / 'fastmul.py'} points there" in out["outcomes"][0]["error"]
        )


def test_a_symlink_to_the_work_tree_is_hidden_from_plain_python(tmp_path: Path) -> None:
    """r18n A2 (kept): under the guard the linked module is the work tree's, so absent."""
    work, venv, site = _staged(tmp_path)
    (site / "fastmul.py").symlink_to(work / "extra" / "fastmul.py")
    _failed_under_guard(_run(work, tmp_path, venv, "python3 -m unittest tests.test_mul", 1))


def test_a_symlink_outside_every_work_tree_still_lets_python_e_run(tmp_path: Path) -> None:
    """A link in ``site-packages`` to a file outside the work trees is an installation
    like any other: ``python3 -E`` runs, and passes on it."""
    work, venv, site = _staged(tmp_path)
    write(tmp_path / "lib" / "fastmul.py", FASTMUL)
    (site / "fastmul.py").symlink_to(tmp_path / "lib" / "fastmul.py")
    out = _run(work, tmp_path, venv, UNGUARDED["E"], code=0)
    assert out["verdict"]["status"] == "pass", out["outcomes"]


@pytest.mark.parametrize("start", ["E", "unset"])
def test_a_finder_mapping_a_name_to_the_work_tree_is_a_work_tree_place(
    tmp_path: Path, start: str
) -> None:
    """r18n HIGH C: a ``.pth`` ``import`` line installs a meta path finder mapping
    ``fastmul`` to the work tree's file (as hatchling's editables does). An unguarded start
    is refused (it ran and passed: no ``sys.path`` entry named the work tree)."""
    work, venv, site = _staged(tmp_path)
    write(site / "_fm_editable.py", FINDER % str(work / "extra" / "fastmul.py"))
    write(site / "_fm_editable.pth", "import _fm_editable\n")
    out = _run(work, tmp_path, venv, UNGUARDED[start], code=1)
    _not_run(out, str(work / "extra" / "fastmul.py"))
    plain = _run(work, tmp_path, venv, "python3 -m unittest tests.test_mul", code=1)
    _failed_under_guard(plain)


def test_a_finder_that_cannot_be_read_fails_closed(tmp_path: Path) -> None:
    """A meta path finder whose ``find_spec`` is no Python function (a
    ``functools.partial``) maps ``fastmul`` to the work tree: the room does not read it,
    so a check starting Python without the guard is not run (it ran and passed)."""
    work, venv, site = _staged(tmp_path)
    write(
        site / "_odd_finder.py",
        "import functools, importlib.util, sys\n"
        "def _find(where, name, path=None, target=None):\n"
        "    if name == 'fastmul':\n"
        "        return importlib.util.spec_from_file_location(name, where)\n"
        "class F:\n"
        f"    find_spec = functools.partial(_find, {str(work / 'extra' / 'fastmul.py')!r})\n"
        "sys.meta_path.append(F)\n",
    )
    write(site / "_odd_finder.pth", "import _odd_finder\n")
    out = _run(work, tmp_path, venv, UNGUARDED["E"], code=1)
    _not_run(out, "`_odd_finder.F` could not be read")


def _work_tree_venv(tmp: Path) -> tuple[Path, Path, Path]:
    """r18n MED V: ``fastmul.py`` in the ``site-packages`` of a venv kept (ignored) in the
    work tree, which the outside venv's ``.pth`` path line names."""
    work, venv, site = _staged(tmp)
    with (work / ".git" / "info" / "exclude").open("a") as f:
        f.write(".venv/\n")
    inner = work / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(inner)], check=True)
    (inner_site,) = inner.glob("lib/python*/site-packages")
    (work / "extra" / "fastmul.py").rename(inner_site / "fastmul.py")
    write(site / "extra_path.pth", f"{inner_site}\n")
    return work, venv, inner_site


def test_a_work_tree_venv_named_by_another_interpreter_is_hidden(tmp_path: Path) -> None:
    """r18n MED V: the work tree's venv is the outside interpreter's no installation: plain
    ``python3`` runs under the guard and fails (it passed: the guard left every
    virtual environment's ``site-packages`` in a work tree importable)."""
    work, venv, inner_site = _work_tree_venv(tmp_path)
    out = _run(work, tmp_path, venv, "python3 -m unittest tests.test_mul", code=1)
    _failed_under_guard(out)
    assert any(f"{inner_site} ({venv}" in n and "unimportable" in n for n in out["notes"]), out


def test_a_work_tree_venv_named_by_another_interpreter_is_reached_without_the_guard(
    tmp_path: Path,
) -> None:
    """r18n MED V: ``python3 -E`` is refused: that start imports the work tree venv's
    files, which the candidate's tree does not hold."""
    work, venv, _ = _work_tree_venv(tmp_path)
    out = _run(work, tmp_path, venv, UNGUARDED["E"], code=1)
    _not_run(out, "`python3 -E` (PYTHON* variables ignored)")
