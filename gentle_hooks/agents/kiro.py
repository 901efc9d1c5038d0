"""Kiro CLI's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/kiro.md).

Room ``agents`` (standard library only). Kiro CLI 3 reads standalone hooks files,
``.kiro/hooks/<name>.json`` of the workspace (kiro.dev/docs/cli/v3/hooks, "The new format")
and of the user's ``~/.kiro/hooks/``, which fire in every workspace
(kiro.dev/changelog/cli/2-13/, "Global Hooks"), and runs a ``command`` action with the hook
event as JSON on standard input (kiro.dev/docs/cli/hooks, "Hook event"):
``hook_event_name``, ``cwd``, and for tool hooks ``tool_name``, ``tool_input`` and
(``PostToolUse`` only) ``tool_response``.

File-writing tools: ``fs_write`` (``path``; Kiro's built-in write tool, the name its v3
example matches together with ``str_replace``), and ``write``, the built-in's name in agent
``tools`` lists. The documented event names no session, no tool call, no time, no model and
no effort. Kiro IDE 1.x's event carries a ``session_id`` (observed, not documented:
awslabs/aidlc-workflows "Kiro IDE hook payload - empirical reference"): it is read when
present. The replay id is derived from the call alone: the session, the directory, the tool,
its input and its response, never the clock (the event names no time) and never what the
file holds when the hook runs (a replay that comes after a person edited the file would
otherwise be a new call, and record the person's edit as the writer's). The same event
delivered again records once whenever it comes; the same edit made in another session
records again. The very same call made twice in one session (the same input and the same
response) has one id: a replay while the first call's work is live and the file is as it
left it, a new call once that work has ended
(:func:`gentle_hooks.services.repeat.ended_derived`), or when a ``str_replace`` call's
file is the first call's result with the replacement made once more (the next occurrence:
:func:`gentle_hooks.services.repeat.repeated_edit`).
A ``tool_response`` whose ``success`` is false records nothing.
The model and the effort are unknown unless ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT``
say.
"""

from __future__ import annotations

from gentle_hooks.agents.event import (
    RuntimeEvent,
    derived_call_id,
    replacement_pairs,
    result_failure,
    snake_tool_call,
)
from gentle_hooks.values.frozen import replace

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
    call = snake_tool_call(data, NAME)
    response = call.event.get("tool_response")
    out = call.runtime_event(
        NAME,
        tool_call_id=derived_call_id(NAME, call.session, call.cwd, call.tool, call.args, response),
        writes=call.writes_on(EVENTS, WRITE_TOOLS),
        model=None,
        effort=None,
        failed=result_failure(response, "tool_response"),
    )
    return replace(out, replacements=_str_replace(call.args))


def _str_replace(args: object) -> tuple[tuple[str, str], ...]:
    """The replacement of an ``fs_write`` ``str_replace`` call (``old_str``, ``new_str``);
    () for another command (``create`` writes its whole text: the same text again is the
    content the first call left, a replay)."""
    if not isinstance(args, dict) or args.get("command") != "str_replace":
        return ()
    return replacement_pairs([args], "old_str", "new_str")
