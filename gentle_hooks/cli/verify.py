"""``gentle-hook verify prepare|run``: the verifier's clean room (SPEC §9; seed 001).

Room ``cli``: parse flags, read the brief, call :mod:`gentle_hooks.services.verify`, render
with :mod:`gentle_hooks.report.verify_report`. Exit codes (SPEC §7; docs/spec-notes.md
"§7 exit codes"): 0 a room made / a ``pass`` verdict written; 1 a policy refusal or
verdict: the brief rejected by a rule (B1-B5), no success criterion, a check whose command
observes nothing or reaches outside the room (seed 001 "Guardrails"), or a
``fail``/``blocked`` verdict written; 2 input the tool cannot act on: not a brief
(not JSON, unknown or mistyped fields, a blank objective), an unreadable file, a blank
flag, a changed room...
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from gentle_hooks.cli.options import binding_options, json_option
from gentle_hooks.errors import EXIT_BLOCKED, EXIT_OK, shown_field
from gentle_hooks.report.jsontext import model_json
from gentle_hooks.services.record import Binding

if TYPE_CHECKING:
    from gentle_hooks.artifacts.brief import DelegationBrief
    from gentle_hooks.services.record import Bound
    from gentle_hooks.services.verify_plan import ExtraChecks


def _check_options(f: Callable[..., int]) -> Callable[..., int]:
    """``--brief FILE``, ``--check``, ``--negative`` and ``--suite``: the command receives
    the checked brief as ``brief``, its file as ``brief_file`` and the checks the flags add
    as ``extra``; a rejected brief, or a flag's command that reaches outside the clean
    room's tree or sets a variable that changes what its runner loads, prints each fault
    and exits 1 before the command runs; so do no success criterion and a check whose
    command observes nothing (:func:`~gentle_hooks.services.brief_checks.run_faults`:
    policy, as ``brief check`` rejects them, not bad input)."""

    @functools.wraps(f)
    def checked(
        *args: Any,
        brief_file: str,
        checks: tuple[str, ...],
        negatives: tuple[str, ...],
        suite: str | None,
        **kwargs: Any,
    ) -> int:
        from gentle_hooks.services.brief_checks import (
            flag_load_faults,
            flag_reach_faults,
            run_faults,
        )
        from gentle_hooks.services.verify_plan import ExtraChecks

        brief = _brief(brief_file)
        if brief is None:
            return EXIT_BLOCKED
        flags = (
            *(("--check", c) for c in checks),
            *(("--negative", c) for c in negatives),
            *((("--suite", suite),) if suite is not None else ()),
        )
        own, given = run_faults(brief, flags)
        label = _label(brief_file)
        # a fault quotes the command: its line breaks are shown, never broken (one line each)
        for fault in own:  # seed 001 "Guardrails": a rule, as brief check rejects it
            click.echo(f"{label}: brief rejected: {shown_field(fault, None)}", err=True)
        refused = flag_reach_faults(flags) + flag_load_faults(flags) + given
        for fault in refused:  # nothing runs: as a brief's check would be (rules B4, B5)
            click.echo(f"gentle-hook: check refused: {shown_field(fault, None)}", err=True)
        if own or refused:
            return EXIT_BLOCKED
        extra = ExtraChecks(criteria=checks, negatives=negatives, suite=suite)
        return f(*args, brief=brief, brief_file=brief_file, extra=extra, **kwargs)

    g: Callable[..., int] = checked
    g = click.option(
        "--suite",
        metavar="CMD",
        help="A full suite's command (run beside the brief's fullSuite, which always runs).",
    )(g)
    g = click.option(
        "--negative",
        "negatives",
        multiple=True,
        metavar="CMD",
        help="A negative test: a command that must fail (repeatable; adds to the brief's).",
    )(g)
    g = click.option(
        "--check",
        "checks",
        multiple=True,
        metavar="CMD",
        help="A success criterion's command (repeatable; adds to the brief's).",
    )(g)
    return click.option(
        "--brief",
        "brief_file",
        required=True,
        metavar="FILE",
        help="The DelegationBrief (JSON; `gentle-hook schema brief`).",
    )(g)


def _brief(brief_file: str) -> DelegationBrief | None:
    """Read and check the brief; print each fault and return None when it is rejected."""
    from gentle_hooks.cli.quorum_cmds import read_input
    from gentle_hooks.services.verify import read_brief

    label = _label(brief_file)
    brief, faults = read_brief(read_input(brief_file), label)
    for fault in faults:
        click.echo(f"{label}: brief rejected: {fault}", err=True)
    return None if faults else brief


def _label(brief_file: str) -> str:
    return "<stdin>" if brief_file == "-" else brief_file


@click.group()
def verify() -> None:
    """The independent verifier run (gentle-ai-verify), observed in a clean room.

    prepare makes the room; run runs the brief's checks there and writes the
    DelegationVerdict that `gentle-hook verdict add` accepts.
    """


@verify.command("prepare")
@binding_options
@_check_options
@json_option
def prepare(
    binding: Binding,
    brief: DelegationBrief,
    brief_file: str,
    extra: ExtraChecks,
    as_json: bool,
) -> int:
    """Validate the brief and make the clean room for the current candidate.

    The room is a new directory under the system's temporary directory: tree/ holds the
    candidate's exact tree (its own git repository, one commit; no ledger, receipts,
    notes, transcripts or work-tree state of your clone) and BRIEF.md the brief's objective
    and success criteria. Prints where it is, what the verifier may run there, and the
    `verify run` command. Exit 1 when the brief is rejected (no boundaries, no
    stopCondition, readOnly false without a mutating side effect, a check that reaches
    outside the room's tree: an absolute path, ~, ../.. out of the room; no success
    criterion, a check that verifies nothing); 2 when the brief file is no brief or a
    flag is blank. Old brief
    files blocks named under the git dir are removed (beyond the newest 16, older than a
    day; never this candidate's nor the brief given).
    """
    from gentle_hooks.report.verify_report import prepare_envelope, render_prepared
    from gentle_hooks.services.verify import prepare as prepare_room

    done = prepare_room(binding, brief, extra, os.environ)
    _prune_briefs(done.bound, brief_file)
    if as_json:
        click.echo(model_json(prepare_envelope(done, brief_file), by_alias=True, indent=2))
    else:
        click.echo(render_prepared(done, brief_file))
    return EXIT_OK


def _prune_briefs(bound: Bound, brief_file: str) -> None:
    """Remove old brief files of this worktree's git dir
    (:func:`~gentle_hooks.services.brief_files.prune_briefs`), never the one a block names
    for the candidate being verified nor ``brief_file``."""
    import time

    from gentle_hooks.services.assess import brief_path
    from gentle_hooks.services.brief_files import prune_briefs

    current = brief_path(bound.repo, bound.candidate.identity)
    keep = [current, *([brief_file] if brief_file != "-" else [])]
    prune_briefs(os.path.dirname(current), keep, time.time())


@verify.command("run")
@binding_options
@_check_options
@click.option(
    "--room",
    type=click.Path(file_okay=False),
    help="The room `verify prepare` made (default: a fresh one for this run).",
)
@click.option(
    "--caller", metavar="TEXT", help="Who asks for the verification (default: git's ident)."
)
@click.option(
    "--keep", is_flag=True, help="Keep the room this run makes, with its logs (default: removed)."
)
@click.option(
    "--allow-shared-programs",
    "allow_shared",
    is_flag=True,
    help="Run a check whose program is in a temporary directory or one others may write "
    "(refused by default; recorded either way).",
)
@json_option
def run(
    binding: Binding,
    brief: DelegationBrief,
    brief_file: str,
    extra: ExtraChecks,
    room: str | None,
    caller: str | None,
    keep: bool,
    allow_shared: bool,
    as_json: bool,
) -> int:
    """Run the brief's checks in the clean room and write the DelegationVerdict.

    Runs each success criterion, each negative test (a command that must fail) and the full
    suite in the room, records per check the command, exit status, duration and output
    digest, and writes the verdict's JSON and Markdown view at
    .agents/skills/platform/artifacts/verify-delegation/ (config verification.artifact_dir),
    binding the candidate and brief and naming the caller. pass only when every criterion
    passed, negative tests ran where the artifact mutates, and the full suite ran; blocked
    when a tool or the suite is missing. Prints a bounded summary and the artifactRef. A room
    this run makes is removed when it ends (also on failure, SIGTERM or SIGHUP; one a killed
    run left is removed by the next run), its logs with it unless --keep; a --room stays.
    Exit 0 on pass, 1 on fail or blocked.
    """
    from gentle_hooks.report.verify_report import render_verified, run_envelope
    from gentle_hooks.services.verdict_held import held_pass
    from gentle_hooks.services.verify import run as run_checks

    done = run_checks(
        binding,
        brief,
        extra,
        os.environ,
        room_path=room,
        caller=caller,
        keep=keep,
        brief_file=brief_file,
        allow_shared=allow_shared,
    )
    held = held_pass(done)  # the same verifier's pass stored already: nothing to add
    if as_json:
        click.echo(model_json(run_envelope(done, held), by_alias=True, indent=2))
    else:
        click.echo(render_verified(done, held))
    return EXIT_OK if done.verdict.status == "pass" else EXIT_BLOCKED


@verify.command("clean")
@click.option("--remove", is_flag=True, help="Remove the rooms listed (default: only list).")
def clean(remove: bool) -> int:
    """List the clean rooms left under the temporary directory, or remove them.

    A room `verify prepare` made stays until you remove it; a room a killed `verify run`
    left is removed by the next run. Lists this user's gentle-verify-* directories that
    no running `verify run` owns, with their age; --remove removes them. Exit 0.
    """
    from gentle_hooks.report.program_text import program
    from gentle_hooks.services.room_leftovers import leftover_rooms, remove_leftovers

    rooms = leftover_rooms()
    if remove:
        click.echo(f"verify clean: removed {remove_leftovers(rooms)} room(s)")
        return EXIT_OK
    for room in rooms:
        click.echo(f"leftover room: {room.path} ({int(room.age_s // 60)} min since last change)")
    if rooms:
        click.echo(f"remove them: {program()} verify clean --remove")
    else:
        click.echo("verify clean: no rooms left")
    return EXIT_OK
