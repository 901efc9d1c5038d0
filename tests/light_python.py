"""A light Python for the test commands the tests' verify rooms and spot checks run.

The tests' own interpreter carries the dev tools (hypothesis, pytest-xdist, mypy); a nested
``python3 -m pytest`` run by that interpreter loads their pytest plugins, and hypothesis's
imports all of hypothesis when the run's summary is written: about 1.8 s of each nested run's
2.2 s CPU, against 0.4 s for pytest alone (``-X importtime``). A user's project rarely carries
our dev tools, and a room never needs them, so the tests put this interpreter's scripts
directory first on PATH: ``python``/``python3`` and ``pytest`` there see pytest and what it
requires, nothing else. ``gentle-hook`` and every other script still come from the tests'
own environment, which stays on PATH behind it.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement

#: The distribution the light interpreter is made for; its requirements come along.
_ROOT = "pytest"


def _closure(name: str) -> list[importlib.metadata.Distribution]:
    """``name``'s distribution and every distribution it requires on this platform (extras
    left out), each once; a requirement not installed here is skipped (pytest's own import
    fails loudly if it was needed)."""
    seen: dict[str, importlib.metadata.Distribution] = {}
    todo = [name]
    while todo:
        wanted = todo.pop()
        key = wanted.lower().replace("_", "-")
        if key in seen:
            continue
        try:
            dist = importlib.metadata.distribution(wanted)
        except importlib.metadata.PackageNotFoundError:
            continue
        seen[key] = dist
        for line in dist.requires or ():
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(seen.values())


def _entries(dist: importlib.metadata.Distribution) -> set[str]:
    """The top-level names ``dist`` installed in its site-packages directory (packages,
    modules, its ``.dist-info``); scripts (``../../bin``) and caches left out."""
    return {f.parts[0] for f in dist.files or () if f.parts[0] not in ("..", "__pycache__")}


def make(where: Path) -> Path:
    """Make a virtual environment at ``where`` (a directory that does not exist yet) whose
    site-packages holds links to pytest and its requirements from this interpreter's, and a
    ``pytest`` script; return its scripts directory (``where/bin``).

    Raises ``subprocess.CalledProcessError`` if ``python -m venv`` fails, ``OSError`` if a
    link cannot be made."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, capture_output=True
    )
    bin_dir = where / "bin"
    (site,) = (where / "lib").glob("python*/site-packages")
    for dist in _closure(_ROOT):
        home = Path(str(dist.locate_file("")))
        for entry in _entries(dist):
            os.symlink(home / entry, site / entry)
    script = bin_dir / "pytest"
    script.write_text(
        f"#!{bin_dir / 'python'}\nimport sys\n\nfrom pytest import console_main\n\n"
        "sys.exit(console_main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return bin_dir
