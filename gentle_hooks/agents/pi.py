"""Pi's tool calls, as our extension hands them to ``record --from pi``, decoded (SPEC §7
"Hooks"; docs/agents/pi.md).

Room ``agents`` (standard library only). Pi (badlogic/pi-mono, now earendil-works/pi) has
no hook file: it loads extension modules (``packages/coding-agent/docs/extensions.md`` @
005aeb97f894eba3d3c1edad7204abce4a9c4f3f, "Extension Locations", "tool_result",
"ExtensionContext"). The extension ``install --agent pi`` writes
(:func:`gentle_hooks.agents.ownfile.pi_extension`) hands each event it subscribes to the
recorder as one JSON object on standard input: ``hook`` (the event's name); ``toolName``,
``toolCallId``, ``input`` and ``isError`` of the event; ``model`` (``ctx.model``'s
``provider`` and ``id``: the model of the session that made the call); ``thinkingLevel``
(``pi.getThinkingLevel()``); the session id; ``cwd``.

File-writing tools: Pi's built-in ``write`` and ``edit`` (``path``), recorded at
``tool_result``. A call that failed (``isError``) wrote nothing: it records nothing. The
thinking level is Pi's effort, named as ours (``off`` ... ``xhigh``); another name is
unknown. What an ``edit`` call replaced (``oldText``/``newText``, or an ``edits`` list of
them, each at one occurrence) measures the write from the file just before it
(:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`).

Pi's shell tool, ``bash`` (``input.command``), names no file it writes: its ``tool_call``
event (before the tool runs, badlogic/pi-mono ``docs/extensions.md`` @
045aad539ba0f59297768dc242d68a0b8d76961c, "tool_call": ``toolName``, ``toolCallId``,
``input``) is a snapshot event (:data:`SHELL_SNAPSHOT`), and its ``tool_result`` records what
changed since, as every runtime's shell tool is (:mod:`gentle_hooks.services.agent_shell`);
the two share ``toolCallId``. A command that leaves a process running (``cmd &``,
``nohup``...: :func:`gentle_hooks.agents.background.command_leaves_process`) is
:attr:`~gentle_hooks.agents.event.RuntimeEvent.background`; the ``agent_end`` event (same
page, "Lifecycle Overview": the end of the agent's run of one prompt) is the end of the turn
(:data:`TURN_END`), where its window closes.
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
from gentle_hooks.agents.shell_call import shell_call, turn_end
from gentle_hooks.values.frozen import replace

NAME = "pi"
#: Pi's built-in file-writing tools.
WRITE_TOOLS = ("write", "edit")
#: Pi's built-in shell tool: it can change files, but its input names none of them.
SHELL_TOOL = "bash"
#: The event our extension hands over before a :data:`SHELL_TOOL` call runs: the work tree
#: is kept (:mod:`gentle_hooks.services.agent_shell`).
SHELL_SNAPSHOT = "tool_call"
#: The event our extension hands over when the agent's run of a prompt ends: the session's
#: background shell windows close (:mod:`gentle_hooks.services.agent_windows`).
TURN_END = "agent_end"
#: Why a :data:`SHELL_TOOL` call records nothing when no snapshot before it was kept (after
#: ``the bash call of Pi``).
SHELL_NOT_RECORDED = (
    "ran a shell command: its input names no file it changed, and no snapshot of the work "
    "tree from before it was kept (our extension's tool_call handler takes it; an extension "
    "written by an earlier install has none: install the recorder again, then /reload), so "
    "nothing it changed is recorded from this call"
)


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
    if out.hook_event == TURN_END:  # the agent's run ended: the session's windows close
        return turn_end(out)
    if call.tool == SHELL_TOOL:
        before = out.hook_event == SHELL_SNAPSHOT
        return shell_call(out, call.args, before=before, not_recorded=SHELL_NOT_RECORDED)
    pairs, every = edit_replacements(call.args, "oldText", "newText")
    return replace(out, replacements=pairs, replace_all=every)
