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
tools/definitions.ts``). Only a call the input shows succeeded records (:func:`failure`).

The input names no tool call: the replay id is derived from the task, the timestamp, the
tool and its parameters. The model is ``model.slug`` (its ``unknown`` names none). Cline
hands its hooks no effort: it is unknown unless ``GENTLE_WRITER_EFFORT`` says.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.cursor import workspace_for
from gentle_hooks.agents.event import (
    RuntimeEvent,
    derived_call_id,
    tool_call,
)
from gentle_hooks.agents.payload import hook_input, member, model_name, object_member, text
from gentle_hooks.values.frozen import replace

NAME = "cline"
#: The hook file ``install --agent cline`` writes: Cline runs it after every tool call.
EVENT = "PostToolUse"
#: Cline's file-writing tools.
WRITE_TOOLS = ("write_to_file", "replace_in_file", "new_rule", "apply_patch", "editor")
#: How Cline's result text opens when the call wrote nothing although ``success`` is true
#: (``apps/vscode/src/core/prompts/responses.ts``: ``toolDenied``, ``toolDeniedWithFeedback``,
#: ``toolError``): ToolExecutor hands such a result on as a normal completion.
DENIED = "The user denied this operation"
FAILED = "The tool execution failed"


def failure(post: dict[str, object]) -> str | None:
    """Why Cline's ``postToolUse`` does not show that the call succeeded, or None when it does.

    Cline serialises its input with ts-proto's ``HookInput.toJSON``, which leaves out a
    field holding its default (``apps/vscode/src/core/hooks/hook-factory.ts``): a thrown
    failure's ``success: false`` arrives as no ``success`` at all, so only ``success: true``
    is a success. A denial or a failed edit (a SEARCH block that matches nothing) returns
    normally with ``success: true`` and says so in ``result`` (:data:`DENIED`,
    :data:`FAILED`); neither wrote anything.
    """
    success = post.get("success")
    if success is False:
        return "failed (postToolUse.success is false)"
    if "success" not in post:
        return "failed (postToolUse.success absent: Cline leaves a false one out)"
    if success is not True:
        return "failed (postToolUse.success is not true)"
    result = post.get("result")
    opening = result.lstrip() if isinstance(result, str) else ""
    if opening.startswith(DENIED):
        return "was denied (postToolUse.result: the user denied this operation)"
    if opening.startswith(FAILED) or ("SEARCH block" in opening and "does not match" in opening):
        return "failed (postToolUse.result: the tool execution failed)"
    return None


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
        writes=call.writes_on((EVENT,), WRITE_TOOLS),
        model=model_name(member(event, "model", "slug")),
        effort=None,
        failed=failure(post),
    )
