"""Parsers of git plumbing output: C-quoted paths, raw+numstat -z, -U0 patches."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.errors import GitError
from gentle_hooks.git.parse import (
    RawNumstatParser,
    iter_added_lines,
    listing,
    parse_raw_numstat,
    unquote_path,
)

_C = {
    7: b"\\a",
    8: b"\\b",
    9: b"\\t",
    10: b"\\n",
    11: b"\\v",
    12: b"\\f",
    13: b"\\r",
    34: b'\\"',
    92: b"\\\\",
}


def c_quote(raw: bytes) -> bytes:
    """Quote like git's quote_c_style (core.quotePath=true)."""
    out = bytearray(b'"')
    for b in raw:
        if b in _C:
            out += _C[b]
        elif b < 0x20 or b >= 0x7F:
            out += b"\\%03o" % b
        else:
            out.append(b)
    return bytes(out + b'"')


@given(st.binary(min_size=1, max_size=60).filter(lambda b: b"\0" not in b))
def test_unquote_inverts_git_quoting(raw: bytes) -> None:
    assert unquote_path(c_quote(raw)) == raw


def test_unquoted_passes_through() -> None:
    assert unquote_path(b"plain/path.txt") == b"plain/path.txt"


@pytest.mark.parametrize("bad", [b'"unterminated', b'"bad\\q"', b'"trailing\\"'])
def test_malformed_quoting_is_an_error(bad: bytes) -> None:
    with pytest.raises(GitError):
        unquote_path(bad)


Z = "0" * 40
A = "a" * 40
B = "b" * 40


def test_raw_numstat_with_rename_binary_and_newline_path() -> None:
    data = (
        f":100644 100755 {A} {B} M\0b.bin\0"
        f":100644 100644 {A} {B} R066\0x y.txt\0z\nw.txt\0"
        f":000000 100644 {Z} {B} A\0new\0"
        "-\t-\tb.bin\0"
        "1\t0\t\0x y.txt\0z\nw.txt\0"
        "3\t0\tnew\0"
    ).encode()
    changes = parse_raw_numstat(data)
    assert [(c.path, c.old_path, c.status, c.additions, c.deletions) for c in changes] == [
        ("b.bin", None, "M", None, None),
        ("z\nw.txt", "x y.txt", "R", 1, 0),
        ("new", None, "A", 3, 0),
    ]
    assert changes[0].binary and changes[0].exec_flip and not changes[0].mode_only


path_bytes = st.binary(min_size=1, max_size=30).filter(lambda b: b"\0" not in b)


@given(
    st.lists(
        st.tuples(path_bytes, st.integers(0, 10**6), st.integers(0, 10**6), st.booleans()),
        min_size=0,
        max_size=20,
        unique_by=lambda t: t[0],
    )
)
def test_raw_numstat_roundtrip(entries) -> None:
    raw = b"".join(
        b":100644 100644 %s %s M\0%s\0" % (A.encode(), B.encode(), p) for p, _, _, _ in entries
    )
    stats = b"".join(
        (b"-\t-\t%s\0" % p) if binary else (b"%d\t%d\t%s\0" % (a, d, p))
        for p, a, d, binary in entries
    )
    changes = parse_raw_numstat(raw + stats)
    assert [c.path for c in changes] == [os.fsdecode(p) for p, *_ in entries]
    for c, (_, a, d, binary) in zip(changes, entries, strict=True):
        assert (c.additions, c.deletions) == ((None, None) if binary else (a, d))


def test_sections_that_disagree_are_an_error() -> None:
    with pytest.raises(GitError):
        parse_raw_numstat(f":100644 100644 {A} {B} M\0a\0".encode())


def test_added_lines_track_hunk_counts() -> None:
    patch = (
        b"diff --git a/s.py b/s.py\n--- a/s.py\n+++ b/s.py\n"
        b"@@ -0,0 +1,2 @@\n+#!/bin/sh\n+++ not a header\n"
        b"@@ -5 +7 @@\n-old\n+new\n"
        b"diff --git a/gone b/gone\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
        b'diff --git "a/sp ace\\303\\251" "b/sp ace\\303\\251"\n--- "a/sp ace\\303\\251"\n'
        b'+++ "b/sp ace\\303\\251"\n@@ -1,0 +2 @@\n+subprocess.run(x)\n'
        b"\\ No newline at end of file\n"
    )
    got = [(a.path, a.line, a.text) for a in iter_added_lines(patch)]
    assert got == [
        ("s.py", 1, "#!/bin/sh"),
        ("s.py", 2, "++ not a header"),
        ("s.py", 7, "new"),
        ("sp ace\u00e9", 2, "subprocess.run(x)"),
    ]


