"""Claude Code's ``PostToolUse`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/claude-code.md).

Room ``agents`` (standard library only). Claude Code runs the hook after the tool wrote and
hands it one JSON object on standard input (code.claude.com/docs/en/hooks, "Common input
fields" and "PostToolUse input"): ``session_id``, ``transcript_path``, ``cwd``,
``permission_mode``, ``hook_event_name``, ``effort`` (``{"level": "high"}`` in current
versions; a plain string is accepted too), ``agent_id``/``agent_type`` inside a subagent,
``tool_name``, ``tool_input`` (``file_path``, ``notebook_path``), ``tool_response`` and
``tool_use_id``. The ``tool_response`` of ``Edit``, ``MultiEdit`` and ``Write`` may carry
``originalFile``, the file just before the call (:func:`with_original`: the write is measured
from it where consistent, :func:`gentle_hooks.policy.preimage.exact_start`). Every
documented path member of every runtime is read (:data:`gentle_hooks.agents.patch.PATH_KEYS`):
Copilot CLI runs these hooks too, with its own ``path``. An input without ``tool_use_id``
gets an id derived from the session, the ``timestamp``, the tool and its input, so a replay
records once.

The model is not in the input: it is the ``message.model`` of the newest assistant line of
the session transcript (JSON Lines), found within its last 64 MiB
(:func:`model_from_transcript`). Inside a subagent it comes from the subagent's own transcript,
``<project>/<session>/subagents/agent-<agent_id>.jsonl`` beside the session's
(the layout git-ai-project/git-ai reads, ``src/daemon/stream_worker.rs``); when that file
cannot be read the model is unknown, never the parent's, and so is it when the subagent's
definition runs it on the parent's model (:func:`inherits`), or when no definition of it can be
read (a plugin's subagent, one given with ``--agents``: it may inherit, and its transcript
would then name the parent's model), which the event's :attr:`RuntimeEvent.notes` say
(:func:`unreadable_definition`). The ``effort`` a subagent's input
carries is the session's setting, which the child inherits: it is recorded as unknown too (an
inherited writer profile is unknown, so small; seed 000).

A ``Bash`` call names no file it changes: its ``PreToolUse`` input (``tool_use_id`` as in
its ``PostToolUse``) is a snapshot event (:attr:`RuntimeEvent.shell`), and its
``PostToolUse`` records what changed in the work tree since as the writer's. A call run in
the background (``tool_input.run_in_background``, a command that leaves a process behind:
:mod:`gentle_hooks.agents.background`, or a ``tool_response`` naming a
``backgroundTaskId``: a call moved to the background past its timeout) is
:attr:`RuntimeEvent.background`; a
``Stop`` (or ``SessionEnd``) input, which names no tool, is :data:`SHELL_END`.

``PostToolUse`` fires only after a tool succeeded: a failure is ``PostToolUseFailure``
(:data:`SHELL_FAILURE`, wired for ``Bash``: a command that wrote and then exited non-zero
is recorded from it, with its ``error`` said). A write tool's failure, or a
``tool_response`` that still says the call failed (``success: false``, ``is_error``),
records nothing (:func:`gentle_hooks.agents.event.result_failure`).

An input that names no effort (older versions) gets it from :func:`settings_writer`:
``$CLAUDE_EFFORT``, ``$CLAUDE_CODE_EFFORT_LEVEL``, then ``effortLevel`` of the settings
files (docs/agents/claude-code.md cites each). Levels map through :data:`EFFORTS`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping

from gentle_hooks.agents.background import is_background
from gentle_hooks.agents.definitions import declared, own_model, project_dirs, subagent_label
from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    SHELL_AFTER,
    SHELL_BEFORE,
    SHELL_END,
    UNKNOWN,
    RuntimeEvent,
    edit_replacements,
    map_effort,
    result_failure,
    snake_tool_call,
)
from gentle_hooks.agents.payload import (
    hook_input,
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

NAME = "claude-code"
#: The tools that write files (the matcher ``install --agent claude-code`` writes).
WRITE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
#: The tools whose input names exactly what they changed (``old_string``/``new_string``,
#: ``replace_all``; ``MultiEdit``'s ``edits``): :attr:`RuntimeEvent.replacements`.
EDIT_TOOLS = ("Edit", "MultiEdit")
#: The tool that writes a file whole (``file_path``, ``content``).
WRITE_TOOL = "Write"
#: The ``tool_response`` member of ``Edit``, ``MultiEdit`` and ``Write`` that holds the file
#: as it was just before the call (``null`` when ``Write`` created it).
ORIGINAL = "originalFile"
#: Claude Code's shell tool: it can change files, but its input names none of them.
SHELL_TOOL = "Bash"
#: The hook event that runs before a :data:`SHELL_TOOL` call: its input snapshots the work
#: tree, and its ``PostToolUse`` records what changed since as the writer's
#: (:mod:`gentle_hooks.services.agent_shell`).
SHELL_SNAPSHOT = "PreToolUse"
#: The hook event Claude Code sends instead of ``PostToolUse`` when a tool fails (a
#: :data:`SHELL_TOOL` command that exits non-zero: ``error`` says so, with ``is_interrupt``;
#: code.claude.com/docs/en/hooks, "PostToolUseFailure input"): a shell call's changes
#: before it failed are recorded from it as from ``PostToolUse``.
SHELL_FAILURE = "PostToolUseFailure"
#: The hook event that runs when the main agent has finished responding (code.claude.com/
#: docs/en/hooks, "Stop"; not after a user interrupt): a background call's window closes
#: (:mod:`gentle_hooks.services.agent_windows`). Wired by ``install --agent claude-code``.
TURN_END = "Stop"
#: The events that end the agent's turn, lower-cased: :data:`TURN_END` and ``SessionEnd``
#: (the session ends; read when a person wires it, not wired by install).
TURN_ENDS = ("stop", "sessionend")
#: Why a call of :data:`SHELL_TOOL` records nothing when no snapshot before it was kept
#: (:attr:`gentle_hooks.agents.event.RuntimeEvent.not_written`, after ``the Bash call of
#: Claude Code``).
SHELL_NOT_RECORDED = (
    "ran a shell command: its input names no file it changed, and no snapshot of the work "
    "tree from before it was kept (the PreToolUse hook of Bash takes it and its line says "
    "why it kept none; if it did not run, install the recorder again), so "
    "nothing it changed is recorded from this call (the commit gate still "
    "applies to a commit made in the Claude Code session, where CLAUDECODE is set, or "
    "carrying its Co-Authored-By: Claude trailer)"
)
#: Copilot CLI's file-writing tools: Copilot runs the hooks of ``.claude/settings.json`` too
#: (github/docs ``content/copilot/reference/hooks-reference.md``, "Hooks locations").
COPILOT_TOOLS = ("edit", "create", "str_replace_editor", "apply_patch", "write")
#: Claude Code's effort levels (``/effort``, ``--effort``: low medium high xhigh max, and
#: ``ultracode``, which runs at xhigh) in ours (SPEC §5 "Writer profile": off minimal low
#: medium high xhigh). ``max`` is above xhigh, our highest level: it is recorded as xhigh, a
#: known effort that is not low, so not a small writer (seed 000), as max is not. ``auto``
#: (the model's default) and any other name are unknown.
EFFORTS: dict[str, str] = {**OUR_EFFORTS, "max": "xhigh", "ultracode": "xhigh"}
#: The environment variables that carry the session's effort, in the order they are read:
#: the active level Claude Code hands its hooks, then the user's override of it.
EFFORT_VARIABLES = ("CLAUDE_EFFORT", "CLAUDE_CODE_EFFORT_LEVEL")


def model_from_transcript(path: str | None) -> str | None:
    """The ``message.model`` of the newest assistant line of a Claude Code transcript
    (``<synthetic>`` placeholders are skipped): read from its end in blocks of whole lines,
    further back only while none is found (a written file's content may fill many
    megabytes after it), at most :data:`gentle_hooks.agents.payload.SCAN_LIMIT` bytes in
    all, never the whole file at once; None when none is found within that bound or the
    file is unreadable."""
    if not path:
        return None
    with contextlib.closing(line_blocks_backwards(path)) as blocks:
        for block in blocks:
            for record in reversed(json_lines(block)):
                if record.get("type") == "assistant":
                    model = text(member(record, "message", "model"))
                    if model and not model.startswith("<"):
                        return model
    return None


def subagent_transcript(transcript: str | None, session: str | None, agent: str) -> str | None:
    """Where Claude Code keeps a subagent's own transcript, beside the session's."""
    if not transcript:
        return None
    stem = session or os.path.splitext(os.path.basename(transcript))[0]
    return os.path.join(os.path.dirname(transcript), stem, "subagents", f"agent-{agent}.jsonl")


#: Claude Code's built-in subagents that run on the main conversation's model
#: (code.claude.com/docs/en/sub-agents, "Built-in subagents": general-purpose and Plan
#: inherit; Explore and claude-code-guide run on Haiku, statusline-setup on Sonnet).
BUILTIN_INHERITING = frozenset({"general-purpose", "Plan"})
#: Claude Code's built-in subagents that run on a model of their own (the same section).
BUILTIN_OWN = frozenset({"Explore", "claude-code-guide", "statusline-setup"})
#: The most definition files read in one agents directory when looking a subagent up by
#: its ``name:`` (a directory of thousands is not read whole on every tool call).
_DEFINITIONS = 200


def inherits(agent_type: str | None, cwd: str | None) -> bool | None:
    """Whether subagent ``agent_type`` runs on the parent's model: True when its definition
    says ``model: inherit``, or no ``model:`` (Claude Code's default is ``inherit``,
    code.claude.com/docs/en/sub-agents, "Supported frontmatter fields"), False when it names
    a model of its own; with no definition of that name, True for a built-in that inherits
    (:data:`BUILTIN_INHERITING`), False for one that does not (:data:`BUILTIN_OWN`). A
    definition is an ``.md`` file of the project's ``.claude/agents/``: under
    ``$CLAUDE_PROJECT_DIR``, else ``cwd`` or a directory above it up to the repository's top
    (``cwd`` follows ``cd``: :func:`gentle_hooks.agents.definitions.project_dirs`), else of
    the user's (``$CLAUDE_CONFIG_DIR/agents``, else ``~/.claude/agents``), whose front
    matter's ``name:`` is ``agent_type`` (Claude Code names a subagent by it, not by the
    file's name), or, with no ``name:``, whose file is ``<agent_type>.md``: project
    definitions win. Neither (a plugin's subagent, one given with ``--agents`` JSON, a
    missing or unusable ``agent_type``): None, it cannot be told."""
    if not agent_type or "/" in agent_type or "\\" in agent_type or agent_type.startswith("."):
        return None
    user = os.environ.get(CONFIG_DIR) or os.path.join(os.path.expanduser("~"), ".claude")
    project = os.environ.get(PROJECT_DIR) or None
    dirs = [os.path.join(d, ".claude") for d in project_dirs(cwd, project)] + [user]
    for base in dirs:
        model = _definition_model(os.path.join(base, "agents"), agent_type)
        if model is not None:
            return own_model(model[0]) is None
    if agent_type in BUILTIN_INHERITING:
        return True
    return False if agent_type in BUILTIN_OWN else None


def unreadable_definition(agent_type: str | None) -> str:
    """The note of a subagent whose definition cannot be read (:func:`inherits` is None)."""
    who = subagent_label(agent_type)
    return (
        f"{who} of Claude Code has no definition gentle-hooks can read (.claude/agents/*.md "
        "of the project or the user; a plugin's subagent or one given with --agents is not "
        "read), so whether it runs on its own model or the parent's cannot be told: its "
        "model is recorded as unknown"
    )


def _definition_model(agents: str, agent_type: str) -> tuple[str | None] | None:
    """(``model:``,) of the definition of ``agent_type`` in the directory ``agents`` (see
    :func:`inherits`), or None when it holds none."""
    try:
        names = sorted(n for n in os.listdir(agents) if n.endswith(".md"))[:_DEFINITIONS]
    except OSError:
        return None
    for name in names:
        path = os.path.join(agents, name)
        if not os.path.isfile(path):
            continue
        declared_name, model = declared(path)
        if (declared_name or name[: -len(".md")]) == agent_type:
            return (model,)
    return None


def with_original(decoded: RuntimeEvent, response: object, args: object) -> RuntimeEvent:
    """``decoded`` with the file just before the call (:attr:`RuntimeEvent.original`) when
    the ``tool_response`` carries it (:data:`ORIGINAL`, a string of text; ``null`` for a new
    file, ``""`` when blanked: none); a ``Write`` also gets its ``content`` as the one
    replacement of it, so the write is measured from it where consistent."""
    original = text(member(response, ORIGINAL))
    if original is None:
        return decoded
    if decoded.tool == WRITE_TOOL:
        content = text(member(args, "content"))
        if content is None:
            return decoded
        decoded = replace(decoded, replacements=((original, content),), replace_all=frozenset())
    return replace(decoded, original=original)


def effort_name(value: object) -> str | None:
    """The effort level in the input: ``{"level": NAME}`` or a plain ``NAME``."""
    return text(member(value, "level")) if isinstance(value, dict) else text(value)


def decode(data: bytes) -> RuntimeEvent:
    """Decode Claude Code's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    event = call.event
    transcript = text(event.get("transcript_path"))
    agent = text(event.get("agent_id"))
    own = subagent_transcript(transcript, call.session, agent) if agent else transcript
    kind = text(event.get("agent_type"))
    # a child on the parent's model (its definition inherits) is unknown, so small (seed 000);
    # so is one whose definition cannot be read: its transcript may name the parent's model
    inherited = inherits(kind, call.cwd) if agent else False
    decoded = call.snake_event(
        NAME,
        "timestamp",
        WRITE_TOOLS + COPILOT_TOOLS,
        model=None if inherited is not False else model_from_transcript(own),
        effort=UNKNOWN if agent else map_effort(effort_name(event.get("effort")), EFFORTS),
        agent=agent,
        failed=result_failure(event.get("tool_response"), "tool_response") or _failure(event),
    )
    if call.tool == SHELL_TOOL and not decoded.writes:
        # what the command changes is found by comparing the work tree before and after it
        before = (decoded.hook_event or "").lower() == SHELL_SNAPSHOT.lower()
        shell = SHELL_BEFORE if before else SHELL_AFTER
        # run_in_background, `cmd &`, or a call Claude Code moved to the background when it
        # ran past its timeout (its response names the task: backgroundTaskId)
        task = text(member(event.get("tool_response"), "backgroundTaskId"))
        late = is_background(call.args) or bool(task)
        # roots: where its writes may land when its directory is in no work tree (agent_above)
        named = named_dirs(member(call.args, "command"))
        decoded = replace(
            decoded, not_written=SHELL_NOT_RECORDED, shell=shell, background=late, roots=named
        )
    if call.tool is None and (decoded.hook_event or "").lower() in TURN_ENDS:
        decoded = replace(decoded, shell=SHELL_END)  # the turn ended: its windows close
    if call.tool in EDIT_TOOLS:  # what the call changed: the file it started from
        pairs, every = edit_replacements(call.args)
        decoded = replace(decoded, replacements=pairs, replace_all=every)
    if call.tool in (*EDIT_TOOLS, WRITE_TOOL):
        decoded = with_original(decoded, event.get("tool_response"), call.args)
    if inherited is None:
        return replace(decoded, notes=(unreadable_definition(kind),))
    return decoded


