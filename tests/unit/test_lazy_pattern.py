"""``values.lazy_pattern``: a pattern compiled on first use answers as ``re.compile`` does.

* Nothing is compiled at creation; the first attribute read compiles it once, and every
  method then is the compiled pattern's own (``search``, ``sub``, ``findall``...).
* A bad pattern raises ``re.error`` at first use, not when the module defining it loads.
"""

from __future__ import annotations

import re

import pytest

from gentle_hooks.values.lazy_pattern import lazy_pattern

LINES = [b"x = f('a') + 0XFF", b"return (y)", b"", b"import os, sys  # noqa", b"\\xAB"]


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [(rb"\w+", 0), (rb"(?P<n>\d[\w.]*)|'[^']*'", 0), (rb"IMPORT\s", re.IGNORECASE)],
)
def test_every_method_answers_as_the_compiled_pattern(pattern: bytes, flags: int) -> None:
    lazy, real = lazy_pattern(pattern, flags), re.compile(pattern, flags)
    assert "search" not in vars(lazy)  # not compiled yet
    for line in LINES:
        assert repr(lazy.search(line)) == repr(real.search(line))
        assert repr(lazy.match(line)) == repr(real.match(line))
        assert repr(lazy.fullmatch(line)) == repr(real.fullmatch(line))
        assert lazy.findall(line) == real.findall(line)
        assert [m.span() for m in lazy.finditer(line)] == [m.span() for m in real.finditer(line)]
        assert lazy.sub(b"_", line) == real.sub(b"_", line)
        assert lazy.subn(b"_", line) == real.subn(b"_", line)
        assert lazy.split(line) == real.split(line)
    assert (lazy.pattern, lazy.flags, lazy.groups) == (real.pattern, real.flags, real.groups)
    assert lazy.groupindex == real.groupindex
    assert vars(lazy)["search"].__self__ is vars(lazy)["sub"].__self__  # compiled once


def test_a_bad_pattern_fails_at_first_use() -> None:
    bad = lazy_pattern(rb"(unclosed")
    with pytest.raises(re.error):
        bad.search(b"x")