@given(
    st.lists(
        st.tuples(path_bytes, st.integers(0, 10**6), st.booleans(), st.booleans()),
        min_size=0,
        max_size=12,
        unique_by=lambda t: t[0],
    ),
    st.lists(st.integers(1, 40), max_size=30),
)
def test_parsing_in_pieces_equals_parsing_at_once(entries, cuts) -> None:
    """Git's output fed in arbitrary pieces (a multi-byte path cut in two, a NUL alone)
    parses to the same changes, and the listing names every path with its blob."""
    raw = b""
    stats = b""
    for i, (p, count, renamed, binary) in enumerate(entries):
        if renamed:
            raw += b":100644 100644 %s %s R%03d\0old%d\0%s\0" % (
                A.encode(),
                B.encode(),
                count % 101,
                i,
                p,
            )
            stats += b"%d\t0\t\0old%d\0%s\0" % (count, i, p)
        else:
            raw += b":000000 100644 %s %s A\0%s\0" % (Z.encode(), B.encode(), p)
            stats += (b"-\t-\t%s\0" % p) if binary else (b"%d\t0\t%s\0" % (count, p))
    data = raw + stats
    parser = RawNumstatParser()
    listed = []
    at = 0
    for cut in cuts:
        parser.feed(data[at : at + cut])
        listed += parser.take_listed()
        at += cut
    parser.feed(data[at:])
    listed += parser.take_listed()
    assert parser.finish() == parse_raw_numstat(data)
    assert [item[:3] for item in listed] == [
        (os.fsdecode(p), f"old{i}" if renamed else None, B)
        for i, (p, _, renamed, _) in enumerate(entries)
    ]
    assert listed == [listing(c) for c in parser.finish()]


def test_listing_leaves_out_deleted_and_submodule_blobs() -> None:
    parser = RawNumstatParser()
    parser.feed(
        f":100644 000000 {A} {Z} D\0gone\0:160000 160000 {A} {B} M\0vendor/lib\0"
        f":100644 100644 {A} {B} M\0kept\0".encode()
    )
    assert not parser.raw_complete
    assert parser.take_listed() == [
        ("gone", None, None, ("100644", A, "000000", Z)),
        ("vendor/lib", None, None, ("160000", A, "160000", B)),
        ("kept", None, B, ("100644", A, "100644", B)),
    ]
    parser.feed(b"0\t1\tgone\0001\t1\tvendor/lib\0002\t2\tkept\0")
    assert parser.raw_complete and parser.take_listed() == []
    assert [c.path for c in parser.finish()] == ["gone", "vendor/lib", "kept"]


@pytest.mark.parametrize(
    "data",
    [
        f":100644 100644 {A} {B} M\0a\0".encode(),  # no numstat record
        f":100644 100644 {A} {B} M\0a\01\t1\ta\01\t1\ta\0".encode(),  # one too many
        f":100644 100644 {A} {B} M\0a\01\t1\tb\0".encode(),  # another path
        f":100644 100644 {A} {B} M\0a\01\t1\ta".encode(),  # no final NUL
        f":100644 100644 {A} {B} M\0".encode(),  # a record cut short
        b"1\t1\ta\0",  # numstat without raw
    ],
)
def test_malformed_output_is_an_error(data: bytes) -> None:
    with pytest.raises(GitError):
        parse_raw_numstat(data)


def test_a_raw_record_says_whether_its_paths_mode_changed() -> None:
    """:func:`gentle_hooks.git.delta.parse_raw` reads each record's modes (the first one
    after the record's ``:``): a flip with or without a new blob, none for a content change,
    an added or a deleted path."""
    from gentle_hooks.git.delta import parse_raw

    a, b = "a" * 40, "b" * 40
    z = "0" * 40
    data = (
        f":100644 100755 {a} {a} M\0flip\0"
        f":100755 100644 {a} {b} M\0flip-and-edit\0"
        f":100644 100644 {a} {b} M\0edit\0"
        f":000000 100755 {z} {a} A\0added\0"
        f":100755 000000 {a} {z} D\0deleted\0"
    ).encode()
    assert [(c.path, c.mode_changed) for c in parse_raw(data)] == [
        ("flip", True),
        ("flip-and-edit", True),
        ("edit", False),
        ("added", False),
        ("deleted", False),
    ]
