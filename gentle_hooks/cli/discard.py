"""``gentle-hook discard [PATH...|--all] --reason TEXT``: abandon pending writer work on
purpose (SPEC §3 "Pending work ends cleanly").

Room ``cli``: parse flags, call one service function, print what was recorded.
"""

from __future__ import annotations

import click

from gentle_hooks.cli.options import cwd_option
from gentle_hooks.errors import EXIT_OK
from gentle_hooks.services.discard import discard as do_discard


@click.command()
@cwd_option
@click.option("--all", "everything", is_flag=True, help="Discard all of it.")
@click.option("--reason", help="Why (one line; recorded with who and when). Required.")
@click.argument("paths", nargs=-1)
def discard(cwd: str | None, everything: bool, reason: str | None, paths: tuple[str, ...]) -> int:
    """Abandon pending writer work on purpose, recorded like an override.

    The writer's content on the named paths (root-relative), or on every path with --all,
    no longer makes a change delegated; the files themselves are not touched. A path of
    your own holding one line of the writer's pending work elsewhere is claimed as yours;
    in a linked worktree, the same change made by hand of work pending in another worktree
    is claimed as yours, that content only (the writer's work stays pending there).
    """
    rec = do_discard(cwd, paths, everything, reason)
    from gentle_hooks.policy.shellwords import shown_paths

    named = ", ".join(shown_paths(rec.paths)) if rec.paths else "every path"
    if not rec.entries and rec.blobs:  # a copy claim: that content here, not the writer's
        click.echo(
            f"claimed: the content {named} holds in this worktree is yours, by {rec.who} "
            f"({rec.reason!r}); the writer's work stays pending at its own path, and "
            "other content there is judged again"
        )
        return EXIT_OK
    if not rec.entries:  # a claim of one's own paths: the writer's work stays pending
        click.echo(
            f"claimed: the writer line {named} holds is yours, by {rec.who} ({rec.reason!r}); "
            "the writer's own work stays pending"
        )
        return EXIT_OK
    entries = (
        "1 pending writer entry"
        if len(rec.entries) == 1
        else f"{len(rec.entries)} pending writer entries"
    )
    click.echo(f"discarded: {entries} on {named}, by {rec.who} ({rec.reason!r})")
    from gentle_hooks.services.discard import still_taken

    held = still_taken(cwd, rec)
    if held:  # a commit on the branch took it: its record still blocks the push
        from gentle_hooks.services.discard_refusals import not_cleared

        click.echo(not_cleared(held), err=True)
    return EXIT_OK
