"""``gentle-hook spot-check``: the parent re-runs one reported command (SPEC §5, §6).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os
import sys

import click

from gentle_hooks.cli.options import (
    ROW_ID,
    binding_options,
    echo_recorded,
    json_option,
    sign_key_option,
)
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, UsageError
from gentle_hooks.services.record import Binding


@click.command("spot-check")
@binding_options
@json_option
@sign_key_option
@click.option("--receipt", "receipt_id", type=ROW_ID, metavar="ID", help="Re-run this receipt.")
@click.option("--command", metavar="CMD", help="Re-run the latest receipt of this command.")
@click.option(
    "--readback",
    is_flag=True,
    help="Print and record the structural readback instead (passive tier only).",
)
def spot_check(
    binding: Binding,
    as_json: bool,
    sign_key: str | None,
    receipt_id: int | None,
    command: str | None,
    readback: bool,
) -> int:
    """Re-run one command the writer reported for this candidate (the most recent that
    counts, by default) on the candidate's exact tree, and record whether it succeeded
    again.

    Only a report of success of a command that checks something counts (one of
    verification.commands when the repository declares them). The re-run runs in the work
    tree when it holds exactly the candidate, else in a temporary linked checkout of it.

    Exits 0 when it agreed and counts for the candidate, 1 when it failed or does not
    count (both are recorded; a failure after a report of success blocks the candidate).
    """
    from gentle_hooks.services.spotcheck import record_readback, run_spot_check

    if readback:
        if receipt_id is not None or command is not None:
            raise UsageError("--readback re-runs nothing: drop --receipt/--command")
        rec = record_readback(binding, os.environ)
        if not as_json:
            from gentle_hooks.ledger.records import SpotCheck

            assert isinstance(rec.record, SpotCheck)
            click.echo(rec.record.readback)
        echo_recorded(rec, as_json)
        return EXIT_OK
    if receipt_id is not None and command is not None:
        raise UsageError("pass --receipt or --command, not both")
    out = sys.stderr.buffer if as_json else sys.stdout.buffer
    outcome = run_spot_check(
        binding,
        os.environ,
        receipt_id=receipt_id,
        command=command,
        stdout=out,
        stderr=sys.stderr.buffer,
        # where it runs is said with the re-run's own output (standard output), so a
        # refusal after the run is still the one line on standard error
        announce=None if as_json else lambda line: click.echo(f"spot check: {line}"),
        sign_key=sign_key,
    )
    echo_recorded(outcome.recorded, as_json, err=not as_json)
    return EXIT_OK if outcome.satisfied else EXIT_BLOCKED
