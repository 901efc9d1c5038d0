"""A wheel-installed ``calc`` in the verifier's venv while the candidate keeps its ``calc``
where no layout the room reads says: a plain ``setup.py`` (``package_dir={"": "lib"}``),
uv_build's ``module-root``, hatch's ``force-include``, scikit-build-core's
``wheel.packages``, a ``setup.py`` ``package_dir`` rename (issue 18, r18p; SPEC §9: a
verify run checks "the candidate's exact tree").

The wheel holds ``mul`` right, the candidate multiplies wrongly: the room's checks import
the candidate's copy and the mul test fails (they passed, importing the wheel's copy), or,
when no ``PYTHONPATH`` entry can make them (two directories define ``calc``, a rename),
every check is refused with one line. A ``tests/calc`` helper with no ``calc`` installed
changes nothing; the guard costs no interpreter start of its own.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.services import room_imports
from gentle_hooks.services.import_probe import Probed
from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import _exits, _verify
from tests.integration.test_verify_import_roots import CALC_BRIEF_TEST, _venv, _wheel
from tests.integration.test_verify_other_copy import BASE, BUGGY, CALC_BRIEF, FIXED

_BUILD = '[build-system]\nrequires = ["{0}"]\nbuild-backend = "{1}"\n'
#: layout -> (file, text): each keeps ``calc`` in ``lib`` (r18p's rows)
LAYOUTS = {
    "setup.py": (
        "setup.py",
        "from setuptools import setup, find_packages\n"
        'setup(name="mytools", version="0", packages=find_packages("lib"), '
        'package_dir={"": "lib"})\n',
    ),
    "uv_build": (
        "pyproject.toml",
        '[project]\nname = "mytools"\nversion = "0"\n'
        + _BUILD.format("uv_build", "uv_build")
        + '[tool.uv.build-backend]\nmodule-name = "calc"\nmodule-root = "lib"\n',
    ),
    "hatch force-include": (
        "pyproject.toml",
        '[project]\nname = "mytools"\nversion = "0"\n'
        + _BUILD.format("hatchling", "hatchling.build")
        + '[tool.hatch.build.targets.wheel.force-include]\n"lib/calc" = "calc"\n',
    ),
    "scikit-build-core": (
        "pyproject.toml",
        '[project]\nname = "mytools"\nversion = "0"\n'
        + _BUILD.format("scikit-build-core", "scikit_build_core.build")
        + '[tool.scikit-build]\nwheel.packages = ["lib/calc"]\n',
    ),
}


def _project(
    tmp_path: Path, file: str, text: str, package: str = "lib/calc", extra: str = ""
) -> Path:
    """A work tree with ``file`` holding ``text``, ``package`` (BASE committed, BUGGY
    staged), the mul test staged; ``extra``: one more package directory holding BASE."""
    work = tmp_path / "w"
    work.mkdir()
    git(work, "init", "-q")
    write(work / ".gitignore", "__pycache__/\n.agents/\n")
    write(work / file, text)
    write(work / package / "__init__.py", BASE)
    if extra:
        write(work / extra / "__init__.py", BASE)
    write(work / "tests" / "test_add.py", CALC_BRIEF_TEST.replace("mul", "add").replace("6", "5"))
    commit_all(work, "base")
    write(work / package / "__init__.py", BUGGY)
    write(work / "tests" / "test_mul.py", CALC_BRIEF_TEST.replace("PKG", "calc"))
    write(work / "tests" / "test_add.py", CALC_BRIEF_TEST.replace("PKG", "calc"))
    git(work, "add", "-A")
    return work


def _calc_venv(tmp_path: Path, package: str = "calc") -> Path:
    (tmp_path / "wh").mkdir()
    return _venv(tmp_path / "venv", _wheel(tmp_path / "wh", package, FIXED))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_room_imports_the_candidate_s_calc_whatever_backend_keeps_it_in_lib(
    tmp_path: Path, layout: str
) -> None:
    file, text = LAYOUTS[layout]
    work = _project(tmp_path, file, text)
    venv = _calc_venv(tmp_path)
    brief: dict[str, Any] = {**CALC_BRIEF, "outputFormat": "a patch to lib/calc/__init__.py"}
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=brief)
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]
    assert out["verdict"]["status"] == "fail"
    (line,) = [n for n in out["notes"] if n.startswith("import probe:")]
    assert str(venv) in line and "the room's lib" in line, line


def test_a_setup_py_package_dir_rename_refuses_every_check(tmp_path: Path) -> None:
    """``package_dir={"calc": "src/impl"}`` in ``setup.py``: the tree has no ``calc``, the
    venv's ``calc`` is the project's own distribution: blocked, naming the copy."""
    text = (
        'from setuptools import setup\nsetup(name="calc", version="0", packages=["calc"], '
        'package_dir={"calc": "src/impl"})\n'
    )
    work = _project(tmp_path, "setup.py", text, package="src/impl")
    venv = _calc_venv(tmp_path)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "blocked", out["outcomes"]
    (line,) = [n for n in out["notes"] if "package_dir rename" in n]
    assert "`calc` resolves to " + str(venv) in line and "uninstall `calc`" in line, line


def test_two_directories_defining_the_installed_name_refuse_every_check(tmp_path: Path) -> None:
    """``lib/calc`` and a ``tests/calc`` helper, ``calc`` installed, no declared layout: the
    room cannot tell which is the candidate's: blocked, naming both and the copy."""
    file, text = LAYOUTS["setup.py"]
    work = _project(tmp_path, file, text, extra="tests/calc")
    venv = _calc_venv(tmp_path)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "blocked", out["outcomes"]
    (line,) = [n for n in out["notes"] if "more than one place" in n]
    assert "lib/calc" in line and "tests/calc" in line and str(venv) in line, line