def _failure(event: dict[str, object]) -> str | None:
    """``failed (<error>)`` for a :data:`SHELL_FAILURE` input (its ``error``, else
    ``PostToolUseFailure``); None for any other event."""
    if (text(event.get("hook_event_name")) or "").lower() != SHELL_FAILURE.lower():
        return None
    said = " ".join((text(event.get("error")) or SHELL_FAILURE).split())[:200]
    return f"failed ({said})"


#: The environment variable that moves Claude Code's user configuration directory
#: (``~/.claude``, its ``settings.json`` included) elsewhere: docs/agents/claude-code.md.
CONFIG_DIR = "CLAUDE_CONFIG_DIR"
#: The environment variable Claude Code sets for its hooks to the project's root directory
#: (code.claude.com/docs/en/hooks, "Reference scripts by path").
PROJECT_DIR = "CLAUDE_PROJECT_DIR"
#: Environment variables Copilot CLI sets for the processes it starts (its hooks included):
#: github/docs ``content/copilot/reference/hooks-reference.md``; the same pair
#: :mod:`gentle_hooks.policy.delegation` reads.
COPILOT_VARIABLES = ("COPILOT_CLI", "COPILOT_AGENT_SESSION_ID")


def guest(data: bytes, env: Mapping[str, str]) -> str | None:
    """The runtime that really sent this input when it is not Claude Code, else None.

    Cursor loads Claude Code's hook files too (cursor.com/docs/reference/third-party-hooks):
    ``cursor`` when the input carries Cursor's common fields (``cursor_version``,
    ``generation_id``), which Claude Code never sends.
    GitHub Copilot (CLI and VS Code) runs the hooks of ``.claude/settings.json`` too, with
    its own input: ``copilot`` when the input is in one of its shapes (``tool_result``
    without Claude Code's ``tool_response``: Copilot CLI's VS Code compatible
    ``PostToolUse``; ``sessionId``/``hookEventName`` without ``session_id``: VS Code's
    agent hooks), or when Copilot CLI's variables (:data:`COPILOT_VARIABLES`) are set and
    the input lacks ``permission_mode``, a field only Claude Code sends. Input that is not
    a JSON object is left to :func:`decode` to refuse."""
    try:
        event = hook_input(data, NAME)
    except UsageError:
        return None
    if "cursor_version" in event or "generation_id" in event:
        return "cursor"
    if "tool_result" in event and "tool_response" not in event:
        return "copilot"
    if ("sessionId" in event or "hookEventName" in event) and "session_id" not in event:
        return "copilot"
    if "permission_mode" not in event and any(env.get(v, "").strip() for v in COPILOT_VARIABLES):
        return "copilot"
    return None


