"""Codex CLI's rollout transcript read for the shell calls whose ``PostToolUse`` never came,
and its unified exec output read for whether a command still runs and how it ended (SPEC §7
"Hooks"; docs/agents/codex.md, "A command that runs in the background").

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
  ``content``): unified exec's header (:func:`exec_status`) says whether the command still
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
  ``CustomToolCallOutput``. :func:`patches` gives those whose output says they applied
  (:func:`patch_applied`).

:func:`unreported` gives the shell calls whose last word is "still running", or that have
no output yet: their ``PreToolUse`` snapshot may still wait for a ``PostToolUse`` that will
never come. The read is bounded: only the last :data:`TAIL` bytes (whole lines), a line
that is not a JSON object skipped, an unreadable file giving nothing.
"""

from __future__ import annotations

import contextlib
import json
import re

from gentle_hooks.agents.payload import json_lines, line_blocks_backwards, member, text
from gentle_hooks.values.frozen import frozen

#: The most bytes read from the end of a rollout.
TAIL = 16 * 1024 * 1024
#: The most calls :func:`unreported` gives (the newest kept).
MAX_CALLS = 32
#: How much of an exec output is read for its header (it leads the output).
HEAD = 512
#: The function names of Codex's shell tools in a rollout (``exec_command``: unified exec;
#: ``shell``, ``shell_command``, ``container.exec``: the one-shot ones; openai/codex
#: ``codex-rs/protocol/src/models.rs``, ``ShellToolCallParams``).
SHELL_CALLS = ("exec_command", "shell", "shell_command", "container.exec")
#: The unified exec tool that polls or feeds a running command by its session id.
POLL_CALL = "write_stdin"

#: An exit status line of an exec output header: ``Exit code: N`` (the freeform shell
#: output, openai/codex ``codex-rs/core/src/tools/mod.rs``), ``Shell exit code: N``, or
#: unified exec's ``Process exited with code N`` (``codex-rs/core/src/tools/handlers/
#: unified_exec.rs``, ``format_response``).
_EXIT = re.compile(
    r"^(?:(?:Shell exit code|Exit code): |Process exited with code )(-?\d+)\s*$", re.MULTILINE
)
#: Unified exec's line of a command still running, with the id ``write_stdin`` resumes it by
#: (``command ID`` in some versions).
_RUNNING = re.compile(r"^Process running with (?:session|command) ID (\S+)\s*$", re.MULTILINE)


def header(output: str) -> str:
    """The header of an exec output: its first :data:`HEAD` characters up to its
    ``Output:`` line (what the command printed after it never counts)."""
    return ("\n" + output[:HEAD]).split("\nOutput:", 1)[0]


def exec_status(output: str) -> tuple[str | None, int | None]:
    """(session id of a command still running, exit code) as an exec output's header says
    them, or, for the structured output (a JSON object: openai/codex ``codex-rs/core/src/
    tools/handlers/shell_spec.rs``, ``unified_exec_output_schema``), its ``session_id`` when
    it has no ``exit_code``, and its ``exit_code``; (None, None) when it says neither."""
    if output.lstrip().startswith("{"):
        doc = _arguments(output)
        code, session = doc.get("exit_code"), doc.get("session_id")
        exited = code if isinstance(code, int) and not isinstance(code, bool) else None
        alive = isinstance(session, (int, str)) and not isinstance(session, bool)
        return (str(session) if alive and code is None else None), exited
    head = header(output)
    running = _RUNNING.search(head)
    ended = _EXIT.search(head)
    return (running.group(1) if running else None), (int(ended.group(1)) if ended else None)


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


def _arguments(value: object) -> dict[str, object]:
    """A ``function_call``'s ``arguments``, or a structured output (a JSON text of at most
    :data:`_MAX_JSON` characters) as an object ({} when not one)."""
    if isinstance(value, dict):
        return value
    parsed: object = None
    if isinstance(value, str) and len(value) <= _MAX_JSON:
        with contextlib.suppress(ValueError, RecursionError):
            parsed = json.loads(value)
    return parsed if isinstance(parsed, dict) else {}


