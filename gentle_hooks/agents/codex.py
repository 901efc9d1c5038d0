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
Its shell tool (``Bash`` in the input) writes when its command runs an ``apply_patch``
envelope (:func:`gentle_hooks.agents.patch.shell_patch`): the paths are then that envelope's.
Any other command names no file it changes: its ``PreToolUse`` input (same ``tool_use_id``)
is a snapshot event (:attr:`RuntimeEvent.shell`) and its ``PostToolUse`` records what
changed in the work tree since, as Claude Code's ``Bash`` does. A call that leaves a process
running is a background one (its window stays open): its command's words say so, or its
``tool_response`` says the command still runs (:func:`still_running`).
An envelope names what each hunk replaced (one file:
:func:`gentle_hooks.agents.patch.patch_replacements`; several: each file's,
:func:`gentle_hooks.agents.patch.file_replacements`): each file it updates is measured from
itself just before the call.
A call whose ``tool_response`` reports a failure records nothing (:func:`failure`).

The effort is not in the input: it is the ``effort`` of the newest ``turn_context`` line of
the session's rollout transcript (openai/codex ``codex-rs/protocol``, ``TurnContextItem``),
which also names the turn's model when the input lacks one.

When the rollout cannot be read (``transcript_path`` null, or no ``turn_context`` line in
reach), :func:`settings_writer` fills what the input left out from ``config.toml``.

Inside a thread-spawned subagent the input also carries ``agent_id`` (the child thread id)
and ``agent_type`` (openai/codex pull request #22882, "Add subagent identity to hook
inputs"): see :func:`decode` for whose model and effort are recorded then, and
:func:`role_writer` for the agent roles that set a child's own model.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterable, Mapping

from gentle_hooks.agents.background import command_leaves_process
from gentle_hooks.agents.codex_output import failure, still_running
from gentle_hooks.agents.codex_rollout import Patch, read_rollout
from gentle_hooks.agents.definitions import project_dirs, subagent_label
from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    SHELL_AFTER,
    SHELL_BEFORE,
    SHELL_END,
    UNKNOWN,
    RuntimeEvent,
    map_effort,
    snake_tool_call,
)
from gentle_hooks.agents.patch import (
    PATCH_KEYS,
    file_replacements,
    patch_replacements,
    patch_results,
    shell_patch,
    shell_patch_paths,
)
from gentle_hooks.agents.payload import (
    json_lines,
    line_blocks_backwards,
    member,
    read_file,
    text,
)
from gentle_hooks.agents.shell_dirs import named_dirs
from gentle_hooks.bounded import MAX_NESTING, nesting_depth
from gentle_hooks.errors import UsageError
from gentle_hooks.values.frozen import replace

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


def _toml(path: str) -> dict[str, object] | None:
    """The TOML document at ``path`` (nesting bounded); None when absent or unreadable."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data = read_file(path)
    try:
        raw = data.decode("utf-8") if data is not None else ""
    except UnicodeDecodeError:
        return None
    if not raw or nesting_depth(raw) > MAX_NESTING:
        return None
    try:
        doc: dict[str, object] = tomllib.loads(raw)
        return doc
    except ValueError:  # TOMLDecodeError, or a number too long to convert
        return None


def settings_writer(root: str | None, env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(model, effort) as Codex's configuration sets them: ``model`` and
    ``model_reasoning_effort`` of the user's ``$CODEX_HOME/config.toml`` (``~/.codex``),
    overridden by the project's ``.codex/config.toml`` of the work tree ``root`` (Codex layers
    a project's config over the user's); in each file the active ``profile``'s table
    (``[profiles.<name>]``) wins over the top level (developers.openai.com/codex/config-
    reference). The effort maps through :data:`EFFORTS` (another name is ``unknown``); None
    where no file sets one. Used only for what the input and the rollout left out."""
    home = env.get("CODEX_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".codex"
    )
    files = [os.path.join(home, "config.toml")]
    if root is not None:
        files.append(os.path.join(root, ".codex", "config.toml"))
    model = effort = None
    for path in files:
        doc = _toml(path)
        if doc is None:
            continue
        profile = text(doc.get("profile"))
        layers = [doc, member(doc, "profiles", profile) if profile else None]
        for layer in layers:
            if isinstance(layer, dict):
                model = text(layer.get("model")) or model
                effort = map_effort(text(layer.get("model_reasoning_effort")), EFFORTS) or effort
    return model, effort


