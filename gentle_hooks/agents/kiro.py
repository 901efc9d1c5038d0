"""Kiro CLI's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/kiro.md).

Room ``agents`` (standard library only). Kiro CLI 3 reads standalone hooks files,
``.kiro/hooks/<name>.json`` of the workspace (kiro.dev/docs/cli/v3/hooks, "The new format"),
and runs a ``command`` action with the hook event as JSON on standard input
(kiro.dev/docs/cli/hooks, "Hook event"): ``hook_event_name``, ``cwd``, and for tool hooks
``tool_name``, ``tool_input`` and (``PostToolUse`` only) ``tool_response``.

File-writing tools: ``fs_write`` (``path``; Kiro's built-in write tool, the name its v3
example matches together with ``str_replace``), and ``write``, the built-in's name in agent
``tools`` lists. The event names no session, no tool call, no model and no effort: the
replay id is derived from the directory, the tool, its input and its response; the model
and the effort are unknown unless ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT`` say.
"""

from __future__ import annotations

from gentle_hooks.agents.event import RuntimeEvent, derived_call_id, unique, writes_file
from gentle_hooks.agents.patch import written_paths
from gentle_hooks.agents.payload import load_object, text

NAME = "kiro"
#: Kiro's file-writing tools.
WRITE_TOOLS = ("fs_write", "write", "str_replace")
#: ``hook_event_name`` spellings of the event we wire (``postToolUse`` before v3).
EVENTS = ("PostToolUse", "postToolUse")


def decode(data: bytes) -> RuntimeEvent:
    """Decode Kiro's hook event.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = load_object(data, f"record --from {NAME}: stdin")
    tool = text(event.get("tool_name"))
    args = event.get("tool_input")
    found, unreadable = written_paths(args, "tool_input")
    cwd = text(event.get("cwd"))
    hook = text(event.get("hook_event_name"))
    return RuntimeEvent(
        source=NAME,
        session_id=None,
        tool_call_id=derived_call_id(NAME, cwd, tool, args, event.get("tool_response")),
        cwd=cwd,
        paths=unique(found),
        writes=(hook is None or hook in EVENTS) and writes_file(tool, args, WRITE_TOOLS),
        tool=tool,
        model=None,
        effort=None,
        hook_event=hook,
        unreadable=unreadable,
    )
