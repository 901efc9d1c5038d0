"""OpenCode's ``bash`` calls and the end of its session's prompt, as our plugin hands them
over, decoded row by row (SPEC §7 "Hooks"; docs/agents/opencode.md, "What a bash command
changes"): ``tool.execute.before`` of ``bash`` keeps the work tree, its
``tool.execute.after`` records what changed since, ``session.idle`` closes the session's
background windows. Arguments as anomalyco/opencode ``packages/opencode/src/tool/bash.ts``
names them (``command``, ``timeout``, ``description``; ``workdir`` in newer versions)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gentle_hooks.agents import opencode
from gentle_hooks.agents.event import SHELL_AFTER, SHELL_BEFORE, SHELL_END

SED = "touch a.py"  # names no directory


def oc_input(tool: str | None, args: object, hook: str = "tool.execute.after", **top: Any) -> bytes:
    event = {
        "hook": hook,
        "tool": tool,
        "sessionID": "s1",
        "callID": "c1",
        "args": args,
        "model": {"providerID": "anthropic", "modelID": "claude-opus-4-5"},
        "parentID": None,
        "agent": "build",
        "directory": "/w",
        "worktree": "/w",
        **top,
    }
    return json.dumps(event).encode()


BEFORE = "tool.execute.before"


@pytest.mark.parametrize(
    ("data", "shell", "background", "roots"),
    [
        # bash's tool.execute.before: the work tree is kept before the command
        (oc_input("bash", {"command": SED}, BEFORE), SHELL_BEFORE, False, ()),
        # its tool.execute.after: what changed since is recorded; the pair shares callID
        (oc_input("bash", {"command": SED, "description": "d"}), SHELL_AFTER, False, ()),
        # workdir is where the command runs, named first, as `cd DIR &&` is
        (oc_input("bash", {"command": SED, "workdir": "sub"}), SHELL_AFTER, False, ("sub",)),
        (
            oc_input("bash", {"command": "make -C lib", "workdir": "/w/pkg"}, BEFORE),
            SHELL_BEFORE,
            False,
            ("/w/pkg", "/w/pkg/lib"),
        ),
        # a command that leaves a process running keeps a window open until session.idle
        (oc_input("bash", {"command": f"({SED}) &", "timeout": 5000}), SHELL_AFTER, True, ()),
        # session.idle: the session's prompt is done, its windows close
        (
            oc_input(None, None, "session.idle", callID=None),
            SHELL_END,
            False,
            (),
        ),
        # a tool.execute.before of a writing tool is not a snapshot (only bash's is handed over)
        (oc_input("edit", {"filePath": "a.py"}, BEFORE), None, False, ()),
        (oc_input("read", {"filePath": "a.py"}), None, False, ()),
    ],
    ids=[
        "bash-before",
        "bash-after",
        "bash-workdir",
        "bash-workdir-absolute",
        "bash-background",
        "session.idle",
        "edit-before",
        "read-after",
    ],
)
def test_opencode_shell_rows(
    data: bytes, shell: str | None, background: bool, roots: tuple[str, ...]
) -> None:
    event = opencode.decode(data)
    assert (event.shell, event.background, event.roots) == (shell, background, roots)
    assert (event.session_id, event.cwd, event.model) == ("s1", "/w", "claude-opus-4-5")
    if shell in (SHELL_BEFORE, SHELL_AFTER):
        assert (event.writes, event.tool_call_id, event.not_written) == (
            False,
            "c1",
            opencode.SHELL_NOT_RECORDED,
        )
    if shell == SHELL_END:
        assert (event.tool, event.tool_call_id, event.writes) == (None, None, False)


def test_a_subagents_bash_call_is_the_subagents() -> None:
    """A bash call in a child session is a subagent's, as its file writes are: an agent
    whose configuration names no model runs on its parent's (unknown, with the note)."""
    data = oc_input("bash", {"command": SED}, parentID="p0", agent="general")
    event = opencode.decode(data)
    assert (event.shell, event.agent, event.model) == (SHELL_AFTER, "general", None)
    assert event.notes == (opencode.inherited_agent("general"),)
