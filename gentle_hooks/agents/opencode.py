"""OpenCode's tool calls, as our plugin hands them to ``record --from opencode``, decoded
(SPEC §7 "Hooks"; docs/agents/opencode.md).

Room ``agents`` (standard library only). OpenCode has no hook file: it loads plugin modules
(opencode.ai/docs/plugins). The plugin ``install --agent opencode`` writes
(:func:`gentle_hooks.agents.ownfile.opencode_plugin`) hands each call of OpenCode's
``tool.execute.after`` hook to the recorder as one JSON object on standard input, built from
the documented hook arguments (``@opencode-ai/plugin`` ``Hooks``, anomalyco/opencode
``packages/plugin/src/index.ts`` @ 0149423929ff586f412ecb4a09573c2e06627222):

* ``tool``, ``sessionID``, ``callID`` of ``tool.execute.after``; ``args``: the call's
  arguments (``tool.execute.before``'s ``output.args``; newer versions also pass them to
  ``tool.execute.after``);
* ``model``: the session's last ``chat.message`` input ``model`` (``providerID``,
  ``modelID``) or ``chat.params`` input ``model.id``, and ``reasoningEffort`` from
  ``chat.params``'s provider ``options`` when the provider sets one; null when the plugin
  saw neither for that session (a subagent runs in its own session, so its calls carry its
  own model or none, never the parent's);
* ``parentID``: the parent of the call's session, from the ``session.created`` and
  ``session.updated`` events (``event`` hook; the SDK's ``Session.parentID``), and ``agent``:
  the session's agent as ``chat.params`` named it. The ``task`` tool runs a subagent in a
  child session (``Session.create({ parentID: ctx.sessionID, ... })``, anomalyco/opencode
  ``packages/opencode/src/tool/task.ts``): a call whose session has a parent is the
  subagent's, recorded under the shared subagent rule
  (:func:`gentle_hooks.services.agent_record.record_from_runtime`): its session's own model
  or unknown, never the hook entry's ``GENTLE_WRITER_*`` or flags;
* ``directory``, ``worktree``: the plugin context's.

File-writing tools: ``write``, ``edit``, ``multiedit`` (``filePath``) and ``apply_patch``
(an envelope under ``patchText``), and the older ``patch``. The call id is OpenCode's
``callID``. A ``reasoningEffort`` that is not one of our levels is unknown. What a call
replaced (``edit``'s ``oldString``/``newString``, at every occurrence under ``replaceAll``;
``multiedit``'s ``edits`` of them; the hunks of an envelope, in each file it updates)
measures the write from the file just before it
(:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`, ``patched``).
"""

from __future__ import annotations

from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    RuntimeEvent,
    edit_replacements,
    map_effort,
    tool_call,
)
from gentle_hooks.agents.patch import envelope_files, envelope_replacements, patch_paths
from gentle_hooks.agents.payload import hook_input, member, text
from gentle_hooks.values.frozen import replace

NAME = "opencode"
#: OpenCode's file-writing tools.
WRITE_TOOLS = ("write", "edit", "multiedit", "apply_patch", "patch")
#: ``reasoningEffort`` values, as the AI SDK's providers name them, mapped to our levels.
EFFORTS: dict[str, str] = {**OUR_EFFORTS, "none": "off"}


def decode(data: bytes) -> RuntimeEvent:
    """Decode the plugin's JSON object.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    call = tool_call(event, "tool", "args", "sessionID", cwd="directory", hook="hook")
    body = text(member(call.args, "patchText"))
    if body:
        found = call.paths + [p for p in patch_paths(body) if "\0" not in p]
        call = replace(call, paths=found, unreadable=None if found else call.unreadable)
    call = replace(call, cwd=call.cwd or text(event.get("worktree")))
    effort_name = text(member(event, "model", "reasoningEffort"))
    parent = text(event.get("parentID"))
    pairs, every = edit_replacements(call.args, "oldString", "newString")
    out = call.runtime_event(
        NAME,
        tool_call_id=call.own_id(NAME, "callID", call.session),
        writes=call.writes_on(("tool.execute.after",), WRITE_TOOLS),
        model=text(member(event, "model", "modelID")),
        effort=map_effort(effort_name, EFFORTS) if effort_name else None,
        agent=(text(event.get("agent")) or "subagent") if parent else None,
    )
    if not pairs:
        pairs, every = envelope_replacements(call.args), frozenset()
    patched = () if pairs else envelope_files(call.args)  # several files: each its own
    return replace(out, replacements=pairs, replace_all=every, patched=patched)
