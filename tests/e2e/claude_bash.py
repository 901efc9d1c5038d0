"""Claude Code's Bash hook inputs for the shell-recording e2e rows: one builder instead of a
copy per test file.

"PreToolUse input" / "PostToolUse input" of https://docs.claude.com/en/docs/claude-code/hooks
(``session_id``, ``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``,
``tool_name``, ``tool_input``, ``tool_use_id``; PostToolUse adds ``tool_response``).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path

from tests.e2e.conftest import World


def bash_input(event: str, command: str, cwd: Path, call: str, **tool_input: object) -> bytes:
    """The hook input of Bash call ``call`` running ``command`` from ``cwd``, as bytes.

    ``event``: ``PreToolUse`` or ``PostToolUse`` (which carries an empty, uninterrupted
    ``tool_response``); ``tool_input``: more fields of the call (``run_in_background``)."""
    data: dict[str, object] = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": event,
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it", **tool_input},
        "tool_use_id": call,
    }
    if event == "PostToolUse":
        data["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False}
    return json.dumps(data).encode()


def bash_call(
    w: World, command: str, call: str, env: Mapping[str, str], *, before: bool = True
) -> str:
    """Claude Code's Bash call ``call`` of ``command`` in ``w``'s work tree: its PreToolUse
    hook (unless not ``before``; it must say it kept the work tree), the command run with
    ``sh -c``, its PostToolUse hook with ``env`` (the writer's model); what the recorder
    said last (its stderr). Asserts every hook exits 0."""
    if before:
        pre = bash_input("PreToolUse", command, w.work, call)
        r = w.gh("record", "--from", "claude-code", input=pre)
        assert r.code == 0 and "kept the work tree before the Bash call" in r.err, r
    subprocess.run(["sh", "-c", command], cwd=w.work, check=True)
    post = bash_input("PostToolUse", command, w.work, call)
    r = w.gh("record", "--from", "claude-code", input=post, env=dict(env))
    assert r.code == 0, r
    return r.err


def write_call(
    w: World, path: str, text: str, call: str, env: Mapping[str, str], *, kind: str = "update"
) -> tuple[int, str]:
    """Claude Code's ``Write`` call ``call`` of ``text`` to ``path`` (relative to ``w``'s work
    tree; hooks reference, "PostToolUse input"): the file written, then its PostToolUse hook
    with ``env`` (the writer's model); (the recorder's exit status, its stderr). ``kind``:
    the response's ``type`` (``create`` or ``update``)."""
    w.write(path, text)
    full = str(w.work / path)
    data = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(w.work),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": full, "content": text},
        "tool_response": {"type": kind, "filePath": full, "content": text},
        "tool_use_id": call,
    }
    r = w.gh("record", "--from", "claude-code", input=json.dumps(data).encode(), env=dict(env))
    return r.code, r.err
