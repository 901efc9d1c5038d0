"""What the gates' modules import is structure, not timing (SPEC §2 "Start-up is part of
the product"): each gate module is imported alone in a fresh ``python -I`` and the modules
it loaded are read from ``sys.modules``.

* No gate imports :mod:`datetime`, the ``sqlite3`` package or :mod:`importlib`: the ledger
  uses the C module ``_sqlite3`` (the ledger package's docstring), the digests ``__import__``.
* The push gate imports neither the line comparison (``policy.attribution``,
  ``policy.linekeys``: only live writer work is compared) nor the shortfall types (built
  only when something is missing).
* A ``python -c`` receipt is judged without :mod:`ast` (``policy.noop_args``), with the same
  answers for names written with parentheses or dots.
* The line rules a delegated commit loads but only some lines reach (``policy.distinctive``:
  a writer line at another path; ``policy.boilerplate``: an expired entry; ``policy.shapes``)
  compile none of their patterns at import (``values.lazy_pattern``).

The latency itself is measured by ``bench/run.py``, never by a test.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from gentle_hooks.policy.noop_args import python_noop

EVERY_GATE_AVOIDS = ("datetime", "sqlite3", "importlib")
PUSH_GATE_AVOIDS = (
    "gentle_hooks.policy.attribution",
    "gentle_hooks.policy.linekeys",
    "gentle_hooks.policy.shortfall",
)


def _imported(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))\n"
    proc = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


@pytest.mark.parametrize(
    "module",
    [
        "gentle_hooks.hooks.commit",
        "gentle_hooks.hooks.push_gate",
        "gentle_hooks.hooks.range",
        "gentle_hooks.hooks.server",
    ],
)
def test_gate_imports_no_datetime_sqlite3_package_or_importlib(module: str) -> None:
    loaded = _imported(f"import {module}")
    assert module in loaded
    assert sorted(m for m in EVERY_GATE_AVOIDS if m in loaded) == []


def test_push_gate_imports_no_line_comparison_or_shortfalls() -> None:
    loaded = _imported("import gentle_hooks.hooks.push_gate")
    assert sorted(m for m in PUSH_GATE_AVOIDS if m in loaded) == []


def test_python_c_receipt_is_read_without_ast() -> None:
    loaded = _imported(
        "from gentle_hooks.policy.noop_args import python_noop\n"
        "assert python_noop(('-c', 'import sys; sys.exit(0)'))\n"
        "assert not python_noop(('-c', 'import os'))"
    )
    assert "ast" not in loaded


@pytest.mark.parametrize(
    ("script", "noop"),
    [
        ("(print)(1)", True),
        ("sys .exit(0)", True),
        ("(sys).exit(0)", True),
        ("quit(None)", True),
        ("raise SystemExit", False),
        ("os.sys.exit(0)", False),
        ("f().exit(0)", False),
        ("sys['exit'](0)", False),
        ("print.x(1)", False),
        ("getattr(sys, 'exit')(0)", False),
        ("\x00", False),
    ],
)
def test_python_c_names_as_written(script: str, noop: bool) -> None:
    assert python_noop(("-c", script)) is noop


#: Patterns of modules the commit gate loads that only some changes use, by module.
LAZY_PATTERNS = {
    "gentle_hooks.policy.distinctive": ("_TOKENS", "_WORD", "_SPACE", "REACHING", "_LITERAL"),
    "gentle_hooks.policy.boilerplate": ("_DUNDER", "_SETUP", "_ENTRY", "_MAIN_DEF", "_READ"),
    "gentle_hooks.policy.shapes": ("_IDENT", "_IMPORT"),
}


def test_line_rules_compile_no_pattern_at_import() -> None:
    probe = (
        "import re, sys\n"
        f"for m, names in {LAZY_PATTERNS!r}.items():\n"
        "    __import__(m)\n"
        "    for name in names:\n"
        "        value = getattr(sys.modules[m], name)\n"
        "        if isinstance(value, re.Pattern) or 'search' in vars(value):\n"
        "            print(m, name)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == []
