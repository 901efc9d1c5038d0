"""``gentle-hook status``: plan, records, satisfied and missing for this candidate (SPEC §5).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.cli.options import binding_options, json_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.services.record import Binding


@click.command()
@binding_options
@json_option
@click.option(
    "--explain", is_flag=True, help="Also show the decision rows and where each input came from."
)
def status(binding: Binding, as_json: bool, explain: bool) -> int:
    """Show the current candidate's plan, what is recorded for it, what is satisfied and
    what is missing, with the exact command for each. Informational: exits 0."""
    from gentle_hooks.services.status import run_status

    result = run_status(binding, os.environ)
    if as_json:
        from gentle_hooks.report.status_json import status_json

        click.echo(status_json(result))
    else:
        from gentle_hooks.report.records_text import render_status

        click.echo(render_status(result, explain))
    return EXIT_OK
