"""Gemini CLI's ``AfterTool`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/gemini-cli.md).

Room ``agents`` (standard library only). Gemini CLI runs the hook after the tool executed and
hands it one JSON object (google-gemini/gemini-cli ``docs/hooks/reference.md``, "Base input
schema" and ``AfterTool``; ``packages/core/src/hooks/types.ts``, ``AfterToolInput``):
``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, ``timestamp`` (ISO 8601),
``tool_name``, ``tool_input``, ``tool_response``, ``mcp_context`` and
``original_request_name``. The file-writing tools are ``write_file`` and ``replace``, each
with ``file_path`` (``docs/tools/file-system.md``).

A ``run_shell_command`` call names no file it changes: its ``BeforeTool`` input is a
snapshot event (:attr:`RuntimeEvent.shell`), and its ``AfterTool`` records what changed in
the work tree since; the two are paired by the session, the tool and its ``tool_input``
(:attr:`RuntimeEvent.shell_key`), as neither names a call id. One run in the background
(``tool_input.is_background``, or a command that leaves a process behind:
:mod:`gentle_hooks.agents.background`) is :attr:`RuntimeEvent.background`; an
``AfterAgent`` (or ``SessionEnd``) input, which names no tool, is
:data:`gentle_hooks.agents.event.SHELL_END`.

The input names no tool call and no model:

* the replay id is derived from the session, the hook's timestamp, the tool and its input
  (:func:`gentle_hooks.agents.event.derived_call_id`);
* the model is the ``model`` of the newest ``gemini`` message of the session transcript
  (JSON Lines of message records, ``packages/core/src/services/chatRecordingService.ts``,
  read backwards from its end in blocks, at most 64 MiB; an older whole-JSON
  ``{"messages": [...]}`` file is read too);
* when the transcript names no model (it cannot be read), ``GEMINI_MODEL`` of the hook's
  environment, else the settings' ``model.name`` (:func:`settings_writer`);
* the input and the transcript name no effort: it is unknown unless ``GENTLE_WRITER_EFFORT``
  says (the ``thinkingBudget`` of the settings' ``modelConfigs`` is resolved per request
  from defaults in Gemini CLI's code and is a token count, not a level: not read,
  docs/agents/gemini-cli.md says why).

Subagents are exposed to the main agent as a tool of the same name (geminicli.com
``docs/core/subagents``): while the parent's call to one runs, the newest ``gemini`` message
holds that call not yet finished (``status`` ``validating``, ``scheduled``,
``awaiting_approval`` or ``executing``). A write then is the subagent's
(:func:`running_subagent`): its model is the ``model:`` its definition declares
(``.gemini/agents/*.md`` under ``$GEMINI_PROJECT_DIR``, the input's ``cwd`` or a directory
above it up to the repository's top, or under ``$GEMINI_CLI_HOME`` or the home directory, or
an extension's ``agents/*.md``; YAML front matter, ``name:`` naming it), else
unknown, never the parent's turn. Releases that expose one ``delegate_to_agent`` tool name the
subagent in its ``agent_name`` argument: a pending call of it is a subagent's, whatever it names.

``AfterTool`` fires after a failed call too, the tool's error in ``tool_response.error``
(``packages/core/src/core/coreToolHookTriggers.ts``, ``fireAfterToolEvent(..., {llmContent,
returnDisplay, error})``): such a call wrote nothing, so it records nothing
(:func:`failure`).

A person can modify the model's proposal in an editor before ``write_file`` or ``replace``
runs; the call's ``tool_input`` then has ``modified_by_user: true`` (:func:`person_edit`).
For ``write_file`` its ``ai_proposed_content`` is what the model proposed, so only the
proposed lines that survive in the file are recorded as the writer's; ``replace`` carries no
proposal of the model's, so every line it changed is recorded, and the hook says why.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Generator, Mapping

from gentle_hooks.agents.background import is_background
from gentle_hooks.agents.definitions import declared, own_model, project_dirs
from gentle_hooks.agents.event import (
    SHELL_AFTER,
    SHELL_BEFORE,
    SHELL_END,
    WRITE_BEFORE,
    RuntimeEvent,
    derived_call_id,
    edit_replacements,
    snake_tool_call,
    writes_file,
)
from gentle_hooks.agents.payload import (
    SCAN_LIMIT,
    json_lines,
    line_blocks_backwards,
    loads,
    member,
    read_file,
    text,
)
from gentle_hooks.agents.shell_dirs import named_dirs
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import replace

NAME = "gemini-cli"
#: Gemini CLI's file-writing tools (the matcher ``install --agent gemini-cli`` writes).
WRITE_TOOLS = ("write_file", "replace")
#: Gemini CLI's shell tool (``docs/tools/shell.md``): it can change files, but its input
#: names none of them.
SHELL_TOOL = "run_shell_command"
#: Why a call of :data:`SHELL_TOOL` records nothing
#: (:attr:`gentle_hooks.agents.event.RuntimeEvent.not_written`).
SHELL_NOT_RECORDED = (
    "ran a shell command: its input names no file it changed, and no snapshot of the work "
    "tree from before it was kept (the BeforeTool hook of run_shell_command takes it and its "
    "line says why it kept none; if it did not run, install the recorder again), so "
    "nothing it changed is recorded from this call (the commit gate "
    "still applies to a commit made in the Gemini CLI session, where GEMINI_CLI is set)"
)
#: The hook event that runs before a :data:`SHELL_TOOL` call (``docs/hooks/reference.md``,
#: ``BeforeTool``: ``tool_name``, ``tool_input``): its input snapshots the work tree, and
#: the ``AfterTool`` of the same call records what changed since
#: (:mod:`gentle_hooks.services.agent_shell`).
SHELL_SNAPSHOT = "BeforeTool"
#: The hook event that runs when the agent loop of a turn ends (``docs/hooks/reference.md``,
#: ``AfterAgent``: ``prompt``, ``prompt_response``, ``stop_hook_active``; no tool): a
#: background call's window closes (:mod:`gentle_hooks.services.agent_windows`). Wired by
#: ``install --agent gemini-cli``.
TURN_END = "AfterAgent"
#: The events that end the agent's turn, lower-cased: :data:`TURN_END` and ``SessionEnd``
#: (read when a person wires it).
TURN_ENDS = ("afteragent", "sessionend")


def _newest_first(path: str | None) -> Generator[object, None, None]:
    """The message records of a Gemini CLI transcript, newest first: JSON Lines read from
    its end in blocks of whole lines (:func:`gentle_hooks.agents.payload.line_blocks_backwards`,
    at most :data:`gentle_hooks.agents.payload.SCAN_LIMIT` bytes in all, further back only
    while the caller asks: a written file's content may fill many megabytes after the
    message it needs); an older whole-JSON ``{"messages": [...]}`` file (no line of it a
    message record) is read whole up to :data:`gentle_hooks.agents.payload.FILE_LIMIT`.
    Nothing for a path that cannot be read."""
    if not path:
        return
    typed = False
    with contextlib.closing(line_blocks_backwards(path, limit=SCAN_LIMIT)) as blocks:
        for block in blocks:
            for record in reversed(json_lines(block)):
                messages = record.get("messages")
                if "type" not in record and isinstance(messages, list):
                    yield from reversed(messages)  # an older transcript on one line
                    return
                typed = typed or "type" in record
                yield record
    if typed:
        return
    data = read_file(path)
    if data is None or not data.lstrip().startswith(b"{"):
        return
    try:  # an older transcript: one JSON document
        messages = member(loads(data, "transcript"), "messages")
    except UsageError:
        return
    if isinstance(messages, list):
        yield from reversed(messages)


def model_from_transcript(path: str | None) -> str | None:
    """The ``model`` of the newest ``gemini`` message of a Gemini CLI transcript that names
    one (:func:`_newest_first`); None when none does within the bound."""
    with contextlib.closing(_newest_first(path)) as messages:
        for message in messages:
            if member(message, "type") == "gemini":
                model = text(member(message, "model"))
                if model:
                    return model
    return None


def _newest_gemini(path: str | None) -> object:
    """The newest ``gemini`` message of a Gemini CLI transcript, or None."""
    with contextlib.closing(_newest_first(path)) as messages:
        for message in messages:
            if member(message, "type") == "gemini":
                return message
    return None


#: Tool call states of a call that has not finished (Gemini CLI's scheduler states).
PENDING = ("validating", "scheduled", "awaiting_approval", "executing")
#: Gemini CLI's built-in subagents (geminicli.com docs/core/subagents).
BUILT_IN = ("codebase_investigator", "cli_help", "generalist", "browser_agent")
#: The tool through which some Gemini CLI releases delegate to any subagent, naming it in
#: ``agent_name`` (``packages/core/src/agents/delegate-to-agent-tool.ts``).
DELEGATE = "delegate_to_agent"
#: At most this many definition files are read per directory.
_MAX_AGENT_FILES = 200


#: The environment variable Gemini CLI sets for its hooks to the project's root directory
#: (google-gemini/gemini-cli ``docs/hooks/reference.md``, "Environment variables").
PROJECT_DIR = "GEMINI_PROJECT_DIR"


def _agent_dirs(cwd: str | None) -> list[str]:
    """The directories of subagent definitions, in the order Gemini CLI registers them (a
    later definition of a name replaces an earlier one): ``~/.gemini/agents`` (the home
    directory ``$GEMINI_CLI_HOME`` when set), the project's ``.gemini/agents``, then the
    ``agents/`` of each extension (under ``~/.gemini/extensions/*/``, and the project's
    ``.gemini/extensions/*/``). The project is ``$GEMINI_PROJECT_DIR``, ``cwd`` and each
    directory above it up to the repository's top (``cwd`` follows ``cd``:
    :func:`gentle_hooks.agents.definitions.project_dirs`), the nearest registered last, so
    it wins."""
    home = os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~")
    project = os.environ.get(PROJECT_DIR) or None
    bases = [home, *reversed(project_dirs(cwd, project))]
    out = [os.path.join(b, ".gemini", "agents") for b in bases]
    for base in bases:
        extensions = os.path.join(base, ".gemini", "extensions")
        try:
            names = sorted(os.listdir(extensions))[:_MAX_AGENT_FILES]
        except OSError:
            continue
        out += [os.path.join(extensions, n, "agents") for n in names]
    return out


def _definitions(cwd: str | None) -> dict[str, str | None]:
    """Subagent name -> its declared model (None: none declared); where two definitions
    name one subagent, the one Gemini CLI registers last wins (:func:`_agent_dirs`)."""
    out: dict[str, str | None] = {}
    for where in _agent_dirs(cwd):
        try:
            names = sorted(os.listdir(where))[:_MAX_AGENT_FILES]
        except OSError:
            continue
        for file in names:
            if file.endswith(".md"):
                name, model = declared(os.path.join(where, file))
                out[name or file[:-3]] = model
    return out


def _subagent_called(call: object) -> str | None:
    """The subagent an unfinished transcript tool call delegates to: the tool's own name,
    or for :data:`DELEGATE` the ``agent_name`` of its arguments (the tool's name when it
    names none); None when the call is finished or has no name."""
    name = text(member(call, "name"))
    if member(call, "status") not in PENDING or name is None:
        return None
    if name == DELEGATE:
        return text(member(call, "args", "agent_name")) or name
    return name


def running_subagent(path: str | None, cwd: str | None) -> tuple[str, str | None] | None:
    """(subagent name, its declared model or None) when the newest ``gemini`` message of the
    transcript holds an unfinished call to a subagent (a tool a definition or a built-in
    names, or :data:`DELEGATE`), else None."""
    calls = member(_newest_gemini(path), "toolCalls")
    pending = [
        (n, member(c, "name") == DELEGATE)
        for c in (calls if isinstance(calls, list) else [])
        if (n := _subagent_called(c)) is not None and n not in WRITE_TOOLS
    ]
    if not pending:
        return None
    known = _definitions(cwd)
    for n, delegated in pending:
        if delegated or n in known or n in BUILT_IN:
            return n, own_model(known.get(n))
    return None


def failure(response: object) -> str | None:
    """``failed (tool_response.error ...)`` when the tool's response carries an error (its
    ``type`` named when it is short text), else None."""
    error = member(response, "error")
    if error is None or error is False:
        return None
    kind = text(member(error, "type"))
    named = f": {kind}" if kind and len(kind) <= 60 and kind.isprintable() else ""
    return f"failed (tool_response.error{named})"


def settings_writer(root: str | None, env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(model, None) as Gemini CLI's settings set the model, for an input whose transcript
    names none (unreadable): ``model.name`` (an older plain ``model`` string too) of the
    user's ``~/.gemini/settings.json`` (under ``$GEMINI_CLI_HOME`` when set), overridden by
    the project's ``.gemini/settings.json`` of the work tree ``root`` (google-gemini/gemini-cli
    ``docs/get-started/configuration.md``, "Configuration layers": project settings override
    user settings). ``GEMINI_MODEL`` in ``env`` (non-empty) wins over both, as Gemini CLI
    resolves ``argv.model || GEMINI_MODEL || settings.model.name``
    (``packages/cli/src/config/config.ts``, ``loadCliConfig``). JSON with comments; a file that
    cannot be read is passed over. No effort: the settings name none (the module says why)."""
    from gentle_hooks.agents import jsonedit

    home = env.get("GEMINI_CLI_HOME") or env.get("HOME") or os.path.expanduser("~")
    files = [os.path.join(home, ".gemini", "settings.json")]
    if root is not None:
        files.append(os.path.join(root, ".gemini", "settings.json"))
    model = None
    for path in files:
        data = read_file(path)
        try:
            doc = jsonedit.parse(data.decode("utf-8"), comments=True).value if data else None
        except (UnicodeDecodeError, jsonedit.JsonTextError):
            continue
        named = member(doc, "model")
        model = text(member(named, "name") if isinstance(named, dict) else named) or model
    # Gemini CLI takes argv.model || GEMINI_MODEL || settings.model.name (config.ts
    # loadCliConfig); the hook inherits its environment, so an empty value is unset there too
    return env.get("GEMINI_MODEL") or model, None


