"""Agent runtime hook inputs for tests, built from the documented payloads in
``tests/fixtures/agents/<runtime>.json`` (each names its sources).

A fixture holds the runtime's ``payload`` with ``@ROOT@`` (the work tree) and ``@TRANSCRIPT@``
(a transcript file) placeholders, the ``transcript`` lines to write, the file contents the
tool ``writes``, and what the decoder must ``expect``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "agents"
#: The runtimes with a documented payload fixture.
RUNTIMES = (
    "claude-code",
    "codex",
    "gemini-cli",
    "cursor",
    "copilot",
    "windsurf",
    "droid",
    "cline",
    "opencode",
    "pi",
    "kiro",
    "augment",
    "amp",
)


def load(name: str) -> dict[str, Any]:
    """The raw fixture of runtime ``name``."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _fill(value: Any, root: Path, transcript: Path) -> Any:
    text = json.dumps(value)
    text = text.replace("@ROOT@", json.dumps(str(root))[1:-1])
    text = text.replace("@TRANSCRIPT@", json.dumps(str(transcript))[1:-1])
    return json.loads(text)


def materialize(
    name: str, root: Path, scratch: Path, **override: Any
) -> tuple[bytes, dict[str, Any]]:
    """(the hook input for a work tree at ``root``, the filled fixture); the transcript is
    written under ``scratch``. ``override`` replaces top-level payload members (None
    deletes one)."""
    fixture = load(name)
    transcript = scratch / f"{name}-transcript.jsonl"
    filled = _fill(fixture, root, transcript)
    if filled["transcript"] is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        transcript.write_text(
            "".join(json.dumps(line) + "\n" for line in filled["transcript"]), encoding="utf-8"
        )
    payload = dict(filled["payload"])
    for key, value in override.items():
        if value is None:
            payload.pop(key, None)
        else:
            payload[key] = value
    filled["payload"] = payload
    return json.dumps(payload).encode("utf-8"), filled


def apply_writes(filled: dict[str, Any], root: Path) -> None:
    """Leave the files as the runtime's tool left them (the hook runs after the write)."""
    for rel, content in filled["writes"].items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


#: The runtimes whose shell tool is wired before and after it
#: (``tests/fixtures/agents/shell.json``, each naming its sources).
SHELL_RUNTIMES = ("codex", "gemini-cli", "cursor", "copilot", "opencode")


def shell_inputs(name: str, root: Path, command: str) -> tuple[bytes, bytes, dict[str, Any]]:
    """(the pre-tool input, the post-tool input, what the decoder must expect) of runtime
    ``name``'s shell call of ``command`` in the work tree ``root``."""
    fixture = json.loads((FIXTURES / "shell.json").read_text(encoding="utf-8"))[name]
    text = json.dumps(fixture).replace("@ROOT@", json.dumps(str(root))[1:-1])
    text = text.replace("@COMMAND@", json.dumps(command)[1:-1])
    filled = json.loads(text)
    before = json.dumps(filled["before"]).encode("utf-8")
    after = json.dumps(filled["after"]).encode("utf-8")
    expect: dict[str, Any] = filled["expect"]
    return before, after, expect


def codex_rollout(path: Path, calls: list[tuple[str, str, str | None]]) -> Path:
    """Write a Codex rollout at ``path``: the lines of
    ``tests/fixtures/agents/codex-rollout.jsonl`` up to its first ``function_call`` (its
    ``session_meta`` and ``turn_context``), then, for each ``(call id, command, output)``, an
    ``exec_command`` ``function_call`` and, unless ``output`` is None, its
    ``function_call_output`` (shapes: that fixture's sources, tests/unit/test_codex_rollout.py)."""
    head = []
    for raw in (FIXTURES / "codex-rollout.jsonl").read_text(encoding="utf-8").splitlines():
        if '"function_call"' in raw:
            break
        head.append(raw)
    lines = list(head)
    for call, command, output in calls:
        arguments = json.dumps({"cmd": command, "yield_time_ms": 10000})
        item = {"type": "function_call", "name": "exec_command", "arguments": arguments}
        lines.append(json.dumps({"type": "response_item", "payload": {**item, "call_id": call}}))
        if output is not None:
            done = {"type": "function_call_output", "call_id": call, "output": output}
            lines.append(json.dumps({"type": "response_item", "payload": done}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def codex_stop(transcript: object, cwd: object, **more: object) -> dict[str, Any]:
    """Codex's ``Stop`` input for the session of the fixtures
    (codex-rs/hooks/schema/generated/stop.command.input.schema.json): ``transcript`` and
    ``cwd`` as given (paths are written as text, None stays null), ``more`` added or
    overriding (``agent_id``, ``agent_type``, ``last_assistant_message``...)."""
    stop: dict[str, Any] = {
        "session_id": "019c4b43-1451-7af3-be4c-5576369bf1ba",
        "turn_id": "turn-1",
        "transcript_path": None if transcript is None else str(transcript),
        "cwd": str(cwd),
        "hook_event_name": "Stop",
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "stop_hook_active": False,
        "last_assistant_message": "done",
    }
    return {**stop, **more}
