"""Factory Droid's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/droid.md).

Room ``agents`` (standard library only). Droid's hooks follow Claude Code's: the same
``hooks`` block in ``.factory/settings.json`` (project) or ``~/.factory/settings.json``
(user), and the same input on standard input (docs.factory.ai/reference/hooks-reference,
"Hook input"): ``session_id``, ``transcript_path``, ``cwd``, ``permission_mode``,
``hook_event_name``, ``tool_name``, ``tool_input`` (``file_path``; an ``ApplyPatch`` envelope
as text or under ``patch``), ``tool_response`` and ``tool_use_id``. git-ai-project/git-ai reads
the same fields (``src/commands/checkpoint_agent/presets/droid.rs`` @
a332195287dd01947eed30c2a52e191781c5e2ea).

The model is not in the input: it is the ``model`` of the session's settings file, the
transcript path with ``.jsonl`` replaced by ``.settings.json`` (where git-ai reads it);
unknown when that file cannot be read. Droid hands its hooks no effort: it is unknown unless
``GENTLE_WRITER_EFFORT`` says. An input without ``tool_use_id`` gets an id derived from the
session, the tool and its input, so a replay records once.
"""

from __future__ import annotations

from gentle_hooks.agents.event import (
    RuntimeEvent,
    call_id,
    derived_call_id,
    snake_tool_call,
    writes_file,
)
from gentle_hooks.agents.payload import load_object, member, read_file, text
from gentle_hooks.errors import UsageError

NAME = "droid"
#: Droid's file-writing tools (the matcher ``install --agent droid`` writes).
WRITE_TOOLS = ("Create", "Edit", "MultiEdit", "Write", "ApplyPatch")


def settings_path(transcript: str | None) -> str | None:
    """The session's settings file beside its transcript (``X.jsonl`` -> ``X.settings.json``)."""
    if not transcript or not transcript.endswith(".jsonl"):
        return None
    return transcript[: -len(".jsonl")] + ".settings.json"


def model_from_settings(path: str | None) -> str | None:
    """The ``model`` of a Droid session settings file; None when unreadable or absent."""
    data = read_file(path) if path else None
    if data is None:
        return None
    try:
        return text(member(load_object(data, "settings"), "model"))
    except UsageError:
        return None


def decode(data: bytes) -> RuntimeEvent:
    """Decode Droid's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    event = call.event
    return call.runtime_event(
        NAME,
        tool_call_id=call_id(NAME, event.get("tool_use_id"), event.get("session_id"))
        or derived_call_id(NAME, call.session, event.get("timestamp"), call.tool, call.args),
        writes=writes_file(call.tool, call.args, WRITE_TOOLS),
        model=model_from_settings(settings_path(text(event.get("transcript_path")))),
        effort=None,
    )