#: The most role files read (and directories walked) under one ``agents`` directory when
#: looking a role up by name.
_ROLE_FILES = 200


def _role_file(path: str) -> tuple[str | None, str | None, str | None] | None:
    """(``name``, ``model``, ``model_reasoning_effort``) of the role file at ``path``."""
    doc = _toml(path)
    if doc is None:
        return None
    return text(doc.get("name")), text(doc.get("model")), text(doc.get("model_reasoning_effort"))


def _declared_roles(base: str, agent_type: str) -> tuple[str | None, str | None] | None:
    """(model, effort) of role ``agent_type`` in the configuration folder ``base``: its
    ``config.toml`` ``[agents.<agent_type>]`` ``config_file`` (relative to ``base``), else
    a ``*.toml`` under ``base/agents`` whose ``name`` is ``agent_type``; None when neither
    declares it."""
    declared = member(_toml(os.path.join(base, "config.toml")), "agents", agent_type)
    config_file = text(member(declared, "config_file"))
    if config_file is not None:
        found = _role_file(os.path.join(base, os.path.expanduser(config_file)))
        return (found[1], found[2]) if found else (None, None)
    files: list[str] = []
    for seen, (top, dirs, names) in enumerate(os.walk(os.path.join(base, "agents"))):
        dirs.sort()
        files += [os.path.join(top, n) for n in sorted(names) if n.endswith(".toml")]
        if len(files) >= _ROLE_FILES or seen >= _ROLE_FILES:
            break
    for path in files[:_ROLE_FILES]:
        found = _role_file(path)
        if found is not None and found[0] == agent_type:
            return found[1], found[2]
    return None


def role_writer(
    agent_type: str | None, cwd: str | None, env: Mapping[str, str]
) -> tuple[str, str | None] | None:
    """(model, effort) the Codex agent role ``agent_type`` sets for its child, or None when
    it sets no model (the child inherits its parent's configuration).

    Codex loads a role's file as a configuration layer over the parent's
    (openai/codex ``codex-rs/core/src/agent/role.rs``, ``apply_role_to_config``): a role
    declared in a configuration folder's ``config.toml`` as ``[agents.<name>]`` with a
    ``config_file``, or a ``*.toml`` file under that folder's ``agents/`` naming itself
    with ``name`` (``codex-rs/core/src/config/agent_roles.rs``, ``load_agent_roles``). The
    folders read, the nearest first: ``.codex`` of ``cwd`` and each directory above it up
    to the repository's top, then ``$CODEX_HOME`` (``~/.codex``). The role's ``model`` is
    the child's own; its ``model_reasoning_effort`` maps through :data:`EFFORTS` (absent:
    None, the parent's). Codex's built-in ``default`` ("Default agent.", the role used when
    ``spawn_agent`` omits ``agent_type``) and ``worker`` load no layer (``config_file``
    None, ``built_in::configs``): unless redefined in a folder read, None; so is any other
    role not found (``explorer``, whose embedded file changes across versions), or a
    missing or unusable ``agent_type``."""
    if not agent_type or "/" in agent_type or "\\" in agent_type:
        return None
    home = env.get("CODEX_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".codex"
    )
    bases = [os.path.join(d, ".codex") for d in project_dirs(cwd)] + [home]
    for base in bases:
        found = _declared_roles(base, agent_type)
        if found is not None:
            model, effort = found
            return (model, map_effort(effort, EFFORTS)) if model else None
    return None


def inherited_role(agent_type: str | None) -> str:
    """The note of a subagent whose role sets no model of its own (:func:`role_writer`)."""
    who = subagent_label(agent_type)
    return (
        f"{who} of Codex runs on a role that sets no model of its own (the built-in default "
        "and worker roles, a role file without model, or a role gentle-hooks cannot find in "
        ".codex/config.toml [agents] or .codex/agents/*.toml of the project or CODEX_HOME), "
        "so it inherits its parent's configuration: its model is recorded as unknown"
    )


