"""Each file an ``apply_patch`` envelope updates in place and what its hunks replace there
(:func:`gentle_hooks.agents.patch.file_replacements`; issue 17: a several-file patch is
measured file by file). Envelope grammar: openai/codex
``codex-rs/apply-patch/apply_patch_tool_instructions.md``."""

from __future__ import annotations

import json

import pytest

from gentle_hooks.agents.codex import decode
from gentle_hooks.agents.patch import envelope_files, file_replacements

TWO = (
    "*** Begin Patch\n*** Update File: a.py\n@@\n x = 0\n-a\n+b\n"
    "*** Update File: src/b.py\n@@ def f():\n-c\n+d\n@@\n-e\n+f\n*** End Patch\n"
)

ROWS = [
    # (id, envelope, base, expected)
    (
        "two-updates",
        TWO,
        None,
        (("a.py", (("x = 0\na", "x = 0\nb"),)), ("src/b.py", (("c", "d"), ("e", "f")))),
    ),
    (
        "cd-base",
        TWO,
        "pkg",
        (("pkg/a.py", (("x = 0\na", "x = 0\nb"),)), ("pkg/src/b.py", (("c", "d"), ("e", "f")))),
    ),
    (
        "one-update",
        "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch\n",
        None,
        (("a.py", (("a", "b"),)),),
    ),
    (
        "added-and-deleted-left-out",
        "*** Begin Patch\n*** Add File: n.py\n+new\n*** Delete File: d.py\n"
        "*** Update File: a.py\n@@\n-a\n+b\n*** End Patch\n",
        None,
        (("a.py", (("a", "b"),)),),
    ),
    (
        "moved-left-out",
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: c.py\n@@\n-a\n+b\n"
        "*** Update File: b.py\n@@\n-c\n+d\n*** End Patch\n",
        None,
        (("b.py", (("c", "d"),)),),
    ),
    (
        "named-twice-left-out",
        "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** Update File: a.py\n@@\n-c\n+d\n"
        "*** Update File: b.py\n@@\n-e\n+f\n*** End Patch\n",
        None,
        (("b.py", (("e", "f"),)),),
    ),
    (
        "unreadable-section-left-out",
        "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n?b\n"
        "*** Update File: b.py\n@@\n-c\n+d\n*** End Patch\n",
        None,
        (("b.py", (("c", "d"),)),),
    ),
    # a *** line that is no marker: Codex applies nothing, and no section is read short
    (
        "unknown-marker",
        "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** Rename: x\n-c\n+d\n"
        "*** End Patch\n",
        None,
        (),
    ),
    ("text-before", "hello\n*** Update File: a.py\n@@\n-a\n+b\n", None, ()),
    ("no-envelope", "just text\n", None, ()),
]


@pytest.mark.parametrize(
    ("text", "base", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_rows(text: str, base: str | None, expected: object) -> None:
    assert file_replacements(text, base) == expected


def test_codex_names_each_file_of_a_several_file_patch() -> None:
    """Codex's ``PostToolUse`` input of ``apply_patch`` (openai/codex
    ``codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json``)."""
    data = {
        "session_id": "s",
        "hook_event_name": "PostToolUse",
        "tool_name": "apply_patch",
        "tool_input": {"command": TWO},
        "tool_use_id": "c",
    }
    event = decode(json.dumps(data).encode())
    assert event.replacements == ()
    assert [p for p, _ in event.patched] == ["a.py", "src/b.py"]


def test_codex_one_file_patch_keeps_its_replacements() -> None:
    body = "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n"
    data = {"session_id": "s", "tool_name": "apply_patch", "tool_input": {"command": body}}
    event = decode(json.dumps({**data, "tool_use_id": "c"}).encode())
    assert event.replacements == (("a", "b"),) and event.patched == ()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (TWO, ("a.py", "src/b.py")),
        ({"patch": TWO}, ("a.py", "src/b.py")),
        ({"patchText": TWO}, ("a.py", "src/b.py")),
        ("*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch\n", ()),
        ({"path": "a.py"}, ()),
        (None, ()),
    ],
    ids=["text", "patch", "patchText", "one-file", "no-envelope", "none"],
)
def test_envelope_files_of_a_tools_arguments(args: object, expected: tuple[str, ...]) -> None:
    """One file is :func:`envelope_replacements`' (``replacements``); several are each named."""
    assert tuple(p for p, _ in envelope_files(args)) == expected
