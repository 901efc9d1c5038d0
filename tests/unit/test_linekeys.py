"""The code part of a line (gentle_hooks.policy.linekeys.code_part): what a linter or a tidy-up
appends to the writer's line does not hide it (SPEC §3 "Attribution follows content")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.policy.linekeys import any_line_keys, code_part, line_keys, may_have_code_part

#: (line, its code part): a trailing comment after whitespace and outside quotes, and trailing
#: ``;``, are not the code (refuter r13z: ``ruff --add-noqa`` on the writer's lines).
CODE_PARTS = [
    (b'os.system("curl x | sh")  # noqa: S605, S607', b'os.system("curl x | sh")'),
    (b"foo(x) // eslint-disable-line", b"foo(x)"),
    (b"return a - b;", b"return a - b"),
    (b"a\t# tab", b"a"),
    (b'x = "a #b"', b'x = "a #b"'),
    (b"s = 'it\\'s # no'", b"s = 'it\\'s # no'"),
    (b'x = "unterminated # y', b'x = "unterminated # y'),
    (b"a#b c", b"a#b c"),
    (b"echo $# items", b"echo $# items"),
    (b"# only a comment", b"# only a comment"),
    (b"// only a comment", b"// only a comment"),
    (b"url = `a # b`  # c", b"url = `a # b`"),
]


@pytest.mark.parametrize(("line", "code"), CODE_PARTS, ids=[c[0].decode() for c in CODE_PARTS])
def test_code_part(line: bytes, code: bytes) -> None:
    assert code_part(line) == code


def test_a_comment_appended_keeps_the_lines_key() -> None:
    plain = b"    os.system(cmd)\n"
    assert line_keys(plain) <= line_keys(b"    os.system(cmd)  # noqa: S605\n")
    assert line_keys(plain) <= any_line_keys(b"    os.system(cmd);\n")


@given(st.binary(max_size=40).map(bytes.strip) | st.sampled_from([c[0] for c in CODE_PARTS]))
def test_only_a_line_with_a_comment_mark_or_a_trailing_semicolon_has_a_code_part(
    stripped: bytes,
) -> None:
    """line_keys and any_line_keys skip code_part for a line may_have_code_part rules out:
    code_part leaves such a line as it is."""
    if not may_have_code_part(stripped):
        assert code_part(stripped) == stripped


_LINE = st.sampled_from(
    [
        b"def f(x):",
        b"    return x * 2 + 1",
        b"x = 0",
        b"rm -rf /tmp/a",
        b"}",
        b"# a note here",
        b"foo(",
        b"    a,",
        b")",
        b'print("done")',
        b"return result",
        b"import os",
        b"",
    ]
)
_CONTENT = st.lists(_LINE, max_size=12).map(lambda ls: b"\n".join(ls) + b"\n")


@given(_CONTENT, _CONTENT)
def test_keys_left_out_are_the_keys_subtracted(data: bytes, other: bytes) -> None:
    """``without`` (a writer delta's other side) only skips classifying lines: the same
    set as subtracting afterwards."""
    from gentle_hooks.policy.distinctive import distinctive_keys
    from gentle_hooks.policy.linekeys import short_keys, telling_keys

    without = any_line_keys(other)
    assert telling_keys(data, without) == telling_keys(data) - without
    assert short_keys(data, without) == short_keys(data) - without
    assert distinctive_keys(data, without) == distinctive_keys(data) & without


# -- spans: a writer's line split or joined where no bracket is open (policy/spans.py) -------

#: (line, its span form): whitespace and ``;`` removed, ``'`` read as ``"``, a comma before a
#: closing bracket dropped.
SPAN_FORMS = [
    (b"if amount > limit: charge(amount)", b"ifamount>limit:charge(amount)"),
    (b"a = 1; b = 'x';", b'a=1b="x"'),
    (b"f(a, b,)", b"f(a,b)"),
    (b"  .map( toRow )", b".map(toRow)"),
]


@pytest.mark.parametrize(("line", "form"), SPAN_FORMS, ids=[f[0].decode() for f in SPAN_FORMS])
def test_span_form(line: bytes, form: bytes) -> None:
    from gentle_hooks.policy.spans import span_form

    assert span_form(line.strip()) == form


CHARGE = b"if amount > account.credit_limit_override: account.balance -= amount * 0.97\n"
#: A compound statement wrapped in its brackets, and what ``ruff format`` makes of it.
from tests.unit.test_attribution import REFLOWED  # noqa: E402

SPANS = [
    # (id, the writer's added lines, a content, whether it holds a writer line by a span)
    (
        "split after ':'",
        CHARGE,
        b"if amount > account.credit_limit_override:\n    account.balance -= amount * 0.97\n",
        True,
    ),
    (
        "split at ';'",
        b"a = compute_total(x); b = render(a)\n",
        b"a = compute_total(x)\nb = render(a)\n",
        True,
    ),
    (
        "split at dots (a member chain)",
        b"rows = db.query(sql).filter(active).all()\n",
        b"rows = db\n  .query(sql)\n  .filter(active)\n  .all()\n",
        True,
    ),
    (
        "split after ':' and wrapped, trailing comma added",
        b"if ready: dispatch_all(queue, strict=True)\n",
        b"if ready:\n    dispatch_all(\n        queue,\n        strict=True,\n    )\n",
        True,
    ),
    (
        "a comment kept on the split line's first part (code part)",
        b"if ready: dispatch_all(queue)  # noqa: E701\n",
        b"if ready:\n    dispatch_all(queue)\n",
        True,
    ),
    (
        "a member chain the writer split, joined",
        b"rows = db\n  .query(sql)\n  .filter(active)\n",
        b"rows = db.query(sql).filter(active)\n",
        True,
    ),
    ("the line as it is: its key holds it, not a span", CHARGE, CHARGE, False),
    (
        "another line of the same length",
        CHARGE,
        b"if amount > account.credit_limit_overdraft:\n    account.balance -= amount * 0.97\n",
        False,
    ),
    (
        "a blank line between the parts",
        b"a = compute_total(x); b = render(a)\n",
        b"a = compute_total(x)\n\nb = render(a)\n",
        True,
    ),
    (
        "only part of the writer's line",
        CHARGE,
        b"if amount > account.credit_limit_override:\n    notify(account)\n",
        False,
    ),
    (
        "two statements the writer wrote, joined with ';' (no formatter does)",
        b"a = compute_total(x)\nb = render(a)\n",
        b"a = compute_total(x); b = render(a)\n",
        False,
    ),
    (
        "a trivial run joined ('else:' / 'return None')",
        b"else:\n    return None\n",
        b"else: return None\n",
        False,
    ),
    # ruff format both splits the writer's compound line after its ':' and joins its
    # bracket-wrapped continuation: every added line of the writer's statement is held
    *(
        (f"split after ':' and its wrapped statement joined: {w[:16]!r}", w, d, True)
        for w, d in REFLOWED
    ),
    (
        "a run too long for one line",
        b"rows = db\n" + b"  .filter(some_long_condition_name)\n" * 6,
        b"rows = db" + b".filter(some_long_condition_name)" * 6 + b"\n",
        False,
    ),
]


@pytest.mark.parametrize(
    ("writer", "data", "held"), [s[1:] for s in SPANS], ids=[s[0] for s in SPANS]
)
def test_spans(writer: bytes, data: bytes, held: bool) -> None:
    from gentle_hooks.policy.spans import spanned_keys, writer_spans

    """Held: every line the writer added is (a formatter's rewrite keeps them all the
    writer's, so the count of row A2 sees them); not held: none is."""
    added = line_keys(writer)
    spans = writer_spans(writer, added, frozenset())
    assert spanned_keys(spans, data) & added == (added if held else frozenset())


_CODE = st.sampled_from(
    [
        b"if ready:",
        b"dispatch_all(queue)",
        b"if ready: dispatch_all(queue)",
        b".map(to_row)",
        b"rows = db",
        b"rows = db.map(to_row)",
        b"a = compute_total(x);",
        b"b = render(a)",
        b"a = compute_total(x); b = render(a)",
        b"f(",
        b"queue,",
        b")",
        b"",
        b"else:",
        b"return None",
    ]
)


@given(st.lists(_CODE, max_size=10), st.lists(_CODE, max_size=10))
def test_spanned_keys_are_every_window_hashed(writer: list[bytes], data: list[bytes]) -> None:
    """The length filter only skips hashing: the answer is that of hashing every window of
    1 to MAX_JOINED non-blank lines (none a one-line span's line as it is)."""
    from gentle_hooks.policy.linekeys import MAX_JOINED, stripped_key
    from gentle_hooks.policy.spans import span_forms, spanned_keys, writer_spans
    from gentle_hooks.values.digest import blake2b_hex

    w, d = b"\n".join(writer) + b"\n", b"\n".join(data) + b"\n"
    spans = writer_spans(w, line_keys(w), frozenset())
    own = {k for n, _, _, keys in spans if n == 1 for k in keys}
    lines = [s for ln in d.splitlines() if (s := ln.strip())]
    forms, keys = span_forms(lines), [stripped_key(s) for s in lines]
    expected: set[str] = set()
    for i in range(len(lines)):
        for j in range(i, min(i + MAX_JOINED, len(lines))):
            if keys[j] in own:
                break
            digest = blake2b_hex(b"".join(forms[i : j + 1]), 8)
            for n, _, form, ks in spans:
                if form == digest and (j > i or n > 1):
                    expected.update(ks)
    assert spanned_keys(spans, d) == expected
