"""Rows H1-H2 of :mod:`gentle_hooks.policy.hunks`, one by one."""

from __future__ import annotations

from gentle_hooks.policy.hunks import MAX_LINES, makes_writer_edit, replacements

BASE = (
    b"def first(items):\n    if not items:\n        return 0\n    return items[0]\n\n\nLIMIT = 10\n"
)
WRITER = BASE.replace(b"return 0", b"return []").replace(b"LIMIT = 10", b"LIMIT = 1000")
SWAP = b"def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"


def test_h1_one_writer_replacement_made_alone() -> None:
    hunks = replacements(BASE, WRITER)
    assert len(hunks) == 2
    assert makes_writer_edit(hunks, BASE, BASE.replace(b"return 0", b"return  []"))
    assert makes_writer_edit(hunks, BASE, BASE.replace(b"LIMIT = 10", b"LIMIT = 1000"))


def test_h1_swapped_bodies_are_two_replacements() -> None:
    writer = SWAP.replace(b"a - b", b"X").replace(b"a + b", b"a - b").replace(b"X", b"a + b")
    hunks = replacements(SWAP, writer)
    assert len(hunks) == 2
    assert makes_writer_edit(hunks, SWAP, SWAP.replace(b"a - b", b"a + b", 1))


def test_h2_another_line_written_there() -> None:
    hunks = replacements(BASE, WRITER)
    assert not makes_writer_edit(hunks, BASE, BASE.replace(b"return 0", b"return ()"))


def test_h2_insertions_deletions_and_no_writer_hunks() -> None:
    hunks = replacements(BASE, WRITER)
    assert not makes_writer_edit(hunks, BASE, BASE + b"\nMORE = 1\n")
    assert not makes_writer_edit(hunks, BASE, BASE.replace(b"    return items[0]\n", b""))
    assert not makes_writer_edit(frozenset(), BASE, WRITER)
    assert replacements(None, WRITER) == frozenset()


def test_h2_past_max_lines() -> None:
    big = BASE + b"x = 1\n" * MAX_LINES
    assert replacements(big, big.replace(b"return 0", b"return []")) == frozenset()


def test_the_alignment_is_difflibs() -> None:
    """The replacements are ``difflib``'s ``replace`` opcodes (no junk heuristic)."""
    import random
    from difflib import SequenceMatcher

    from gentle_hooks.policy.hunks import _replaced

    rng = random.Random(13)
    for _ in range(300):
        a = tuple(rng.choice("abcd ") for _ in range(rng.randrange(12)))
        b = tuple(rng.choice("abcd ") for _ in range(rng.randrange(12)))
        ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
        assert _replaced(a, b) == [(i1, i2, j1, j2) for t, i1, i2, j1, j2 in ops if t == "replace"]