#: The longest JSON text parsed of one ``arguments`` or output.
_MAX_JSON = 1024 * 1024
#: What a line :func:`unreported` or :func:`patches` reads holds (the others are not parsed
#: at all).
_WANTED = (b'"function_call', b'"exec_command_end"', b'"custom_tool_call')
#: The freeform tool that applies a patch envelope (a ``custom_tool_call``'s ``name``).
PATCH_TOOL = "apply_patch"
#: How the ``apply_patch`` tool's own text says it applied (``codex-rs/apply-patch``,
#: ``print_summary``), alone or after an exec header.
_APPLIED = "Success. Updated the following files:"


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


def unreported(path: str | None) -> tuple[Unreported, ...]:
    """The shell calls of the rollout at ``path`` whose command may still run: the last
    output of the call (or of a ``write_stdin`` poll of its session) says it runs, or it
    has none, and no ``exec_command_end`` names it; in the rollout's order, the newest
    :data:`MAX_CALLS`. () when ``path`` is None or unreadable."""
    if not path:
        return ()
    state: dict[str, bool] = {}  # call id -> still running (False: no output yet)
    sessions: dict[str, str] = {}  # unified exec session id -> the call that started it
    polls: dict[str, str] = {}  # write_stdin call id -> the session it polls
    for line in _lines(path):
        payload = line.get("payload")
        kind = text(member(payload, "type"))
        call = text(member(payload, "call_id"))
        if call is None or not isinstance(payload, dict):
            continue
        if kind == "function_call" and payload.get("name") in SHELL_CALLS:
            state[call] = False
        elif kind == "function_call" and payload.get("name") == POLL_CALL:
            session = _arguments(payload.get("arguments")).get("session_id")
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
    """An ``apply_patch`` ``custom_tool_call`` of a rollout, with its output.

    Attributes:
        call_id: its ``call_id`` (the ``tool_use_id`` of its hook inputs); envelope: its
            ``input``; output: the text of its ``custom_tool_call_output``.
    """

    call_id: str
    envelope: str
    output: str


def patch_applied(output: str) -> bool:
    """Whether an ``apply_patch`` output says the patch applied: an exec header with exit
    code 0 (``Exit code: 0``, :func:`exec_status`), a structured output whose
    ``metadata.exit_code`` is 0, or the tool's own ``Success. Updated the following files:``
    text with no exit code; anything else (``apply_patch verification failed``, a non-zero
    code, nothing) does not."""
    if output.lstrip().startswith("{"):
        doc = _arguments(output)
        code = member(doc, "metadata", "exit_code")
        if code is None:
            code = doc.get("exit_code")
        inner = text(doc.get("output")) or ""
        if code is None:
            return inner.lstrip().startswith(_APPLIED)
        return type(code) is int and code == 0
    _, code = exec_status(output)
    if code is not None:
        return code == 0
    return output.lstrip().startswith(_APPLIED)


def patches(path: str | None) -> tuple[Patch, ...]:
    """The ``apply_patch`` ``custom_tool_call`` items of the rollout at ``path`` whose
    ``custom_tool_call_output`` says they applied (:func:`patch_applied`), in the rollout's
    order, the newest :data:`MAX_CALLS`; a call with no output yet, or one whose input is
    not text, is left out. () when ``path`` is None or unreadable."""
    if not path:
        return ()
    calls: dict[str, str] = {}
    done: dict[str, Patch] = {}
    for line in _lines(path):
        payload = line.get("payload")
        kind = text(member(payload, "type"))
        call = text(member(payload, "call_id"))
        if call is None or not isinstance(payload, dict):
            continue
        envelope = payload.get("input")
        if kind == "custom_tool_call" and payload.get("name") == PATCH_TOOL:
            if isinstance(envelope, str) and envelope.strip():
                calls[call] = envelope
        elif kind == "custom_tool_call_output" and call in calls:
            output = _output_text(payload.get("output"))
            if patch_applied(output):
                done[call] = Patch(call, calls.pop(call), output)
    return tuple(list(done.values())[-MAX_CALLS:])
