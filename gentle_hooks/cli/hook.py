"""``gentle-hook hook NAME``: listed here for ``--help``; :mod:`gentle_hooks.main` runs hooks
through :mod:`gentle_hooks.hooks.dispatch` before click is imported (the pass path stays light)."""

from __future__ import annotations

import click

from gentle_hooks.hooks.dispatch import GATES, RECORDERS
from gentle_hooks.hooks.dispatch import main as hook_main


@click.command(
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": ["--help", "-h"],
    }
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def hook(args: tuple[str, ...]) -> int:
    """Run a git hook: gates (exit 1 blocks) and recorders.

    Names: pre-commit, pre-merge-commit, commit-msg, pre-push, pre-receive,
    prepare-commit-msg, post-commit, post-rewrite. Options: --warn (report, do not block).
    """
    assert GATES and RECORDERS
    return hook_main(list(args))
