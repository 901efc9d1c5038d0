"""GitHub Copilot's ``postToolUse`` hook input, decoded (Copilot CLI and Copilot cloud agent;
SPEC §7 "Hooks"; docs/agents/copilot.md).

Room ``agents`` (standard library only). Copilot runs the hook after each tool completes and
hands it one JSON object (github/docs ``content/copilot/reference/hooks-reference.md``,
"postToolUse / PostToolUse"). Two shapes, chosen by how the event is named in the
configuration, and VS Code's:

* camelCase ``postToolUse`` (what ``install --agent copilot`` writes): ``sessionId``,
  ``timestamp`` (Unix milliseconds), ``cwd``, ``toolName``, ``toolArgs`` (the tool's
  arguments; older documentation shows them as a JSON string, both are read) and
  ``toolResult``;
* the VS Code compatible ``PostToolUse``: ``hook_event_name``, ``session_id``, ``timestamp``,
  ``cwd``, ``tool_name``, ``tool_input``, ``tool_result``;
* VS Code's agent hooks (code.visualstudio.com/docs/copilot/customization/hooks; the
  common fields as microsoft/vscode issue #301152 lists them): ``hookEventName``,
  ``sessionId``, ``timestamp``, ``cwd``, ``transcript_path``, then ``tool_name``,
  ``tool_input``, ``tool_use_id`` and ``tool_response``.

Copilot also runs the hooks of a repository's ``.claude/settings.json`` ("Hooks
locations"): such an input reaches ``record --from claude-code`` and is handed here
(:func:`gentle_hooks.agents.claude_code.guest`). The same tool call then arrives twice when
both recorders are installed, once per shape; its derived id is built from what both shapes
carry alike (the session, the timestamp as Unix milliseconds, the tool under its Claude
name, the parsed arguments), so it records once.

The event fires for every tool; only the file-writing ones record (``edit``, ``create``,
``str_replace_editor`` under a writing ``command``, never its ``view``:
:data:`gentle_hooks.agents.event.SUBCOMMANDS`; ``apply_patch``, ``write``; their path is
``path``, ``file_path`` or ``filePath``, or an ``apply_patch`` envelope's headers). The input
names no tool call (VS Code's ``tool_use_id`` is used when present), no model and no
effort: the replay id is derived from the session, the timestamp, the tool and its
arguments. The model and effort come from Copilot CLI's settings files
(:func:`settings_writer`): ``model`` and ``effortLevel`` of ``~/.copilot/settings.json``
(``$COPILOT_HOME/settings.json``), overridden by ``.github/copilot/settings.json``, overridden
by ``.github/copilot/settings.local.json`` of the work tree (github/docs
``content/copilot/reference/copilot-cli-reference/cli-config-dir-reference.md``,
"Configuration file settings"); ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT`` and the
flags win over them.

``subagentStart`` and ``subagentStop`` inputs (also wired) decode as the subagent's start
and stop (:func:`subagent_lifecycle`; :attr:`gentle_hooks.agents.event.RuntimeEvent.lifecycle`),
the subagent named by ``agentName``; they name no model.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from datetime import datetime, timezone

from gentle_hooks.agents.event import (
    SUBAGENT_START,
    SUBAGENT_STOP,
    RuntimeEvent,
    call_id,
    derived_call_id,
    subagent_event,
    tool_call,
    writes_file,
)
from gentle_hooks.agents.payload import hook_input, loads_text, read_file, text
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import replace

NAME = "copilot"
#: Copilot's file-writing tools (runtime names; Claude-style aliases for the PascalCase
#: shape).
WRITE_TOOLS = ("edit", "create", "str_replace_editor", "apply_patch", "write", "Edit", "Write")
#: Copilot's runtime tools under the Claude tool names its Claude-format hooks may report
#: (github/docs ``content/copilot/reference/hooks-reference.md``, "Claude-format
#: matchers"): a replay id is derived from these, so one tool call reported under either
#: name by Copilot's two hook files records once.
CLAUDE_NAMES = {
    "create": "Write",
    "edit": "Edit",
    "str_replace_editor": "Edit",
    "apply_patch": "Edit",
}


def arguments(value: object) -> object:
    """The tool's arguments: a JSON string is parsed, anything else returned as is."""
    if isinstance(value, str):
        try:
            return loads_text(value, "toolArgs")
        except UsageError:
            return value  # an apply_patch envelope given as the bare argument
    return value


