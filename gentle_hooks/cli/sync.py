"""``gentle-hook sync fetch|push [REMOTE]``: share notes with a remote (SPEC §8).

Room ``cli``. Merges notes as a line union (git's ``cat_sort_uniq``), so records two
clones added to the same commit are both kept, whichever syncs first.
"""

from __future__ import annotations

import click

from gentle_hooks.git.repository import Repository
from gentle_hooks.notes.sync import sync_fetch, sync_push


@click.command()
@click.argument("direction", type=click.Choice(["fetch", "push"]))
@click.argument("remote", default="origin")
@click.option("--cwd", type=click.Path(file_okay=False), help="Run as if in this directory.")
def sync(direction: str, remote: str, cwd: str | None) -> int:
    """Fetch and merge the remote's gentle-hooks notes, or merge and push ours."""
    repo = Repository.open(cwd)
    text = sync_fetch(repo, remote) if direction == "fetch" else sync_push(repo, remote)
    click.echo(text)
    return 0
