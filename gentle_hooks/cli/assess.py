"""``gentle-hook assess``: the verification plan for a candidate (SPEC §3-§5, §7)."""

from __future__ import annotations

import click

from gentle_hooks.cli.assess_command import assess_command


@click.command()
@click.option("--cwd", type=click.Path(file_okay=False), help="Run as if in this directory.")
@click.option("--base-ref", help="Base ref; default: config, origin/HEAD, origin/main, ...")
@click.option(
    "--committed-only",
    "committed_only",
    is_flag=True,
    help="Assess HEAD's tree: dirty and untracked files are out of scope.",
)
@click.option("--staged", is_flag=True, help="Assess the index (the one git hands a hook).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON envelope.")
@click.option(
    "--explain", is_flag=True, help="Also show the decision rows and where each input came from."
)
@click.option(
    "--escalate-item",
    metavar="N|SLUG",
    help="Task Size high-risk item: 1 data, 2 security, 3 contracts, "
    "4 concurrency, 5 delivery, 6 untested.",
)
@click.option("--escalate-reason", metavar="TEXT", help="One-line reason for the escalation.")
@click.option(
    "--review-outcome",
    type=click.Choice(["declined", "unavailable", "unknown", "closed"]),
    help="Caller review outcome; a bare 'closed' resolves to unknown (a note on stderr says so).",
)
@click.option("--writer-model", metavar="MODEL", help="Writer model id (without runtime data).")
@click.option(
    "--writer-effort", metavar="LEVEL", help="Writer effort: off minimal low medium high xhigh."
)
@click.option(
    "--native",
    metavar="PROVIDER",
    help="Native provider: builtin, gentle-ai or auto (default: config native.provider).",
)
def assess(**options: object) -> int:
    """Print the risk tier and the verification plan for the current candidate.

    Default candidate: the work tree as `git add -A` would stage it, against the merge-base
    of the base ref. Informational: exits 0 whatever the plan says — also when the native
    provider fails (native risk unassessable, which informs only).
    """
    return assess_command(**options)  # type: ignore[arg-type]  # click: one per option
