"""The streaming filter that keeps a large hook input without its long strings."""

from __future__ import annotations

import json
import os
import threading

import pytest

from gentle_hooks.agents import payload
from gentle_hooks.agents.payload import read_stdin
from gentle_hooks.agents.stream import LongStrings
from gentle_hooks.errors import UsageError

DOC = {
    "long": "x" * 200,
    "escaped": 'a\\"b\\\\',
    "unicode": "\u00e9\U0001f600",
    "list": ["short", "y\\" * 150, 1, None],
    "tool_input": {"file_path": "/r/src/gen.py", "content": 'q"' * 120},
}


@pytest.mark.parametrize("step", [1, 2, 3, 7, 64, 100_000])
def test_long_strings_are_blanked_wherever_the_text_is_cut(step: int) -> None:
    text = json.dumps(DOC).encode()
    f = LongStrings(limit=100)
    for i in range(0, len(text), step):
        f.feed(text[i : i + step])
    assert json.loads(bytes(f.kept)) == {
        **DOC,
        "long": "",
        "list": ["short", "", 1, None],
        "tool_input": {"file_path": "/r/src/gen.py", "content": ""},
    }
    assert f.blanked == 3


def _pipe(data: bytes) -> tuple[int, threading.Thread]:
    r, w = os.pipe()

    def feed() -> None:
        with os.fdopen(w, "wb") as out:
            out.write(data)

    t = threading.Thread(target=feed)
    t.start()
    return r, t


def test_read_stdin_keeps_a_large_input_without_its_contents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(payload, "STDIN_LIMIT", 1000)
    big = {"tool_input": {"file_path": "a.py", "content": "z" * 200_000}, "tool_use_id": "t"}
    r, t = _pipe(json.dumps(big).encode())
    with os.fdopen(r, "rb", buffering=0) as fh:
        got = json.loads(read_stdin("x", fh))
    t.join()
    assert got == {"tool_input": {"file_path": "a.py", "content": ""}, "tool_use_id": "t"}


def test_read_stdin_refuses_a_large_input_of_short_strings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(payload, "STDIN_LIMIT", 1000)
    r, t = _pipe(json.dumps(["s"] * 1000).encode())
    with os.fdopen(r, "rb", buffering=0) as fh, pytest.raises(UsageError, match="even with"):
        read_stdin("x", fh)
    t.join()


@pytest.mark.parametrize("step", [1, 3, 64, 100_000])
def test_a_long_patch_keeps_its_file_headers(step: int) -> None:
    from gentle_hooks.agents.patch import patch_paths

    body = "".join(f'+x = "{i}\\\\"\n' for i in range(200))
    patch = (
        f"*** Begin Patch\n*** Add File: big.py\n{body}*** Update File: a/b.py\n@@\n-o\n+n\n"
        "  *** Move to: c.py\n*** End Patch\n"
    )
    text = json.dumps({"tool_input": {"command": patch}}).encode()
    f = LongStrings(limit=100)
    for i in range(0, len(text), step):
        f.feed(text[i : i + step])
    kept = json.loads(bytes(f.kept))["tool_input"]["command"]
    assert kept == (
        "*** Begin Patch\n*** Add File: big.py\n*** Update File: a/b.py\n"
        "  *** Move to: c.py\n*** End Patch\n"
    )
    assert patch_paths(kept) == ("big.py", "a/b.py", "c.py")
