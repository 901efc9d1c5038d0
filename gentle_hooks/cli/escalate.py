"""``gentle-hook escalate``: name a Task Size high-risk item for this work (SPEC §5).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.cli.options import binding_options, echo_recorded, json_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.services.record import Binding, record_escalation


@click.command()
@binding_options
@json_option
@click.option(
    "--item",
    required=True,
    metavar="N|SLUG",
    help="1 data, 2 security, 3 contracts, 4 concurrency, 5 delivery, 6 untested.",
)
@click.option("--reason", metavar="TEXT", help="One-line reason (required).")
@click.option(
    "--critical",
    is_flag=True,
    help="Mark it critical: with stakes = shipping the plan needs a second verifier.",
)
def escalate(
    binding: Binding,
    as_json: bool,
    item: str,
    reason: str | None,
    critical: bool,
) -> int:
    """Escalate the pending work of this work tree: the plan becomes high and needs
    accepted gentle-ai-verify verdicts (one at ordinary stakes). Sticky until committed."""
    rec = record_escalation(binding, item, reason, os.environ, critical)
    echo_recorded(rec, as_json)
    return EXIT_OK
