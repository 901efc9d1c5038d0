"""``gentle-hook sync fetch|push [REMOTE]``: share notes with a remote (SPEC §8); REMOTE
defaults to the one the current branch pushes to (:func:`~gentle_hooks.notes.sync.default_remote`),
and may be a repository's URL or path instead of a remote's name
(:func:`~gentle_hooks.notes.where.repository`; anything else: one line, exit 2).

Room ``cli``. ``push`` first writes the note of every recorded commit that lacks one
(a write lost to a crash, notes removed by hand). Merges notes as a line union (git's
``cat_sort_uniq``), so records two clones added to the same commit are both kept,
whichever syncs first.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.store import Ledger
from gentle_hooks.notes.sync import default_remote, sync_fetch, sync_push


@click.command()
@click.argument("direction", type=click.Choice(["fetch", "push"]))
@click.argument("remote", required=False)
@click.option("--cwd", type=click.Path(file_okay=False), help="Run as if in this directory.")
def sync(direction: str, remote: str | None, cwd: str | None) -> int:
    """Fetch and merge the remote's gentle-hooks notes, or write the notes this clone's
    records lack, merge and push ours. REMOTE: a remote's name, or a repository's URL or
    path (a pull request from a fork: the URL its CI block prints); by default the remote
    the current branch pushes to, else the only remote, else origin."""
    repo = Repository.open(cwd)
    here = os.path.abspath(cwd) if cwd else None
    if remote is None:
        remote = default_remote(repo)
    if direction == "fetch":
        click.echo(sync_fetch(repo, remote, here))
        return 0
    led = Ledger.open_existing(ledger_path(repo.paths.common_dir))
    try:
        click.echo(sync_push(repo, remote, led, here))
    finally:
        if led is not None:
            led.close()
    return 0
