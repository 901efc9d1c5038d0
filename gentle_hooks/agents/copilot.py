"""GitHub Copilot's ``postToolUse`` hook input, decoded (Copilot CLI and Copilot cloud agent;
SPEC §7 "Hooks"; docs/agents/copilot.md).

Room ``agents`` (standard library only). Copilot runs the hook after each tool completes and
hands it one JSON object (github/docs ``content/copilot/reference/hooks-reference.md``,
"postToolUse / PostToolUse"). Two shapes, chosen by how the event is named in the
configuration:

* camelCase ``postToolUse`` (what ``install --agent copilot`` writes): ``sessionId``,
  ``timestamp`` (Unix milliseconds), ``cwd``, ``toolName``, ``toolArgs`` (the tool's
  arguments; older documentation shows them as a JSON string, both are read) and
  ``toolResult``;
* the VS Code compatible ``PostToolUse``: ``hook_event_name``, ``session_id``, ``timestamp``,
  ``cwd``, ``tool_name``, ``tool_input``, ``tool_result``.

The event fires for every tool; only the file-writing ones record (``edit``, ``create``,
``str_replace_editor``, ``apply_patch``, ``write``; their path is ``path``, ``file_path`` or
``filePath``, or an ``apply_patch`` envelope's headers). The input names no tool call, no
model and no effort: the replay id is derived from the session, the timestamp, the tool
and its arguments; the model and effort are unknown unless ``GENTLE_WRITER_MODEL``/
``GENTLE_WRITER_EFFORT`` say.
"""

from __future__ import annotations

from gentle_hooks.agents.event import RuntimeEvent, derived_call_id, unique
from gentle_hooks.agents.patch import patch_paths
from gentle_hooks.agents.payload import load_object, loads_text, member, text
from gentle_hooks.errors import UsageError

NAME = "copilot"
#: Copilot's file-writing tools (runtime names; Claude-style aliases for the PascalCase
#: shape).
WRITE_TOOLS = ("edit", "create", "str_replace_editor", "apply_patch", "write", "Edit", "Write")


def arguments(value: object) -> object:
    """The tool's arguments: a JSON string is parsed, anything else returned as is."""
    if isinstance(value, str):
        try:
            return loads_text(value, "toolArgs")
        except UsageError:
            return value  # an apply_patch envelope given as the bare argument
    return value


def written_paths(args: object) -> list[str]:
    """The paths a file-writing tool's arguments name."""
    if isinstance(args, str):
        return list(patch_paths(args))
    paths = [p for k in ("path", "file_path", "filePath") if (p := text(member(args, k)))]
    for key in ("input", "patch", "command"):
        body = text(member(args, key))
        if body and "*** " in body:
            paths.extend(patch_paths(body))
    return paths


def decode(data: bytes) -> RuntimeEvent:
    """Decode Copilot's hook input (either shape).

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = load_object(data, f"record --from {NAME}: stdin")
    pascal = "tool_name" in event or "hook_event_name" in event
    tool = text(event.get("tool_name" if pascal else "toolName"))
    raw_args = event.get("tool_input" if pascal else "toolArgs")
    args = arguments(raw_args)
    session = text(event.get("session_id" if pascal else "sessionId"))
    return RuntimeEvent(
        source=NAME,
        session_id=session,
        tool_call_id=derived_call_id(NAME, session, event.get("timestamp"), tool, raw_args),
        cwd=text(event.get("cwd")),
        paths=unique(written_paths(args)),
        writes=tool in WRITE_TOOLS,
        tool=tool,
        model=None,
        effort=None,
        hook_event=text(event.get("hook_event_name")),
    )
