"""``gentle-hook doctor``: diagnose the repository's gentle-hooks state (SPEC §6, §7).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import click

from gentle_hooks.cli.options import cwd_option, json_option
from gentle_hooks.errors import EXIT_INPUT, EXIT_OK
from gentle_hooks.report.jsontext import model_json


@click.command()
@cwd_option
@json_option
def doctor(cwd: str | None, as_json: bool) -> int:
    """Check the ledger (path, schema version, integrity, record counts) and, for every
    worktree, whether the commit and push gates are reachable.

    Read-only: nothing is repaired, migrated or deleted. Exits 0 when healthy, 2 otherwise.
    """
    from gentle_hooks.services.doctor import is_healthy, run_checks

    results = run_checks(cwd)
    healthy = is_healthy(results)
    if as_json:
        from gentle_hooks.report.record_models import DOCTOR_SCHEMA, CheckOut, DoctorEnvelope

        env = DoctorEnvelope(
            schema_=DOCTOR_SCHEMA,
            healthy=healthy,
            checks=tuple(CheckOut(name=r.name, ok=r.ok, detail=r.detail) for r in results),
        )
        click.echo(model_json(env, by_alias=True, indent=2))
    else:
        for r in results:
            click.echo(f"{'ok  ' if r.ok else 'FAIL'}  {r.name}: {r.detail}")
        click.echo("healthy" if healthy else "unhealthy: nothing was changed or deleted")
    return EXIT_OK if healthy else EXIT_INPUT
