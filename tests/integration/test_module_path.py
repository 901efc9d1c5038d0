"""``python -m gentle_hooks`` run in a repository never imports the repository's modules in
place of the standard library's: ``-m`` puts the working directory first on ``sys.path``,
and a change that adds ``json.py`` or ``unittest.py`` there would otherwise run as
gentle-hooks (a printed way out names ``python -m gentle_hooks`` where ``gentle-hook`` is
not on PATH). Reproduces the fake ``unittest.py`` a receipt's doctest count imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FAKE = 'import sys\nprint("HIJACKED {0}")\nsys.exit(0)\n'


@pytest.mark.parametrize("module", ["json", "unittest", "shlex", "subprocess"])
def test_a_module_beside_the_work_tree_shadows_nothing(tmp_path: Path, module: str) -> None:
    (tmp_path / f"{module}.py").write_text(FAKE.format(module), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "schema", "brief"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert "HIJACKED" not in done.stdout + done.stderr, done
    assert done.returncode == 0 and done.stdout.startswith("{"), done
