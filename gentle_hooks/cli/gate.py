"""``gentle-hook gate --range A..B``: judge a pushed range from notes and trailers (SPEC §8).

Room ``cli``. Exit 0 every delegated commit verified, 1 blocked, 2 cannot assess (a
shallow history cutting the range, a bad range) — never a pass for what it cannot see.
"""

from __future__ import annotations

import os

import click

from gentle_hooks.errors import GentleError, UsageError
from gentle_hooks.hooks.range import DEFAULT_RERUN_TIMEOUT, CannotAssess, gate_range
from gentle_hooks.hooks.verdict_text import verdict_json, verdict_lines
from gentle_hooks.report.jsontext import dumps


@click.command()
@click.option("--cwd", type=click.Path(file_okay=False), help="Run as if in this directory.")
@click.option(
    "--range",
    "range_text",
    required=True,
    metavar="A..B",
    help="The commits to judge: reachable from B and not from A.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON envelope.")
@click.option("--explain", is_flag=True, help="Also show each blocked commit's decision rows.")
@click.option(
    "--reverify",
    is_flag=True,
    help="Re-run each spot-checked command on its commit's tree (a temporary checkout); "
    "a claimed success that fails blocks.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=86400),
    default=DEFAULT_RERUN_TIMEOUT,
    show_default=True,
    help="Seconds each re-run command may take under --reverify.",
)
@click.option(
    "--share",
    "share_url",
    metavar="URL",
    envvar="GENTLE_HOOKS_SHARE_URL",
    default="",
    help="The URL (or absolute path) of the repository this range is judged in, named by "
    "each printed sync push (default: GitHub's or GitLab's base repository, else origin's "
    "URL).",
)
@click.option(
    "--head-url",
    metavar="URL",
    envvar="GENTLE_HOOKS_HEAD_URL",
    default="",
    help="The URL of the repository the pull request comes from (its head repository): a "
    "fork's block shares the notes there and names the fetch this job needs (default: "
    "GitHub Actions' event, GitLab CI's source project).",
)
def gate(
    cwd: str | None,
    range_text: str,
    as_json: bool,
    explain: bool,
    reverify: bool,
    timeout: float,
    share_url: str,
    head_url: str,
) -> int:
    """Judge every commit of A..B from its gentle-hooks note and trailers alone (no local
    ledger): which commits are delegated and whether each has what its plan requires.
    With --reverify, re-run the spot checks the notes claim instead of believing them.
    GENTLE_HOOKS_FORMAT=json prints the --json document. A block's sync push names the
    repository judged in (--share, GENTLE_HOOKS_SHARE_URL, GitHub Actions' or GitLab CI's
    base repository, origin's URL). A pull request from a fork (--head-url, GitHub Actions'
    event, GitLab CI's source project) shares its notes with the fork instead, and this
    job fetches them from there (docs/ci.md "Forks")."""
    _check_share(share_url)
    _check_share(head_url, "--head-url")
    from gentle_hooks.notes.pull_request import fork_head

    head = fork_head(os.environ, head_url)  # a bad event file: exit 2 before judging
    if timeout != timeout:  # NaN passes click's range check and would mean "never"
        raise UsageError("--timeout nan is not a number of seconds")
    if not as_json:
        from gentle_hooks.hooks.decision import output_format

        # an agent that asked for JSON (SPEC §7) gets the --json document
        as_json = output_format(os.environ)[0] == "json"
    try:
        code, verdicts = gate_range(cwd, range_text, os.environ, reverify, timeout)
    except CannotAssess as exc:
        if as_json:
            click.echo(dumps(_error(range_text, exc) | {"fix": exc.fix}, indent=2))
        elif exc.fix:  # one line, the way out last: ``...; run: CMD``
            click.echo(f"gentle-hook: error: {exc.message}; run: {exc.fix}", err=True)
            return int(exc.exit_code)
        raise
    except GentleError as exc:
        if as_json:  # CI that captures --json still gets a document saying why
            click.echo(dumps(_error(range_text, exc), indent=2))
        raise
    top = _top(cwd) if code == 1 else None
    share_to = _share_to(cwd, share_url) if code == 1 else ""
    # a fork's pull request: the writer shares with the fork, this job fetches from it
    fork = fork_head(os.environ, head_url, share_to) if head and code == 1 else ""
    if as_json:
        click.echo(
            dumps(
                {
                    "schema": "gentle-hooks.gate/v1",
                    "range": range_text,
                    "blocked": code == 1,
                    **({"head_repository": fork} if fork else {}),
                    "commits": [verdict_json(v, top, share_to, fork) for v in verdicts],
                },
                indent=2,
            )
        )
    else:
        for v in verdicts:
            for line in verdict_lines(v, explain, top, share_to, fork):
                click.echo(line)
        delegated = sum(1 for v in verdicts if v.delegated_by)
        blocked = sum(1 for v in verdicts if v.blocked)
        click.echo(f"{len(verdicts)} commit(s), {delegated} delegated, {blocked} blocked")
    return code


def _top(cwd: str | None) -> str | None:
    """The work tree root a blocked range's printed reports name (None: a bare repository,
    or one that cannot be opened again)."""
    from gentle_hooks.git.repository import Repository

    try:
        return Repository.open(cwd, allow_bare=True).paths.toplevel
    except GentleError:
        return None


def _check_share(url: str, flag: str = "--share") -> None:
    """Refuse a ``--share`` (or ``--head-url``: ``flag``) that is not a repository's URL
    or absolute path: a remote's name here means nothing in the writer's clone.

    Raises:
        UsageError: one line naming what was given.
    """
    from gentle_hooks.errors import quoted
    from gentle_hooks.notes.where import is_location

    bad = any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url) or url.startswith("-")
    if url and (bad or not is_location(url)):
        raise UsageError(
            f"{flag} {quoted(url)} is not a repository's URL or absolute path "
            "(e.g. https://github.com/OWNER/REPO.git)"
        )


def _share_to(cwd: str | None, explicit: str) -> str:
    """The repository a blocked range's ``sync push`` names
    (:func:`~gentle_hooks.notes.where.judged_repository`); empty when it cannot be named."""
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.notes.where import judged_repository

    try:
        return judged_repository(Repository.open(cwd, allow_bare=True), os.environ, explicit)
    except GentleError:
        return ""


def _error(range_text: str, exc: GentleError) -> dict[str, object]:
    """The ``--json`` document of a range that could not be judged."""
    from gentle_hooks.report.fixes import error_text

    return {
        "schema": "gentle-hooks.gate/v1",
        "range": range_text,
        "blocked": None,
        "error": error_text(exc),
        "exit_code": exc.exit_code,
    }
