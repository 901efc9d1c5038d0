"""Augment Code's (Auggie CLI) ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks";
docs/agents/augment.md).

Room ``agents`` (standard library only). Auggie reads hooks from ``settings.json`` files
(docs.augmentcode.com/cli/hooks, "Settings File Locations": ``/etc/augment/settings.json``,
``<workspace>/.augment/settings.local.json``, ``<workspace>/.augment/settings.json``,
``~/.augment/settings.json``) in Claude Code's grouped shape ("Structure": ``matcher``, a
regular expression over tool names, and ``hooks`` of ``{"type": "command", "command": ...,
"timeout": <ms>, "metadata": {...}}``) and runs the command with the event as JSON on
standard input.

The input's fields, as git-ai-project/git-ai reads them citing that page
(``src/commands/checkpoint_agent/presets/augment.rs`` @ cb91995b, "v1 (auggie)
protocol"; the page's own input section could not be read here, docs/agents/augment.md says
so): ``hook_event_name``, ``conversation_id`` (the session), ``workspace_roots`` (the first
is the directory relative paths are taken from), ``tool_name``, ``tool_input`` (``path``
for ``save-file`` and ``str-replace-editor``; an ``apply_patch`` envelope under ``input``),
and for ``PostToolUse`` ``tool_output``, ``tool_error`` and ``file_changes`` (objects with a
``path``, read too). ``context.modelName`` is the model, present only when the entry's
``metadata`` sets ``includeUserContext`` (install does not: the key is unchecked). Generation 2
(``auggie-v2``) names its event ``hook_type`` and its file tools ``write``/``edit``, with no
session, no directory and no model: those are unknown then.

No tool call id and no time are in the input: the replay id is derived from the session,
the tool, its input and its output. A ``str_replace`` call's replacements
(``old_str_1``/``new_str_1``...: ``RuntimeEvent.replacements``) tell the same edit made
twice from a replay. A non-empty ``tool_error`` records nothing. No effort: unknown unless
``GENTLE_WRITER_EFFORT`` says.
"""

from __future__ import annotations

from gentle_hooks.agents.event import (
    MOST_REPLACEMENTS,
    RuntimeEvent,
    derived_call_id,
    replacement_pairs,
    tool_call,
    writes_file,
)
from gentle_hooks.agents.patch import written_paths
from gentle_hooks.agents.payload import hook_input, member, text
from gentle_hooks.values.frozen import replace

NAME = "augment"
#: Auggie's file-writing tools (generation 1 kebab-case names, then generation 2's).
WRITE_TOOLS = ("save-file", "str-replace-editor", "apply_patch", "write", "edit")


def _changed(changes: object) -> list[str]:
    """The ``path`` of each ``file_changes`` entry that names one as text."""
    if not isinstance(changes, list):
        return []
    found = [written_paths(c, "file_changes")[0] for c in changes[:1000] if isinstance(c, dict)]
    return [p for paths in found for p in paths]


def decode(data: bytes) -> RuntimeEvent:
    """Decode Auggie's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    hook = "hook_event_name" if "hook_event_name" in event else "hook_type"
    call = tool_call(event, "tool_name", "tool_input", "conversation_id", hook=hook)
    roots = event.get("workspace_roots")
    root = text(roots[0]) if isinstance(roots, list) and roots else None
    changed = _changed(event.get("file_changes"))
    if changed:
        call = replace(call, paths=call.paths + changed, unreadable=None)
    error = event.get("tool_error")
    out = call.runtime_event(
        NAME,
        tool_call_id=derived_call_id(
            NAME, call.session, call.tool, call.args, event.get("tool_output")
        ),
        writes=writes_file(call.tool, call.args, WRITE_TOOLS) or bool(changed),
        model=text(member(event.get("context"), "modelName")),
        effort=None,
        failed="failed (tool_error)" if isinstance(error, str) and error.strip() else None,
    )
    out = replace(out, replacements=_str_replace(call.args))
    return replace(out, cwd=root) if root else out


def _str_replace(args: object) -> tuple[tuple[str, str], ...]:
    """The replacements of a ``str_replace`` command: ``old_str``/``new_str``, or the
    numbered pairs ``old_str_1``/``new_str_1``, ``old_str_2``/``new_str_2``... in order;
    () for another command or a pair that is not two texts."""
    if not isinstance(args, dict) or args.get("command") != "str_replace":
        return ()
    if "old_str" in args:
        return replacement_pairs([args], "old_str", "new_str")
    numbered: list[dict[str, object]] = []
    while f"old_str_{len(numbered) + 1}" in args and len(numbered) <= MOST_REPLACEMENTS:
        n = len(numbered) + 1
        numbered.append({"old": args[f"old_str_{n}"], "new": args.get(f"new_str_{n}")})
    return replacement_pairs(numbered, "old", "new")
