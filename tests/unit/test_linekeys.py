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
