"""``gentle-hook receipt run|add|list``: the writer's reports (SPEC §6 "receipt").

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

import click

from gentle_hooks.cli.options import (
    EXIT_STATUS,
    binding_options,
    echo_recorded,
    json_option,
    record_list_command,
)
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.ledger.records import Receipt
from gentle_hooks.services.own_receipts import run_judged
from gentle_hooks.services.record import (
    Binding,
    Bound,
    list_receipts,
    record_receipt_line,
)


@click.group()
def receipt() -> None:
    """Record what the writer ran and observed, as '<command>: <observed result>'."""


@receipt.command(
    "run", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@binding_options
@json_option
@click.argument("argv", nargs=-1, type=click.UNPROCESSED, metavar="-- CMD [ARGS...]")
def run(
    binding: Binding,
    as_json: bool,
    argv: tuple[str, ...],
) -> int:
    """Run CMD in the foreground and record '<command>: exit N' with its exit status,
    duration and output digest. Exits with CMD's exit status."""
    if argv and argv[0] == "--":
        argv = argv[1:]
    # With --json, stdout carries only the JSON: the command's stdout goes to stderr.
    out = sys.stderr.buffer if as_json else sys.stdout.buffer
    sys.stdout.flush()
    rec, obs = run_judged(
        binding,
        argv,
        os.environ,
        stdout=out,
        stderr=sys.stderr.buffer,
    )
    echo_recorded(rec, as_json, err=not as_json)
    return obs.exit_code


@receipt.command("add")
@binding_options
@json_option
@click.argument("line", metavar='"<command>: <observed result>"')
@click.option(
    "--exit-code",
    type=EXIT_STATUS,
    metavar="N",
    help="The exit status the writer observed (required).",
)
def add(
    binding: Binding,
    as_json: bool,
    line: str,
    exit_code: int | None,
) -> int:
    """Record a report the writer made elsewhere; a spot check re-runs it with sh -c."""
    rec = record_receipt_line(binding, line, exit_code, os.environ)
    echo_recorded(rec, as_json)
    return EXIT_OK


@record_list_command(receipt, "receipts")
def list_(binding: Binding, env: Mapping[str, str]) -> tuple[Bound, Sequence[Receipt]]:
    """List the receipts recorded for the current candidate."""
    return list_receipts(binding, env)
