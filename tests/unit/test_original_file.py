"""Rows of :func:`gentle_hooks.policy.preimage.exact_start` (the file a runtime says a call
started from, taken only where the call turns it into the file) and of Claude Code's decoder
reading it (``tool_response.originalFile`` of ``Edit``, ``MultiEdit`` and ``Write``).

The ``tool_response`` shapes are those of Claude Code's session transcripts
(``toolUseResult``, handed to ``PostToolUse`` hooks as ``tool_response``): ``Edit``
``{"filePath", "oldString", "newString", "originalFile", "structuredPatch",
"userModified", "replaceAll"}``; ``Write`` ``{"type": "create"|"update", "filePath",
"content", "structuredPatch", "originalFile"}``, ``originalFile`` ``null`` on create.
"""

from __future__ import annotations

import json

import pytest

from gentle_hooks.agents.claude_code import decode
from gentle_hooks.policy.preimage import exact_start

ROWS = [
    # (id, after, replacements, every, original, expected)
    ("one", "a = 2\nmine()\n", [("a = 1", "a = 2")], (), "a = 1\nmine()\n", "a = 1\nmine()\n"),
    # the new text twice after the edit: the undo is ambiguous, the original tells
    ("ambiguous", "b\nb\n", [("a", "b")], (), "a\nb\n", "a\nb\n"),
    # a removal: nothing to undo, the original tells
    ("removal", "x\n", [("a\n", "")], (), "a\nx\n", "a\nx\n"),
    ("chain", "c = 3\n", [("a = 1", "b = 2"), ("b = 2", "c = 3")], (), "a = 1\n", "a = 1\n"),
    ("every", "f(y)\nf(y)\n", [("x", "y")], (0,), "f(x)\nf(x)\n", "f(x)\nf(x)\n"),
    # a whole-file write: its content as the one replacement of the original
    ("write", "new\n", [("old\nmine\n", "new\n")], (), "old\nmine\n", "old\nmine\n"),
    # the edit does not turn the original into the file: a stale or foreign original
    ("stale", "a = 2\nmine()\n", [("a = 1", "a = 2")], (), "a = 1\n", None),
    ("old-absent", "a = 2\n", [("a = 1", "a = 2")], (), "z\n", None),
    # an edit tool refuses an old text found twice unless told to replace every one
    ("old-twice", "b\na\n", [("a", "b")], (), "a\na\n", None),
    # the file changed again after a write (not its content)
    ("write-changed", "new\nlater\n", [("old\n", "new\n")], (), "old\n", None),
    # the exact undo gives another text (the new text was in the file already): fail closed
    ("undo-differs", "y y\n", [("x", "y")], (0,), "x y\n", None),
    ("empty", "a = 2\n", [("a = 1", "a = 2")], (), "", None),
    ("unchanged", "a = 2\n", [("a = 2", "a = 2")], (), "a = 2\n", None),
    ("no-replacements", "a = 2\n", [], (), "a = 1\n", None),
]


@pytest.mark.parametrize(
    ("after", "replacements", "every", "original", "expected"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_rows(
    after: str,
    replacements: list[tuple[str, str]],
    every: tuple[int, ...],
    original: str,
    expected: str | None,
) -> None:
    assert exact_start(after, replacements, every, original) == expected


def _input(tool: str, args: dict[str, object], response: object) -> bytes:
    return json.dumps(
        {
            "session_id": "s",
            "transcript_path": "",
            "cwd": "/r",
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": {"file_path": "/r/hello.txt", **args},
            "tool_response": response,
            "tool_use_id": "toolu_1",
        }
    ).encode()


EDIT = {"old_string": "hello", "new_string": "hello world"}
EDIT_RESPONSE = {
    "filePath": "/r/hello.txt",
    "oldString": "hello",
    "newString": "hello world",
    "originalFile": "hello",
    "structuredPatch": [
        {
            "oldStart": 1,
            "oldLines": 1,
            "newStart": 1,
            "newLines": 1,
            "lines": ["-hello", "\\ No newline at end of file", "+hello world"],
        }
    ],
    "userModified": False,
    "replaceAll": False,
}
WRITE_UPDATE = {
    "type": "update",
    "filePath": "/r/hello.txt",
    "content": "hello world\n",
    "structuredPatch": [],
    "originalFile": "hello\n",
}


def test_claude_codes_edit_carries_the_original() -> None:
    event = decode(_input("Edit", EDIT, EDIT_RESPONSE))
    assert event.original == "hello"
    assert event.replacements == (("hello", "hello world"),)
    assert exact_start("hello world", event.replacements, event.replace_all, "hello") == "hello"


def test_claude_codes_multiedit_carries_the_original_when_given() -> None:
    edits = {"edits": [EDIT, {"old_string": "world", "new_string": "there"}]}
    event = decode(_input("MultiEdit", edits, {**EDIT_RESPONSE, "originalFile": "hello"}))
    assert event.original == "hello"
    assert exact_start("hello there", event.replacements, (), "hello") == "hello"
    assert decode(_input("MultiEdit", edits, {"filePath": "/r/hello.txt"})).original is None


def test_claude_codes_write_update_is_one_replacement_of_the_original() -> None:
    event = decode(_input("Write", {"content": "hello world\n"}, WRITE_UPDATE))
    assert event.original == "hello\n"
    assert event.replacements == (("hello\n", "hello world\n"),)
    assert exact_start("hello world\n", event.replacements, (), "hello\n") == "hello\n"


@pytest.mark.parametrize(
    ("tool", "args", "response"),
    [
        # a new file: originalFile is null
        ("Write", {"content": "x\n"}, {**WRITE_UPDATE, "type": "create", "originalFile": None}),
        # a long string blanked by the bounded reader
        ("Edit", EDIT, {**EDIT_RESPONSE, "originalFile": ""}),
        ("Write", {"content": ""}, WRITE_UPDATE),
        ("Edit", EDIT, {**EDIT_RESPONSE, "originalFile": 7}),
        ("Edit", EDIT, "not an object"),
        ("Edit", EDIT, {"success": True}),
        # a tool that is not one of Edit, MultiEdit, Write
        ("NotebookEdit", {"new_source": "x"}, {"originalFile": "y"}),
    ],
    ids=["create", "blanked", "blank-content", "not-text", "no-object", "absent", "notebook"],
)
def test_no_original(tool: str, args: dict[str, object], response: object) -> None:
    event = decode(_input(tool, args, response))
    assert event.original is None
    if tool == "Write":
        assert event.replacements == ()
