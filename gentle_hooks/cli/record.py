"""``gentle-hook record``: a pending mutation for this work tree (SPEC §6).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.agents.runtimes import DECODED, runtime
from gentle_hooks.cli.options import RuntimeName, cwd_option, echo_recorded, json_option
from gentle_hooks.errors import EXIT_OK, GentleError, UsageError, shown_field
from gentle_hooks.services.mutation import MutationRequest, record_mutation


def record_from_runtime(
    name: str, cwd: str | None, model: str | None, effort: str | None, as_json: bool
) -> int:
    """``record --from NAME``: the runtime's hook input on stdin -> a pending mutation.

    Standard output carries only what the runtime reads there (``{}`` for runtimes that
    parse it, nothing otherwise, or the ``--json`` envelope); the report goes to stderr.
    A failure on a pre-tool input (:meth:`Runtime.before_tool`) is said in one line and
    exits 0: the runtime would deny the agent's tool call on a non-zero exit.
    """
    from gentle_hooks.agents.payload import read_stdin
    from gentle_hooks.services.agent_record import record_from_runtime as record_event

    data = read_stdin(f"record --from {name}")
    try:
        done = record_event(name, data, cwd, model, effort, os.environ)
    except GentleError as exc:
        if not runtime(name).before_tool(data):
            raise
        # a pre-tool hook's failure denies or blocks the agent's call (Copilot: any non-zero
        # exit; Claude Code, Codex, Gemini CLI, Cursor: 2): the call goes ahead, unrecorded
        click.echo(
            f"gentle-hook: error: {shown_field(exc.message)}; nothing recorded, and the "
            "tool call goes ahead (a pre-tool hook never denies it)",
            err=True,
        )
        if runtime(name).ack and not as_json:  # what the runtime reads on stdout (Cursor)
            click.echo(runtime(name).ack)
        return EXIT_OK
    rec = done.recorded
    if rec is not None and (as_json or not rec.replayed):
        echo_recorded(rec, as_json, err=not as_json)
    else:
        why = done.skipped if rec is None else "; ".join(rec.notes)
        # the event itself wrote nothing, but what earlier calls left may be recorded at it
        # (the end of a turn closing a background window): never "nothing recorded" then
        late = any(not other.replayed for other in done.also)
        said = "nothing of this event's own recorded" if late else "nothing recorded"
        # one line: the reason may quote the payload (its event or tool name), never a line
        click.echo(f"{said}: {shown_field(str(why))}", err=True)
    for other in done.also:  # stdout holds one answer: the others are reported on stderr
        if not other.replayed:
            echo_recorded(other, False, err=True)
    if done.ack and not as_json:
        click.echo(done.ack)
    return EXIT_OK


@click.command()
@cwd_option
@json_option
@click.option("--model", metavar="MODEL", help="Writer model id (default: $GENTLE_WRITER_MODEL).")
@click.option(
    "--effort",
    metavar="LEVEL",
    help="off minimal low medium high xhigh (default: $GENTLE_WRITER_EFFORT).",
)
@click.option("--source", metavar="NAME", help="The runtime hook recording it (claude-code...).")
@click.option("--session", "session_id", metavar="ID", help="The runtime's session id.")
@click.option("--tool-call", "tool_call_id", metavar="ID", help="The runtime's tool call id.")
@click.option(
    "--paths", "paths", multiple=True, metavar="P", help="A path touched (repeatable; relative)."
)
@click.option(
    "--from",
    "runtime",
    type=RuntimeName(DECODED),
    help="Read that agent runtime's hook JSON on stdin (its post-tool hook; docs/agents/).",
)
@click.argument("more_paths", nargs=-1, metavar="[P...]")
def record(
    cwd: str | None,
    as_json: bool,
    model: str | None,
    effort: str | None,
    source: str | None,
    session_id: str | None,
    tool_call_id: str | None,
    paths: tuple[str, ...],
    more_paths: tuple[str, ...],
    runtime: str | None,
) -> int:
    """Record a writer's pending mutation for this work tree (model, effort, paths).

    P...: the files the writer wrote, relative to the current directory like every git
    command, or absolute inside the work tree (``--paths`` takes root-relative ones).
    Pending mutations are keyed by the work tree root, not by candidate, and stay pending
    until the work is committed. They make the gate apply to this work tree.
    """
    if runtime is not None:
        named = [
            flag
            for flag, given in (
                ("--paths", paths or more_paths),
                ("--source", source),
                ("--session", session_id),
                ("--tool-call", tool_call_id),
            )
            if given
        ]
        if named:
            raise UsageError(
                f"{', '.join(named)} cannot be combined with --from: the runtime's hook input "
                "names the paths, session and tool call"
            )
        return record_from_runtime(runtime, cwd, model, effort, as_json)
    rec = record_mutation(
        MutationRequest(
            cwd=cwd,
            model=model,
            effort=effort,
            source=source,
            session_id=session_id,
            tool_call_id=tool_call_id,
            paths=paths,
            here_paths=more_paths,
            modes=True,
        ),
        os.environ,
    )
    echo_recorded(rec, as_json)
    return EXIT_OK
