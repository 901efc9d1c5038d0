"""The modules that read every line of a delegated change test for a byte string with
``find``, never with ``in`` (issue 20: the commit gate's cost per file).

On bytes, CPython's ``x in line`` first tries ``x`` as an integer and formats the TypeError
it then catches: about ten times the search itself on a short line. The commit gate keys
every line of every changed file several ways, so a ``b"#" in line`` there was a fifth of
what each file of a 10-file delegated commit cost. Answers are unchanged: ``find`` finds the
same byte strings.
"""

from __future__ import annotations

import ast
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gentle_hooks.policy

POLICY = pathlib.Path(gentle_hooks.policy.__file__).parent
#: Read once per line of every changed file (and of each side of it) by the commit gate.
PER_LINE = (
    "linekeys.py",
    "keyform.py",
    "formatcall.py",
    "fixforms.py",
    "comparisons.py",
    "linetokens.py",
    "importpairs.py",
    "spans.py",
)


def _bytes_in_bytes(tree: ast.AST) -> list[int]:
    """Lines of ``b"..." in x`` / ``b"..." not in x`` and ``x in b"..."``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            if not isinstance(op, ast.In | ast.NotIn):
                continue
            left, right = sides[i], sides[i + 1]
            if any(
                isinstance(s, ast.Constant) and isinstance(s.value, bytes) for s in (left, right)
            ):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize("name", PER_LINE)
def test_per_line_modules_find_byte_strings_without_in(name: str) -> None:
    path = POLICY / name
    assert _bytes_in_bytes(ast.parse(path.read_text())) == [], name


def test_writer_spans_reads_no_span_form_when_no_run_can_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run of the writer's lines spans two lines at least, so an edit that adds only the
    file's last line starts none: the span forms of the file's lines are not read."""
    from gentle_hooks.policy import spans
    from gentle_hooks.policy.linekeys import any_line_keys, line_keys

    before = b"def total(items):\n    return sum(item.price for item in items)\n"
    after = before + b"# reviewed against the invoice export format\n"
    added = line_keys(after) - line_keys(before)
    expected = spans.writer_spans(after, added, any_line_keys(before))

    def unread(lines: object) -> list[bytes]:
        raise AssertionError("span forms read for a run that cannot start")

    monkeypatch.setattr(spans, "span_forms", unread)
    assert spans.writer_spans(after, added, any_line_keys(before)) == expected
    assert expected  # the added line itself still has its span


def _depth_by_counting(stripped: bytes) -> int:
    """The bracket depth of a line without quotes as six counts read it."""
    opened = stripped.count(b"(") + stripped.count(b"[") + stripped.count(b"{")
    return opened - stripped.count(b")") - stripped.count(b"]") - stripped.count(b"}")


@given(st.binary(max_size=60) | st.text(alphabet="([{}]) x=,:;#", max_size=30).map(str.encode))
def test_bracket_depth_of_a_line_without_quotes_is_its_counts(line: bytes) -> None:
    from gentle_hooks.policy.linekeys import _depth

    stripped = line.strip()
    if b'"' not in stripped and b"'" not in stripped:
        assert _depth(stripped) == _depth_by_counting(stripped)


def _keys_two_passes(data: bytes, significant_only: bool) -> frozenset[str]:
    """:func:`line_keys` (``significant_only``) or :func:`any_line_keys` as one pass each
    over the lines read them: the reference the one pass for both must answer alike."""
    from gentle_hooks.policy import linekeys as lk
    from gentle_hooks.policy.importpairs import import_pairs

    keys: set[str] = set()
    for line in data.splitlines():
        stripped = line.strip()
        pairs = import_pairs(stripped) if stripped[:1] in (b"", b"i", b"f") else ()
        if pairs:
            keys.update(
                lk.stripped_key(p) for p in pairs if not significant_only or lk.is_significant(p)
            )
        elif lk.is_significant(stripped) if significant_only else stripped:
            keys.add(lk.stripped_key(stripped))
        if lk.may_have_code_part(stripped):
            code = lk.code_part(stripped)
            if code != stripped and code and (not significant_only or lk.is_significant(code)):
                keys.add(lk.stripped_key(code))
    return frozenset(keys) | lk.joined_keys(data)


#: Lines of the kinds the keys read differently: imports of names, comments after code,
#: a trailing ``;``, short lines, wrapped calls, blank lines.
_LINES = st.sampled_from(
    [
        b"import os, sys",
        b"from a import b, c",
        b"    return result",
        b"x = 0",
        b"run(cmd)  # noqa: S605",
        b"total = compute(items);",
        b"call(",
        b"    alpha,",
        b")",
        b"",
        b"# a comment line alone here",
        b"value = 'it''s'  // done",
        b"subprocess.run(command, shell=True)",
        b"rm -rf build",
    ]
)


@given(st.lists(_LINES | st.binary(max_size=40), max_size=12).map(b"\n".join))
def test_one_pass_keys_both_ways_as_two_passes_did(data: bytes) -> None:
    from gentle_hooks.policy.linekeys import any_line_keys, line_keys

    assert line_keys(data) == (_keys_two_passes(data, True) if data else frozenset())
    assert any_line_keys(data) == (_keys_two_passes(data, False) if data else frozenset())


def test_line_keys_and_any_line_keys_read_each_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer's delta and the change it is read against ask both kinds of key of each
    side: the lines are read once for both (issue 20: the 10-file commit gate keyed every
    line of every side twice)."""
    from gentle_hooks.policy import linekeys

    linekeys._keys.cache_clear()
    seen: list[bytes] = []
    real = linekeys.may_have_code_part

    def counted(stripped: bytes) -> bool:
        seen.append(stripped)
        return real(stripped)

    monkeypatch.setattr(linekeys, "may_have_code_part", counted)
    data = b"".join(b"value_%d = compute(%d)  # step\n" % (i, i) for i in range(30))
    linekeys.line_keys(data)
    linekeys.any_line_keys(data)
    assert len(seen) == 30


def test_a_moved_file_is_read_once_per_side_and_keyed_to_its_second_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Row F6 is read for a change against every entry it may carry: the change's lines are
    split once, and keying stops at the second line that differs (row F2 whatever follows)."""
    from gentle_hooks.policy import movedfile

    writer = movedfile.file_lines(
        b"".join(b"def f_%d(x):\n    return x * %d\n" % (i, i) for i in range(40))
    )
    new = b"".join(b"def g_%d(x):\n    return x * %d\n" % (i, i + 7) for i in range(40))
    keyed: list[bytes] = []
    real_key = movedfile.stripped_key

    def key(stripped: bytes) -> str:
        keyed.append(stripped)
        return real_key(stripped)

    monkeypatch.setattr(movedfile, "stripped_key", key)
    movedfile._file_lines.cache_clear()
    rows = {movedfile.moved_file_row(writer, frozenset(), new, ()) for _ in range(5)}
    assert rows == {"F2"}
    assert len(keyed) == 5 * 4  # two lines that differ, each side keyed, per reading
    assert movedfile._file_lines.cache_info().misses == 1  # the new side, split once
