"""A project installed editable in a virtual environment outside the repository (Poetry's
and pipenv's default; the README advises a venv outside the repository): the checks of a
``verify run``, and a ``receipt run --staged``, import the candidate's copy, not the work
tree's (SPEC §9: "the candidate's exact tree", each criterion "also runs on the base tree").

The venv is real (``python -m venv``); its editable install is the files setuptools writes
for ``pip install -e .`` (``__editable__.pkgx-0.1.pth`` naming ``<work tree>/src``, or the
``__editable___pkgx_0_1_finder.py`` meta-path finder with an annotated ``MAPPING`` and the
``.pth`` that installs it), written by hand: ``pip install -e`` needs a build backend from
an index, which a test must not depend on. Git is real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, gh, git, write

PYPROJECT = """[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"
[project]
name = "pkgx"
version = "0.1"
[tool.setuptools.packages.find]
where = ["src"]
"""
BASE = "def add(a, b):\n    return a + b\n"
FIXED = BASE + "\n\ndef mul(a, b):\n    return a * b\n"
BUGGY = BASE + "\n\ndef mul(a, b):\n    return a + b\n"

BRIEF: dict[str, Any] = {
    "id": "mul-1",
    "objective": "mul(a, b) returns the product",
    "outputFormat": "a patch to src/pkgx/__init__.py",
    "boundaries": ["read only"],
    "stopCondition": "every check has run",
    "successCriteria": [
        {
            "criterion": "mul(2, 3) is 6",
            "run": "python3 -c 'from pkgx import mul; assert mul(2, 3) == 6'",
        }
    ],
    "negativeTests": [
        {
            "criterion": "mul no longer adds",
            "run": 'python3 -c \'import pkgx; m = getattr(pkgx, "mul", None); '
            "assert m is None or m(2, 3) == 5'",
        }
    ],
    "fullSuite": "python3 -m unittest discover -s tests",
}

#: What setuptools 65 writes for ``pip install -e`` of a package it maps (trimmed to what
#: imports: the finder appended to ``sys.meta_path``, after the path finders).
FINDER = """from __future__ import annotations
import sys
from importlib.util import spec_from_file_location
from pathlib import Path

MAPPING: dict[str, str] = @MAPPING@
NAMESPACES: dict[str, list[str]] = {}


class _EditableFinder:  # MetaPathFinder
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname in MAPPING:
            init = Path(MAPPING[fullname]) / "__init__.py"
            return spec_from_file_location(fullname, init) if init.exists() else None
        return None


def install():
    if not any(finder == _EditableFinder for finder in sys.meta_path):
        sys.meta_path.append(_EditableFinder)
"""


def _project(root: Path) -> Path:
    """A src-layout project ``pkgx`` with a unittest suite, its base committed."""
    root.mkdir()
    git(root, "init", "-q")
    write(root / "pyproject.toml", PYPROJECT)
    write(root / ".gitignore", "__pycache__/\n*.egg-info/\n.agents/\nbuild/\n")
    write(root / "src" / "pkgx" / "__init__.py", BASE)
    write(
        root / "tests" / "test_add.py",
        "import unittest\n\nfrom pkgx import add\n\n\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    )
    commit_all(root, "base")
    return root


def _mul_test(root: Path) -> None:
    write(
        root / "tests" / "test_mul.py",
        "import unittest\n\nfrom pkgx import mul\n\n\nclass T(unittest.TestCase):\n"
        "    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n",
    )


def _venv(where: Path, src: Path, kind: str = "pth", packages: tuple[str, ...] = ("pkgx",)) -> Path:
    """A virtual environment at ``where`` (outside the repository) with ``pkgx`` (each of
    ``packages``) installed editable from ``src``, as ``pip install -e`` leaves it."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python*/site-packages")
    if kind == "pth":
        (site / "__editable__.pkgx-0.1.pth").write_text(f"{src}\n")
    else:
        mapped = {p: str(src / p) for p in packages}
        (site / "__editable___pkgx_0_1_finder.py").write_text(
            FINDER.replace("@MAPPING@", repr(mapped))
        )
        (site / "__editable__.pkgx-0.1.pth").write_text(
            "import __editable___pkgx_0_1_finder; __editable___pkgx_0_1_finder.install()"
        )
    return where