def settings_files(root: str | None, env: Mapping[str, str]) -> list[str]:
    """Claude Code's settings files in increasing precedence: the user's
    (``$CLAUDE_CONFIG_DIR/settings.json``, else ``$HOME/.claude/settings.json``), then the
    project's and the local one of the work tree ``root``. The managed policy file is not
    read."""
    home = env.get("HOME") or os.path.expanduser("~")
    user = env.get(CONFIG_DIR) or os.path.join(home, ".claude")
    out = [os.path.join(user, "settings.json")]
    if root is not None:
        out += [
            os.path.join(root, ".claude", "settings.json"),
            os.path.join(root, ".claude", "settings.local.json"),
        ]
    return out


def settings_writer(root: str | None, env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(None, effort) for an input that names no effort: ``$CLAUDE_EFFORT`` (the active
    level Claude Code hands its hooks), else ``$CLAUDE_CODE_EFFORT_LEVEL`` (the user's
    override, which wins over the settings), else ``effortLevel`` of the settings files
    (:func:`settings_files`, the later winning), mapped through :data:`EFFORTS`; None when
    none says. The model is never taken from here: the transcript names the one that
    wrote. A settings file that cannot be read or is not a JSON object is passed over."""
    for name in EFFORT_VARIABLES:
        value = env.get(name)
        if value is not None and value.strip():
            return None, map_effort(value, EFFORTS)
    effort = None
    for path in settings_files(root, env):
        data = read_file(path)
        try:
            doc = loads(data, path) if data else None
        except UsageError:
            continue
        level = text(doc.get("effortLevel")) if isinstance(doc, dict) else None
        if level is not None and level.strip():
            effort = map_effort(level, EFFORTS)
    return None, effort
