"""The start a person-modified write is measured from (:mod:`gentle_hooks.policy.proposal`):
the writer's delta from it holds only the proposed lines that survive."""

from __future__ import annotations

import pytest

from gentle_hooks.agents.gemini_cli import person_edit
from gentle_hooks.policy.attribution import writer_delta
from gentle_hooks.policy.linekeys import line_key
from gentle_hooks.policy.proposal import person_start

START = b"def add(a, b):\n    return a + b\n"
MODEL = b"def multiply_values(left, right):\n"
MODEL2 = b"    return left * right\n"
PERSON = b"def subtract_numbers(first, second):\n"


def _key(line: bytes) -> str:
    key = line_key(line)
    assert key is not None
    return key


CHANGED = b"def multiply_values(lhs, rhs):\n"  # in neither version: changed on its way

#: (id, start, proposed, the person's version, written, keys the writer added, removed)
ROWS = [
    ("all-person", START, START + MODEL + MODEL2, START + PERSON, START + PERSON, set(), set()),
    (
        "all-model",
        START,
        START + MODEL + MODEL2,
        START + MODEL + MODEL2,
        START + MODEL + MODEL2,
        {MODEL, MODEL2},
        set(),
    ),
    (
        "mixed",
        START,
        START + MODEL + MODEL2,
        START + MODEL + PERSON,
        START + MODEL + PERSON,
        {MODEL},
        set(),
    ),
    (
        "reindented",
        START,
        START + MODEL,
        START + b"  " + MODEL,
        START + b"  " + MODEL,
        {MODEL},
        set(),
    ),
    ("new-file", None, MODEL + MODEL2, MODEL + PERSON, MODEL + PERSON, {MODEL}, set()),
    # the model removed the return line and the person left it removed: the model's removal
    (
        "model-removal",
        START,
        b"def add(a, b):\n",
        b"def add(a, b):\n" + PERSON,
        b"def add(a, b):\n" + PERSON,
        set(),
        {b"    return a + b\n"},
    ),
    # the person removed a line the model kept: the removal is theirs
    (
        "person-removal",
        START,
        START + MODEL,
        b"def add(a, b):\n" + MODEL,
        b"def add(a, b):\n" + MODEL,
        {MODEL},
        set(),
    ),
    # a line in neither version (the runtime changed it on its way) is the model's
    (
        "changed-on-its-way",
        START,
        START + MODEL,
        START + MODEL + PERSON,
        START + CHANGED + PERSON,
        {CHANGED},
        set(),
    ),
    # the person's version unknown (blank): no line is theirs
    (
        "no-persons-version",
        START,
        START + MODEL,
        b"",
        START + MODEL + PERSON,
        {MODEL, PERSON},
        set(),
    ),
]


@pytest.mark.parametrize(
    ("start", "proposed", "edited", "written", "added", "removed"),
    [r[1:] for r in ROWS],
    ids=[r[0] for r in ROWS],
)
def test_only_the_proposed_lines_that_survive_are_the_writers(
    start: bytes | None,
    proposed: bytes,
    edited: bytes,
    written: bytes,
    added: set[bytes],
    removed: set[bytes],
) -> None:
    base = person_start(start, written, proposed, edited)
    delta = writer_delta(base, written)
    assert delta.added == {_key(line) for line in added}
    assert delta.removed == {_key(line) for line in removed}
    assert (base == written) == (not added and not removed)


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        (
            "write_file",
            {"modified_by_user": True, "ai_proposed_content": "x", "content": "y"},
            ("tool_input.modified_by_user", "x", "y"),
        ),
        ("write_file", {"modified_by_user": True}, ("tool_input.modified_by_user", None, None)),
        ("write_file", {"modified_by_user": False, "ai_proposed_content": "x"}, (None, None, None)),
        (
            "write_file",
            {"modified_by_user": "true", "ai_proposed_content": "x"},
            (None, None, None),
        ),
        # blank: what a long string becomes in an input larger than the recorder holds whole
        (
            "write_file",
            {"modified_by_user": True, "ai_proposed_content": "", "content": ""},
            ("tool_input.modified_by_user", None, None),
        ),
        # replace's ai_proposed_content is the file before the edit, never the proposal
        (
            "replace",
            {"modified_by_user": True, "ai_proposed_content": "x"},
            ("tool_input.modified_by_user", None, None),
        ),
        ("replace", ["modified_by_user"], (None, None, None)),
    ],
    ids=[
        "write-file",
        "write-file-no-proposal",
        "not-modified",
        "not-a-bool",
        "write-file-blanked-proposal",
        "replace",
        "not-an-object",
    ],
)
def test_gemini_reports_a_person_edit_and_the_proposal_it_carries(
    tool: str, args: object, expected: tuple[str | None, str | None, str | None]
) -> None:
    assert person_edit(tool, args) == expected
