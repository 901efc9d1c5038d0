"""OpenCode's tool calls, as our plugin hands them to ``record --from opencode``, decoded
(SPEC §7 "Hooks"; docs/agents/opencode.md).

Room ``agents`` (standard library only). OpenCode has no hook file: it loads plugin modules
(opencode.ai/docs/plugins). The plugin ``install --agent opencode`` writes
(:func:`gentle_hooks.agents.ownfile.opencode_plugin`) hands each call of OpenCode's
``tool.execute.after`` hook to the recorder as one JSON object on standard input, built from
the documented hook arguments (``@opencode-ai/plugin`` ``Hooks``, anomalyco/opencode
``packages/plugin/src/index.ts`` @ 0149423929ff586f412ecb4a09573c2e06627222):

* ``tool``, ``sessionID``, ``callID`` of ``tool.execute.after``; ``args``: the call's
  arguments (``tool.execute.before``'s ``output.args``; newer versions also pass them to
  ``tool.execute.after``);
* ``model``: the session's last ``chat.message`` input ``model`` (``providerID``,
  ``modelID``) or ``chat.params`` input ``model.id``, and ``reasoningEffort`` from
  ``chat.params``'s provider ``options`` when the provider sets one; null when the plugin
  saw neither for that session (a subagent runs in its own session, whose model is its
  own only when its agent names one: below);
* ``parentID``: the parent of the call's session, from the ``session.created`` and
  ``session.updated`` events (``event`` hook; the SDK's ``Session.parentID``), and ``agent``:
  the session's agent as ``chat.params`` named it. The ``task`` tool runs a subagent in a
  child session (``Session.create({ parentID: ctx.sessionID, ... })``, anomalyco/opencode
  ``packages/opencode/src/tool/task.ts``): a call whose session has a parent is the
  subagent's, recorded under the shared subagent rule
  (:func:`gentle_hooks.services.agent_record.record_from_runtime`): never the hook entry's
  ``GENTLE_WRITER_*`` or flags. The task tool runs the child on ``agent.model ?? <the
  parent message's model>`` (``task.ts`` @ 005201e9a25c7b208937f9995c02c20c3b05b222), so
  the child session's ``chat.params`` model is its own only when the agent's configuration
  names one (:func:`agent_model`); otherwise it repeats the parent's, and the write is
  recorded ``unknown`` (an inherited writer is unknown, so small: seed 000) with a note, as
  Claude Code's, Codex's and Gemini CLI's subagents are;
* ``directory``, ``worktree``: the plugin context's.

File-writing tools: ``write``, ``edit``, ``multiedit`` (``filePath``) and ``apply_patch``
(an envelope under ``patchText``), and the older ``patch``. The call id is OpenCode's
``callID``. A ``reasoningEffort`` that is not one of our levels is unknown. What a call
replaced (``edit``'s ``oldString``/``newString``, at every occurrence under ``replaceAll``;
``multiedit``'s ``edits`` of them; the hunks of an envelope, in each file it updates)
measures the write from the file just before it
(:attr:`~gentle_hooks.agents.event.RuntimeEvent.replacements`, ``patched``).

OpenCode's shell tool, ``bash``, names no file it writes (its arguments: ``command``,
``timeout``, ``description``, anomalyco/opencode ``packages/opencode/src/tool/bash.ts`` @
00376c261d1de127b2e56caf3568ccd8ded1e861, run in the instance directory; newer versions add
``workdir``, where the command runs when set: ``const cwd = params.workdir ||
Instance.directory``, as in the OpenCode fork Kilo-Org/kilo ``packages/opencode/src/tool/
bash.ts`` @ 776355ce772a9e6ce7065848509dfa9f9f8d38f1). The plugin hands over its
``tool.execute.before`` (:data:`SHELL_SNAPSHOT`: the work tree is kept) and its
``tool.execute.after`` records what changed since, as every runtime's shell tool is
(:mod:`gentle_hooks.services.agent_shell`); the two share ``callID``. ``workdir`` is named
first among the directories the command writes in, as ``cd DIR &&`` is
(:func:`gentle_hooks.agents.shell_dirs.named_dirs`; relative to the directory). A command that
leaves a process running (:func:`gentle_hooks.agents.background.command_leaves_process`) is
:attr:`~gentle_hooks.agents.event.RuntimeEvent.background`; the ``session.idle`` event (SDK
``EventSessionIdle``, ``properties.sessionID``: ``packages/sdk/js/src/gen/types.gen.ts`` @
00078e84e684386196bc4a48aefc91c80900cc4b) ends the session's prompt (:data:`TURN_END`), where
its windows close.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Mapping

from gentle_hooks.agents.definitions import declared, own_model, project_dirs, subagent_label
from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    RuntimeEvent,
    edit_replacements,
    map_effort,
    tool_call,
)
from gentle_hooks.agents.patch import envelope_files, envelope_replacements, patch_paths
from gentle_hooks.agents.payload import hook_input, loads, member, read_file, text
from gentle_hooks.agents.shell_call import shell_call, turn_end
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import replace

NAME = "opencode"
#: OpenCode's file-writing tools.
WRITE_TOOLS = ("write", "edit", "multiedit", "apply_patch", "patch")
#: ``reasoningEffort`` values, as the AI SDK's providers name them, mapped to our levels.
EFFORTS: dict[str, str] = {**OUR_EFFORTS, "none": "off"}
#: OpenCode's shell tool: it can change files, but its arguments name none of them.
SHELL_TOOL = "bash"
#: The hook our plugin hands over before a :data:`SHELL_TOOL` call runs: the work tree is kept.
SHELL_SNAPSHOT = "tool.execute.before"
#: The event our plugin hands over when a session's prompt is done: its background shell
#: windows close (:mod:`gentle_hooks.services.agent_windows`).
TURN_END = "session.idle"
#: Why a :data:`SHELL_TOOL` call records nothing when no snapshot before it was kept (after
#: ``the bash call of OpenCode``).
SHELL_NOT_RECORDED = (
    "ran a shell command: its arguments name no file it changed, and no snapshot of the work "
    "tree from before it was kept (our plugin's tool.execute.before takes it; a plugin "
    "written by an earlier install has none: install the recorder again, then restart "
    "OpenCode), so nothing it changed is recorded from this call"
)


#: The most agent definition files read under one configuration directory.
_AGENT_FILES = 200
#: OpenCode's configuration files in a directory (JSON; JSONC, whose full-line ``//``
#: comments are dropped: another comment makes the file unread).
_CONFIG_FILES = ("opencode.json", "opencode.jsonc")


def _config_agent(path: str, agent: str) -> str | None:
    """The ``model`` the configuration file at ``path`` sets for ``agent`` (its ``agent``
    object's member), None when it sets none or cannot be read."""
    data = read_file(path)
    if data is None:
        return None
    if path.endswith(".jsonc"):
        lines = data.split(b"\n")
        data = b"\n".join(ln for ln in lines if not ln.lstrip().startswith(b"//"))
    try:
        doc = loads(data, path)
    except UsageError:
        return None
    return text(member(doc, "agent", agent, "model"))


def _markdown_agent(base: str, agent: str) -> str | None:
    """The ``model:`` the Markdown agent file of ``agent`` under ``base`` declares
    (``{agent,agents}/**/*.md``, an agent named by its path below that folder without
    ``.md``); None when there is none or it declares no model."""
    for top in ("agent", "agents"):
        where = os.path.join(base, top)
        found = glob.glob(os.path.join(glob.escape(where), "**", "*.md"), recursive=True)
        for path in sorted(found)[:_AGENT_FILES]:
            if os.path.relpath(path, where)[: -len(".md")].replace(os.sep, "/") == agent:
                return declared(path)[1]
    return None


def config_layers(cwd: str | None, env: Mapping[str, str]) -> list[tuple[str, bool]]:
    """OpenCode's configuration directories whose agents apply to a session in ``cwd``,
    nearest first, each with whether its Markdown agents are read: each directory from
    ``cwd`` up to the repository's top (:func:`gentle_hooks.agents.definitions.project_dirs`:
    its ``opencode.json`` only) and its ``.opencode``, then ``$OPENCODE_CONFIG_DIR``, then
    the global ``$XDG_CONFIG_HOME/opencode`` (else ``~/.config/opencode``)."""
    out: list[tuple[str, bool]] = []
    for d in project_dirs(cwd):
        out += [(os.path.join(d, ".opencode"), True), (d, False)]
    if env.get("OPENCODE_CONFIG_DIR"):
        out.append((env["OPENCODE_CONFIG_DIR"], True))
    home = env.get("HOME") or os.path.expanduser("~")
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    out.append((os.path.join(xdg, "opencode"), True))
    return list(dict.fromkeys(out))


def agent_model(agent: str | None, cwd: str | None, env: Mapping[str, str]) -> str | None:
    """The model OpenCode's configuration names for the agent ``agent``, None when none
    does (the task tool then runs the child on its parent's model).

    OpenCode's agents (opencode.ai/docs/agents) are declared in a configuration's ``agent``
    object (``"agent": {"review": {"model": "anthropic/claude-haiku-4-5"}}``) or as
    Markdown files ``{agent,agents}/**/*.md`` of a configuration directory whose front
    matter sets ``model:`` (anomalyco/opencode ``packages/opencode/src/config/config.ts``,
    ``loadAgent``). Each of :func:`config_layers`, nearest first: its Markdown agents, then
    its ``opencode.json``/``opencode.jsonc``; then ``$OPENCODE_CONFIG``'s file. The first
    that sets a model for ``agent`` gives it (a nearer entry without one leaves it to the
    next, as OpenCode merges them). The model is the ``modelID`` after the ``providerID/``,
    as the plugin's ``model.modelID`` is. None for a built-in agent not redefined
    (``general``, ``explore``), a missing ``agent``, or a name with ``..`` or ``\\``."""
    if not agent or "\\" in agent or ".." in agent.split("/"):
        return None
    found: list[str | None] = []
    for base, markdown in config_layers(cwd, env):
        found += [_markdown_agent(base, agent)] if markdown else []
        found += [_config_agent(os.path.join(base, f), agent) for f in _CONFIG_FILES]
        if any(own_model(m) for m in found):
            break
    if env.get("OPENCODE_CONFIG"):
        found.append(_config_agent(env["OPENCODE_CONFIG"], agent))
    model = next((m for m in found if m and own_model(m)), None)
    return model.split("/", 1)[-1] if model else None


def inherited_agent(agent: str | None) -> str:
    """The note of a subagent whose agent configuration names no model (:func:`agent_model`)."""
    who = subagent_label(agent)
    return (
        f"{who} of OpenCode runs on its parent's model (the task tool uses the agent's own "
        "model only when its configuration names one: no 'model' for it in opencode.json "
        "'agent' or .opencode/agents/*.md of the project, OPENCODE_CONFIG_DIR or "
        "~/.config/opencode), so its model is recorded as unknown"
    )


def decode(data: bytes) -> RuntimeEvent:
    """Decode the plugin's JSON object.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    call = tool_call(event, "tool", "args", "sessionID", cwd="directory", hook="hook")
    body = text(member(call.args, "patchText"))
    if body:
        found = call.paths + [p for p in patch_paths(body) if "\0" not in p]
        call = replace(call, paths=found, unreadable=None if found else call.unreadable)
    call = replace(call, cwd=call.cwd or text(event.get("worktree")))
    effort_name = text(member(event, "model", "reasoningEffort"))
    parent = text(event.get("parentID"))
    pairs, every = edit_replacements(call.args, "oldString", "newString")
    model = text(member(event, "model", "modelID"))
    effort = map_effort(effort_name, EFFORTS) if effort_name else None
    agent = text(event.get("agent"))
    own = agent_model(agent, call.cwd, os.environ) if parent else None
    if parent and own is None:
        # the child runs on its parent's model: unknown, so small (seed 000)
        model, effort = None, None
    out = call.runtime_event(
        NAME,
        tool_call_id=call.own_id(NAME, "callID", call.session),
        writes=call.writes_on(("tool.execute.after",), WRITE_TOOLS),
        model=model,
        effort=effort,
        agent=(agent or "subagent") if parent else None,
    )
    if parent and own is None:
        out = replace(out, notes=(inherited_agent(agent),))
    if out.hook_event == TURN_END:  # the session's prompt is done: its windows close
        return turn_end(out)
    if call.tool == SHELL_TOOL:
        before = out.hook_event == SHELL_SNAPSHOT
        workdir = member(call.args, "workdir")  # it runs there
        return shell_call(
            out, call.args, before=before, not_recorded=SHELL_NOT_RECORDED, workdir=workdir
        )
    if not pairs:
        pairs, every = envelope_replacements(call.args), frozenset()
    patched = () if pairs else envelope_files(call.args)  # several files: each its own
    return replace(out, replacements=pairs, replace_all=every, patched=patched)
