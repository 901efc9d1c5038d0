"""The writer's edit with its names renamed on top (rows E1-E5 of
gentle_hooks.policy.renamededit; row A6 of gentle_hooks.policy.attribution), row by row."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import PathChange, WriterEntry, carries_row, writer_delta
from gentle_hooks.policy.renamededit import edit_forms, holds_renamed_edit, makes_renamed_edit

BASE = b"def add(a, b):\n    return a - b\n"
WRITER = b"def add(a, b):\n    c = a * b\n    return c\n"
EDITS = edit_forms(BASE, WRITER)


@pytest.mark.parametrize(
    ("row", "content", "held"),
    [
        ("E1-no-run", b"def add(a, b):\n    return a * b\n", False),
        ("E2-two-to-one", b"def add(a, b):\n    a = a * b\n    return a\n", False),
        ("E2-swap", b"def add(a, b):\n    c = b * a\n    return c\n", False),
        ("E3-own-names", b"def add(a, b):\n    total = x * y\n    return total\n", False),
        ("E4-gone-line-kept", b"def f(a, b):\n    total = a * b\n    return a - b\n", False),
        ("E5-renamed", b"def add(a, b):\n    total = a * b\n    return total\n", True),
        ("E5-as-written", WRITER, True),
    ],
)
def test_rows(row: str, content: bytes, held: bool) -> None:
    assert holds_renamed_edit(EDITS, content) is held, row


def test_e4_the_gone_line_kept_beside_the_block() -> None:
    kept = b"def add(a, b):\n    total = a * b\n    return total\n    return a - b\n"
    assert not holds_renamed_edit(EDITS, kept)


def test_e1_a_one_line_replacement_is_no_block() -> None:
    assert edit_forms(BASE, BASE.replace(b"a - b", b"a + b")) == ()
    assert not holds_renamed_edit((), WRITER)


def test_a_change_makes_the_edit_renamed_only_from_before_it() -> None:
    renamed = b"def add(a, b):\n    total = a * b\n    return total\n"
    assert makes_renamed_edit(EDITS, BASE, renamed)
    assert not makes_renamed_edit(EDITS, WRITER, renamed)  # a later rename: delivered
    assert not makes_renamed_edit(EDITS, BASE, BASE + b"# note\n")


def test_row_a6_on_the_writers_path_here_not_elsewhere() -> None:
    entry = WriterEntry("app.py", "blob:w", "blob:b", writer_delta(BASE, WRITER))
    renamed = b"def add(a, b):\n    total = a * b\n    return total\n"
    change = PathChange("app.py", "blob:b", "blob:n", BASE, renamed)
    assert carries_row(change, entry) == "A6"
    assert carries_row(change, entry, elsewhere=True) != "A6"
