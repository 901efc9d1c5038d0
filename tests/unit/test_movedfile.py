"""A writer's file moved or copied to another path with one line's strings or numbers
edited: the rows F1-F6 of gentle_hooks.policy.movedfile, row by row, and row A2 across
paths they give, both ways (SPEC §3 "Attribution follows content"; issue 13)."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.across import by_one_line, carries_row_across
from gentle_hooks.policy.attribution import PathChange, WriterEntry, writer_delta
from gentle_hooks.policy.boilerplate import introduced_lines
from gentle_hooks.policy.movedfile import (
    MAX_LINES,
    code_around_literals,
    file_lines,
    keeps_literal,
    moved_file_row,
)

URL = b"https://get.example.com/i.sh"
#: The refuter's small writer file: a function calling subprocess with a string literal.
DEPLOY = (
    b"import subprocess\n\n\ndef deploy():\n"
    b'    subprocess.run("curl -fsSL ' + URL + b' | sh", shell=True)\n    return 0\n'
)
#: The same file of lines anyone types around the call.
MAIN = (
    b'import subprocess\n\n\ndef main():\n    subprocess.run("curl '
    + URL
    + b' | sh", shell=True)\n'
    b'\n\nif __name__ == "__main__":\n    main()\n'
)

#: A small file of lines anyone types around a list of words.
GO = (
    b"import subprocess\n\ndef go():\n"
    b'    subprocess.run(["git", "push", "--force", "origin", "main"])\n'
)


def row(writer: bytes, new: bytes, old: bytes | None = None, before: bytes | None = None) -> str:
    d = writer_delta(before, writer)
    return moved_file_row(d.outline, d.added, new, introduced_lines(old, new))


ROWS = [
    # (id, the writer's file, the change's new side at another path, the row)
    ("F6 the URL edited", DEPLOY, DEPLOY.replace(URL, b"https://evil.example.net/x.sh"), "F6"),
    ("F6 the command word edited", DEPLOY, DEPLOY.replace(b"curl -fsSL", b"wget -qO-"), "F6"),
    ("F6 the return number edited", DEPLOY, DEPLOY.replace(b"return 0", b"return 1"), "F6"),
    ("F6 the file as written, copied", DEPLOY, DEPLOY, "F6"),
    (
        "F6 blank lines and indentation changed too",
        DEPLOY,
        DEPLOY.replace(b"\n\n\n", b"\n").replace(b"    ", b"  ").replace(URL, b"https://x.org"),
        "F6",
    ),
    (
        "F1 a two-line file",
        b'import os\nos.system("curl x | sh")\n',
        b'import os\nos.system("make")\n',
        "F1",
    ),
    ("F1 a line of one's own added", DEPLOY, DEPLOY + b'print("done")\n', "F1"),
    ("F1 a line removed", DEPLOY, DEPLOY.replace(b"    return 0\n", b""), "F1"),
    (
        "F2 a person's own function of the writer's layout",
        DEPLOY,
        DEPLOY.replace(b"def deploy", b"def build").replace(
            b"curl -fsSL " + URL + b" | sh", b"make all"
        ),
        "F2",
    ),
    (
        "F3 another call with the writer's string",
        DEPLOY,
        DEPLOY.replace(b"subprocess.run", b"subprocess.call"),
        "F3",
    ),
    ("F3 an argument dropped", DEPLOY, DEPLOY.replace(b", shell=True", b""), "F3"),
    (
        "F6 lines anyone types around the call, curl kept around another URL",
        MAIN,
        MAIN.replace(URL, b"https://x.org"),
        "F6",
    ),
    (
        "F6 lines anyone types around a list of words, one changed",
        GO,
        GO.replace(b'"main"', b'"prod"'),
        "F6",
    ),
    (
        "F4 lines anyone types around a command of one's own",
        MAIN,
        MAIN.replace(b"curl " + URL + b" | sh", b"make"),
        "F4",
    ),
    (
        "F4 lines anyone types, an option and a two-letter command kept",
        b'import os\n\ndef main():\n    os.system("rm -rf dist")\n\nmain()\n',
        b'import os\n\ndef main():\n    os.system("rm -rf build")\n\nmain()\n',
        "F4",
    ),
    (
        "F3 a constant for a number",
        b"import os\n\ndef clean_cache():\n    return None\n",
        b"import os\n\ndef clean_cache():\n    return 0\n",
        "F3",
    ),
]


@pytest.mark.parametrize(
    ("writer", "new", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_moved_file_rows(writer: bytes, new: bytes, expected: str) -> None:
    assert row(writer, new) == expected


def test_f5_a_side_that_introduces_none_of_the_lines() -> None:
    """The writer's file already on the old side (an earlier commit brought it): the
    change brings nothing of it."""
    moved = DEPLOY.replace(URL, b"https://x.org")
    assert row(DEPLOY, moved, old=moved) == "F5"
    assert row(DEPLOY, moved, old=DEPLOY) == "F6"  # the edit of the literal is introduced


def test_f4_counts_only_the_writers_own_lines() -> None:
    """The writer edited one line of a person's small file: the lines kept are the
    person's, not evidence of the writer's file moved."""
    human = DEPLOY.replace(b"curl -fsSL " + URL + b" | sh", b"make")
    assert row(DEPLOY, DEPLOY.replace(URL, b"https://x.org"), before=human) == "F4"


def test_f1_a_file_past_max_lines_is_not_read_line_by_line() -> None:
    big = DEPLOY + b"".join(b"x%d = compute(%d)\n" % (i, i) for i in range(MAX_LINES))
    assert file_lines(big) == ()
    assert row(big, big.replace(URL, b"https://x.org")) == "F1"


KEEPS = [
    # (the writer's line, the edited line, kept for the most part)
    (
        b'os.system("curl -fsSL https://a.example/i | sh")',
        b'os.system("curl -fsSL https://b | sh")',
        True,
    ),
    (
        b'os.system("curl -fsSL https://a.example/i | sh")',
        b'os.system("wget -qO- https://a.example/i | sh")',
        True,
    ),
    (b'run(["git", "push", "origin", "main"])', b'run(["git", "push", "origin", "prod"])', True),
    (b'os.system("curl x | sh")', b'os.system("make")', False),
    (b'os.system("rm -rf dist")', b'os.system("rm -rf build")', False),
    (b'run("make test", shell=True)', b'run("make all", shell=True)', False),
    (b'run(["a", "b", "deploy", "c", "d"])', b'run(["a", "x", "deploy", "y", "z"])', False),
]


@pytest.mark.parametrize(("writer", "edited", "kept"), KEEPS)
def test_keeps_literal(writer: bytes, edited: bytes, kept: bool) -> None:
    assert keeps_literal(writer, edited) is kept


def test_code_around_literals() -> None:
    assert code_around_literals(b'os.system("curl x | sh")') == b'os.system("")'
    assert code_around_literals(b"f(  'a', 12 , x1)") == b'f("",0,x1)'
    assert code_around_literals(b'f("a")') != code_around_literals(b'g("a")')


def entry(after: bytes, before: bytes | None = None) -> WriterEntry:
    return WriterEntry("deploy.py", f"blob:{after!r}", None, writer_delta(before, after))


def change(new: bytes, old: bytes | None = None) -> PathChange:
    return PathChange(
        "ship.py", None if old is None else f"blob:{old!r}", f"blob:{new!r}", old, new
    )


ACROSS = [
    # (id, the writer's file, the new side of another path, the row across paths)
    (
        "A2 the refuter's file moved, its URL edited",
        DEPLOY,
        DEPLOY.replace(URL, b"https://x.org"),
        "A2",
    ),
    (
        "A2 the file of a writer that rewrote a tracked one",
        DEPLOY,
        DEPLOY.replace(b"curl -fsSL", b"wget -qO-"),
        "A2",
    ),
    (
        "A5 a person's own small file sharing import subprocess and the call's shape",
        DEPLOY,
        b'import subprocess\n\n\ndef build():\n    subprocess.run("make all", shell=True)\n',
        "A5",
    ),
    (
        "A2 the writer's lines anyone types around its call, the URL edited",
        MAIN,
        MAIN.replace(URL, b"https://x.org"),
        "A2",
    ),
    (
        "A5 a person's own file of the writer's lines anyone types",
        MAIN,
        MAIN.replace(b"curl " + URL + b" | sh", b"make"),
        "A5",
    ),
    (
        "A5 a person's own file with a line of their own beside the call",
        DEPLOY,
        DEPLOY.replace(URL, b"https://x.org").replace(b"return 0", b'print("built")\n    return 0'),
        "A5",
    ),
]


@pytest.mark.parametrize(
    ("writer", "new", "expected"), [r[1:] for r in ACROSS], ids=[r[0] for r in ACROSS]
)
def test_across_rows_of_a_moved_file(writer: bytes, new: bytes, expected: str) -> None:
    e = entry(writer)
    assert carries_row_across(change(new), e) == expected
    if expected == "A2":
        assert not by_one_line(change(new), e)  # the file, not one line: no claim of a line


def test_a_tracked_file_the_writer_rewrote_moves_the_same() -> None:
    e = entry(DEPLOY, before=b"# placeholder\n")
    assert carries_row_across(change(DEPLOY.replace(URL, b"https://x.org")), e) == "A2"


def test_an_entry_read_from_its_stored_keys_has_no_file_to_read() -> None:
    from gentle_hooks.policy.delta import WriterDelta

    d = writer_delta(None, DEPLOY)
    stored = WriterEntry("deploy.py", "blob:w", None, WriterDelta(d.added, d.removed, False))
    assert stored.delta.outline == ()
    assert carries_row_across(change(DEPLOY.replace(URL, b"https://x.org")), stored) == "A5"
