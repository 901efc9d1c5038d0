"""``gentle-hook record``: a pending mutation for this work tree (SPEC §6).

Layer: CLI (thin): parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.cli.options import cwd_option, echo_recorded, json_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.records import MutationRequest, record_mutation


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
) -> int:
    """Record a writer's pending mutation for this work tree (model, effort, paths).

    Pending mutations are keyed by the work tree root, not by candidate, and stay pending
    until the work is committed. They make the gate apply to this work tree.
    """
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
