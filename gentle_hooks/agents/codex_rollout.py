"""Codex CLI's rollout transcript read for the shell calls whose ``PostToolUse`` never came and
the patches it shows applied (SPEC §7 "Hooks"; docs/agents/codex.md, "A command that runs in
the background", "A patch that sent no ``PostToolUse``").

Room ``agents`` (standard library only). Codex's unified exec returns a shell call after
``yield_time_ms`` while its command goes on, and current Codex sends that call's
``PostToolUse`` only once a ``write_stdin`` poll sees the command end (openai/codex pull
request #18888): a command no poll sees end sends none, so what it writes is not recorded
through the hook input. The ``Stop`` input names the session's rollout (``transcript_path``,
openai/codex ``codex-rs/core/src/hook_runtime.rs``, ``run_turn_stop_hooks``), whose JSON
lines (``{"timestamp", "type", "payload"}``, ``RolloutItem`` tagged by ``type``:
``codex-rs/protocol/src/protocol.rs``) tell those calls apart:

* ``response_item`` of ``payload.type`` ``function_call`` (``name``, ``arguments``, a JSON
  text, and ``call_id``: ``codex-rs/protocol/src/models.rs``, ``ResponseItem``); the
  ``call_id`` is the ``tool_use_id`` of the call's hook inputs
  (``codex-rs/core/src/tools/registry.rs``, ``dispatch_any``);
* ``response_item`` ``function_call_output`` (``call_id``, ``output``: the text the model
  read, or a list of content items with ``text``; older versions an object with
  ``content``): unified exec's header
  (:func:`~gentle_hooks.agents.codex_output.exec_status`) says whether the command still
  runs (``Process running with session ID N``) or how it ended (``Process exited with
  code N``);
* a ``write_stdin`` call (``arguments`` ``{"session_id": N, ...}``) and its output: the
  command of session N ended, or still runs;
* ``event_msg`` of ``payload.type`` ``exec_command_end`` (``call_id``, ``exit_code``), which
  some versions persist: the call ended;
* ``response_item`` ``custom_tool_call`` of ``name`` ``apply_patch`` (the freeform tool:
  ``status``, ``call_id``, ``name``, ``input``, the patch envelope as text) and its
  ``custom_tool_call_output`` (``call_id``, ``output``: text, or content items):
  ``codex-rs/protocol/src/models.rs``, ``ResponseItem::CustomToolCall`` and
  ``CustomToolCallOutput``; the other forms of an ``apply_patch`` call (the JSON tool, a
  shell call or ``local_shell_call`` running an envelope): :func:`patches`, which gives
  those whose output says they applied.

:func:`unreported` gives the shell calls whose last word is "still running", or that have
no output yet: their ``PreToolUse`` snapshot may still wait for a ``PostToolUse`` that will
never come. :func:`read_rollout` gives both from one read. The read is bounded: only the
last :data:`TAIL` bytes (whole lines), a line that is not a JSON object skipped, an
unreadable file giving nothing.
"""

from __future__ import annotations

import contextlib
import os

from gentle_hooks.agents.codex_output import arguments, exec_status, patch_applied
from gentle_hooks.agents.patch import shell_patch
from gentle_hooks.agents.payload import json_lines, line_blocks_backwards, member, text
from gentle_hooks.values.frozen import frozen

#: The most bytes read from the end of a rollout.
TAIL = 16 * 1024 * 1024
#: The most calls :func:`unreported` gives (the newest kept).
MAX_CALLS = 32
#: The function names of Codex's shell tools in a rollout (``exec_command``: unified exec;
#: ``shell``, ``shell_command``, ``container.exec``: the one-shot ones; openai/codex
#: ``codex-rs/protocol/src/models.rs``, ``ShellToolCallParams``).
SHELL_CALLS = ("exec_command", "shell", "shell_command", "container.exec")
#: The unified exec tool that polls or feeds a running command by its session id.
POLL_CALL = "write_stdin"


