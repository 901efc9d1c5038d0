"""Candidate identity (SPEC §3 "Identity"): canonical, versioned, depends on trees only."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.values.candidate import EMPTY_TREES, candidate_identity

sha1 = st.text(alphabet="0123456789abcdef", min_size=40, max_size=40)
sha256 = st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)
tree_id = st.one_of(sha1, sha256)


def test_known_value_pins_the_encoding() -> None:
    base, tree = EMPTY_TREES["sha1"], "a" * 40
    payload = f"gentle-hooks.candidate/v1\nbase {base}\ntree {tree}\n".encode()
    assert candidate_identity(base, tree) == "sha256:" + hashlib.sha256(payload).hexdigest()


@given(tree_id, tree_id)
def test_shape_and_determinism(base: str, tree: str) -> None:
    ident = candidate_identity(base, tree)
    assert ident.startswith("sha256:") and len(ident) == 71
    assert ident == candidate_identity(base, tree)


@given(tree_id, tree_id, tree_id, tree_id)
def test_distinct_pairs_distinct_identities(b1: str, t1: str, b2: str, t2: str) -> None:
    if (b1, t1) != (b2, t2):
        assert candidate_identity(b1, t1) != candidate_identity(b2, t2)


@given(sha1, sha1)
def test_order_matters(a: str, b: str) -> None:
    if a != b:
        assert candidate_identity(a, b) != candidate_identity(b, a)


@pytest.mark.parametrize("bad", ["", "xyz", "A" * 40, "a" * 39, "a" * 41, "HEAD"])
def test_rejects_non_tree_ids(bad: str) -> None:
    with pytest.raises(ValueError):
        candidate_identity(bad, "a" * 40)
