"""``gentle-hook verdict add|list|show``: independent verifier verdicts (SPEC §6, §9).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import click

from gentle_hooks.cli.options import (
    ROW_ID,
    binding_options,
    cwd_option,
    echo_recorded,
    json_option,
    record_list_command,
    sign_key_option,
)
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK
from gentle_hooks.ledger.records import VerdictRecord
from gentle_hooks.services.record import Binding, Bound


@click.group()
def verdict() -> None:
    """Store and show DelegationVerdicts of the gentle-ai-verify run."""


@verdict.command("add")
@binding_options
@json_option
@sign_key_option
@click.argument("file", metavar="FILE|-")
def add(
    binding: Binding,
    as_json: bool,
    sign_key: str | None,
    file: str,
) -> int:
    """Validate a DelegationVerdict (JSON, '-' for stdin) and store it for this candidate.

    The verdict must name this candidate (its candidate.identity, baseTree and tree, as
    `gentle-hook verify run` writes them). Exits 0 when it is accepted for the gate, 1 when
    it is stored but not accepted (the reasons are printed), 2 when it is not a verdict at
    all or names another candidate, or none.
    """
    from gentle_hooks.bounded import read_regular, read_stdin
    from gentle_hooks.ledger.records import VerdictRecord
    from gentle_hooks.services.verdict_filing import add_verdict

    if file == "-":
        data, source = read_stdin("stdin"), "stdin"
    else:
        data, source = read_regular(file), file
    rec = add_verdict(binding, data, source, os.environ, sign_key)
    echo_recorded(rec, as_json)
    assert isinstance(rec.record, VerdictRecord)
    return EXIT_OK if rec.record.accepted else EXIT_BLOCKED


@record_list_command(verdict, "verdicts")
def list_(binding: Binding, env: Mapping[str, str]) -> tuple[Bound, Sequence[VerdictRecord]]:
    """List the verdicts stored for the current candidate."""
    from gentle_hooks.services.verdict_filing import list_verdicts

    return list_verdicts(binding, env)


@verdict.command("show")
@cwd_option
@json_option
@click.argument("verdict_id", type=ROW_ID, metavar="ID")
def show(cwd: str | None, as_json: bool, verdict_id: int) -> int:
    """Print a stored verdict's Markdown view (or its record with --json)."""
    from gentle_hooks.cli.options import recorded_json
    from gentle_hooks.services.record import Recorded
    from gentle_hooks.services.verdict_filing import show_verdict

    path, rec = show_verdict(cwd, verdict_id)
    if as_json:
        click.echo(recorded_json(Recorded(path, rec)))
    else:
        click.echo(f"candidate: {rec.identity}")
        click.echo(rec.markdown, nl=False)
    return EXIT_OK