def _verify(
    cwd: Path, tmp: Path, venv: Path, *flags: str, code: int, brief_data: dict[str, Any] = BRIEF
) -> dict[str, Any]:
    """``verify run FLAGS --json`` in ``cwd`` with the venv (or pyenv's ``shims``) first on
    PATH, rooms under ``tmp/rooms``."""
    brief = tmp / "brief.json"
    brief.write_text(json.dumps(brief_data), encoding="utf-8")
    (tmp / "rooms").mkdir(exist_ok=True)
    first = venv if venv.name == "shims" else venv / "bin"
    env = {
        "TMPDIR": str(tmp / "rooms"),
        "PATH": f"{first}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYENV_VERSION": "",
    }
    proc = gh(cwd, "verify", "run", *flags, "--brief", str(brief), "--json", env=env)
    assert proc.returncode == code, proc.stdout + proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def _exits(out: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(o["kind"], o["exit_code"]) for o in out["outcomes"]]


def test_a_staged_bug_fails_though_the_work_tree_is_fixed(tmp_path: Path) -> None:
    """The staged candidate multiplies wrongly, the work tree (which the venv's editable
    install imports) rightly: the room's checks observe the staged bug."""
    work = _project(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "src")
    write(work / "src" / "pkgx" / "__init__.py", BUGGY)
    _mul_test(work)
    git(work, "add", "-A")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    out = _verify(work, tmp_path, venv, "--staged", code=1)
    assert _exits(out) == [("criterion", 1), ("negative", 0), ("suite", 1)], out["outcomes"]
    assert out["verdict"]["status"] == "fail"
    assert any(n.startswith("editable install: src of the room's tree first") for n in out["notes"])


def test_an_interpreter_behind_a_pyenv_shim_imports_the_candidates_copy(tmp_path: Path) -> None:
    """``python3`` on PATH is pyenv's shim (a shell script) and the editable install is in
    the version ``.python-version`` names: the room still maps it, and observes the staged
    bug though the work tree is fixed."""
    work = _project(tmp_path / "w")
    root = tmp_path / "pyenv"
    version = _venv(root / "versions" / "3.99-proj", work / "src")
    (root / "shims").mkdir()
    for name in ("python3", "python"):
        shim = root / "shims" / name
        shim.write_text(f'#!/bin/sh\nexec "{version / "bin" / "python3"}" "$@"\n')
        shim.chmod(0o755)
    write(work / ".python-version", "3.99-proj\n")
    git(work, "add", ".python-version")
    git(work, "commit", "-qm", "pin")
    write(work / "src" / "pkgx" / "__init__.py", BUGGY)
    _mul_test(work)
    git(work, "add", "-A")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    out = _verify(work, tmp_path, root / "shims", "--staged", code=1)
    assert _exits(out) == [("criterion", 1), ("negative", 0), ("suite", 1)], out["outcomes"]
    assert any(n.startswith("editable install: src of the room's tree first") for n in out["notes"])


def test_a_second_worktree_sharing_the_venv_tests_its_own_code(tmp_path: Path) -> None:
    """The venv's editable install names the main work tree (fixed); a linked worktree's
    candidate (buggy) is verified from there: its room imports its own copy."""
    work = _project(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "src")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    git(work, "worktree", "add", "-q", str(tmp_path / "w2"), "-b", "feat")
    other = tmp_path / "w2"
    write(other / "src" / "pkgx" / "__init__.py", BUGGY)
    _mul_test(other)
    out = _verify(other, tmp_path, venv, code=1)
    assert _exits(out) == [("criterion", 1), ("negative", 0), ("suite", 1)], out["outcomes"]


@pytest.mark.parametrize("kind", ["pth", "finder"])
def test_a_criterion_on_a_new_function_observes_the_change(tmp_path: Path, kind: str) -> None:
    """A criterion calling ``mul``, which the change adds, fails on the base and on the
    emptied change (both import the room's copy), so it observes the change (row C4, not
    C4-nothing) and the verdict passes."""
    work = _project(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "src", kind)
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    _mul_test(work)
    out = _verify(work, tmp_path, venv, code=0)
    assert out["outcomes"][0]["row"] == "C4", out["outcomes"]
    assert _exits(out) == [("criterion", 0), ("negative", 1), ("suite", 0)]
    assert out["verdict"]["status"] == "pass"


