"""``gentle-hook install`` / ``uninstall``: plain git hooks without the framework (SPEC §7).

Room ``cli``: parse flags, call :mod:`gentle_hooks.services.install`, print what was done.
"""

from __future__ import annotations

import click

from gentle_hooks.errors import EXIT_OK, UsageError
from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.sync import add_share_refspecs, sync_fetch
from gentle_hooks.services.install import DEFAULT_HOOK_TYPES, KNOWN_HOOK_TYPES
from gentle_hooks.services.install import install as do_install
from gentle_hooks.services.install import uninstall as do_uninstall


@click.command()
@click.option("--cwd", type=click.Path(file_okay=False), help="Run as if in this directory.")
@click.option(
    "--hook-type",
    "-t",
    "hook_types",
    multiple=True,
    type=click.Choice(KNOWN_HOOK_TYPES),
    help="Hook to install (repeatable); default: " + ", ".join(DEFAULT_HOOK_TYPES) + ".",
)
@click.option("--warn", is_flag=True, help="Report blocks without failing the commit or push.")
@click.option(
    "--share",
    "share",
    metavar="REMOTE",
    help="Also add the refspecs that fetch and push the notes with REMOTE.",
)
@click.option(
    "--server",
    is_flag=True,
    help="Install the pre-receive gate into this bare (server) repository.",
)
def install(
    cwd: str | None, hook_types: tuple[str, ...], warn: bool, share: str | None, server: bool
) -> int:
    """Install the gate and recorder hooks into the effective hooks directory.

    Honours core.hooksPath; an existing hook is chained (moved to <name>.gentle-legacy and
    run first), never overwritten. The scripts run the interpreter installing them. The
    first note written sets notes.rewriteRef, so amend and rebase carry the notes.
    """
    repo = Repository.open(cwd, allow_bare=server)
    if server:
        if not repo.paths.is_bare:
            raise UsageError("--server installs into a bare repository; this one has a work tree")
        hook_types = hook_types or ("pre-receive",)
    for action in do_install(repo, hook_types or DEFAULT_HOOK_TYPES, warn=warn):
        click.echo(f"{action.hook_type}: {action.what}: {action.path}")
    if share:
        for line in add_share_refspecs(repo, share):
            click.echo(f"git config --add {line}")
        click.echo(f"notes: {sync_fetch(repo, share)}")
    return EXIT_OK


@click.command()
@click.option("--cwd", type=click.Path(file_okay=False), help="Run as if in this directory.")
@click.option(
    "--hook-type",
    "-t",
    "hook_types",
    multiple=True,
    type=click.Choice(KNOWN_HOOK_TYPES),
    help="Hook to remove (repeatable); default: every hook gentle-hooks installed.",
)
def uninstall(cwd: str | None, hook_types: tuple[str, ...]) -> int:
    """Remove the hooks gentle-hooks installed and restore chained hooks."""
    repo = Repository.open(cwd, allow_bare=True)
    actions = do_uninstall(repo, hook_types or KNOWN_HOOK_TYPES)
    for action in actions:
        click.echo(f"{action.hook_type}: {action.what}: {action.path}")
    if not actions:
        click.echo("nothing to remove: no gentle-hooks hook is installed here")
    return EXIT_OK
