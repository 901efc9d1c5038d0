"""A person's own version of the writer's file is not the writer's edit (row A9 of
gentle_hooks.policy.attribution, rows R1/R2 of gentle_hooks.policy.rewrite; SPEC §3
"Attribution follows content", issue 13): row by row, and the rows it must leave alone
(``git add -p`` of one writer hunk, the writer's content lightly edited, its own lines kept).
"""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import (
    PathChange,
    WriterEntry,
    carries,
    carries_row,
    writer_delta,
)
from gentle_hooks.policy.linekeys import line_keys
from gentle_hooks.policy.rewrite import MIN_OWN, rewrites
from gentle_hooks.services.settle import holds_writer_content


def entry(before: bytes | None, after: bytes | None) -> WriterEntry:
    blob = lambda c: None if c is None else f"blob:{c!r}"  # noqa: E731
    return WriterEntry("f.py", blob(after), blob(before), writer_delta(before, after))


def change(old: bytes | None, new: bytes | None) -> PathChange:
    blob = lambda c: None if c is None else f"blob:{c!r}"  # noqa: E731
    return PathChange("f.py", blob(old), blob(new), old, new)


BASE = (
    b"def check(user):\n    if user is None:\n        return False\n"
    b"    if user.banned:\n        return False\n    return True\n\n\n"
    b"def limit():\n    return 10\n"
)
#: The writer drops the ban check (a removal only: rows A3 by shape).
DROPPED = BASE.replace(b"    if user.banned:\n        return False\n", b"")
#: The writer flips two common lines (rows A6 by shape: a line it added, one it removed).
FLIPPED = BASE.replace(b"return False\n    if user.banned", b"return None\n    if user.banned")
FLIPPED = FLIPPED.replace(b"return 10", b"return 20")
#: The person's own version of the file, written after ``git checkout -- f.py``: it
#: removes every line of it (the writer's removals too) and holds ``return None``.
OWN = (
    b"class Checker:\n    def __init__(self, max_items):\n        self.max_items = max_items\n\n"
    b"    def allowed(self, user):\n        if not user:\n            return None\n"
    b"        return user.active and not user.banned\n\n"
    b"    def limit(self):\n        return self.max_items\n"
)
#: A writer's new settings file and the person's own new one at that path.
SETTINGS_W = (
    b'"""Settings loaded from the environment."""\nimport os\n\n'
    b'HOST = os.environ.get("APP_HOST", "0.0.0.0")\n'
    b'PORT = int(os.environ.get("APP_PORT", "9000"))\n'
    b'DEBUG = os.environ.get("APP_DEBUG") == "1"\n'
    b'TIMEOUT = float(os.environ.get("APP_TIMEOUT", "2.5"))\n'
)
SETTINGS_OWN = (
    b'"""Configuration for the demo service."""\n\nSERVER_NAME = "demo.internal"\n'
    b"LISTEN_PORT = 7000\nVERBOSE = True\nRETRIES = 3\n"
)
TIMEOUT = b'TIMEOUT = float(os.environ.get("APP_TIMEOUT", "2.5"))\n'
#: A tiny edit of the writer's file: one line of the person's own, the rest as the writer
#: left it (no rewrite).
DROPPED_EDITED = DROPPED.replace(b"return 10", b"return max_items()")

ROWS = [
    # (id, the change, the writer's entry, the row)
    ("A9 own version after the writer's removal", change(BASE, OWN), entry(BASE, DROPPED), "A9"),
    ("A9 own version after the writer's flips", change(BASE, OWN), entry(BASE, FLIPPED), "A9"),
    (
        "A9 own new file where the writer's new file was",
        change(None, SETTINGS_OWN),
        entry(None, SETTINGS_W),
        "A9",
    ),
    (
        "A2 own version keeping one telling writer line",
        change(BASE, OWN + TIMEOUT),
        entry(BASE, BASE + TIMEOUT),
        "A2",
    ),
    (
        "A2 own new file keeping one telling writer line",
        change(None, SETTINGS_OWN + TIMEOUT),
        entry(None, SETTINGS_W),
        "A2",
    ),
    (
        "A6 git add -p of the writer's flip keeps the rest",
        change(BASE, FLIPPED),
        entry(BASE, FLIPPED),
        "A1",
    ),
    (
        "A6 one writer hunk alone keeps the rest of the file",
        change(BASE, BASE.replace(b"return 10", b"return 20")),
        entry(BASE, FLIPPED),
        "A6",
    ),
    (
        "A3 the writer's removal with one line edited keeps the rest",
        change(BASE, DROPPED_EDITED),
        entry(BASE, DROPPED),
        "A3",
    ),
    (
        "A3 the writer's removal with its function renamed keeps the rest",
        change(BASE, DROPPED.replace(b"def limit", b"def max_items")),
        entry(BASE, DROPPED),
        "A3",
    ),
]


@pytest.mark.parametrize(
    ("change_", "entry_", "row"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_rows(change_: PathChange, entry_: WriterEntry, row: str) -> None:
    assert carries_row(change_, entry_) == row
    assert carries_row(change_, entry_, elsewhere=True) in (row, "A5")
    assert carries(change_, entry_) is (row not in ("A5", "A9"))


REWRITE_ROWS = [
    # (id, old keys, new keys, writer keys, rewrite)
    (
        "R1 keeps little of either, own lines",
        {"a", "b", "c"},
        {"a", "x", "y"},
        {"b", "c", "w"},
        True,
    ),
    ("R1 a new file (no old side)", set(), {"x", "y", "w"}, {"w", "v", "u"}, True),
    ("R2 keeps half the writer's lines", {"a"}, {"w", "x", "y"}, {"w", "v"}, False),
    ("R2 keeps half the old side's lines", {"a", "b"}, {"a", "x", "y"}, {"w", "v"}, False),
    ("R2 one line of its own", {"a", "b", "c"}, {"x"}, {"w", "v"}, False),
    ("R2 the writer's lines unknown", {"a", "b"}, {"x", "y", "z"}, set(), False),
    ("R2 nothing left (a deletion)", {"a", "b"}, set(), {"w", "v"}, False),
]


@pytest.mark.parametrize(
    ("old", "new", "writer", "rewrite"),
    [r[1:] for r in REWRITE_ROWS],
    ids=[r[0] for r in REWRITE_ROWS],
)
def test_rewrite_rows(old: set[str], new: set[str], writer: set[str], rewrite: bool) -> None:
    assert MIN_OWN == 2
    assert rewrites(frozenset(old), frozenset(new), frozenset(writer)) is rewrite


def test_a_delta_knows_the_lines_of_both_ends() -> None:
    d = writer_delta(BASE, FLIPPED)
    assert (d.started, d.left) == (line_keys(BASE), line_keys(FLIPPED))
    same = b"x = 1\nvalue_total = compute()\n"  # only an insignificant line changed
    assert writer_delta(same, same.replace(b"1", b"2", 1)).left == line_keys(same)


@pytest.mark.parametrize(
    ("version", "held"),
    [(OWN, False), (FLIPPED, True), (BASE.replace(b"return 10", b"return 20"), True)],
    ids=["own version", "the writer's blob", "one writer hunk"],
)
def test_a_persons_own_version_holds_no_writer_edit(version: bytes, held: bool) -> None:
    """A work tree holding the person's own version of the file does not hold the writer's
    edit by chance (its pending work expires), while one writer hunk still does."""
    rule = entry(BASE, FLIPPED)
    assert holds_writer_content(rule, f"blob:{version!r}", version) is held
