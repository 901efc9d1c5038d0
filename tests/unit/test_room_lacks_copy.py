"""The copy a block prints for an ignored file or directory a linked work tree lacks
(:func:`gentle_hooks.services.room_lacks.copy_line`) does its job when pasted into ``sh``:
a file into an existing folder, a file whose folder is missing, and an ignored package
directory (refuter r14w F2: ``cp`` without ``-R`` refused a directory)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gentle_hooks.services.room_lacks import copy_line

#: (id, the ignored path, the files it holds relative to it; "" is the path itself).
CASES = [
    ("file-folder-there", ".env", {"": "A=1\n"}),
    ("file-folder-missing", "conf/local/key.cfg", {"": "k\n"}),
    ("directory", "localcfg", {"settings.py": "FACTOR = 1\n", "sub/x.py": "X = 2\n"}),
    ("directory-folder-missing", "etc/localcfg", {"settings.py": "FACTOR = 1\n"}),
]


@pytest.mark.parametrize(("rel", "files"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_printed_copy_copies_when_pasted(
    tmp_path: Path, rel: str, files: dict[str, str]
) -> None:
    other, root = tmp_path / "other wt", tmp_path / "it's here"
    root.mkdir()
    for inner, text in files.items():
        path = other / rel / inner if inner else other / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    line = copy_line(str(other), str(root), rel)
    done = subprocess.run(["sh", "-c", line], capture_output=True, text=True, check=False)
    assert done.returncode == 0, (line, done.stderr)
    for inner, text in files.items():
        copied = root / rel / inner if inner else root / rel
        assert copied.read_text(encoding="utf-8") == text, line
