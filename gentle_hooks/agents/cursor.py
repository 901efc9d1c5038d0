"""Cursor's ``afterFileEdit`` hook input, decoded (SPEC §7 "Hooks"; docs/agents/cursor.md).

Room ``agents`` (standard library only). Cursor runs the hook after its Agent edited a file
and hands it one JSON object (Cursor's hooks documentation, cursor.com/docs/agent/hooks, as
copied in pcomans/caruso ``reference/cursor_hooks.md``): the common fields
``conversation_id``, ``generation_id``, ``model``, ``hook_event_name``, ``cursor_version``,
``workspace_roots`` and ``user_email``, plus ``file_path`` (absolute) and ``edits``
(``old_string``/``new_string`` pairs).

The input names no tool call: the replay id is derived from the conversation, the
generation, the file and its edits, so two identical edits of one file in one generation
share it. The ``edits`` tell them apart (``RuntimeEvent.replacements``): a second edit
leaves the file as the first left it with the edits made once more, a replay leaves it as
the first left it. ``model`` is "the model configured for the composer"; Cursor's ``auto``
and ``default`` name no model, so they are recorded as unknown. Cursor exposes no effort: it
is unknown unless ``GENTLE_WRITER_EFFORT`` says. The working directory is the workspace root
that holds the file (else the first root).

``beforeShellExecution`` and ``afterShellExecution`` inputs bracket an Agent shell command
(:func:`shell_event`): the work tree is kept before it, and what changed since is recorded
after it. A command that leaves a process running
(:func:`gentle_hooks.agents.background.command_leaves_process`: ``cmd &``, ``nohup``,
``setsid``...) is :attr:`RuntimeEvent.background`: its window stays open until the ``stop``
input (:data:`TURN_END`, the agent loop ended) closes it.

``subagentStart`` and ``subagentStop`` inputs (the same common fields, ``hook_event_name``
naming the event) decode as the subagent's start and stop
(:attr:`gentle_hooks.agents.event.RuntimeEvent.lifecycle`); their ``model`` is the
composer's, the parent's, so it is never taken as the child's. They carry every workspace
root (:attr:`gentle_hooks.agents.event.RuntimeEvent.roots`): the subagent's writes may land in
any of them.
"""

from __future__ import annotations

import os

from gentle_hooks.agents.background import command_leaves_process
from gentle_hooks.agents.event import (
    SHELL_AFTER,
    SHELL_BEFORE,
    SHELL_END,
    SUBAGENT_START,
    SUBAGENT_STOP,
    RuntimeEvent,
    derived_call_id,
    replacement_pairs,
    subagent_event,
    unique,
)
from gentle_hooks.agents.patch import PATH_KEYS, written_paths
from gentle_hooks.agents.payload import hook_input, model_name, text
from gentle_hooks.agents.shell_dirs import named_dirs
from gentle_hooks.values.frozen import replace

NAME = "cursor"
#: The event ``install --agent cursor`` wires: every call of it is a file write.
EVENT = "afterFileEdit"
#: The subagent events ``install --agent cursor`` wires besides ``afterFileEdit``, and
#: what each is.
SUBAGENT_EVENTS = {"subagentStart": SUBAGENT_START, "subagentStop": SUBAGENT_STOP}
#: Values of ``model`` that let Cursor choose, and so name no model.
NO_MODEL = ("auto", "default")
#: The events around an Agent shell command (cursor.com/docs/agent/hooks,
#: ``beforeShellExecution``: ``command``, ``cwd``; ``afterShellExecution``: ``command``,
#: ``output``, ``duration``): the first snapshots the work tree, the second records what
#: changed since (:mod:`gentle_hooks.services.agent_shell`).
SHELL_BEFORE_EVENT = "beforeShellExecution"
SHELL_AFTER_EVENT = "afterShellExecution"
#: The event that runs when the agent loop ends (cursor.com/docs/agent/hooks, ``stop``: the
#: common fields and ``status``, ``completed``, ``aborted`` or ``error``): a background
#: shell command's window closes (:mod:`gentle_hooks.services.agent_windows`). Wired by
#: ``install --agent cursor``.
TURN_END = "stop"
#: Why a shell command records nothing when no snapshot before it was kept (after ``the
#: afterShellExecution call of Cursor``).
SHELL_NOT_RECORDED = (
    "ran a shell command: its input names no file it changed, and no snapshot of the work "
    "tree from before it was kept (the beforeShellExecution hook takes it and its line says "
    "why it kept none; if it did not run, install the recorder again), so "
    "nothing it changed is recorded from this call"
)


