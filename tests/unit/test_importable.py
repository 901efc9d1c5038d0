"""``policy.importable``: which file names Python imports as a module from a ``sys.path``
directory (checked against what ``python3`` really imports: a sourceless ``pytest.pyc`` is
run by ``python3 -m pytest``, a ``__pycache__/pytest.cpython-311.pyc`` is not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.policy.importable import module_name, runs_unchecked

CASES = [
    ("pytest.py", "pytest"),
    ("pytest.pyc", "pytest"),
    ("pytest.pyw", "pytest"),
    ("pytest.so", "pytest"),
    ("pytest.abi3.so", "pytest"),
    ("pytest.cpython-313-x86_64-linux-gnu.so", "pytest"),
    ("pytest.cp312-win_amd64.pyd", "pytest"),
    ("pytest.cpython-311.pyc", None),  # a __pycache__ name: the cache of a pytest.py
    ("pytest.txt", None),
    ("pytest.pyc.txt", None),
    ("pytest", None),
    (".py", None),
]


@pytest.mark.parametrize(("filename", "expected"), CASES, ids=[c[0] for c in CASES])
def test_module_name(filename: str, expected: str | None) -> None:
    assert module_name(filename) == expected


@pytest.mark.parametrize(
    ("mode", "unchecked"),
    [
        ("TIMESTAMP", False),  # run only while the source's mtime and size match
        ("CHECKED_HASH", False),  # run only while the source's hash matches
        ("UNCHECKED_HASH", True),  # run in place of the source, never compared
    ],
)
def test_runs_unchecked_reads_the_pyc_flags(tmp_path: Path, mode: str, unchecked: bool) -> None:
    """PEP 552's flags word decides whether bytecode stands in for its source."""
    import py_compile

    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    out = tmp_path / "m.pyc"
    py_compile.compile(
        str(src), cfile=str(out), invalidation_mode=py_compile.PycInvalidationMode[mode]
    )
    assert runs_unchecked(out.read_bytes()) is unchecked


def test_runs_unchecked_counts_what_it_cannot_read() -> None:
    assert runs_unchecked(None) and runs_unchecked(b"\x00" * 7)
