"""The name patterns of :mod:`gentle_hooks.quorum.restatement` run in linear time and find
exactly what ``re.findall`` finds over the whole text (runs up to ``MAX_TOKEN``)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.quorum import restatement as r

#: The patterns as first written (no look-behind, no one-pass reading): the reference.
FILE_LINE = re.compile(r"[\w./-]+:\d+")
PATH = re.compile(r"(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]*)+")

TEXT = st.text(alphabet="ab1:/.-_ \n9é`'\"", max_size=40)


@settings(max_examples=3000, deadline=None)
@given(TEXT)
def test_the_name_patterns_find_what_findall_finds(text: str) -> None:
    assert r._find_names(r._FILE_LINE, text) == tuple(FILE_LINE.findall(text))
    assert r._find_names(r._PATH, text) == tuple(PATH.findall(text))
    assert r._find_names(r._FILE_NAME, text) == tuple(r._FILE_NAME.findall(text))


def test_a_run_longer_than_max_token_names_nothing() -> None:
    long = "a/" * r.MAX_TOKEN + "b.py:3"
    assert r._find_names(r._FILE_LINE, f"x.py:1 {long} y.py:2") == ("x.py:1", "y.py:2")
    assert r.cited_evidence(long, "claim") == ("3",)  # its number only: a number is linear
