"""Rows of :func:`gentle_hooks.policy.replacement.is_replaced_again`: a file is an edit's
replacements made once more, or it is not (a replay, or a person's edit)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.agents.augment import decode as augment_decode
from gentle_hooks.agents.cursor import decode as cursor_decode
from gentle_hooks.agents.kiro import decode as kiro_decode
from gentle_hooks.policy.replacement import (
    MOST_CANDIDATES,
    MOST_LINES,
    is_replaced_again,
    replaced_again_from,
)

ROWS = [
    # (id, before, after, replacements, expected)
    (
        "next-occurrence",
        "x = a + b\ny = a + b\n",
        "x = a - b\ny = a - b\n",
        [("a + b", "a - b")],
        False,
    ),
    (
        "second-of-two",
        "x = a - b\ny = a + b\n",
        "x = a - b\ny = a - b\n",
        [("a + b", "a - b")],
        True,
    ),
    (
        "earlier-occurrence",
        "x = a + b\ny = a - b\n",
        "x = a - b\ny = a - b\n",
        [("a + b", "a - b")],
        True,
    ),
    ("same-content", "x = a - b\n", "x = a - b\n", [("a + b", "a - b")], False),
    (
        "person-edit",
        "x = a - b\ny = a + b\n",
        "x = a - b\ny = a * b\n",
        [("a + b", "a - b")],
        False,
    ),
    (
        "edit-and-more",
        "x = a - b\ny = a + b\n",
        "x = a - b\ny = a - b\n# note\n",
        [("a + b", "a - b")],
        False,
    ),
    ("no-replacements", "a\n", "b\n", [], False),
    ("empty-old", "a\n", "ba\n", [("", "b")], False),
    (
        "two-in-order",
        "p q p q\n",
        "r s p q\n",
        [("p", "r"), ("q", "s")],
        True,
    ),
    ("two-wrong-order", "p q\n", "r q\n", [("q", "s"), ("p", "r")], False),
    ("deletion", "keep\ndrop\nkeep\ndrop\n", "keep\nkeep\ndrop\n", [("drop\n", "")], True),
]


@pytest.mark.parametrize(
    ("before", "after", "replacements", "expected"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_rows(before: str, after: str, replacements: list[tuple[str, str]], expected: bool) -> None:
    assert is_replaced_again(before, after, replacements) is expected


def test_too_many_occurrences_before_the_last_explain_nothing() -> None:
    before = "x" * (MOST_CANDIDATES + 2)
    after = "y" + before[1:-1] + "z"
    assert not is_replaced_again(before, after, [("x", "y"), ("x", "z")])


@given(
    st.text(alphabet="ab\n", max_size=30),
    st.text(alphabet="ab", min_size=1, max_size=3),
    st.text(alphabet="abc", max_size=3),
    st.data(),
)
def test_one_replacement_at_any_occurrence_is_explained(
    before: str, old: str, new: str, data: st.DataObject
) -> None:
    spots = [i for i in range(len(before)) if before.startswith(old, i)]
    if not spots:
        assert not is_replaced_again(before, before + "c", [(old, new)])
        return
    at = data.draw(st.sampled_from(spots))
    after = before[:at] + new + before[at + len(old) :]
    assert is_replaced_again(before, after, [(old, new)]) is (after != before)


def test_the_decoders_name_their_replacements() -> None:
    cursor = cursor_decode(
        b'{"hook_event_name": "afterFileEdit", "conversation_id": "c", "file_path": "/r/a.py",'
        b' "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c",'
        b' "new_string": "d"}]}'
    )
    assert cursor.replacements == (("a", "b"), ("c", "d"))
    kiro = kiro_decode(
        b'{"hook_event_name": "PostToolUse", "tool_name": "fs_write", "tool_input":'
        b' {"command": "str_replace", "path": "/r/a.py", "old_str": "a", "new_str": "b"}}'
    )
    assert kiro.replacements == (("a", "b"),)
    created = kiro_decode(
        b'{"hook_event_name": "PostToolUse", "tool_name": "fs_write", "tool_input":'
        b' {"command": "create", "path": "/r/a.py", "file_text": "a"}}'
    )
    assert created.replacements == ()
    augment = augment_decode(
        b'{"hook_event_name": "PostToolUse", "tool_name": "str-replace-editor", "tool_input":'
        b' {"command": "str_replace", "path": "a.py", "old_str_1": "a", "new_str_1": "b",'
        b' "old_str_2": "c", "new_str_2": "d"}}'
    )
    assert augment.replacements == (("a", "b"), ("c", "d"))
    broken = augment_decode(
        b'{"hook_event_name": "PostToolUse", "tool_name": "str-replace-editor", "tool_input":'
        b' {"command": "str_replace", "path": "a.py", "old_str_1": "a"}}'
    )
    assert broken.replacements == ()


#: (id, before: what the first call left, after, replacements, the content the call was made
#: in, or None): a person's edit between two identical calls.
FROM_ROWS = [
    (
        "no-person-edit",
        "x = a - b\ny = a + b\n",
        "x = a - b\ny = a - b\n",
        [("a + b", "a - b")],
        "x = a - b\ny = a + b\n",
    ),
    (
        "person-edit-elsewhere",
        "# top\nx = a - b\n\ny = a + b\n",
        "# top, by a person\nx = a - b\n\ny = a - b\n",
        [("a + b", "a - b")],
        "# top, by a person\nx = a - b\n\ny = a + b\n",
    ),
    (
        "person-line-added-after",
        "x = a - b\n\ny = a + b\nz = 1\n",
        "x = a - b\n\ny = a - b\nz = 1\n# a person's note\n",
        [("a + b", "a - b")],
        "x = a - b\n\ny = a + b\nz = 1\n# a person's note\n",
    ),
    # a replay after a person's edit: the person's region alone, explained by nothing
    (
        "replay-after-person-edit",
        "x = a - b\ny = a + b\n",
        "# note\nx = a - b\ny = a + b\n",
        [("a + b", "a - b")],
        None,
    ),
    # the person's edit touches the replaced line: one region, never split
    (
        "person-edit-on-the-line",
        "x = a - b\ny = a + b\n",
        "x = a - b\ny = a - b  # mine\n",
        [("a + b", "a - b")],
        None,
    ),
    (
        "person-other-replacement",
        "x = a - b\n\ny = a + b\nz\n",
        "x = a - b\n\ny = a * b\nw\n",
        [("a + b", "a - b")],
        None,
    ),
    ("no-replacements", "a\n", "b\nc\n", [], None),
]


@pytest.mark.parametrize(
    ("before", "after", "replacements", "expected"),
    [row[1:] for row in FROM_ROWS],
    ids=[row[0] for row in FROM_ROWS],
)
def test_replaced_again_from_rows(
    before: str, after: str, replacements: list[tuple[str, str]], expected: str | None
) -> None:
    assert replaced_again_from(before, after, replacements) == expected


def test_a_file_past_the_line_bound_is_not_compared_region_by_region() -> None:
    body = "y = a + b\n" + "pad\n" * MOST_LINES
    before = "x = a - b\n" + body
    after = "# person\nx = a - b\n" + body.replace("a + b", "a - b", 1)
    assert replaced_again_from(before, after, [("a + b", "a - b")]) is None
    short = "x = a - b\ny = a + b\npad\n"
    assert replaced_again_from(
        short, "# person\n" + short.replace("a + b", "a - b"), [("a + b", "a - b")]
    )