def decode(data: bytes) -> RuntimeEvent:
    """Decode Copilot's hook input (either shape, and VS Code's).

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    lifecycle = subagent_lifecycle(event)
    if lifecycle is not None:
        return subagent_event(
            NAME,
            lifecycle,
            text(event.get("sessionId")) or text(event.get("session_id")),
            text(event.get("agentName")) or text(event.get("agent_name")),
            text(event.get("cwd")),
            text(event.get("hook_event_name")) or text(event.get("hookEventName")),
        )
    pascal = "tool_name" in event or "hook_event_name" in event or "hookEventName" in event
    if pascal:
        call = tool_call(event, "tool_name", "tool_input", "session_id", arguments)
    else:
        call = tool_call(event, "toolName", "toolArgs", "sessionId", arguments)
    session = call.session or text(event.get("sessionId"))
    done = call.runtime_event(
        NAME,
        tool_call_id=call_id(NAME, event.get("tool_use_id"), session)
        or derived_call_id(
            NAME,
            session,
            instant(event.get("timestamp")),
            CLAUDE_NAMES.get(call.tool or "", call.tool),
            arguments(call.args),
        ),
        writes=writes_file(call.tool, arguments(call.args), WRITE_TOOLS),
        model=None,
        effort=None,
    )
    return replace(
        done,
        session_id=session,
        hook_event=done.hook_event or text(event.get("hookEventName")),
    )


#: The subagent events ``install --agent copilot`` wires besides ``postToolUse``.
SUBAGENT_EVENTS = ("subagentStart", "subagentStop")
#: Fields only a ``subagentStop`` input carries (``subagentStart`` has ``agentName`` and
#: ``agentDisplayName``/``agentDescription``, no id, no response).
_STOP_FIELDS = ("agentId", "agentType", "response", "stopReason", "agent_id", "stop_reason")


def subagent_lifecycle(event: dict[str, object]) -> str | None:
    """Whether ``event`` is a subagent's start or stop input, and which.

    The VS Code compatible shape names itself (``hook_event_name``/``hookEventName``
    ``SubagentStart``/``SubagentStop``); the camelCase shape names no event, so it is told
    by its fields (github/docs ``content/copilot/reference/hooks-reference.md`` @ 05da5bc3,
    "subagentStart", "subagentStop / SubagentStop"): ``agentName`` and no ``toolName``
    is a subagent event, a stop when it carries one of the stop's own fields.
    """
    named = text(event.get("hook_event_name")) or text(event.get("hookEventName"))
    if named is not None:
        lowered = named.strip().lower()
        if lowered == "subagentstart":
            return SUBAGENT_START
        return SUBAGENT_STOP if lowered == "subagentstop" else None
    if "toolName" in event or "tool_name" in event or "agentName" not in event:
        return None
    return SUBAGENT_STOP if any(k in event for k in _STOP_FIELDS) else SUBAGENT_START


def instant(value: object) -> object:
    """A hook input's ``timestamp`` as Unix milliseconds: the camelCase shape's number, or
    the VS Code compatible shape's ISO 8601 text (the same moment in both shapes gives the
    same number); anything else is returned as it is — a number that is no moment
    (``NaN``, an infinity: ``1e400`` parses as one) too, as an unknown time: it never
    stops the write from being recorded."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return value
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
            return round(moment.timestamp() * 1000)
        except (ValueError, OverflowError):  # no such date, or none a timestamp reaches
            return value
    return value


#: Copilot's effort levels (``effortLevel``): ours already, every one.
EFFORTS = ("low", "medium", "high", "xhigh")


def settings_files(root: str | None, env: Mapping[str, str]) -> list[str]:
    """Copilot CLI's settings files in increasing precedence: the user's, then the
    repository's and the local one of the work tree ``root``."""
    home = env.get("COPILOT_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".copilot"
    )
    out = [os.path.join(home, "settings.json")]
    if root is not None:
        out += [
            os.path.join(root, ".github", "copilot", "settings.json"),
            os.path.join(root, ".github", "copilot", "settings.local.json"),
        ]
    return out


def settings_writer(root: str | None, env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(model, effort) as Copilot CLI's settings files set them, the later file winning per
    key; None where no file sets one. ``model: "auto"`` (the server picks the model) is
    no model; an ``effortLevel`` that is not one of Copilot's levels is ``unknown``. A file
    that cannot be read or parsed (JSON with comments) is passed over, as Copilot ignores
    its invalid values."""
    from gentle_hooks.agents import jsonedit

    model = effort = None
    for path in settings_files(root, env):
        data = read_file(path)
        try:
            doc = jsonedit.parse(data.decode("utf-8"), comments=True).value if data else None
        except (UnicodeDecodeError, jsonedit.JsonTextError):
            continue
        if not isinstance(doc, dict):
            continue
        m, e = text(doc.get("model")), text(doc.get("effortLevel"))
        if m is not None:
            model = None if m.strip().lower() == "auto" else m.strip()
        if e is not None:
            effort = e.strip().lower() if e.strip().lower() in EFFORTS else "unknown"
    return model, effort