def shell_event(event: dict[str, object], roots: list[str]) -> RuntimeEvent:
    """A ``beforeShellExecution`` or ``afterShellExecution`` input as a shell snapshot
    event. Neither names a call id: the pair is found by the conversation, the generation and
    the ``command`` (:attr:`RuntimeEvent.shell_key`); the record's replay id adds the
    ``output`` and ``duration`` of the run. The work tree is the ``cwd`` the before input
    names (else the first workspace root); the after input names none, so it is the first
    workspace root: a command run in a repository other than the first root's is not
    recorded (docs/agents/cursor.md says so)."""
    name = text(event.get("hook_event_name"))
    before = name == SHELL_BEFORE_EVENT
    conversation = text(event.get("conversation_id"))
    generation = event.get("generation_id")
    command = event.get("command")
    cwd = (text(event.get("cwd")) if before else None) or workspace_for(None, roots)
    return RuntimeEvent(
        source=NAME,
        session_id=conversation,
        tool_call_id=derived_call_id(
            NAME,
            conversation,
            generation,
            name,
            command,
            event.get("output"),
            event.get("duration"),
        ),
        cwd=cwd,
        paths=(),
        writes=False,
        tool=None,  # said "the shell call of Cursor"
        model=model_name(event.get("model"), NO_MODEL),
        effort=None,
        hook_event=name,
        not_written=SHELL_NOT_RECORDED,
        shell=SHELL_BEFORE if before else SHELL_AFTER,
        shell_key=derived_call_id(NAME, conversation, generation, command),
        background=command_leaves_process(command),  # `cmd &`, nohup, setsid...
        roots=named_dirs(command),  # a submodule or nested repository it names (agent_above)
    )


def workspace_for(path: str | None, roots: list[str]) -> str | None:
    """The workspace root holding ``path``, else the first root, else None."""
    if path:
        for root in roots:
            if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
                return root
    return roots[0] if roots else None


def decode(data: bytes) -> RuntimeEvent:
    """Decode Cursor's hook input.

    Raises:
        UsageError: not a bounded JSON object.
    """
    event = hook_input(data, NAME)
    raw_roots = event.get("workspace_roots")
    roots = [r for r in raw_roots if text(r)] if isinstance(raw_roots, list) else []
    found, unreadable = written_paths({k: event[k] for k in PATH_KEYS if k in event}, "the input")
    path = found[0] if found else None
    conversation = text(event.get("conversation_id"))
    name = text(event.get("hook_event_name"))
    if name in (SHELL_BEFORE_EVENT, SHELL_AFTER_EVENT):
        return shell_event(event, roots)
    if name == TURN_END:  # the agent loop ended: the session's windows close
        return RuntimeEvent(
            source=NAME,
            session_id=conversation,
            tool_call_id=None,
            cwd=workspace_for(None, roots),
            paths=(),
            writes=False,
            tool=None,
            model=model_name(event.get("model"), NO_MODEL),
            effort=None,
            hook_event=name,
            shell=SHELL_END,
        )
    if name in SUBAGENT_EVENTS:
        # only the common fields are documented: no subagent name is read, and the common
        # "model" is the composer's, the parent's, never the child's
        # every root: the session's later writes may land in any of them
        bracket = subagent_event(
            NAME, SUBAGENT_EVENTS[name], conversation, None, roots[0] if roots else None, name
        )
        return replace(bracket, roots=tuple(str(r) for r in roots))
    return RuntimeEvent(
        source=NAME,
        session_id=conversation,
        tool_call_id=derived_call_id(
            NAME, conversation, event.get("generation_id"), path, event.get("edits")
        ),
        cwd=workspace_for(path, roots),
        paths=unique(found),
        writes=name in (EVENT, None),
        tool=name,
        model=model_name(event.get("model"), NO_MODEL),
        effort=None,
        hook_event=text(event.get("hook_event_name")),
        unreadable=unreadable,
        replacements=replacement_pairs(event.get("edits"), "old_string", "new_string"),
    )
