"""Amp's tool calls, as our plugin hands them to ``record --from amp``, decoded (SPEC §7
"Hooks"; docs/agents/amp.md).

Room ``agents`` (standard library only). Amp has no hook file: it runs plugin modules from
``.amp/plugins/`` or ``~/.config/amp/plugins/`` (ampcode.com/manual/plugin-api, the
``@ampcode/plugin`` type reference it renders). The plugin ``install --agent amp`` writes
(:func:`gentle_hooks.agents.ownfile.amp_plugin`) hands each ``tool.result`` event to the
recorder as one JSON object on standard input:

* ``tool``, ``toolUseID``, ``input``, ``status`` (``done``, ``error`` or ``cancelled``) of the
  event (``ToolResult``), ``threadID`` (the event's ``thread.id``: the session);
* ``files``: the local paths of ``amp.helpers.filesModifiedByToolCall(event)`` (the files the
  call modifies, "edit/create/apply_patch tools and sed in-place shell commands"), null when
  that helper says the tool modifies none, absent when the plugin found no such helper;
* ``agent``: the definition of the thread's agent (``ctx.thread.agent()``): ``kind``,
  ``model`` (``provider/model``, a custom agent's only: a built-in ``mode`` ``smart``,
  ``deep`` or ``rush`` names no model), ``mode``, ``reasoningEffort``; null when not known;
* ``cwd``: the plugin process's working directory.

The call writes when the helper names files (its paths, and only they, are the ones
recorded); without the helper, when the tool is one of :data:`WRITE_TOOLS` (paths from its
input). A call whose
status is not ``done`` wrote nothing of the writer's: it records nothing. The model is the
thread's own agent's, never a parent thread's; ``reasoningEffort`` ``none`` is our ``off``,
and a level that is not ours (``max``) is unknown. What a call replaced (``edit_file``'s
``old_str``/``new_str``, at every occurrence under ``replace_all``; the hunks of an
``apply_patch`` envelope that updates one file) measures the write from the file just
before it (:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`).
"""

from __future__ import annotations

from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    RuntimeEvent,
    edit_replacements,
    map_effort,
    tool_call,
    writes_file,
)
from gentle_hooks.agents.patch import envelope_replacements
from gentle_hooks.agents.payload import hook_input, member, text
from gentle_hooks.values.frozen import replace

NAME = "amp"
#: File-writing tools by name, used only when the plugin found no ``filesModifiedByToolCall``
#: helper: ``edit_file`` and ``create_file`` (NishantJoshi00/sidekick's Amp plugin page),
#: ``Write`` and ``Edit`` (git-ai-project/git-ai ``src/commands/checkpoint_agent/bash_tool.rs``,
#: ``Agent::Amp``), ``apply_patch`` (the helper's own description).
WRITE_TOOLS = ("edit_file", "create_file", "apply_patch", "Write", "Edit")
#: ``AgentReasoningEffort`` (``none minimal low medium high xhigh max``) in our levels.
EFFORTS: dict[str, str] = {**OUR_EFFORTS, "none": "off"}
#: At most this many ``files`` entries are read.
_MAX_FILES = 1000


def decode(data: bytes) -> RuntimeEvent:
    """Decode the plugin's JSON object.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    call = tool_call(event, "tool", "input", "threadID", hook="hook")
    if "files" in event:
        files = event["files"]
        named = [
            p
            for p in map(text, files[:_MAX_FILES] if isinstance(files, list) else [])
            if p is not None and "\0" not in p
        ]
        writes = isinstance(files, list) and bool(files)
        lost = None if named else "files names no path that can be read"
        call = replace(call, paths=named, unreadable=lost)
    else:
        writes = writes_file(call.tool, call.args, WRITE_TOOLS)
    status = text(event.get("status"))
    # CreateAgentConfig.model is "provider/model": the model is what follows the provider
    model = text(member(event, "agent", "model"))
    model = text(model.split("/", 1)[-1]) if model else None
    effort = text(member(event, "agent", "reasoningEffort"))
    out = call.runtime_event(
        NAME,
        tool_call_id=call.own_id(NAME, "toolUseID", call.session),
        writes=call.hook in ("tool.result", None) and writes,
        model=model,
        effort=map_effort(effort, EFFORTS) if effort else None,
        failed=f"failed (status is {status})" if status and status != "done" else None,
    )
    pairs, every = edit_replacements(call.args, "old_str", "new_str")
    if not pairs:
        pairs, every = envelope_replacements(call.args), frozenset()
    return replace(out, replacements=pairs, replace_all=every)
