"""Rows of :func:`gentle_hooks.policy.preimage.preimage`: an edit's replacements undone on
the file it left give the file it started from, or nothing where the undo is not exact; and
the decoders that read those replacements from a runtime's input."""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.agents.claude_code import decode as claude_decode
from gentle_hooks.agents.event import edit_replacements
from gentle_hooks.agents.gemini_cli import decode as gemini_decode
from gentle_hooks.agents.patch import patch_replacements
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


HUNKS = [
    # (id, envelope body, expected replacements)
    (
        "context",
        "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n x = 0\n-y = 1\n+y = 2\n"
        "*** End Patch\n",
        (("x = 0\ny = 1", "x = 0\ny = 2"),),
    ),
    (
        "two-hunks-in-order",
        "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n@@\n c\n-d\n+e\n f\n*** End Patch\n",
        (("a", "b"), ("c\nd\nf", "c\ne\nf")),
    ),
    (
        "no-first-marker-blank-edges",
        "*** Begin Patch\n*** Update File: a.py\n\n-a\n+b\n\n*** End of File\n*** End Patch",
        (("a", "b"),),
    ),
    ("context-only", "*** Begin Patch\n*** Update File: a.py\n@@\n a\n*** End Patch\n", ()),
    ("add", "*** Begin Patch\n*** Add File: a.py\n+a\n*** End Patch\n", ()),
    ("delete", "*** Begin Patch\n*** Delete File: a.py\n*** End Patch\n", ()),
    (
        "move",
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-a\n+b\n*** End Patch\n",
        (),
    ),
    (
        "two-files",
        "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** Update File: b.py\n@@\n-c\n+d\n"
        "*** End Patch\n",
        (),
    ),
    ("other-line", "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n?b\n*** End Patch\n", ()),
    ("text-before", "hello\n*** Update File: a.py\n@@\n-a\n+b\n", ()),
    ("no-envelope", "just text\n", ()),
]


@pytest.mark.parametrize(("body", "expected"), [r[1:] for r in HUNKS], ids=[r[0] for r in HUNKS])
def test_an_envelopes_hunks_are_its_replacements(body: str, expected: object) -> None:
    assert patch_replacements(body) == expected


def test_a_hunk_undone_gives_the_file_before_the_patch() -> None:
    body = "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n"
    after = "mine = 1\n\ndef f():\n    return 2\n"
    assert preimage(after, patch_replacements(body)) == "mine = 1\n\ndef f():\n    return 1\n"


PAYLOADS = [
    # (id, decoder module, input, expected replacements, expected every)
    (
        "codex-apply-patch",
        "codex",
        {
            "session_id": "s",
            "tool_name": "apply_patch",
            "tool_input": {"command": "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n"},
            "tool_use_id": "c",
        },
        (("a", "b"),),
        (),
    ),
    (
        "codex-add-file",
        "codex",
        {
            "session_id": "s",
            "tool_name": "apply_patch",
            "tool_input": {"command": "*** Begin Patch\n*** Add File: a\n+a\n*** End Patch\n"},
            "tool_use_id": "c",
        },
        (),
        (),
    ),
    (
        "copilot-edit",
        "copilot",
        {
            "sessionId": "s",
            "toolName": "edit",
            "toolArgs": {"path": "a", "old_str": "a", "new_str": "b"},
        },
        (("a", "b"),),
        (),
    ),
    (
        "copilot-insert",
        "copilot",
        {
            "sessionId": "s",
            "toolName": "str_replace_editor",
            "toolArgs": {"command": "insert", "path": "a", "insert_line": 1, "new_str": "b"},
        },
        (),
        (),
    ),
    (
        "vscode-multi-replace",
        "copilot",
        {
            "hookEventName": "PostToolUse",
            "sessionId": "s",
            "tool_name": "multi_replace_string_in_file",
            "tool_input": {
                "replacements": [
                    {"filePath": "a", "oldString": "a", "newString": "b"},
                    {"filePath": "a", "oldString": "c", "newString": "d"},
                ]
            },
        },
        (("a", "b"), ("c", "d")),
        (),
    ),
    (
        "opencode-replace-all",
        "opencode",
        {
            "tool": "edit",
            "sessionID": "s",
            "callID": "c",
            "args": {"filePath": "a", "oldString": "a", "newString": "b", "replaceAll": True},
        },
        (("a", "b"),),
        (0,),
    ),
    (
        "opencode-multiedit",
        "opencode",
        {
            "tool": "multiedit",
            "sessionID": "s",
            "callID": "c",
            "args": {"filePath": "a", "edits": [{"oldString": "a", "newString": "b"}]},
        },
        (("a", "b"),),
        (),
    ),
    (
        "pi-edit",
        "pi",
        {
            "toolName": "edit",
            "toolCallId": "c",
            "input": {"path": "a", "oldText": "a", "newText": "b"},
        },
        (("a", "b"),),
        (),
    ),
    (
        "pi-partial-edits",
        "pi",
        {
            "toolName": "edit",
            "toolCallId": "c",
            "input": {"path": "a", "edits": [{"oldText": "a", "newText": "b"}, {"oldText": "c"}]},
        },
        (),
        (),
    ),
    (
        "amp-edit-file",
        "amp",
        {
            "tool": "edit_file",
            "toolUseID": "c",
            "input": {"path": "a", "old_str": "a", "new_str": "b"},
        },
        (("a", "b"),),
        (),
    ),
    (
        "droid-multiedit",
        "droid",
        {
            "session_id": "s",
            "hook_event_name": "PostToolUse",
            "tool_name": "MultiEdit",
            "tool_input": {"file_path": "a", "edits": [{"old_string": "a", "new_string": "b"}]},
        },
        (("a", "b"),),
        (),
    ),
]


@pytest.mark.parametrize(
    ("module", "data", "pairs", "every"), [r[1:] for r in PAYLOADS], ids=[r[0] for r in PAYLOADS]
)
def test_each_runtimes_edit_names_its_replacements(
    module: str, data: dict[str, object], pairs: object, every: tuple[int, ...]
) -> None:
    decode = importlib.import_module(f"gentle_hooks.agents.{module}").decode
    event = decode(json.dumps(data).encode())
    assert (event.replacements, event.replace_all) == (pairs, frozenset(every))