#: The field of Gemini CLI's ``write_file`` and ``replace`` arguments that says a person
#: modified the model's proposal in an editor before the tool ran.
MODIFIED = "modified_by_user"


def person_edit(tool: str | None, args: object) -> tuple[str | None, str | None, str | None]:
    """(what says a person modified the proposal, the model's proposed content, the content
    the person left) of a ``write_file`` or ``replace`` call; all None when
    ``modified_by_user`` is not true.

    ``write_file``'s ``ai_proposed_content`` is the ``content`` the model proposed, and its
    ``content`` the person's (``createUpdatedParams`` in
    ``packages/core/src/tools/write-file.ts``). ``replace``'s is not: it is the file as it was
    before the edit (``createUpdatedParams(oldContent, ...)`` in ``edit.ts`` sets
    ``ai_proposed_content: oldContent``, and ``modifiable-tool.ts`` passes the current file
    as ``oldContent``), and ``old_string``/``new_string`` become the whole file before and
    after the person's edit: the model's own lines are in no field, so the proposal is None
    and every changed line is recorded (fail closed).

    An empty string is none either: an input larger than the recorder holds whole arrives
    with its long strings blanked to ``""`` (:mod:`gentle_hooks.agents.stream`), and an
    empty proposal would leave none of the model's lines in the record."""
    if not isinstance(args, dict) or args.get(MODIFIED) is not True:
        return None, None, None
    if tool != "write_file":
        return f"tool_input.{MODIFIED}", None, None
    proposed, edited = (args.get(k) for k in ("ai_proposed_content", "content"))
    return (
        f"tool_input.{MODIFIED}",
        proposed if isinstance(proposed, str) and proposed else None,
        edited if isinstance(edited, str) and edited else None,
    )