@frozen
class Unreported:
    """A shell call of the rollout whose command may still run.

    Attributes:
        call_id: its ``call_id`` (its hook inputs' ``tool_use_id``); running: the rollout's
            last word on it is "still running" (False: it has no output yet).
    """

    call_id: str
    running: bool


def _output_text(value: object) -> str:
    """The text of a ``function_call_output``'s ``output``."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return text(value.get("content")) or ""
    if isinstance(value, list):
        return "\n".join(t for item in value if (t := text(member(item, "text"))))
    return ""


#: What a line :func:`read_rollout` reads holds (the others are not parsed at all).
_WANTED = (b'"function_call', b'"exec_command_end"', b'"custom_tool_call', b'"local_shell_call')
#: The tool that applies a patch envelope: a ``custom_tool_call``'s ``name`` (the freeform
#: tool) or a ``function_call``'s (the JSON tool, its envelope under ``input``).
PATCH_TOOL = "apply_patch"


def _lines(path: str) -> list[dict[str, object]]:
    """The JSON lines of the last :data:`TAIL` bytes of the rollout at ``path`` that hold
    one of :data:`_WANTED`, in order."""
    with contextlib.closing(line_blocks_backwards(path, limit=TAIL)) as blocks:
        found = list(blocks)
    kept = [
        raw
        for block in reversed(found)
        for raw in block.splitlines()
        if any(w in raw for w in _WANTED)
    ]
    return json_lines(b"\n".join(kept))


def read_rollout(path: str | None) -> tuple[tuple[Unreported, ...], tuple[Patch, ...]]:
    """(:func:`unreported`, :func:`patches`) of the rollout at ``path``, its tail read once."""
    if not path:
        return (), ()
    lines = _lines(path)
    return _unreported(lines), _patches(lines)


def unreported(path: str | None) -> tuple[Unreported, ...]:
    """The shell calls of the rollout at ``path`` whose command may still run: the last
    output of the call (or of a ``write_stdin`` poll of its session) says it runs, or it
    has none, and no ``exec_command_end`` names it; in the rollout's order, the newest
    :data:`MAX_CALLS`. () when ``path`` is None or unreadable."""
    return read_rollout(path)[0]


def _unreported(lines: list[dict[str, object]]) -> tuple[Unreported, ...]:
    """:func:`unreported` of the rollout's :func:`_lines`."""
    state: dict[str, bool] = {}  # call id -> still running (False: no output yet)
    sessions: dict[str, str] = {}  # unified exec session id -> the call that started it
    polls: dict[str, str] = {}  # write_stdin call id -> the session it polls
    for line in lines:
        payload = line.get("payload")
        kind = text(member(payload, "type"))
        call = text(member(payload, "call_id"))
        if call is None or not isinstance(payload, dict):
            continue
        if kind == "function_call" and payload.get("name") in SHELL_CALLS:
            state[call] = False
        elif kind == "function_call" and payload.get("name") == POLL_CALL:
            session = arguments(payload.get("arguments")).get("session_id")
            if isinstance(session, (int, str)) and not isinstance(session, bool):
                polls[call] = str(session)
        elif kind == "function_call_output":
            running, _ = exec_status(_output_text(payload.get("output")))
            started = sessions.get(polls.pop(call, "")) if call not in state else call
            if started is None or started not in state:
                continue
            if running is not None and call == started:
                sessions[running] = call
            if running is None:
                state.pop(started)  # it ended (or its output says nothing of a process)
            else:
                state[started] = True
        elif kind == "exec_command_end":
            state.pop(call, None)
    calls = [Unreported(call_id=c, running=r) for c, r in state.items()]
    return tuple(calls[-MAX_CALLS:])


