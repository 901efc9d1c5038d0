"""nesting_depth skips quoted strings at the regex engine's speed (issue 16: a 5 MB note
line or 50,000 lines cost seconds per gate when strings were walked a character at a time)."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.bounded import _string_end, nesting_depth


def _walked(s: str, i: int) -> int:
    """The character-at-a-time definition _string_end must keep."""
    q = s[i]
    if s.startswith(q * 3, i):
        end = s.find(q * 3, i + 3)
        return len(s) if end < 0 else end + 3
    j = i + 1
    while j < len(s):
        c = s[j]
        if c == "\\" and q == '"':
            j += 2
            continue
        if c == q or c == "\n":
            return j + 1
        j += 1
    return len(s)


def _walked_depth(s: str) -> int:
    """The character-at-a-time definition nesting_depth must keep."""
    depth = deepest = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
        elif c == "#":
            end = s.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            i = _walked(s, i)
            continue
        i += 1
    return deepest


@given(st.text(alphabet="\"'\\\na[{]}#", max_size=24))
def test_nesting_depth_is_the_walked_definition(s: str) -> None:
    assert nesting_depth(s) == _walked_depth(s), s


@given(st.text(alphabet="\"'\\\na[{]}#", max_size=24))
def test_string_end_is_the_walked_definition(s: str) -> None:
    for i, c in enumerate(s):
        if c in "\"'":
            assert min(_string_end(s, i), len(s)) == _walked(s, i), (s, i)


def test_long_strings_and_many_escapes_are_skipped_fast() -> None:
    texts = (
        '["' + "m" * 20_000_000 + '"]',
        '["' + '\\"' * 5_000_000 + '"]',
        "x = ['" + "y" * 20_000_000 + "']",
    )
    start = time.monotonic()
    assert [nesting_depth(t) for t in texts] == [1, 1, 1]
    # ~15 s a character at a time
    assert time.monotonic() - start < 4
