"""Factory Droid's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/droid.md).

Room ``agents`` (standard library only). Droid's hooks follow Claude Code's: the same
event map in ``.factory/hooks.json`` (project) or ``~/.factory/hooks.json`` (user), else
under ``hooks`` in the ``settings.json`` beside it, and the same input on standard input
(docs.factory.ai/reference/hooks-reference, "Hook input"): ``session_id``,
``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``, ``tool_name``,
``tool_input`` (``file_path``; an ``ApplyPatch`` envelope as text or under ``patch``),
``tool_response`` and ``tool_use_id``. git-ai-project/git-ai reads
the same fields (``src/commands/checkpoint_agent/presets/droid.rs`` @
a332195287dd01947eed30c2a52e191781c5e2ea).

The model is not in the input: it is the ``model`` of the session's settings file, the
transcript path with ``.jsonl`` replaced by ``.settings.json`` (where git-ai reads it);
unknown when that file cannot be read. Droid hands its hooks no effort: it is unknown unless
``GENTLE_WRITER_EFFORT`` says. A ``tool_response`` that says the call failed (``success:
false``, ``is_error``, as Claude Code's) records nothing. An input without ``tool_use_id``
gets an id derived from the session, the tool and its input, so a replay records once.
What an ``Edit`` or ``MultiEdit`` call replaced (Claude Code's ``old_string``/``new_string``,
``replace_all`` and ``edits``; ``old_str``/``new_str`` read too), or the hunks of an
``ApplyPatch`` envelope in each file it updates, measures the write from the file just
before it (:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`, ``patched``).

Subagents (custom droids, and the built-in ``worker`` and ``explorer``) run through the
``Task`` tool, named by its ``subagent_type`` (docs.factory.ai/cli/configuration/custom-droids;
docs.factory.ai/harness/subagents). The write inputs carry no subagent marker, so the run is
bracketed: ``PreToolUse`` of ``Task`` is a subagent's start, with the model its definition
declares (``.factory/droids/<name>.md`` of the project, else ``~/.factory/droids/``; project
definitions win; ``inherit``, none, or a built-in: unknown), and ``SubagentStop`` ("when a
subagent (Task tool call) has finished", docs.factory.ai/reference/hooks-reference) its stop
(:mod:`gentle_hooks.services.agent_subagents` keeps the marker between them).
"""

from __future__ import annotations

import os

from gentle_hooks.agents.definitions import declared, own_model, project_dirs
from gentle_hooks.agents.event import (
    SUBAGENT_START,
    SUBAGENT_STOP,
    RuntimeEvent,
    edit_replacements,
    result_failure,
    snake_tool_call,
    subagent_event,
)
from gentle_hooks.agents.patch import envelope_files, envelope_replacements
from gentle_hooks.agents.payload import load_object, member, read_file, text
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import replace

NAME = "droid"
#: Droid's file-writing tools (the matcher ``install --agent droid`` writes).
WRITE_TOOLS = ("Create", "Edit", "MultiEdit", "Write", "ApplyPatch")
#: The tool that runs a subagent.
TASK = "Task"
#: The events that bracket a subagent's run, with the matcher ours goes under.
SUBAGENT_EVENTS: tuple[tuple[str, str | None], ...] = (("PreToolUse", TASK), ("SubagentStop", None))


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


def droid_model(name: str | None, cwd: str | None) -> str | None:
    """The model the definition of custom droid ``name`` declares as its own: the project's
    ``.factory/droids/<name>.md`` (under ``cwd`` or a directory above it up to the
    repository's top: :func:`gentle_hooks.agents.definitions.project_dirs`) first, else the
    user's; None when none
    declares one, it inherits, or no file defines it (a built-in droid)."""
    if not name or "/" in name or name.startswith("."):
        return None
    home = os.environ.get("HOME") or os.path.expanduser("~")
    for base in [*project_dirs(cwd), home]:
        path = os.path.join(base, ".factory", "droids", name + ".md")
        if os.path.isfile(path):
            return own_model(declared(path)[1])
    return None


def decode(data: bytes) -> RuntimeEvent:
    """Decode Droid's hook input (a tool's, or a subagent's start or stop).

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    hook, cwd = call.hook, call.cwd
    if hook == "SubagentStop" or (hook == "PreToolUse" and call.tool == TASK):
        start = hook == "PreToolUse"
        name = text(member(call.args, "subagent_type")) if start else None
        lifecycle = SUBAGENT_START if start else SUBAGENT_STOP
        ev = subagent_event(NAME, lifecycle, call.session, name, cwd, hook)
        return replace(ev, model=droid_model(name, cwd)) if start else ev
    out = call.snake_event(
        NAME,
        "timestamp",
        WRITE_TOOLS,
        model=model_from_settings(settings_path(text(call.event.get("transcript_path")))),
        effort=None,
        failed=result_failure(call.event.get("tool_response"), "tool_response"),
    )
    pairs, every = edit_replacements(call.args)
    if not pairs:
        pairs, every = edit_replacements(call.args, "old_str", "new_str")
    if not pairs:
        pairs, every = envelope_replacements(call.args), frozenset()
    patched = () if pairs else envelope_files(call.args)  # several files: each its own
    return replace(out, replacements=pairs, replace_all=every, patched=patched)
