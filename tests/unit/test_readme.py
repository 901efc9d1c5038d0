"""README and docs tell one install story: nothing says ``pip install gentle-hooks`` (it is
not on PyPI), one ``pre-commit install`` line with every stage, commit-msg included."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "hooks").iterdir()),
    ROOT / ".pre-commit-hooks.yaml",
    *sorted((ROOT / "gentle_hooks").rglob("*.py")),
]


def test_no_text_installs_from_pypi() -> None:
    for path in TEXTS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"pip install (-\S+ )*gentle-hooks\b", text), path


def test_one_pre_commit_install_line_with_every_stage() -> None:
    """One install line, with every stage the hooks use, wherever a line is shown."""
    found = set()
    for path in TEXTS:
        for ln in path.read_text(encoding="utf-8").splitlines():
            ln = ln.lstrip("#").strip()
            if ln.startswith("pre-commit install"):
                found.add(ln)
    assert len(found) == 1, found
    [line] = found
    for stage in (
        "pre-commit",
        "pre-merge-commit",
        "commit-msg",
        "pre-push",
        "prepare-commit-msg",
        "post-commit",
        "post-rewrite",
    ):
        assert f"-t {stage} " in line + " "
