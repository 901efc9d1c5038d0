"""Pi's tool calls, as our extension hands them to ``record --from pi``, decoded (SPEC §7
"Hooks"; docs/agents/pi.md).

Room ``agents`` (standard library only). Pi (badlogic/pi-mono, now earendil-works/pi) has
no hook file: it loads extension modules (``packages/coding-agent/docs/extensions.md`` @
005aeb97f894eba3d3c1edad7204abce4a9c4f3f, "Extension Locations", "tool_result",
"ExtensionContext"). The extension ``install --agent pi`` writes
(:func:`gentle_hooks.agents.ownfile.pi_extension`) hands each ``tool_result`` event to the
recorder as one JSON object on standard input: ``toolName``, ``toolCallId``, ``input`` and
``isError`` of the event; ``model`` (``ctx.model``'s ``provider`` and ``id``: the model of
the session that made the call); ``thinkingLevel`` (``pi.getThinkingLevel()``); the session
id; ``cwd``.

File-writing tools: Pi's built-in ``write`` and ``edit`` (``path``). A call that failed
(``isError``) wrote nothing: it records nothing. The thinking level is Pi's effort, named as
ours (``off`` ... ``xhigh``); another name is unknown. What an ``edit`` call replaced
(``oldText``/``newText``, or an ``edits`` list of them, each at one occurrence) measures
the write from the file just before it
(:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`).
"""

from __future__ import annotations

from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    RuntimeEvent,
    edit_replacements,
    map_effort,
    tool_call,
)
from gentle_hooks.agents.payload import hook_input, member, text
from gentle_hooks.values.frozen import replace

NAME = "pi"
#: Pi's built-in file-writing tools.
WRITE_TOOLS = ("write", "edit")


def decode(data: bytes) -> RuntimeEvent:
    """Decode the extension's JSON object.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    call = tool_call(event, "toolName", "input", "sessionId", hook="hook")
    level = text(event.get("thinkingLevel"))
    out = call.runtime_event(
        NAME,
        tool_call_id=call.own_id(NAME, "toolCallId", call.session),
        writes=call.writes_on(("tool_result",), WRITE_TOOLS),
        model=text(member(event, "model", "id")),
        effort=map_effort(level, OUR_EFFORTS) if level else None,
        failed="failed (isError)" if event.get("isError") is True else None,
    )
    pairs, every = edit_replacements(call.args, "oldText", "newText")
    return replace(out, replacements=pairs, replace_all=every)
