"""Codex CLI's tool outputs read: whether a call failed, whether its command still runs, and
whether an ``apply_patch`` applied (SPEC §7 "Hooks"; docs/agents/codex.md).

Room ``agents`` (standard library only). The text a Codex tool returns to the model is the
``tool_response`` of its ``PostToolUse`` input and the ``output`` of its rollout item
(:mod:`gentle_hooks.agents.codex_rollout`); both are read the same way here.
"""

from __future__ import annotations

import contextlib
import json
import re

from gentle_hooks.agents.event import result_failure
from gentle_hooks.agents.payload import loads_text, member, text
from gentle_hooks.errors import UsageError

#: How much of an exec output is read for its header (it leads the output).
HEAD = 512
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
        doc = arguments(output)
        code, session = doc.get("exit_code"), doc.get("session_id")
        exited = code if isinstance(code, int) and not isinstance(code, bool) else None
        alive = isinstance(session, (int, str)) and not isinstance(session, bool)
        return (str(session) if alive and code is None else None), exited
    head = header(output)
    running = _RUNNING.search(head)
    ended = _EXIT.search(head)
    return (running.group(1) if running else None), (int(ended.group(1)) if ended else None)


def arguments(value: object) -> dict[str, object]:
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
#: How the ``apply_patch`` tool's own text says it applied (``codex-rs/apply-patch``,
#: ``print_summary``), alone or after an exec header.
_APPLIED = "Success. Updated the following files:"


def patch_applied(output: str) -> bool:
    """Whether an ``apply_patch`` output says the patch applied: an exec header with exit
    code 0 (``Exit code: 0``, :func:`exec_status`), a structured output whose
    ``metadata.exit_code`` is 0, or the tool's own ``Success. Updated the following files:``
    text with no exit code; anything else (``apply_patch verification failed``, a non-zero
    code, nothing) does not."""
    if output.lstrip().startswith("{"):
        doc = arguments(output)
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


def _exit_failure(value: object, where: str) -> str | None:
    """``failed (<where> is N)`` when ``value`` is a non-zero integer exit status."""
    if isinstance(value, int) and not isinstance(value, bool) and value != 0:
        return f"failed ({where} is {value})"
    return None


def failure(response: object) -> str | None:
    """What Codex's ``tool_response`` says of a call that did not succeed, or None.

    Codex documents ``tool_response`` as any JSON value (its schema names no failure
    field); what its tools put there, read here (openai/codex ``codex-rs/core/src/tools/
    mod.rs``: ``format_exec_output_for_model_structured`` and ``..._freeform``):

    * an object, or a string holding one (the structured exec output,
      ``{"output": ..., "metadata": {"exit_code": N}}``): ``success`` false or ``is_error``
      (:func:`~gentle_hooks.agents.event.result_failure`), a non-zero ``exit_code``,
      ``metadata.exit_code`` or ``metadata.shell_exit_code``, or a non-blank ``error``;
    * other text (the freeform exec output): an ``Exit code: N`` (or ``Shell exit code:
      N``) line, or unified exec's ``Process exited with code N`` (its ``success`` is
      always true: openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``,
      ``format_response``), with N non-zero in its header (its first :data:`HEAD`
      characters, up to an ``Output:`` line: what the command printed never counts;
      :func:`exec_status`).

    Text without such a line (``Success. Updated the following files: ...``, the
    ``apply_patch`` tool's) says nothing of the kind.
    """
    where = "tool_response"
    if isinstance(response, str):
        head = response.lstrip()
        if head.startswith("{"):
            with contextlib.suppress(UsageError):
                response = loads_text(response, where)
        else:
            code = exec_status(response)[1] or 0
            return f"failed ({where} says exit code {code})" if code else None
    if not isinstance(response, dict):
        return None
    said = result_failure(response, where)
    for key, value in (
        ("exit_code", response.get("exit_code")),
        ("metadata.exit_code", member(response, "metadata", "exit_code")),
        ("metadata.shell_exit_code", member(response, "metadata", "shell_exit_code")),
    ):
        said = said or _exit_failure(value, f"{where}.{key}")
    error = response.get("error")
    if said is None and text(error) is not None:
        said = f"failed ({where}.error)"
    return said


#: The members of the structured unified exec output that name a process still running
#: (openai/codex ``codex-rs/core/src/tools/handlers/shell_spec.rs``,
#: ``unified_exec_output_schema``: ``session_id``, "to pass to write_stdin when the process
#: is still running", exclusive of ``exit_code``, "when the command finished during this
#: call"; ``command_id`` in some versions' code-mode result).
_RUNNING_KEYS = ("session_id", "command_id")


def still_running(response: object) -> bool:
    """Whether Codex's ``tool_response`` of a shell call says its command is still running
    when the call returned (unified exec yields after ``yield_time_ms`` and keeps the
    process, which writes on after the hook): text whose header (before its ``Output:``
    line, in the first :data:`HEAD` characters) holds unified exec's ``Process running
    with session ID N`` (:func:`exec_status`), or an object
    (or text holding one) with a :data:`_RUNNING_KEYS` member that is a number or text
    and no ``exit_code``. What the command printed (after ``Output:``) never says so."""
    if isinstance(response, str):
        head = response.lstrip()
        if not head.startswith("{"):
            return exec_status(response)[0] is not None
        with contextlib.suppress(UsageError):
            response = loads_text(response, "tool_response")
    if not isinstance(response, dict) or response.get("exit_code") is not None:
        return False
    ids = [response.get(k) for k in _RUNNING_KEYS]
    return any(isinstance(i, (int, str)) and not isinstance(i, bool) for i in ids)
