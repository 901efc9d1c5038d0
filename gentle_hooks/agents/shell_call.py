"""A plugin runtime's shell call and turn end, as the events a decoder returns (SPEC §7
"Hooks"; docs/agents/pi.md, docs/agents/opencode.md).

Room ``agents`` (standard library and the rooms below). Pi's extension and OpenCode's
plugin hand over the same three moments of a shell tool: before it runs (the work tree is
kept), after it ran (what changed since is recorded) and the end of the agent's turn (the
session's background windows close); both decoders turn them into a
:class:`~gentle_hooks.agents.event.RuntimeEvent` here (:mod:`gentle_hooks.services.agent_shell`,
:mod:`gentle_hooks.services.agent_windows` take them from there).
"""

from __future__ import annotations

from gentle_hooks.agents.background import command_leaves_process
from gentle_hooks.agents.event import SHELL_AFTER, SHELL_BEFORE, SHELL_END, RuntimeEvent
from gentle_hooks.agents.payload import member
from gentle_hooks.agents.shell_dirs import named_dirs
from gentle_hooks.values.frozen import replace


def turn_end(out: RuntimeEvent) -> RuntimeEvent:
    """``out`` as the end of the agent's turn: no tool, no write, the session's windows
    close (:data:`~gentle_hooks.agents.event.SHELL_END`)."""
    return replace(out, tool=None, tool_call_id=None, writes=False, shell=SHELL_END)


def shell_call(
    out: RuntimeEvent,
    args: object,
    *,
    before: bool,
    not_recorded: str,
    workdir: object = None,
) -> RuntimeEvent:
    """``out`` as a shell tool's call whose arguments ``args`` hold its ``command``:
    :data:`~gentle_hooks.agents.event.SHELL_BEFORE` when ``before`` (the snapshot event)
    else :data:`~gentle_hooks.agents.event.SHELL_AFTER`; it writes no file by name (what
    it changed is found by comparing the work tree before and after it; ``not_recorded``:
    why nothing is when no snapshot was kept); background when the command leaves a
    process running; the directories it names (a submodule, a nested repository), from
    ``workdir`` when the tool runs it there."""
    command = member(args, "command")
    return replace(
        out,
        writes=False,
        not_written=not_recorded,
        shell=SHELL_BEFORE if before else SHELL_AFTER,
        background=command_leaves_process(command),  # `cmd &`, nohup, setsid...
        roots=named_dirs(command, workdir),  # a submodule or nested repository it names
    )
