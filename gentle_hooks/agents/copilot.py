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
* VS Code's agent hooks (microsoft/vscode-docs ``docs/agent-customization/hooks.md`` @
  00a75e33, "Common input fields", "PostToolUse input"): ``hookEventName``, ``sessionId``,
  ``timestamp``, ``cwd``, ``transcript_path``, then ``tool_name`` (``editFiles``,
  ``create_file``, ``replace_string_in_file``...: :data:`VSCODE_TOOLS`), ``tool_input``
  (``files``, ``filePath``), ``tool_use_id`` and ``tool_response``. VS Code loads
  ``.github/hooks/*.json`` (turning ``postToolUse`` into ``PostToolUse``, ``bash`` into its
  Linux and macOS command) and ``.claude/settings.json``: what ``install --agent copilot``
  and ``claude-code`` write. Its input names no model and no effort, and Copilot CLI's
  settings files are not VS Code's: both are ``unknown`` (small) unless
  ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT`` or the flags say.

Copilot also runs the hooks of a repository's ``.claude/settings.json`` ("Hooks
locations"): such an input reaches ``record --from claude-code`` and is handed here
(:func:`gentle_hooks.agents.claude_code.guest`). The same tool call then arrives twice when
both recorders are installed, once per shape; its derived id is built from what both shapes
carry alike (the session, the timestamp as Unix milliseconds, the tool under its Claude
name, the parsed arguments), so it records once.

The event fires for every tool; only the file-writing ones record (``edit``, ``create``,
``str_replace_editor`` under a writing ``command``, never its ``view``:
:data:`gentle_hooks.agents.event.SUBCOMMANDS`; ``apply_patch``, ``write``; their path is
``path``, ``file_path`` or ``filePath``, or an ``apply_patch`` envelope's headers; what it
replaced, when it names that: :func:`edit_pairs`, and each file's hunks of an envelope
that updates several). The input
names no tool call (VS Code's ``tool_use_id`` is used when present), no model and no
effort: the replay id is derived from the session, the timestamp, the tool and its
arguments. The model and effort come from Copilot CLI's settings files
(:func:`settings_writer`): ``model`` and ``effortLevel`` of ``~/.copilot/settings.json``
(``$COPILOT_HOME/settings.json``), overridden by ``.github/copilot/settings.json``, overridden
by ``.github/copilot/settings.local.json`` of the work tree (github/docs
``content/copilot/reference/copilot-cli-reference/cli-config-dir-reference.md``,
"Configuration file settings"); ``GENTLE_WRITER_MODEL``/``GENTLE_WRITER_EFFORT`` and the
flags win over them.

A call that did not succeed wrote nothing and records nothing: Copilot CLI's ``toolResult``
carries ``resultType`` ``success``, ``failure`` or ``denied`` (github/docs
``content/copilot/reference/hooks-configuration.md`` @ 1912b4fc, "Post-tool use hook"),
``tool_result.result_type`` in the VS Code compatible shape (:func:`failure`).

Copilot's ``bash`` tool (and ``powershell``, :data:`SHELL_TOOLS`) names no file it writes
(``sed -i``, a heredoc): ``install --agent copilot`` also wires ``preToolUse``
(:data:`SHELL_SNAPSHOT`; github/docs ``content/copilot/reference/hooks-reference.md`` @
05da5bc3, "preToolUse / PreToolUse": ``sessionId``, ``timestamp``, ``cwd``, ``toolName``,
``toolArgs``, no ``toolResult``), whose input of a shell call keeps the work tree's snapshot
and whose ``postToolUse`` records what changed since
(:mod:`gentle_hooks.services.agent_shell`). The camelCase inputs name no event and no call
id: a pre-tool input is one with no ``toolResult`` (nor ``postToolUseFailure``'s
``error``), and the pair is found by the session, the tool (under its Claude name) and its
arguments (:attr:`gentle_hooks.agents.event.RuntimeEvent.shell_key`). ``preToolUse`` fires
for every tool (it takes no matcher): another tool's pre-tool input records nothing. A
command ``preToolUse`` hook that exits non-zero denies the tool call ("Command
``preToolUse`` hooks are fail-closed on errors"): install writes our command guarded
(:attr:`gentle_hooks.agents.runtimes.Wiring.guarded`) and a snapshot that cannot be kept is
said and lets the call run (``record --from`` exits 0 on a pre-tool input). A failed tool's
``postToolUseFailure`` input (:data:`SHELL_FAILURE`: ``error``, no ``toolResult``) records
a shell call's changes as ``postToolUse`` would, and nothing for another tool
(:func:`failure`). A shell call whose command leaves
a process running (:func:`gentle_hooks.agents.background.is_background`: ``cmd &``,
``nohup``, ``setsid``...) is :attr:`RuntimeEvent.background`. The end of the agent's turn
(:data:`TURN_END` ``agentStop``, :data:`SESSION_END` ``sessionEnd``, both wired; VS Code's
``Stop``; the camelCase inputs name no event and are told by their fields:
:func:`ends_turn`) is :data:`gentle_hooks.agents.event.SHELL_END`: a background call's
window closes there (:mod:`gentle_hooks.services.agent_windows`).

``subagentStart`` and ``subagentStop`` inputs (also wired) decode as the subagent's start
and stop (:func:`subagent_lifecycle`; :attr:`gentle_hooks.agents.event.RuntimeEvent.lifecycle`),
the subagent named by ``agentName`` (VS Code: ``agent_type``); they name no model. A start's
model is the one the custom agent's definition declares as its own (:func:`agent_model`),
else unknown.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from datetime import datetime, timezone

from gentle_hooks.agents.background import is_background
from gentle_hooks.agents.definitions import declared, own_model, project_dirs
from gentle_hooks.agents.event import (
    SHELL_AFTER,
    SHELL_BEFORE,
    SHELL_END,
    SUBAGENT_START,
    SUBAGENT_STOP,
    UNKNOWN,
    RuntimeEvent,
    call_id,
    derived_call_id,
    edit_replacements,
    subagent_event,
    tool_call,
    writes_file,
)
from gentle_hooks.agents.patch import envelope_files, envelope_replacements
from gentle_hooks.agents.payload import hook_input, loads_text, member, read_file, text
from gentle_hooks.agents.shell_dirs import named_dirs
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import replace

NAME = "copilot"
#: VS Code's file-writing agent tools: ``editFiles`` (``tool_input.files``) and ``createFile``
#: as its hooks page names them (microsoft/vscode-docs ``docs/agent-customization/hooks.md``
#: @ 00a75e33, "PostToolUse input", "Auto-format code after edits", and the FAQ's
#: ``create_file``/``replace_string_in_file``), and the built-in tools as
#: microsoft/vscode-copilot-chat ``src/extension/tools/common/toolNames.ts`` names them
#: (``filePath``; ``multi_replace_string_in_file`` under ``replacements[].filePath``).
VSCODE_TOOLS = (
    "editFiles",
    "createFile",
    "create_file",
    "replace_string_in_file",
    "multi_replace_string_in_file",
    "insert_edit_into_file",
    "edit_notebook_file",
)
#: Copilot's file-writing tools (runtime names; Claude-style aliases for the PascalCase
#: shape; VS Code's agent tools).
WRITE_TOOLS = (
    "edit",
    "create",
    "str_replace_editor",
    "apply_patch",
    "write",
    "Edit",
    "Write",
    *VSCODE_TOOLS,
)
#: Copilot's runtime tools under the Claude tool names its Claude-format hooks may report
#: (github/docs ``content/copilot/reference/hooks-reference.md``, "Claude-format
#: matchers"): a replay id is derived from these, so one tool call reported under either
#: name by Copilot's two hook files records once.
CLAUDE_NAMES = {
    "create": "Write",
    "edit": "Edit",
    "str_replace_editor": "Edit",
    "apply_patch": "Edit",
    "bash": "Bash",
    "powershell": "Bash",
}
#: Copilot's shell tools (runtime names; ``Bash`` as the PascalCase shape reports them).
SHELL_TOOLS = ("bash", "powershell", "Bash")
#: The hook event that runs before each tool call: a shell call's input snapshots the work
#: tree (github/docs ``content/copilot/reference/hooks-reference.md`` @ 05da5bc3,
#: "preToolUse / PreToolUse").
SHELL_SNAPSHOT = "preToolUse"
#: The event fired instead of ``postToolUse`` when a tool failed: a shell call's input there
#: records what it changed all the same (same page, "postToolUseFailure /
#: PostToolUseFailure": ``sessionId``, ``timestamp``, ``cwd``, ``toolName``, ``toolArgs``,
#: ``error``).
SHELL_FAILURE = "postToolUseFailure"
#: The event fired when the main agent finishes a turn (same page, "agentStop / Stop":
#: ``sessionId``, ``timestamp``, ``cwd``, ``transcriptPath``, ``stopReason``) and the one
#: fired when the session ends ("sessionEnd / SessionEnd": ``reason``): the session's
#: background windows close at either.
TURN_END = "agentStop"
SESSION_END = "sessionEnd"
#: The events after a tool or a turn that ``install`` wires besides ``postToolUse``.
ENDS = (SHELL_FAILURE, TURN_END, SESSION_END)
#: Event names that end the agent's turn, lower-cased (VS Code's ``Stop``, Copilot CLI's
#: :data:`TURN_END` and :data:`SESSION_END`).
TURN_ENDS = ("stop", "agentstop", "sessionend")
#: Why a shell call records nothing when no snapshot before it was kept
#: (:attr:`gentle_hooks.agents.event.RuntimeEvent.not_written`).
SHELL_NOT_RECORDED = (
    "ran a shell command: its input names no file it changed, and no snapshot of the work "
    "tree from before it was kept (the preToolUse hook takes it and its line says why it "
    "kept none; if it did not run, install the recorder again), so nothing it changed is "
    "recorded from this call"
)


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
        agent = (
            text(event.get("agentName"))
            or text(event.get("agent_name"))
            or text(event.get("agent_type"))
        )
        cwd = text(event.get("cwd"))
        started = subagent_event(
            NAME,
            lifecycle,
            text(event.get("sessionId")) or text(event.get("session_id")),
            agent,
            cwd,
            text(event.get("hook_event_name")) or text(event.get("hookEventName")),
        )
        if lifecycle != SUBAGENT_START:
            return started
        return replace(started, model=agent_model(agent, cwd, os.environ))
    pascal = "tool_name" in event or "hook_event_name" in event or "hookEventName" in event
    if pascal:
        call = tool_call(event, "tool_name", "tool_input", "session_id", arguments)
    else:
        call = tool_call(event, "toolName", "toolArgs", "sessionId", arguments)
    session = call.session or text(event.get("sessionId"))
    # VS Code's own agent hooks (camelCase common fields) name no model, and Copilot CLI's
    # settings files are not VS Code's: the writer is unknown unless the person says
    vscode = ("sessionId" in event or "hookEventName" in event) and "session_id" not in event
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
        model=UNKNOWN if pascal and vscode else None,
        effort=UNKNOWN if pascal and vscode else None,
        failed=failure(event),
    )
    pairs, every = edit_pairs(arguments(call.args))
    named = done.hook_event or text(event.get("hookEventName"))
    before = before_tool(event, named)
    done = replace(
        done,
        session_id=session,
        hook_event=named or (SHELL_SNAPSHOT if before else None),
        replacements=pairs,
        replace_all=every,
        patched=() if pairs else envelope_files(arguments(call.args)),  # each file its own
    )
    if call.tool in SHELL_TOOLS and not done.writes:
        # what the command changes is found by comparing the work tree before and after it
        key = derived_call_id(
            NAME, session, CLAUDE_NAMES.get(call.tool, call.tool), arguments(call.args)
        )
        return replace(
            done,
            not_written=SHELL_NOT_RECORDED,
            shell=SHELL_BEFORE if before else SHELL_AFTER,
            shell_key=key,
            background=is_background(arguments(call.args)),  # `cmd &`, nohup, setsid...
            # where its writes may land: a submodule or nested repository it names (agent_above)
            roots=named_dirs(member(arguments(call.args), "command")),
        )
    if call.tool is None and ((named or "").lower() in TURN_ENDS or ends_turn(event)):
        return replace(done, shell=SHELL_END)  # the turn ended: its windows close
    return done


def ends_turn(event: Mapping[str, object]) -> bool:
    """Whether ``event`` is a camelCase ``agentStop`` or ``sessionEnd`` input, which names no
    event: no tool (``toolName``), no subagent (``agentName``), and the stop's
    ``stopReason`` or the end's ``reason`` (github/docs
    ``content/copilot/reference/hooks-reference.md`` @ 05da5bc3, "agentStop / Stop",
    "sessionEnd / SessionEnd")."""
    if any(k in event for k in ("toolName", "tool_name", "agentName", "agent_name")):
        return False
    return "stopReason" in event or "reason" in event


def before_tool(event: Mapping[str, object], named: str | None) -> bool:
    """Whether ``event`` is a pre-tool input: named ``PreToolUse`` (either case), or, named
    nothing, a camelCase tool call (``toolName``) with no ``toolResult`` and no
    ``postToolUseFailure`` ``error`` (a snake_case input named nothing is a post-tool one:
    Claude Code's shape, handed here by :func:`gentle_hooks.agents.claude_code.guest`)."""
    if named is not None:
        return named.strip().lower() == SHELL_SNAPSHOT.lower()
    return "toolName" in event and not any(k in event for k in ("toolResult", "error"))


#: The key names of a replacement in Copilot's tools: ``edit`` and ``str_replace_editor``'s
#: ``str_replace`` (``old_str``/``new_str``), VS Code's ``replace_string_in_file``
#: (``oldString``/``newString``) and ``multi_replace_string_in_file`` (a ``replacements``
#: list of them), with the list each may come in.
_PAIR_KEYS = (("old_str", "new_str", "edits"), ("oldString", "newString", "replacements"))


def edit_pairs(args: object) -> tuple[tuple[tuple[str, str], ...], frozenset[int]]:
    """What a write tool's (parsed) arguments say it replaced
    (:func:`gentle_hooks.agents.event.edit_replacements` under :data:`_PAIR_KEYS`), else
    the hunks of an ``apply_patch`` envelope that updates one file
    (:func:`gentle_hooks.agents.patch.envelope_replacements`); ((), frozenset()) when
    they name none (``create``, ``insert``, a partial list: the write is measured as
    before)."""
    for old, new, listed in _PAIR_KEYS:
        found = edit_replacements(args, old, new, listed)
        if found[0]:
            return found
    return envelope_replacements(args), frozenset()


#: ``resultType`` values of a call that did not succeed, and how each is said.
_NOT_DONE = {"failure": "failed", "denied": "was denied"}


def failure(event: dict[str, object]) -> str | None:
    """``failed (toolResult.resultType failure)`` or ``was denied (...)`` when the input's tool
    result says the call did not succeed (either shape); ``failed (postToolUseFailure:
    <error>)`` for a :data:`SHELL_FAILURE` input (a tool call with ``error`` and no
    result); else None."""
    for holder, key in (("toolResult", "resultType"), ("tool_result", "result_type")):
        kind = (text(member(event.get(holder), key)) or "").strip().lower()
        if kind in _NOT_DONE:
            return f"{_NOT_DONE[kind]} ({holder}.{key} {kind})"
    named = (text(event.get("hook_event_name")) or text(event.get("hookEventName")) or "").lower()
    tool = "toolName" in event or "tool_name" in event
    result = "toolResult" in event or "tool_result" in event
    if tool and "error" in event and not result and named in ("", SHELL_FAILURE.lower()):
        said = " ".join((text(event.get("error")) or "no error text").split())[:200]
        return f"failed ({SHELL_FAILURE}: {said})"
    return None


#: At most this many files of one agents directory are read.
_MAX_AGENT_FILES = 200


def agent_model(name: str | None, cwd: str | None, env: Mapping[str, str]) -> str | None:
    """The model the custom agent ``name`` declares as its own (``model:`` of its
    ``*.agent.md`` front matter): the user's ``~/.copilot/agents/``
    (``$COPILOT_HOME/agents``) first, as it wins over the repository's ``.github/agents/``
    under ``cwd`` (github/docs
    ``content/copilot/how-tos/copilot-cli/customize-copilot/create-custom-agents-for-cli.md``:
    "If you have custom agents with the same name in both locations, the one in your home
    directory will be used"); the repository's is looked up from ``cwd`` up to the
    repository's top (:func:`gentle_hooks.agents.definitions.project_dirs`). A file defines
    ``name`` by its file name (without ``.agent.md`` or ``.md``) or its ``name:``. None when
    no file defines it (a built-in agent), it declares no model, or it inherits: the child's
    model is then unknown, never the parent's."""
    if not name:
        return None
    home = env.get("COPILOT_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".copilot"
    )
    places = [os.path.join(home, "agents")]
    places += [os.path.join(d, ".github", "agents") for d in project_dirs(cwd)]
    for where in places:
        try:
            files = sorted(os.listdir(where))[:_MAX_AGENT_FILES]
        except OSError:
            continue
        for file in files:
            if not file.endswith(".md"):
                continue
            stem = file.removesuffix(".md").removesuffix(".agent")
            named, model = declared(os.path.join(where, file))
            if name in (stem, named):
                return own_model(model)
    return None


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
    key; None where no file sets one. ``COPILOT_MODEL`` in the environment Copilot runs
    its hooks in wins over every file's ``model``: Copilot starts with the model it names
    (github/copilot-cli issue 24, Copilot's own answer: "Run COPILOT_MODEL=gpt-5 copilot";
    docs.github.com copilot-cli BYOK and programmatic references). ``"auto"`` (the server
    picks the model) is no model; an ``effortLevel`` that is not one of Copilot's levels is
    ``unknown``. A file that cannot be read or parsed (JSON with comments) is passed over,
    as Copilot ignores its invalid values. Both only say what a session starts with: a
    ``--model`` or ``/model`` choice is not seen."""
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
    chosen = text(env.get("COPILOT_MODEL"))
    if chosen is not None:
        model = None if chosen.strip().lower() == "auto" else chosen.strip()
    return model, effort
