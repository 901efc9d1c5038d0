"""OpenAI Codex CLI's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks";
docs/agents/codex.md).

Room ``agents`` (standard library only). Codex runs the hook after the tool and hands it one
JSON object (openai/codex ``codex-rs/hooks/schema/generated/``
``post-tool-use.command.input.schema.json``): ``session_id``, ``turn_id``,
``transcript_path`` (string or null), ``cwd``, ``hook_event_name``, ``model`` (the active
model slug), ``permission_mode``, ``tool_name``, ``tool_input``, ``tool_response`` and
``tool_use_id``. Its file-writing tool is
``apply_patch``, whose ``tool_input.command`` is the raw patch envelope (the paths are its
file headers, :mod:`gentle_hooks.agents.patch`); a ``patch`` or ``input`` member is read too.

The effort is not in the input: it is the ``effort`` of the newest ``turn_context`` line of
the session's rollout transcript (openai/codex ``codex-rs/protocol``, ``TurnContextItem``),
which also names the turn's model when the input lacks one.

Inside a thread-spawned subagent the input also carries ``agent_id`` (the child thread id)
and ``agent_type`` (openai/codex pull request #22882, "Add subagent identity to hook
inputs"): see :func:`decode` for whose model and effort are recorded then.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping

from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    UNKNOWN,
    RuntimeEvent,
    map_effort,
    snake_tool_call,
)
from gentle_hooks.agents.payload import (
    json_lines,
    line_blocks_backwards,
    member,
    read_file,
    text,
)

NAME = "codex"
#: Codex's file-writing tool (hooks may also see it as ``Edit``/``Write``, its matcher aliases).
WRITE_TOOLS = ("apply_patch", "Edit", "Write")
#: Codex's reasoning efforts (``none minimal low medium high xhigh``); ``none`` is reasoning
#: off.
EFFORTS: dict[str, str] = {**OUR_EFFORTS, "none": "off"}

#: The user configuration file where Codex keeps the trust of each non-managed hook
#: (relative to the home directory; ``CODEX_HOME`` replaces ``.codex``). Codex skips a hook
#: until the user trusts "the exact definition" in ``/hooks``, and records that trust "by the
#: hook's current hash" (developers.openai.com/codex/hooks, "Review and trust hooks") as a
#: ``[hooks.state."<key>"]`` table with ``trusted_hash = "sha256:..."`` (and ``enabled``,
#: false when switched off in ``/hooks``); it ignores a project layer's copy.
TRUST_FILE = ".codex/config.toml"


def trust_key(path: str, event: str, group: int, handler: int) -> str:
    """The ``[hooks.state]`` key of the ``handler``-th hook of the ``group``-th group of
    ``event`` in the hooks file at ``path`` (absolute): ``<path>:post_tool_use:0:0``."""
    snake = "".join("_" + c.lower() if c.isupper() else c for c in event).lstrip("_")
    return f"{path}:{snake}:{group}:{handler}"


def trust(config: Mapping[str, object] | None, keys: Iterable[str]) -> str:
    """What Codex's ``[hooks.state]`` of the user's ``config`` says of the hook under any of
    ``keys``: ``disabled`` (``enabled = false``), ``trusted`` (a ``trusted_hash`` is
    recorded; whether it is the current definition's hash is Codex's to compute, and a
    changed hook is asked about again), else ``untrusted``."""
    hooks = config.get("hooks") if config else None
    state = hooks.get("state") if isinstance(hooks, dict) else None
    found = [state.get(k) for k in keys] if isinstance(state, dict) else []
    entries = [e for e in found if isinstance(e, dict)]
    if any(e.get("enabled") is False for e in entries):
        return "disabled"
    if any(isinstance(e.get("trusted_hash"), str) for e in entries):
        return "trusted"
    return "untrusted"


def turn_context(path: str | None) -> tuple[str | None, str | None]:
    """(model, effort) of the newest ``turn_context`` line of a Codex rollout: read from its
    end in blocks, further back until one holds a ``turn_context`` line (a long turn writes
    many lines after it), at most :data:`gentle_hooks.agents.payload.SCAN_LIMIT` bytes in
    all; (None, None) when none is found within that bound or the file is unreadable."""
    if not path:
        return None, None
    with contextlib.closing(line_blocks_backwards(path)) as blocks:
        for block in blocks:
            for record in reversed(json_lines(block)):
                if record.get("type") == "turn_context":
                    payload = record.get("payload")
                    return text(member(payload, "model")), text(member(payload, "effort"))
    return None, None


#: How much of a rollout's head is read for its ``session_meta`` line (the first one).
META_LIMIT = 1024 * 1024


def rollout_thread(path: str | None) -> str | None:
    """The thread a Codex rollout records: the ``payload.id`` of its ``session_meta`` line
    (the first of the file); None when unreadable or absent."""
    data = read_file(path, limit=META_LIMIT) if path else None
    for record in json_lines(data or b""):
        if record.get("type") == "session_meta":
            return text(member(record, "payload", "id"))
    return None


def decode(data: bytes) -> RuntimeEvent:
    """Decode Codex's hook input.

    Inside a thread-spawned subagent the input names it (``agent_id``, the child thread id):
    the model and effort are then the child's own, read from the rollout the input names
    only when that rollout records the child's thread; otherwise both are unknown (the
    input's ``model`` and the parent's rollout may be the session's, inherited: seed 000).

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    event = call.event
    transcript = text(event.get("transcript_path"))
    ctx_model, ctx_effort = turn_context(transcript)
    model, effort = text(event.get("model")) or ctx_model, map_effort(ctx_effort, EFFORTS)
    agent = text(event.get("agent_id"))
    if agent is not None and rollout_thread(transcript) != agent:
        model, effort = None, UNKNOWN
    elif agent is not None:
        model = ctx_model or model
    return call.snake_event(NAME, "turn_id", WRITE_TOOLS, model=model, effort=effort, agent=agent)