NEW_PACKAGE: dict[str, Any] = {
    **BRIEF,
    "id": "pkgy-1",
    "objective": "a new package pkgy whose f() returns 1",
    "outputFormat": "a new package src/pkgy",
    "successCriteria": [
        {"criterion": "f() is 1", "run": "python3 -c 'from pkgy import f; assert f() == 1'"}
    ],
    "negativeTests": [
        {
            "criterion": "f is not 2",
            "run": "python3 -c 'import importlib.util as u; "
            'assert u.find_spec("pkgy") is None or __import__("pkgy").f() == 2\'',
        }
    ],
}


@pytest.mark.parametrize("kind", ["pth", "finder"])
def test_a_package_only_the_candidate_adds_is_not_imported_by_the_base_run(
    tmp_path: Path, kind: str
) -> None:
    """The change adds a package ``pkgy`` the venv's editable install (made after it was
    added) imports from the work tree: the base run, whose tree lacks it, must not import
    the work tree's copy. The negative test ("pkgy is absent, or f() is not 1") then passes
    on the base as it must (row C2); importing the work tree's copy there, it failed on the
    base too (C2-base: "whatever the change") and the verdict failed."""
    work = _project(tmp_path / "w")
    write(work / "src" / "pkgy" / "__init__.py", "def f():\n    return 1\n")
    venv = _venv(tmp_path / "venv", work / "src", kind, ("pkgx", "pkgy"))
    out = _verify(work, tmp_path, venv, code=0, brief_data=NEW_PACKAGE)
    assert [o["row"] for o in out["outcomes"][:2]] == ["C4", "C2"], out["outcomes"]
    assert _exits(out) == [("criterion", 0), ("negative", 1), ("suite", 0)]
    assert out["verdict"]["status"] == "pass"


def test_a_place_the_candidates_tree_lacks_is_named(tmp_path: Path) -> None:
    """An editable install importing from an ignored directory of the work tree (``build/``):
    the room cannot hold it, hides it (issue 18: fail closed), and the run says so in one
    line."""
    work = _project(tmp_path / "w")
    (work / "build" / "lib").mkdir(parents=True)
    venv = _venv(tmp_path / "venv", work / "build" / "lib")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    out = _verify(work, tmp_path, venv, code=1)
    (line,) = [n for n in out["notes"] if "not in the candidate's tree" in n]
    assert line.startswith(f"editable install: {work / 'build' / 'lib'} (")
    assert line.endswith("unimportable in the room's runs, as in the candidate's tree")


def test_receipt_run_staged_runs_the_staged_copy(tmp_path: Path) -> None:
    """``receipt run --staged`` runs in a temporary checkout of the staged tree: the venv's
    editable install of the work tree imports the checkout's copy there too."""
    work = _project(tmp_path / "w")
    venv = _venv(tmp_path / "venv", work / "src")
    write(work / "src" / "pkgx" / "__init__.py", BUGGY)
    git(work, "add", "-A")
    write(work / "src" / "pkgx" / "__init__.py", FIXED)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    check = "from pkgx import mul; assert mul(2, 3) == 6"
    proc = gh(work, "receipt", "run", "--staged", "--", "python3", "-c", check, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "an editable install of src imports the checkout's" in proc.stdout + proc.stderr


def test_the_guard_hides_blocked_modules_and_runs_the_sitecustomize_it_shadows(
    tmp_path: Path,
) -> None:
    """The room's ``sitecustomize``: a module found only in a blocked place is absent
    (``find_spec`` gives None), one in the room still imports, and the ``sitecustomize``
    further on ``sys.path`` still runs."""
    from gentle_hooks.services.import_guard import write_guard

    room, work, other = tmp_path / "room", tmp_path / "work", tmp_path / "other"
    write(room / "tree" / "held.py", "X = 1\n")
    write(work / "only_work.py", "X = 2\n")
    write(other / "sitecustomize.py", "import builtins\nbuiltins.SHADOWED_RAN = True\n")
    guard = write_guard(str(room / "aside" / "d"), str(room), [str(work)])
    code = (
        "import importlib.util as u, builtins\n"
        "assert u.find_spec('only_work') is None\n"
        "import held\n"
        "assert builtins.SHADOWED_RAN\n"
    )
    path = os.pathsep.join([guard, str(room / "tree"), str(other), str(work)])
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
