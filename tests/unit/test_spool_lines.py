"""Why a spool line is not a spooled record, in the product's words (SPEC §6; the reason a
quarantine record keeps and ``doctor`` prints): never Python's exception text (a codec
name, ``Expecting value``, ``object has no attribute``, a repr of a missing key)."""

from __future__ import annotations

import pytest

from gentle_hooks.ledger.spool_fold import read_lines

CASES = [
    (b"\xff{}", "not ASCII text (a spool line is JSON with every other character escaped)"),
    (b"{", "not JSON"),
    (b"[" * 5000, "not JSON"),
    (b"[1]", "not a JSON object"),
    (b'{"x": 1}', "no member mutation"),
    (b'{"mutation": [], "entries": []}', "a member of the wrong type"),
    (b'{"mutation": {"a": {"hex": "zz"}}, "entries": []}', "a hex value that is not hex"),
    (
        b'{"mutation": {"a": [1]}, "entries": []}',
        "a column value that is a list or a boolean",
    ),
]


@pytest.mark.parametrize(("raw", "why"), CASES, ids=[w for _, w in CASES])
def test_an_unreadable_line_says_why_in_our_words(raw: bytes, why: str) -> None:
    recs, bad = read_lines([(3, raw)])
    assert recs == []
    assert bad == [(3, raw, f"line 3 is not a spooled record ({why})")]