#: The ``tool_response`` member that holds what the tool showed the person: for ``write_file``
#: and ``replace`` a ``FileDiff`` (``packages/core/src/tools/tools.ts``) whose
#: ``originalContent`` is the file just before the call and ``newContent`` what it wrote
#: (``write-file.ts``, ``edit.ts``); ``AfterTool`` hands it over as it is
#: (``coreToolHookTriggers.ts``: ``{llmContent, returnDisplay, error}``).
DISPLAY = "returnDisplay"


def with_file_diff(event: RuntimeEvent, response: object, args: object) -> RuntimeEvent:
    """``event`` with the file just before the call (:attr:`RuntimeEvent.original`) when the
    ``tool_response``'s :data:`DISPLAY` is a ``FileDiff`` carrying ``originalContent`` (text;
    ``""`` for a new file, or a string blanked as too large: none); a ``write_file`` also gets
    what it wrote (``newContent``, else its ``content``) as the one replacement of it, so the
    write is measured from the file it started from where consistent
    (:func:`gentle_hooks.policy.preimage.exact_start`): a person's unsaved lines kept in the
    file are not the writer's. ``event`` as it is otherwise (measured from the ``BeforeTool``
    snapshot, else as before: fail closed)."""
    display = member(response, DISPLAY)
    original = text(member(display, "originalContent"))
    if not original:
        return event
    if event.tool == "write_file":
        written = text(member(display, "newContent")) or text(member(args, "content"))
        if written is None:
            return event
        event = replace(event, replacements=((original, written),), replace_all=frozenset())
    return replace(event, original=original)