def test_a_tests_calc_helper_without_an_installed_calc_changes_nothing(tmp_path: Path) -> None:
    """A ``tests/calc`` helper folder, the project's package ``pkgx``, no ``calc``
    installed (the venv holds another wheel): no refusal, no redirect; the fixed candidate
    passes."""
    work = _project(
        tmp_path,
        "pyproject.toml",
        '[project]\nname = "pkgx"\nversion = "0"\n',
        package="pkgx",
        extra="tests/calc",
    )
    write(work / "pkgx" / "__init__.py", FIXED)
    write(work / "tests" / "test_mul.py", CALC_BRIEF_TEST.replace("PKG", "pkgx"))
    write(work / "tests" / "test_add.py", CALC_BRIEF_TEST.replace("PKG", "pkgx"))
    git(work, "add", "-A")
    venv = _calc_venv(tmp_path, package="other")
    out = _verify(work, tmp_path, venv, "--staged", code=0, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "pass", out["outcomes"]
    assert not [n for n in out["notes"] if "no check ran" in n or "import probe" in n]


def test_the_guard_starts_no_interpreter_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The names the guard adds are asked in the probe's own processes: a ``setup.py``
    ``lib`` layout costs the same interpreter starts as a declared ``lib`` layout."""
    calls: list[int] = []
    real = room_imports.probe

    def counted(pythons: Any, *args: Any, **kwargs: Any) -> Probed:
        calls.append(len(pythons))
        return real(pythons, *args, **kwargs)

    monkeypatch.setattr(room_imports, "probe", counted)
    venv = _calc_venv(tmp_path)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}{Path(sys.executable).parent}", "HOME": "/"}
    starts = []
    for name, (file, text) in {
        "declared": ("pyproject.toml", '[tool.setuptools.packages.find]\nwhere = ["lib"]\n'),
        "setup.py": LAYOUTS["setup.py"],
    }.items():
        room = tmp_path / name
        write(room / file, text)
        write(room / "lib" / "calc" / "__init__.py", BUGGY)
        calls.clear()
        _, _, imports = room_imports.for_room(
            env, (), [], str(room), guard=str(tmp_path / f"guard-{name}")
        )
        assert not imports.unresolved, imports.unresolved
        assert any(room.joinpath("lib").samefile(p) for p in imports.first.split(os.pathsep)[1:])
        starts.append(sum(calls))
    assert starts[0] == starts[1], starts


def _dotted(work: Path, dotted: str) -> None:
    """The staged tests import ``dotted`` (a namespace package's ``calc``)."""
    for test in ("test_mul", "test_add"):
        write(work / "tests" / f"{test}.py", CALC_BRIEF_TEST.replace("PKG", dotted))
    git(work, "add", "-A")


_PLAIN = '[project]\nname = "mytools"\nversion = "0"\n'


@pytest.mark.parametrize("rel", ["lib/acme/calc", "pkgs/core/acme/calc", "acme/calc"])
def test_a_namespace_package_the_wheel_shares_imports_the_candidate_s_copy(
    tmp_path: Path, rel: str
) -> None:
    """r18p open item 2: ``acme`` is a PEP 420 namespace (no ``__init__.py``) that no
    layout declares, and the wheel installs ``acme/calc``: below the root the checks
    imported the wheel's ``acme.calc``. Now the room's portion is first and the mul test
    fails (at the root it already was: kept as a row, the namespace now being asked)."""
    work = _project(tmp_path, "pyproject.toml", _PLAIN, package=rel)
    _dotted(work, "acme.calc")
    venv = _calc_venv(tmp_path, package="acme.calc")
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "fail", out["outcomes"]
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]
    assert not [n for n in out["notes"] if "no check ran" in n], out["notes"]


def test_a_regular_installed_package_over_a_namespace_is_kept_out(tmp_path: Path) -> None:
    """The installed ``acme`` has an ``__init__.py``: a regular package wins over every
    namespace portion, whatever PYTHONPATH says, so the room makes that copy unimportable
    in its runs: the checks import the candidate's ``acme.calc`` and the mul test fails."""
    work = _project(tmp_path, "pyproject.toml", _PLAIN, package="lib/acme/calc")
    _dotted(work, "acme.calc")
    (tmp_path / "wh").mkdir()
    venv = _venv(tmp_path / "venv", _wheel(tmp_path / "wh", "acme", ""))
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    write(venv / "lib" / version / "site-packages" / "acme" / "calc" / "__init__.py", FIXED)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "fail", out["outcomes"]
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]
    (line,) = [n for n in out["notes"] if n.startswith("import probe:")]
    assert "`acme`" in line and str(venv) in line and "the room's lib" in line, line


