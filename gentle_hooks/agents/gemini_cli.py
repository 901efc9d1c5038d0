"""Gemini CLI's ``AfterTool`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/gemini-cli.md).

Room ``agents`` (standard library only). Gemini CLI runs the hook after the tool executed and
hands it one JSON object (google-gemini/gemini-cli ``docs/hooks/reference.md``, "Base input
schema" and ``AfterTool``; ``packages/core/src/hooks/types.ts``, ``AfterToolInput``):
``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, ``timestamp`` (ISO 8601),
``tool_name``, ``tool_input``, ``tool_response``, ``mcp_context`` and
``original_request_name``. The file-writing tools are ``write_file`` and ``replace``, each
with ``file_path`` (``docs/tools/file-system.md``).

The input names no tool call and no model:

* the replay id is derived from the session, the hook's timestamp, the tool and its input
  (:func:`gentle_hooks.agents.event.derived_call_id`);
* the model is the ``model`` of the newest ``gemini`` message of the session transcript
  (JSON Lines of message records, ``packages/core/src/services/chatRecordingService.ts``;
  an older whole-JSON ``{"messages": [...]}`` file is read too);
* Gemini CLI exposes no effort: it is unknown unless ``GENTLE_WRITER_EFFORT`` says.
"""

from __future__ import annotations

from gentle_hooks.agents.event import RuntimeEvent, derived_call_id, snake_tool_call, writes_file
from gentle_hooks.agents.payload import json_lines, loads, member, read_file, text
from gentle_hooks.errors import UsageError

NAME = "gemini-cli"
#: Gemini CLI's file-writing tools (the matcher ``install --agent gemini-cli`` writes).
WRITE_TOOLS = ("write_file", "replace")


def _newest_model(messages: list[object]) -> str | None:
    for message in reversed(messages):
        if member(message, "type") == "gemini":
            model = text(member(message, "model"))
            if model:
                return model
    return None


def model_from_transcript(path: str | None) -> str | None:
    """The ``model`` of the newest ``gemini`` message of a Gemini CLI transcript."""
    data = read_file(path, tail=True) if path else None
    if data is None:
        return None
    found = _newest_model(list(json_lines(data)))
    if found is None and data.lstrip().startswith(b"{"):
        try:  # an older transcript: one JSON document
            messages = member(loads(data, "transcript"), "messages")
        except UsageError:
            return None
        found = _newest_model(messages) if isinstance(messages, list) else None
    return found


def decode(data: bytes) -> RuntimeEvent:
    """Decode Gemini CLI's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    return call.runtime_event(
        NAME,
        tool_call_id=derived_call_id(
            NAME, call.session, call.event.get("timestamp"), call.tool, call.args
        ),
        writes=writes_file(call.tool, call.args, WRITE_TOOLS),
        model=model_from_transcript(text(call.event.get("transcript_path"))),
        effort=None,
    )
