"""``policy.importable``: which file names Python imports as a module from a ``sys.path``
directory (checked against what ``python3`` really imports: a sourceless ``pytest.pyc`` is
run by ``python3 -m pytest``, a ``__pycache__/pytest.cpython-311.pyc`` is not)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.importable import module_name

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
