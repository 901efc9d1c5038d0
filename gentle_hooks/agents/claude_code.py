"""Agent-runtime adapters (SPEC §7 "Hooks"): turn what a runtime hands its
hooks into a pending mutation.

Room ``agents`` (standard library only). ``gentle-hook record --from claude-code`` reads Claude
Code's hook input on stdin — one JSON object with ``session_id``, ``transcript_path``,
``cwd``, ``effort`` (recent versions), ``tool_name``, ``tool_input`` (``file_path``,
``notebook_path``) and ``tool_use_id`` — and records the writer. Claude Code does not pass the
model: it comes from ``--model``, else ``GENTLE_WRITER_MODEL``, else the last assistant
message of the session transcript (``message.model``), else it is recorded as unknown.
The generic form needs no adapter: ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT`` in the
environment of ``gentle-hook record``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import frozen

#: Bytes read from the end of a transcript to find the model (it is JSON Lines, newest last).
TRANSCRIPT_TAIL = 512 * 1024
UNKNOWN = "unknown"


@frozen
class RuntimeEvent:
    """One runtime hook event, reduced to what a pending mutation needs.

    Attributes:
        source: the runtime (``claude-code``); session_id / tool_call_id: its ids;
        cwd: where the agent works; paths: absolute paths the tool touched;
        model / effort: the writer, or None when the event does not say.
    """

    source: str
    session_id: str | None
    tool_call_id: str | None
    cwd: str | None
    paths: tuple[str, ...]
    model: str | None
    effort: str | None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def model_from_transcript(path: str | None) -> str | None:
    """The ``message.model`` of the last assistant line of a Claude Code transcript."""
    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - TRANSCRIPT_TAIL))
            tail = fh.read()
    except OSError:
        return None
    for raw in reversed(tail.splitlines()):
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        message = rec.get("message") if isinstance(rec, dict) else None
        if isinstance(message, dict) and rec.get("type") == "assistant":
            model = _str(message.get("model"))
            if model and not model.startswith("<"):
                return model
    return None


def parse_claude_code(data: bytes) -> RuntimeEvent:
    """Parse Claude Code's hook input (PostToolUse and friends).

    Raises:
        UsageError: not a JSON object.
    """
    try:
        event = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise UsageError(
            f"record --from claude-code: stdin is not the hook's JSON ({exc})"
        ) from None
    if not isinstance(event, dict):
        raise UsageError("record --from claude-code: stdin is not a JSON object")
    tool_input = event.get("tool_input")
    paths: list[str] = []
    if isinstance(tool_input, dict):
        for key in ("file_path", "notebook_path", "path"):
            p = _str(tool_input.get(key))
            if p:
                paths.append(p)
        for edit in tool_input.get("edits") or ():
            if isinstance(edit, dict) and _str(edit.get("file_path")):
                paths.append(edit["file_path"])
    return RuntimeEvent(
        source="claude-code",
        session_id=_str(event.get("session_id")),
        tool_call_id=_str(event.get("tool_use_id")),
        cwd=_str(event.get("cwd")),
        paths=tuple(dict.fromkeys(paths)),
        model=model_from_transcript(_str(event.get("transcript_path"))),
        effort=_str(event.get("effort")),
    )


def relative_paths(root: str, paths: tuple[str, ...], cwd: str | None) -> tuple[str, ...]:
    """Paths relative to the work tree root; paths outside it are left out."""
    out = []
    real_root = os.path.realpath(root)
    for p in paths:
        full = os.path.realpath(p if os.path.isabs(p) else os.path.join(cwd or root, p))
        rel = os.path.relpath(full, real_root)
        if not rel.startswith(os.pardir) and rel != ".":
            out.append(rel.replace(os.sep, "/"))
    return tuple(out)


def writer_of(
    event: RuntimeEvent, model: str | None, effort: str | None, env: Mapping[str, str]
) -> tuple[str, str]:
    """(model, effort) for the mutation: flags, then the environment, then the event;
    ``unknown`` when nothing says (an unknown writer counts as small)."""
    from gentle_hooks.policy.writer import parse_effort

    m = model or env.get("GENTLE_WRITER_MODEL") or event.model or UNKNOWN
    e = effort or env.get("GENTLE_WRITER_EFFORT") or event.effort or UNKNOWN
    if e != UNKNOWN:
        try:
            e = parse_effort(e).value
        except Exception:  # a runtime's own effort names are not ours: keep it unknown
            e = UNKNOWN
    return m, e
