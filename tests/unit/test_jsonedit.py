"""In-place edits of JSON (with comments) configuration text: the edit reaches the document,
every other byte is kept, and undoing it gives back the original text."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.agents import jsonedit

OURS = {"type": "command", "command": "gentle-hook record --from claude-code"}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
styles = st.sampled_from([None, 2, 4, "\t"])


@settings(max_examples=150, deadline=None)
@given(doc=st.dictionaries(st.text(max_size=6), values, max_size=5), indent=styles)
def test_adding_then_removing_an_entry_gives_back_the_bytes(
    doc: dict[str, object], indent: int | str | None
) -> None:
    text = json.dumps(doc, indent=indent) + "\n"
    new = copy.deepcopy(doc)
    hooks = new.get("hooks")
    if isinstance(hooks, dict) and isinstance(hooks.get("PostToolUse"), list):
        hooks["PostToolUse"].append(OURS)
    else:
        new["zz-ours"] = {"PostToolUse": [OURS]}
    edited = jsonedit.rewrite(text, new)
    assert jsonedit.parse(edited).value == new
    assert jsonedit.rewrite(edited, doc) == text


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": 1,}', "line 1 column 9"),
        ("{\n  // c\n}", "line 2 column 3"),
        ('{"a": /* open', "line 1 column 7"),
        ('{"a": NaN}', "line 1 column 7"),
        ('{\n "a": ' + "9" * 5000 + "}", "line 2 column 7: a number too long to read"),
    ],
)
def test_text_that_is_not_json_names_line_and_column(text: str, where: str) -> None:
    with pytest.raises(jsonedit.JsonTextError, match=where):
        jsonedit.parse(text)


def test_comments_are_read_where_the_runtime_allows_them_and_kept() -> None:
    text = '{\n  // pinned\n  "model": "m" /* why */\n}\n'
    assert jsonedit.parse(text, comments=True).value == {"model": "m"}
    out = jsonedit.rewrite(text, {"model": "m", "hooks": {}}, comments=True)
    assert out == '{\n  // pinned\n  "model": "m", /* why */\n  "hooks": {}\n}\n'
    assert jsonedit.rewrite(out, {"model": "m"}, comments=True) == text


def test_a_changed_string_is_replaced_in_place() -> None:
    text = '{"hooks": [{"command": "/old/gentle-hook record --from x"}], "n": 1.0e3}'
    out = jsonedit.rewrite(text, {"hooks": [{"command": "gentle-hook record --from x"}], "n": 1e3})
    assert out == '{"hooks": [{"command": "gentle-hook record --from x"}], "n": 1.0e3}'


@settings(max_examples=100, deadline=None)
@given(
    doc=st.dictionaries(st.text(max_size=6), values, min_size=1, max_size=5),
    indent=st.sampled_from([2, 4, "\t"]),
)
def test_comments_survive_an_edit_and_its_undo(doc: dict[str, object], indent: int | str) -> None:
    body = json.dumps(doc, indent=indent)
    text = "// kept\n" + body[:-1] + "/* also kept */\n}\n"
    new = {**copy.deepcopy(doc), "zz-ours": {"PostToolUse": [OURS]}}
    edited = jsonedit.rewrite(text, new, comments=True)
    assert edited.startswith("// kept\n") and "/* also kept */" in edited
    assert jsonedit.parse(edited, comments=True).value == new
    assert jsonedit.rewrite(edited, doc, comments=True) == text
