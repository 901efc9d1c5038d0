"""``gentle-hook doctor``: diagnose the repository's gentle-hooks state (SPEC §6, §7).

Room ``cli``: parse flags, call one service function, render its result.
"""

from __future__ import annotations

import click

from gentle_hooks.cli.options import cwd_option, json_option
from gentle_hooks.errors import EXIT_INPUT, EXIT_OK, UsageError
from gentle_hooks.report.jsontext import model_json


@click.command()
@cwd_option
@json_option
@click.option(
    "--fix",
    is_flag=True,
    help=(
        "First remove the files killed runs left behind (the 'residue' check) and anything "
        "in the idle sentinel's place that is not it (the 'sentinel' check) and the "
        "checkouts of spot checks that were killed, move a FIFO or other non-file where "
        "SQLite keeps its -wal, -shm or -journal file aside (kept), record unpushed "
        "commits that delivered writer work with no commit record, write the notes recorded "
        "commits lack, "
        "move a "
        "damaged ledger aside (kept) and recover its readable rows, fold spool lines kept "
        "aside in, and move rows no command can read into the quarantine "
        "table (kept exactly); nothing else."
    ),
)
@click.option(
    "--restore",
    type=click.IntRange(1, 2**63 - 1),
    metavar="ID",
    help="Put the row held as quarantine ID back into its table, exactly as it was.",
)
@click.option(
    "--discard",
    type=click.IntRange(1, 2**63 - 1),
    metavar="ID",
    help="Mark the row held as quarantine ID discarded (kept): the gates stop waiting for "
    "it. A person's decision; needs --reason.",
)
@click.option("--reason", help="With --discard: why (one line; recorded with who and when).")
def doctor(
    cwd: str | None,
    as_json: bool,
    fix: bool,
    restore: int | None,
    discard: int | None,
    reason: str | None,
) -> int:
    """Check the ledger (path, schema version, integrity, record counts, every row
    readable), what killed runs left behind, and, for every worktree, whether the commit
    and push gates are reachable.

    Read-only: nothing is repaired, migrated or deleted; --fix removes only the residue of
    killed runs (temporary index copies, a first write's ledger.sqlite3.new-*) and a
    directory, FIFO or link in the idle sentinel's place, the checkouts and rooms of spot
    checks that were killed (never a running one's), writes back a lowered schema version
    when the ledger's tables are exactly that version's, sets a table's id counter left at
    the end of SQLite's ids back to its highest id, moves a stale rollback journal beside
    the write-ahead-log ledger aside (kept), a file in the state directory's place (kept as
    gentle-hooks.broken-TIME; the directory is made again), and a FIFO, socket, device or
    directory where SQLite keeps its -wal, -shm or -journal file (kept), records unpushed
    commits that delivered writer work but have no commit record (a post-commit that failed)
    from the commits, writes the notes recorded commits lack, makes a ledger.key open to
    others private, moves a ledger.key that is no key aside (kept) and makes a new one when
    no sealed verify run depends on it, moves a damaged ledger aside to
    ledger.sqlite3.damaged-TIME (kept), recovers every row SQLite can still read from it
    into a new ledger (then kept as ledger.sqlite3.salvaged-TIME), folds the spool lines
    kept aside as spool.jsonl.bad-* in (then kept as spool.jsonl.folded-*), holds the writer
    work neither gives back in the quarantine table (the gates stay closed until a person
    ends it with --discard ID --reason TEXT), and each row no command can read into the
    quarantine table (kept exactly; writer work held there keeps the gates closed until
    --restore ID puts it back or --discard ID --reason TEXT ends it). Exits 0 when
    healthy, 2 otherwise.
    """
    from gentle_hooks.report.fixes import with_fix
    from gentle_hooks.services.doctor import is_healthy, remove_residue, run_checks
    from gentle_hooks.services.doctor_commits import record_unrecorded
    from gentle_hooks.services.doctor_fix import (
        drop_triggers,
        end_quarantine,
        fold_spool,
        quarantine_rows,
        repair_ledger,
        reset_counters,
        restore_schema,
        salvage_ledgers,
        set_journal_aside,
        set_odd_companions_aside,
        set_state_aside,
    )
    from gentle_hooks.services.doctor_key import repair_key
    from gentle_hooks.services.doctor_spool import fold_kept_spools

    if restore is not None or discard is not None or reason is not None:
        if fix or (discard is None and reason is not None):
            raise UsageError("doctor: --restore ID, or --discard ID --reason TEXT, alone")
        click.echo(end_quarantine(cwd, restore, discard, reason), err=as_json)
    removed = remove_residue(cwd) if fix else []
    for path in removed:
        click.echo(f"removed {path}", err=as_json)
    moved = set_state_aside(cwd) if fix else []
    moved += set_odd_companions_aside(cwd) + set_journal_aside(cwd) if fix else []
    moved += fold_spool(cwd) if fix else []
    moved += restore_schema(cwd) + reset_counters(cwd) + repair_ledger(cwd) if fix else []
    moved += drop_triggers(cwd) if fix else []
    moved += [with_fix(text, c) for text, c in salvage_ledgers(cwd)] if fix else []
    moved += fold_spool(cwd) if fix else []  # spooled behind a damaged ledger: now in
    moved += [with_fix(text, c) for text, c in quarantine_rows(cwd)] if fix else []
    moved += [with_fix(text, c) for text, c in fold_kept_spools(cwd)] if fix else []
    moved += repair_key(cwd) if fix else []
    moved += record_unrecorded(cwd) if fix else []
    for line in moved:
        click.echo(line, err=as_json)
    results = run_checks(cwd)
    healthy = is_healthy(results)
    if as_json:
        from gentle_hooks.report.record_models import DOCTOR_SCHEMA, CheckOut, DoctorEnvelope

        env = DoctorEnvelope(
            schema_=DOCTOR_SCHEMA,
            healthy=healthy,
            checks=tuple(
                CheckOut(name=r.name, ok=r.ok, detail=with_fix(r.detail, r.fix)) for r in results
            ),
        )
        click.echo(model_json(env, by_alias=True, indent=2))
    else:
        for r in results:
            click.echo(f"{'ok  ' if r.ok else 'FAIL'}  {r.name}: {with_fix(r.detail, r.fix)}")
        kept = (
            "only what is listed above was changed" if removed or moved else "nothing was changed"
        )
        click.echo("healthy" if healthy else f"unhealthy: {kept} or deleted")
    return EXIT_OK if healthy else EXIT_INPUT
