"""git's pre-push stdin and the pre-commit framework's push variables."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.errors import UsageError
from gentle_hooks.hooks.push_input import (
    MAX_REF_LINES,
    from_pre_commit_env,
    is_zero,
    parse_pre_push,
    ref_lines,
)

A, B, Z = "a" * 40, "b" * 40, "0" * 40
A2, Z2 = "c" * 64, "0" * 64


def test_lines_of_every_kind() -> None:
    updates = parse_pre_push(
        f"refs/heads/main {A} refs/heads/main {B}\n"
        f"(delete) {Z} refs/heads/old {B}\n"
        f"refs/heads/new {A} refs/heads/new {Z}\n"
        f"refs/tags/v1 {A} refs/tags/v1 {Z}\n"
        f"HEAD {A} refs/heads/detached {B}\n"
    )
    assert [(u.local_ref, u.is_deletion, u.is_new) for u in updates] == [
        ("refs/heads/main", False, False),
        ("(delete)", True, False),
        ("refs/heads/new", False, True),
        ("refs/tags/v1", False, True),
        ("HEAD", False, False),
    ]


def test_sha256_ids() -> None:
    (u,) = parse_pre_push(f"refs/heads/main {A2} refs/heads/main {Z2}\n")
    assert u.is_new and not u.is_deletion and is_zero(Z2)


def test_empty_input_is_no_updates() -> None:
    assert parse_pre_push("") == []


@pytest.mark.parametrize(
    "line",
    [
        "refs/heads/main",
        f"refs/heads/main {A} refs/heads/main",
        f"refs/heads/main xyz refs/heads/main {B}",
        f"refs/heads/main {A} refs/heads/main {Z2}",
        f"refs/heads/main {A.upper()} refs/heads/main {B}",
    ],
)
def test_malformed_lines_are_refused(line: str) -> None:
    with pytest.raises(UsageError) as exc:
        parse_pre_push(line + "\n")
    assert exc.value.exit_code == 2 and "line 1" in str(exc.value)


@given(st.text(max_size=200))
def test_parser_never_crashes(text: str) -> None:
    with contextlib.suppress(UsageError):
        parse_pre_push(text)


def test_pre_commit_range() -> None:
    u = from_pre_commit_env(
        {
            "PRE_COMMIT": "1",
            "PRE_COMMIT_FROM_REF": B,
            "PRE_COMMIT_TO_REF": A,
            "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/x",
            "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/x",
            "PRE_COMMIT_REMOTE_NAME": "origin",
        }
    )
    assert u is not None and (u.from_ref, u.local_oid, u.local_ref) == (B, A, "refs/heads/x")


def test_pre_commit_without_range_is_not_nothing() -> None:
    u = from_pre_commit_env(
        {
            "PRE_COMMIT": "1",
            "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/x",
            "PRE_COMMIT_REMOTE_NAME": "origin",
        }
    )
    assert u is not None and u.is_new and u.local_oid == "refs/heads/x"
    bare = from_pre_commit_env({"PRE_COMMIT": "1"})
    assert bare is not None and bare.local_oid == "HEAD"


def test_not_under_pre_commit() -> None:
    assert from_pre_commit_env({}) is None


def test_repeated_ref_lines_count_once_and_keep_their_first_number() -> None:
    a = f"refs/heads/a {'1' * 40} refs/heads/a {'0' * 40}"
    b = f"refs/heads/b {'2' * 40} refs/heads/b {'0' * 40}"
    assert ref_lines(f"{a}\n\n{b}\n{a}\n{b}\n", "pre-push") == [(1, a), (3, b)]
    assert len(parse_pre_push(f"{a}\n" * 50_000)) == 1


def test_more_ref_lines_than_the_cap_are_refused() -> None:
    lines = "".join(
        f"refs/heads/b{i} {'1' * 40} refs/heads/b{i} {'0' * 40}\n" for i in range(10_001)
    )
    with pytest.raises(UsageError, match="more than 10000 ref lines"):
        ref_lines(lines, "pre-push")
    assert len(ref_lines(lines.split("\n", 1)[1], "pre-push")) == MAX_REF_LINES