def decode(data: bytes) -> RuntimeEvent:
    """Decode Gemini CLI's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    transcript = text(call.event.get("transcript_path"))
    child = running_subagent(transcript, text(call.event.get("cwd")))
    edited_by, proposal, edited = person_edit(call.tool, call.args)
    event = call.runtime_event(
        NAME,
        tool_call_id=derived_call_id(
            NAME, call.session, call.event.get("timestamp"), call.tool, call.args
        ),
        writes=writes_file(call.tool, call.args, WRITE_TOOLS),
        model=child[1] if child else model_from_transcript(transcript),
        effort=None,
        agent=child[0] if child else None,
        failed=failure(call.event.get("tool_response")),
    )
    if call.tool == SHELL_TOOL and not event.writes:
        # what the command changes is found by comparing the work tree before and after it;
        # the input names no call id and the timestamps differ, so the pair is found by
        # the session, the tool and its arguments
        before = (event.hook_event or "").lower() == SHELL_SNAPSHOT.lower()
        event = replace(
            event,
            not_written=SHELL_NOT_RECORDED,
            shell=SHELL_BEFORE if before else SHELL_AFTER,
            shell_key=derived_call_id(NAME, call.session, call.tool, call.args),
            background=is_background(call.args),  # is_background, or `cmd &`
            # where its writes may land: a submodule or nested repository it names, or
            # the repository below a session opened above one (agent_above)
            roots=named_dirs(member(call.args, "command"), member(call.args, "dir_path")),
        )
    if call.tool is None and (event.hook_event or "").lower() in TURN_ENDS:
        event = replace(event, shell=SHELL_END)  # the turn ended: its windows close
    if call.tool == "replace":  # what the call changed: the file it started from
        pairs, every = edit_replacements(call.args)
        event = replace(event, replacements=pairs, replace_all=every)
    if call.tool in WRITE_TOOLS:  # the file just before the call, as the tool showed it
        event = with_file_diff(event, call.event.get("tool_response"), call.args)
        # its BeforeTool keeps the files it names; the pair shares no call id
        before = (event.hook_event or "").lower() == SHELL_SNAPSHOT.lower()
        key = derived_call_id(NAME, call.session, call.tool, call.args)
        event = replace(event, shell=WRITE_BEFORE if before else None, shell_key=key)
    if edited_by is None:
        return event
    return replace(event, edited_by=edited_by, proposal=proposal, edited=edited)
