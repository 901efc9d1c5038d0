"""``gentle-hook rdd line|status|loadout``: the RDD line for agent harnesses (SPEC §9;
seed 000, first paragraph).

Room ``cli``: parse flags, call :mod:`gentle_hooks.services.rdd`, render through
:mod:`gentle_hooks.report.rdd_models`. ``--session`` is checked here rather than by click's
``required=True`` so that a missing id is one line and exit 2, like every other bad input.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from gentle_hooks.cli.options import cwd_option, json_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.report.jsontext import model_json

F = TypeVar("F", bound=Callable[..., Any])


@click.group()
def rdd() -> None:
    """The `Receipt-driven development: on|off|unknown` line for agent harnesses.

    A session keeps the first line it rendered; it re-renders only when RDD turns off, or
    back on after being off. Review tools read the live mode (`rdd status`).
    """


def _rdd_command(session_help: str) -> Callable[[F], F]:
    """Register the decorated function as an ``rdd`` subcommand taking ``--cwd``,
    ``--json`` and ``--session ID`` (described by ``session_help``)."""

    def register(f: F) -> F:
        option = click.option("--session", metavar="ID", help=session_help)
        rdd.command()(cwd_option(json_option(option(f))))
        return f

    return register


@_rdd_command("The harness session id (required).")
def line(cwd: str | None, as_json: bool, session: str | None) -> int:
    """Print the session's pinned line (render it for a new session).

    Re-renders only when RDD turned off, or back on after being off; an unknown-to-on flip
    or a new deciding source keeps the text. Session state lives in the ledger.
    """
    from gentle_hooks.services.rdd import advance_session, parse_session_id

    step = advance_session(cwd, parse_session_id(session), os.environ)
    if as_json:
        from gentle_hooks.report.rdd_models import line_envelope

        click.echo(model_json(line_envelope(step), by_alias=True, indent=2))
    else:
        click.echo(step.render.line)
    return EXIT_OK


@_rdd_command("Also show this session's pinned line.")
def status(cwd: str | None, as_json: bool, session: str | None) -> int:
    """Print the live RDD mode and the source that decided it (what review tools read).

    Precedence: GENTLE_RDD, then git config gentle.rdd, then the config file, else unknown.
    Reads only: never renders or records a line.
    """
    from gentle_hooks.services.rdd import live_rdd, parse_session_id, session_renders

    live = live_rdd(cwd, os.environ)
    session_id = parse_session_id(session) if session is not None else None
    renders = session_renders(live.ledger, session_id) if session_id is not None else []
    if as_json:
        from gentle_hooks.report.rdd_models import status_envelope

        env = status_envelope(live.rdd, session_id, renders)
        click.echo(model_json(env, by_alias=True, indent=2))
        return EXIT_OK
    click.echo(f"{live.rdd.line()}  (live; source: {live.rdd.source.value})")
    if session_id is not None:
        if renders:
            last = renders[-1]
            click.echo(
                f"session {session_id}: pinned {last.line!r} (source: {last.source}; "
                f"{len(renders)} render(s))"
            )
        else:
            click.echo(f"session {session_id}: no line rendered yet")
    return EXIT_OK


@_rdd_command("The harness session id (required).")
def loadout(cwd: str | None, as_json: bool, session: str | None) -> int:
    """Print the review tool loadout that follows the session's pinned line.

    Full when the pinned line reads on or unknown; lean when it reads off (gentle_review
    describes only assess; capture, capture-group and scope are hidden, still registered).
    Advances the session like `rdd line`, so both agree whichever runs first.
    """
    from gentle_hooks.report.rdd_models import loadout_envelope
    from gentle_hooks.services.rdd import advance_session, parse_session_id

    step = advance_session(cwd, parse_session_id(session), os.environ)
    env = loadout_envelope(step)
    if as_json:
        click.echo(model_json(env, by_alias=True, indent=2))
        return EXIT_OK
    click.echo(f"{env.line}  ->  {env.loadout.value} loadout")
    for tool in env.tools:
        state = "hidden (registered)" if tool.hidden else "declared"
        ops = f" [{', '.join(tool.operations)}]" if tool.operations else ""
        click.echo(f"  {tool.name}{ops}: {state}")
    return EXIT_OK
