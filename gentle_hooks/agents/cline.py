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
from gentle_hooks.agents.event import RuntimeEvent, derived_call_id, unique, writes_file
from gentle_hooks.agents.patch import written_paths
from gentle_hooks.agents.payload import load_object, member, text

NAME = "cline"
#: The hook file ``install --agent cline`` writes: Cline runs it after every tool call.
EVENT = "PostToolUse"
#: Cline's file-writing tools.
WRITE_TOOLS = ("write_to_file", "replace_in_file", "new_rule", "apply_patch", "editor")
#: Values of ``model.slug`` that name no model.
NO_MODEL = ("unknown",)


def decode(data: bytes) -> RuntimeEvent:
    """Decode Cline's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = load_object(data, f"record --from {NAME}: stdin")
    raw = event.get("postToolUse")
    post: dict[str, object] = raw if isinstance(raw, dict) else {}
    tool = text(post.get("toolName"))
    params = post.get("parameters")
    found, unreadable = written_paths(params, "postToolUse.parameters")
    raw_roots = event.get("workspaceRoots")
    roots = [r for r in raw_roots if text(r)] if isinstance(raw_roots, list) else []
    first = found[0] if found and os.path.isabs(found[0]) else None
    task = text(event.get("taskId"))
    slug = text(member(event, "model", "slug"))
    hook = text(event.get("hookName"))
    return RuntimeEvent(
        source=NAME,
        session_id=task,
        tool_call_id=derived_call_id(NAME, task, event.get("timestamp"), tool, params),
        cwd=workspace_for(first, roots),
        paths=unique(found),
        writes=hook in (EVENT, None)
        and post.get("success") is not False
        and writes_file(tool, params, WRITE_TOOLS),
        tool=tool,
        model=slug if slug and slug.lower() not in NO_MODEL else None,
        effort=None,
        hook_event=hook,
        unreadable=unreadable,
    )