#: The name Codex's hook input gives its shell tools (``exec_command``, ``shell``...):
#: openai/codex ``codex-rs/core/src/tools/hook_names.rs``, ``HookToolName::bash``.
SHELL_TOOL = "Bash"


def decode(data: bytes) -> RuntimeEvent:
    """Decode Codex's hook input (:func:`decoded`, its rollout's ``turn_context`` read)."""
    return decoded(data, None)


def decoded(data: bytes, context: tuple[str | None, str | None] | None) -> RuntimeEvent:
    """Decode Codex's hook input, the newest ``turn_context`` of its rollout being
    ``context`` ((model, effort); None: read it, :func:`turn_context`).

    Inside a thread-spawned subagent the input names it (``agent_id``, the child thread id,
    and ``agent_type``, its role): the model is the child's own only when its role sets one
    (:func:`role_writer`), with the role's effort (else ``unknown``). A role that sets no
    model (``default``, ``worker``, a role file without ``model``, a role not found) runs
    the child on the parent's configuration, and the input's ``model`` and the child's
    rollout then repeat the parent's: model and effort are unknown (an inherited writer is
    unknown, so small: seed 000), with a note (:func:`inherited_role`).

    A ``Bash`` call is a write only when its ``tool_input.command`` runs an ``apply_patch``
    envelope (its paths are the envelope's); any other ``Bash`` call is a shell snapshot
    event (:data:`SHELL_SNAPSHOT` before it, ``PostToolUse`` after it); ``failed`` is
    :func:`failure` of the ``tool_response``.

    Raises:
        UsageError: not a bounded JSON object.
    """
    call = snake_tool_call(data, NAME)
    event = call.event
    shell = call.tool == SHELL_TOOL
    if shell:
        # a shell command is a write only when it runs an apply_patch envelope; its paths
        # are the envelope's, as the apply_patch tool's own input names them
        found = shell_patch_paths(member(event, "tool_input", "command"))
        call = replace(
            call,
            paths=list(found or ()),
            unreadable=None if found else "tool_input.command runs no apply_patch envelope",
        )
    transcript = text(event.get("transcript_path"))
    ctx_model, ctx_effort = turn_context(transcript) if context is None else context
    model, effort = text(event.get("model")) or ctx_model, map_effort(ctx_effort, EFFORTS)
    agent = text(event.get("agent_id"))
    kind = text(event.get("agent_type"))
    role = role_writer(kind, call.cwd, os.environ) if agent is not None else None
    if agent is not None:
        # a child on the parent's configuration (no role model) is unknown, so small (seed 000)
        model = role[0] if role else None
        effort = (role[1] if role else None) or UNKNOWN
    decoded = call.snake_event(
        NAME,
        "turn_id",
        WRITE_TOOLS,
        model=model,
        effort=effort,
        agent=agent,
        failed=failure(event.get("tool_response")),
    )
    envelope = shell_patch(member(event, "tool_input", "command")) if shell else None
    if envelope is None and not shell:
        args = event.get("tool_input")
        bodies: list[object] = [args] if isinstance(args, str) else []
        if isinstance(args, dict):
            bodies += [args.get(key) for key in PATCH_KEYS]
        body = next((b for b in map(text, bodies) if b), None)
        envelope = (body, None) if body else None
    if envelope is not None:
        # applied file by file: a failed call may have written some (content decides); the
        # hunks of an update name what it replaced, in each file of a several-file one
        one = patch_replacements(envelope[0])
        decoded = replace(
            decoded,
            patch_results=tuple(patch_results(*envelope).items()),
            replacements=one,
            patched=() if one else file_replacements(*envelope),
        )
    if agent is not None and role is None:
        decoded = replace(decoded, notes=(inherited_role(kind),))
    if call.tool is None and (decoded.hook_event or "").lower() in TURN_ENDS:
        # the turn ended: its windows close, and the rollout names the shell calls that
        # may still run with no PostToolUse sent (openai/codex pull request #18888)
        shells, applied = read_rollout(transcript)
        calls = tuple((c.call_id, SHELL_TOOL, c.running) for c in shells)
        # and the apply_patch calls it shows applied: recorded under their own call id,
        # once (a PostToolUse that came recorded it already); the rollout read once
        context = (ctx_model, ctx_effort)
        done = tuple(e for p in applied if (e := _patch_event(event, p, context)))
        return replace(decoded, shell=SHELL_END, unreported=calls, patches=done)
    if not shell:
        return decoded
    if call.paths:
        return replace(decoded, writes=True, not_written=None)
    # any other command names no file it changes: its PreToolUse input keeps the work tree,
    # its PostToolUse records what changed since (gentle_hooks.services.agent_shell)
    before = (decoded.hook_event or "").lower() == SHELL_SNAPSHOT.lower()
    return replace(
        decoded,
        writes=False,
        not_written=NO_PATCH,
        shell=SHELL_BEFORE if before else SHELL_AFTER,
        # a command that leaves a process running (`cmd &`, nohup, setsid...), or one unified
        # exec returned from while it still runs: its window
        background=command_leaves_process(member(event, "tool_input", "command"))
        or still_running(event.get("tool_response")),
        # where its writes may land when its directory is in no work tree (agent_above)
        roots=named_dirs(member(event, "tool_input", "command")),
    )


