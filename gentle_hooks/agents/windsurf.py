"""Windsurf Cascade's ``post_write_code`` hook input, decoded (SPEC §7 "Hooks";
docs/agents/windsurf.md).

Room ``agents`` (standard library only). Cascade runs the hook after it wrote code and hands
it one JSON object on standard input (docs.windsurf.com/windsurf/cascade/hooks, "Common input
structure" and ``post_write_code``): ``agent_action_name`` (the event), ``trajectory_id`` (the
conversation), ``execution_id`` (the agent turn), ``timestamp``, and ``tool_info`` with
``file_path`` (absolute) and ``edits`` (``old_string``/``new_string`` pairs). Newer versions
add ``model_name`` at the top level and ``cwd`` in ``tool_info`` or at the top level, the
fields git-ai-project/git-ai reads (``src/commands/checkpoint_agent/presets/windsurf.rs`` @
4faf11e1a022ba150963d366eaebe57ef74691a8).

The input names no tool call: the replay id is derived from the trajectory, the execution,
the file and its edits. The ``edits`` name what the call changed
(:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`): undone on the file, they
give the file it started from. A ``model_name`` of ``Unknown`` (or none) names no model. Cascade
exposes no effort: it is unknown unless ``GENTLE_WRITER_EFFORT`` says.
"""

from __future__ import annotations

from gentle_hooks.agents.event import RuntimeEvent, derived_call_id, replacement_pairs, unique
from gentle_hooks.agents.patch import PATH_KEYS, written_paths
from gentle_hooks.agents.payload import hook_input, model_name, object_member, text

NAME = "windsurf"
#: The event ``install --agent windsurf`` wires: every call of it is a file write.
EVENT = "post_write_code"


def decode(data: bytes) -> RuntimeEvent:
    """Decode Cascade's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    info = object_member(event, "tool_info")
    found, unreadable = written_paths(
        {k: info[k] for k in PATH_KEYS if k in info}, "the input's tool_info"
    )
    trajectory = text(event.get("trajectory_id"))
    action = text(event.get("agent_action_name"))
    return RuntimeEvent(
        source=NAME,
        session_id=trajectory,
        tool_call_id=derived_call_id(
            NAME,
            trajectory,
            event.get("execution_id"),
            event.get("timestamp"),
            found[0] if found else None,
            info.get("edits"),
        ),
        cwd=text(info.get("cwd")) or text(event.get("cwd")),
        paths=unique(found),
        writes=action in (EVENT, None),
        tool=action,
        model=model_name(event.get("model_name")),
        effort=None,
        hook_event=action,
        unreadable=unreadable,
        replacements=replacement_pairs(info.get("edits"), "old_string", "new_string"),
    )
