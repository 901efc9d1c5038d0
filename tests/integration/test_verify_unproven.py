"""Python started without the room's import guard where no command word shows it — a
variable holding ``-E``, ``env -uPYTHONPATH``, ``env -S 'python3 -E'``, a program ``py``
linked to the interpreter, a committed Makefile's recipe, a ``#!/bin/sh`` script running
``python3 -E``, a ``#!/usr/bin/env -S PYTHONPATH= python3`` script — while the venv's
``.pth`` ``import`` line puts a work-tree directory on ``sys.path`` (issue 18: the room
imports nothing from the work tree it does not hold; SPEC §9: a verify run checks "the
candidate's exact tree").

Reading words cannot close these: the room asks its interpreters, started without the
guard, what they reach; when that is a work tree's place, only a check whose every Python
start the room can read runs, and the rest are refused naming the ``.pth`` file. In a
clean environment ``make test`` still runs. Git, make and the venv are real.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_all, git, write
from tests.integration.test_verify_editable import _verify
from tests.integration.test_verify_other_copy import CALC_BRIEF
from tests.integration.test_verify_unguarded import MUL_TEST, _venv, _work

#: The venv's programs each form needs (name: text; ``@py``: a link to the venv's python).
PROGRAMS = {
    "py": "@py",
    "rt": '#!/bin/sh\nexec python3 -E -m unittest "$@"\n',
    "rt4": "#!/usr/bin/env -S PYTHONPATH= python3\nimport sys, unittest\nsys.path[:0] = ['']\n"
    "unittest.main(module=None, argv=sys.argv)\n",
}
#: Each form: (criterion, the brief's env).
FORMS: dict[str, tuple[str, dict[str, str] | None]] = {
    "variable": ("python3 $F -m unittest tests.test_mul", {"F": "-E"}),
    "env-u": ("env -uPYTHONPATH python3 -m unittest tests.test_mul", None),
    "env-S": ("env -S 'python3 -E' -m unittest tests.test_mul", None),
    "py-link": ("py -E -m unittest tests.test_mul", None),
    "makefile": ("make check T=tests.test_mul", None),
    "sh-script": ("rt tests.test_mul", None),
    "env-S-shebang": ("rt4 tests.test_mul", None),
}
MAKEFILE = (
    "check:\n\tpython3 -E -m unittest $(T)\n\ntest:\n\tpython3 -m unittest discover -s tests\n"
)


def _programs(venv: Path) -> None:
    for name, text in PROGRAMS.items():
        target = venv / "bin" / name
        if text == "@py":
            target.symlink_to(venv / "bin" / "python")
        else:
            write(target, text, mode=0o755)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_start_no_word_shows_is_refused_naming_the_pth_file(tmp_path: Path, form: str) -> None:
    """The criterion is not run (its error names the reached place and the ``.pth`` file)
    and the verdict is not ``pass``; it ran and passed, importing the work tree's
    ``fastmul``."""
    work = _work(tmp_path / "w")
    write(work / "Makefile", MAKEFILE)
    commit_all(work, "a Makefile")
    venv = _venv(tmp_path / "venv", work / "extra")
    _programs(venv)
    write(work / "calc.py", "def add(a, b):\n    return a + b\n\n\nfrom fastmul import mul\n")
    write(work / "tests" / "test_mul.py", MUL_TEST)
    git(work, "add", "-A")
    write(work / "extra" / "fastmul.py", "def mul(a, b):\n    return a * b\n")
    run, env = FORMS[form]
    brief: dict[str, Any] = {
        **CALC_BRIEF,
        "successCriteria": [{"criterion": "the mul test passes", "run": run}],
    }
    if env:
        brief["env"] = env
    out = _verify(work, tmp_path, venv, "--staged", code=1, brief_data=brief)
    assert out["verdict"]["status"] != "pass", out["outcomes"]
    (first, *_) = out["outcomes"]
    assert first["exit_code"] is None, out["outcomes"]
    error = first["error"] or ""
    assert str(work / "extra") in error, first
    if form not in ("env-u", "env-S"):  # caught by their words (env -S is split): the older line
        assert "extra_path.pth" in error, first


def test_a_clean_environment_still_runs_make_test(tmp_path: Path) -> None:
    """No ``.pth`` reaches a work tree: ``make test`` (a recipe the room cannot read) runs
    as before, and the run passes."""
    work = _work(tmp_path / "w")
    write(work / "Makefile", MAKEFILE)
    commit_all(work, "a Makefile")
    venv = _venv(tmp_path / "venv", tmp_path / "nowhere")
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "extra_path.pth").unlink()
    write(
        work / "calc.py", "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
    )
    write(work / "tests" / "test_mul.py", MUL_TEST)
    git(work, "add", "-A")
    brief: dict[str, Any] = {
        **CALC_BRIEF,
        "successCriteria": [{"criterion": "the mul test passes", "run": "make test"}],
    }
    out = _verify(work, tmp_path, venv, "--staged", code=0, brief_data=brief)
    assert out["verdict"]["status"] == "pass", out["outcomes"]
    assert [o["exit_code"] for o in out["outcomes"]] == [0, 1, 0], out["outcomes"]