def _patch_event(
    stop: Mapping[str, object], patch: Patch, context: tuple[str | None, str | None]
) -> RuntimeEvent | None:
    """The ``PostToolUse`` event an ``apply_patch`` call of the rollout would have sent
    (its ``tool_input.command`` the envelope, its ``tool_response`` the output, its
    ``tool_use_id`` the call id), with the ``Stop`` input ``stop``'s session, turn, cwd
    (joined with the patch's :attr:`~.codex_rollout.Patch.where`), model, rollout and
    subagent (``agent_id``, ``agent_type``: a subagent's ``Stop`` names its own rollout, so
    the patch is the child's, whose model :func:`decoded` reads as a ``PostToolUse`` of it
    would be read), whose ``turn_context`` is ``context`` (a Codex that sends no
    ``PostToolUse`` of ``apply_patch`` records its patches at ``Stop``); None when that
    input is past the bound of one."""
    keys = ("session_id", "turn_id", "transcript_path", "cwd", "model", "agent_id", "agent_type")
    post = {k: stop[k] for k in keys if k in stop}
    cwd = text(stop.get("cwd"))
    if patch.where is not None and (cwd or os.path.isabs(patch.where)):
        post["cwd"] = os.path.join(cwd or "", patch.where)
    post.update(
        hook_event_name="PostToolUse",
        tool_name="apply_patch",
        tool_input={"command": patch.envelope},
        tool_response=patch.output,
        tool_use_id=patch.call_id,
    )
    try:
        return decoded(json.dumps(post).encode("utf-8", "surrogatepass"), context)
    except UsageError:
        return None


#: The hook event that runs before a :data:`SHELL_TOOL` call (openai/codex
#: ``codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json``: ``tool_name``
#: ``Bash``, ``tool_input.command`` and the ``tool_use_id`` its ``PostToolUse`` carries): its
#: input snapshots the work tree (:mod:`gentle_hooks.services.agent_shell`).
SHELL_SNAPSHOT = "PreToolUse"
#: The hook event that runs when the agent's turn ends (openai/codex
#: ``codex-rs/hooks/schema/generated/stop.command.input.schema.json``: ``session_id``,
#: ``turn_id``, ``cwd``, ``model``, ``stop_hook_active``, ``last_assistant_message``; no
#: tool): a background shell call's window closes
#: (:mod:`gentle_hooks.services.agent_windows`). Wired by ``install --agent codex``.
TURN_END = "Stop"
#: The events that end the agent's turn, lower-cased.
TURN_ENDS = ("stop",)
#: Why a shell call that runs no ``apply_patch`` envelope records nothing when no snapshot
#: of the work tree was kept before it
#: (:attr:`gentle_hooks.agents.event.RuntimeEvent.not_written`).
NO_PATCH = (
    "runs no apply_patch envelope: its input names no file it changed, and no snapshot of "
    "the work tree from before it was kept (the PreToolUse hook of Bash takes it and its "
    "line says why it kept none; if it did not run, install the recorder again), so "
    "nothing it changed is recorded from this call (the commit gate "
    "still applies to a commit with Codex's co-author trailer or made where CODEX_SANDBOX "
    "is set)"
)