@frozen
class Patch:
    """An ``apply_patch`` call of a rollout, in any of its forms, with its output.

    Attributes:
        call_id: its ``call_id`` (the ``tool_use_id`` of its hook inputs); envelope: the
            patch it applies; output: the text of its output item; where: the directory
            its paths are taken from, relative to the session's ``cwd`` unless absolute
            (a shell form's ``workdir`` and ``cd DIR &&``), None for the ``cwd`` itself.
    """

    call_id: str
    envelope: str
    output: str
    where: str | None = None


def patches(path: str | None) -> tuple[Patch, ...]:
    """The ``apply_patch`` calls of the rollout at ``path`` whose output says they applied
    (:func:`~gentle_hooks.agents.codex_output.patch_applied`), in the rollout's order, the
    newest :data:`MAX_CALLS`; a call with no output yet, or one whose envelope is not text,
    is left out. () when ``path`` is None or unreadable. The forms (:func:`_called_patch`):

    * ``custom_tool_call`` of ``name`` ``apply_patch`` (the freeform tool), its ``input``
      the envelope, its output a ``custom_tool_call_output``;
    * ``function_call`` of ``name`` ``apply_patch`` (the JSON tool: openai/codex
      ``codex-rs/core/src/tools/handlers/apply_patch.rs``, ``ApplyPatchToolArgs``), its
      ``arguments`` a JSON text holding the envelope under ``input``;
    * a shell call whose command runs an envelope, which Codex intercepts and applies
      (``apply_patch.rs``, ``intercept_apply_patch``; the command forms:
      :func:`gentle_hooks.agents.patch.shell_patch`): a ``function_call`` of a
      :data:`SHELL_CALLS` tool (``arguments`` ``command``, a list or text, or unified
      exec's ``cmd``; ``workdir``), or a ``local_shell_call`` (``action.command``,
      ``action.working_directory``: ``codex-rs/protocol/src/models.rs``,
      ``LocalShellAction::Exec``);

    the last three answered by a ``function_call_output`` of the same ``call_id``."""
    return read_rollout(path)[1]


def _called_patch(kind: str | None, payload: dict[str, object]) -> tuple[str, str | None] | None:
    """(envelope, directory) of a rollout item that calls ``apply_patch`` in one of the
    forms :func:`patches` names; None for any other item."""
    name = payload.get("name")
    if kind == "custom_tool_call" and name == PATCH_TOOL:
        body = payload.get("input")
        return (body, None) if isinstance(body, str) and body.strip() else None
    if kind == "function_call" and name == PATCH_TOOL:
        body = arguments(payload.get("arguments")).get("input")
        return (body, None) if isinstance(body, str) and body.strip() else None
    if kind == "function_call" and name in SHELL_CALLS:
        args = arguments(payload.get("arguments"))
        command, workdir = args.get("command", args.get("cmd")), args.get("workdir")
    elif kind == "local_shell_call":
        command = member(payload, "action", "command")
        workdir = member(payload, "action", "working_directory")
    else:
        return None
    found = shell_patch(command)
    if found is None:
        return None
    parts = [d for d in (text(workdir), found[1]) if d]
    return found[0], os.path.join(*parts) if parts else None


def _patches(lines: list[dict[str, object]]) -> tuple[Patch, ...]:
    """:func:`patches` of the rollout's :func:`_lines`."""
    calls: dict[str, tuple[str, str | None]] = {}
    done: dict[str, Patch] = {}
    outputs = ("custom_tool_call_output", "function_call_output")
    for line in lines:
        payload = line.get("payload")
        kind = text(member(payload, "type"))
        call = text(member(payload, "call_id"))
        if call is None or not isinstance(payload, dict):
            continue
        if kind in outputs and call in calls:
            output = _output_text(payload.get("output"))
            if patch_applied(output):
                envelope, where = calls.pop(call)
                done[call] = Patch(call, envelope, output, where)
        elif (found := _called_patch(kind, payload)) is not None:
            calls[call] = found
    return tuple(list(done.values())[-MAX_CALLS:])