def test_a_common_name_defined_once_imports_the_candidate_s_copy(tmp_path: Path) -> None:
    """r18p open item 2: the project's package is ``tools`` (a name many projects hold),
    kept in ``lib``; the wheel installs ``tools``: the checks imported the wheel's. Now
    the room's ``lib`` is first and the mul test fails."""
    work = _project(tmp_path, "pyproject.toml", _PLAIN, package="lib/tools")
    _dotted(work, "tools")
    venv = _calc_venv(tmp_path, package="tools")
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "fail", out["outcomes"]
    assert _exits(out)[0] == ("criterion", 1), out["outcomes"]


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        (
            'about = {"name": "calc"}\nsetup(name=about["name"], version="0", '
            'packages=["calc"], package_dir={"calc": "src/impl"})\n',
            "package_dir rename",
        ),
        (
            'DIRS = {"calc": "src/impl"}\nsetup(name="calc", version="0", packages=["calc"], '
            "package_dir=DIRS)\n",
            "setup.py passes package_dir as an expression",
        ),
    ],
    ids=["dynamic-name", "dynamic-package-dir"],
)
def test_a_dynamic_setup_py_rename_refuses_every_check(
    tmp_path: Path, setup: str, said: str
) -> None:
    """r18p open item 2: ``setup(name=<computed>)`` hid the rename (the project's own
    distribution could not be named); its ``package_dir`` key names it. A ``package_dir``
    that is no literal cannot be read: fail closed, one line."""
    text = "from setuptools import setup\n" + setup
    work = _project(tmp_path, "setup.py", text, package="src/impl")
    venv = _calc_venv(tmp_path)
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=CALC_BRIEF)
    assert out["verdict"]["status"] == "blocked", out["outcomes"]
    (line,) = [n for n in out["notes"] if said in n]
    assert "no check ran" in line, line
