"""``gentle-hook record``: a pending mutation for this work tree (SPEC §6).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.cli.options import cwd_option, echo_recorded, json_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.services.record import MutationRequest, Recorded, record_mutation


def record_from_runtime(
    cwd: str | None, model: str | None, effort: str | None, env: os._Environ[str]
) -> Recorded:
    """``record --from claude-code``: the hook's JSON on stdin -> a pending mutation."""
    import sys

    from gentle_hooks.agents.claude_code import parse_claude_code, relative_paths, writer_of
    from gentle_hooks.services.record import open_root

    event = parse_claude_code(sys.stdin.buffer.read())
    where = cwd or event.cwd
    _, root = open_root(where)
    m, e = writer_of(event, model, effort, env)
    return record_mutation(
        MutationRequest(
            cwd=where,
            model=m,
            effort=e,
            source=event.source,
            session_id=event.session_id,
            tool_call_id=event.tool_call_id,
            paths=relative_paths(root, event.paths, where),
            allow_unknown=True,
        ),
        env,
    )


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
    type=click.Choice(["claude-code"]),
    help="Read the runtime's hook JSON on stdin (Claude Code PostToolUse).",
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

    Pending mutations are keyed by the work tree root, not by candidate, and stay pending
    until the work is committed. They make the gate apply to this work tree.
    """
    if runtime is not None:
        rec = record_from_runtime(cwd, model, effort, os.environ)
        echo_recorded(rec, as_json, err=True)
        return EXIT_OK
    rec = record_mutation(
        MutationRequest(
            cwd=cwd,
            model=model,
            effort=effort,
            source=source,
            session_id=session_id,
            tool_call_id=tool_call_id,
            paths=(*paths, *more_paths),
        ),
        os.environ,
    )
    echo_recorded(rec, as_json)
    return EXIT_OK
