"""Cline's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/cline.md).

Room ``agents`` (standard library only). Cline runs the executable file named
``PostToolUse`` of ``.clinerules/hooks/`` (project) or ``~/Documents/Cline/Hooks/`` (global)
after each tool call and hands it one JSON object on standard input
(docs.cline.bot/features/hooks/hook-reference, "PostToolUse", as cline/cline
``docs/features/hooks/hook-reference.mdx`` @ 2048a075 holds it): ``clineVersion``,
``hookName``, ``timestamp``, ``taskId``, ``workspaceRoots``, ``userId`` and ``postToolUse``
with ``toolName``, ``parameters`` (each value text), ``result``, ``success`` and
``executionTimeMs``. Cline's ``HookInput`` message (``apps/vscode/proto/cline/hooks.proto``
@ 21cb8d2525bcedf1f4b6890b27a74a14fe7451e4) adds ``model`` with ``provider`` and ``slug``,
``unknown`` when Cline does not pass it on.

File-writing tools: ``write_to_file``, ``replace_in_file`` and ``new_rule`` (``path``),
``apply_patch`` (an envelope under ``input``) in the extension (``apps/vscode/src/shared/
tools.ts``), and the SDK runtime's ``editor`` (``path``; ``sdk/packages/core/src/extensions/
tools/definitions.ts``). A failed call (``success: false``) wrote nothing.

The input names no tool call: the replay id is derived from the task, the timestamp, the
tool and its parameters. The model is ``model.slug`` (its ``unknown`` names none). Cline
hands its hooks no effort: it is unknown unless ``GENTLE_WRITER_EFFORT`` says.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.cursor import workspace_for
from gentle_hooks.agents.event import RuntimeEvent, derived_call_id, tool_call, writes_file
from gentle_hooks.agents.payload import hook_input, member, model_name, object_member, text
from gentle_hooks.values.frozen import replace

NAME = "cline"
#: The hook file ``install --agent cline`` writes: Cline runs it after every tool call.
EVENT = "PostToolUse"
#: Cline's file-writing tools.
WRITE_TOOLS = ("write_to_file", "replace_in_file", "new_rule", "apply_patch", "editor")


def decode(data: bytes) -> RuntimeEvent:
    """Decode Cline's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    post = object_member(event, "postToolUse")
    call = tool_call(
        event,
        "toolName",
        "parameters",
        "taskId",
        hook="hookName",
        within=post,
        label="postToolUse.parameters",
    )
    raw_roots = event.get("workspaceRoots")
    roots = [r for r in raw_roots if text(r)] if isinstance(raw_roots, list) else []
    first = call.paths[0] if call.paths and os.path.isabs(call.paths[0]) else None
    call = replace(call, cwd=workspace_for(first, roots))
    return call.runtime_event(
        NAME,
        tool_call_id=derived_call_id(
            NAME, call.session, event.get("timestamp"), call.tool, call.args
        ),
        writes=call.hook in (EVENT, None)
        and post.get("success") is not False
        and writes_file(call.tool, call.args, WRITE_TOOLS),
        model=model_name(member(event, "model", "slug")),
        effort=None,
    )
