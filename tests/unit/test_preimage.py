"""Rows of :func:`gentle_hooks.policy.preimage.preimage`: an edit's replacements undone on
the file it left give the file it started from, or nothing where the undo is not exact; and
the decoders that read those replacements from a runtime's input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.agents.claude_code import decode as claude_decode
from gentle_hooks.agents.event import edit_replacements
from gentle_hooks.agents.gemini_cli import decode as gemini_decode
from gentle_hooks.agents.windsurf import decode as windsurf_decode
from gentle_hooks.policy.preimage import preimage

ROWS = [
    # (id, after, replacements, every, expected)
    ("one", "a = 2\nmine()\n", [("a = 1", "a = 2")], (), "a = 1\nmine()\n"),
    ("absent", "a = 3\n", [("a = 1", "a = 2")], (), None),
    ("twice", "a = 2\na = 2\n", [("a = 1", "a = 2")], (), None),
    ("overlapping", "aaa\n", [("b", "aa")], (), None),
    ("empty-new", "x\n", [("a = 1\n", "")], (), None),
    ("empty-old", "a = 2\n", [("", "a = 2\n")], (), None),
    ("no-op", "a = 2\n", [("a = 2", "a = 2")], (), None),
    ("none", "a = 2\n", [], (), None),
    ("every", "f(y)\nf(y)\n", [("x", "y")], (0,), "f(x)\nf(x)\n"),
    ("every-overlapping", "yyy\n", [("x", "yy")], (0,), None),
    # MultiEdit: the second edit rewrote what the first wrote: undone last first
    ("chain", "c = 3\n", [("a = 1", "b = 2"), ("b = 2", "c = 3")], (), "a = 1\n"),
    ("chain-broken", "c = 3\nb = 2\n", [("a = 1", "b = 2"), ("b = 2", "c = 3")], (), None),
]


@pytest.mark.parametrize(
    ("after", "replacements", "every", "expected"),
    [r[1:] for r in ROWS],
    ids=[r[0] for r in ROWS],
)
def test_rows(
    after: str,
    replacements: list[tuple[str, str]],
    every: tuple[int, ...],
    expected: str | None,
) -> None:
    assert preimage(after, replacements, frozenset(every)) == expected


texts = st.text(alphabet="ab\n", max_size=12)


@given(before=texts, old=texts.filter(bool), new=texts.filter(bool), at=st.integers(0, 12))
def test_an_undo_is_the_file_the_edit_started_from_or_nothing(
    before: str, old: str, new: str, at: int
) -> None:
    """Whatever the texts, an undo given is exactly the content the edit was made in: a
    writer's line is never in it unless it was there before."""
    where = before.find(old, min(at, len(before)))
    if where < 0:
        where = before.find(old)
    if where < 0:
        return
    after = before[:where] + new + before[where + len(old) :]
    got = preimage(after, [(old, new)])
    assert got is None or got == before


def _claude(tool: str, args: dict[str, object]) -> bytes:
    return json.dumps(
        {
            "session_id": "s",
            "transcript_path": "",
            "cwd": "/r",
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": {"file_path": "/r/a.py", **args},
            "tool_response": {"success": True},
            "tool_use_id": "toolu_1",
        }
    ).encode()


def test_claude_codes_edit_and_multiedit_name_their_replacements() -> None:
    edit = claude_decode(_claude("Edit", {"old_string": "a", "new_string": "b"}))
    assert (edit.replacements, edit.replace_all) == ((("a", "b"),), frozenset())
    every = claude_decode(
        _claude("Edit", {"old_string": "a", "new_string": "b", "replace_all": True})
    )
    assert every.replace_all == frozenset({0})
    multi = claude_decode(
        _claude(
            "MultiEdit",
            {
                "edits": [
                    {"old_string": "a", "new_string": "b"},
                    {"old_string": "c", "new_string": "d", "replace_all": True},
                ]
            },
        )
    )
    assert (multi.replacements, multi.replace_all) == ((("a", "b"), ("c", "d")), frozenset({1}))
    write = claude_decode(_claude("Write", {"content": "x", "old_string": "a", "new_string": "b"}))
    assert write.replacements == ()


def test_gemini_clis_replace_names_its_replacement() -> None:
    def decoded(tool: str, args: dict[str, object]) -> tuple[object, object]:
        data = {
            "session_id": "g",
            "transcript_path": "",
            "cwd": "/r",
            "hook_event_name": "AfterTool",
            "timestamp": "2026-08-21T16:20:05.123Z",
            "tool_name": tool,
            "tool_input": {"file_path": "/r/a.py", **args},
            "tool_response": {"llmContent": "ok"},
        }
        event = gemini_decode(json.dumps(data).encode())
        return event.replacements, event.replace_all

    assert decoded("replace", {"old_string": "a", "new_string": "b"}) == (
        (("a", "b"),),
        frozenset(),
    )
    many = {"old_string": "a", "new_string": "b", "expected_replacements": 3}
    assert decoded("replace", many) == ((("a", "b"),), frozenset({0}))
    assert decoded("write_file", {"content": "b"}) == ((), frozenset())


def test_windsurfs_edits_are_its_replacements() -> None:
    data = {
        "agent_action_name": "post_write_code",
        "trajectory_id": "t",
        "execution_id": "e",
        "timestamp": "2026-01-01T00:00:00Z",
        "tool_info": {"file_path": "/r/a.py", "edits": [{"old_string": "a", "new_string": "b"}]},
    }
    assert windsurf_decode(json.dumps(data).encode()).replacements == (("a", "b"),)


@pytest.mark.parametrize(
    "args",
    [None, [], {"old_string": "a"}, {"edits": [{"old_string": "a", "new_string": 1}]}],
    ids=["none", "list", "no-new", "bad-edit"],
)
def test_input_that_names_no_replacement_gives_none(args: object) -> None:
    assert edit_replacements(args) == ((), frozenset())
