"""Journeys whose way out crosses a boundary: CI's block resolved in a writer's clone that
has only the pre-commit framework (no ``gentle-hook`` on PATH), and a verifier's run that
failed on its own brief.

Registered in :data:`bench.journeys.catalog.JOURNEYS` when :mod:`.catalog` is imported (it
imports this module last); each builds its world, proves its edge case from git, then lets
the agent resolve every block only by what it printed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bench.journeys.catalog import CI_FETCH_NOTES, Ctx, framework, journey, passed, writer_commit
from bench.journeys.sandbox import CLI_BIN
from gentle_hooks.report.worktree_text import PATH_LINE

#: The printed command that shares a clone's notes.
SYNC_PUSH = "gentle-hook sync push"


@journey(
    "framework-only-ci-notes",
    "framework-only writer clone pushed without its notes; CI's printed way out runs there",
    needs="pre-commit",
    on_path=False,
)
def _fw_only_ci_notes(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.check(shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) is None, "CLI off PATH")
    writer_commit(ctx, w, 1)  # blocked once, resolved by the framework CLI's printed path
    ctx.sb.prove(w, ["notes", "--ref=gentle-hooks", "show", "HEAD"], "spot_check", "a note on HEAD")
    # the pre-push hook shares the notes; a push that skips it (--no-verify) does not
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "HEAD")
    ctx.sb.prove_empty(w, ["ls-remote", "origin", "refs/notes/*"], "no notes on the remote")
    ci = ctx.sb.clone("ci")
    # CI installs the CLI (docs/ci.md); the writer's clone still has only the framework
    on_ci = {"PATH": os.pathsep.join([str(CLI_BIN), ctx.sb.env["PATH"]])}
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w, env=on_ci
    )
    passed(ctx, step.exit, "CI passed")
    ctx.sb.prove(w, ["ls-remote", "origin", "refs/notes/gentle-hooks"], "refs/notes", "shared")
    # each command as typed (the last line: the PATH line the block printed runs before it)
    ran = [
        s.argv[-1].splitlines()[-1] for s in ctx.sb.steps if s.who == "agent" and s.cwd == str(w)
    ]
    ctx.check(
        any(r.startswith(("git ls-remote --exit-code ", SYNC_PUSH)) for r in ran),
        f"the notes were shared there, by the framework's copy or with git alone: {ran[-3:]}",
    )


@journey(
    "ci-fork",
    "a pull request from a fork: the writer's clone pushes commit and notes to the fork, "
    "CI judges in the base; CI's printed sync push runs in that clone and reaches the base",
    fast=True,
)
def _ci_fork(ctx: Ctx) -> None:
    from bench.journeys.catalog import plain

    w = plain(ctx)
    base = ctx.sb.remote()
    fork = ctx.sb.root / "fork.git"
    ctx.sb.git(ctx.sb.root, "clone", "-q", "--bare", str(base), str(fork))
    ctx.sb.git(w, "remote", "set-url", "origin", str(fork))
    ctx.sb.git(w, "remote", "add", "upstream", str(base))
    writer_commit(ctx, w, 1)
    step = ctx.agent.attempt(w, "git push -q")  # its pre-push shares the notes: to the fork
    passed(ctx, step.exit, "the push to the fork went through")
    ctx.sb.prove(w, ["ls-remote", "origin", "refs/notes/*"], "refs/notes", "notes on the fork")
    ctx.sb.prove_empty(w, ["ls-remote", "upstream", "refs/notes/*"], "no notes on the base")
    ci = ctx.sb.clone("ci")  # the base's clone, the pull request's head fetched from the fork
    ctx.sb.git(ci, "fetch", "-q", str(fork), "HEAD:refs/remotes/pr/head")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD..pr/head", where=w
    )
    passed(ctx, step.exit, "CI passed")
    shared = ctx.sb.run(w, ["git", "ls-remote", "upstream", "refs/notes/*"], who="setup")
    ctx.check("refs/notes/gentle-hooks" in shared.out, "the notes reached the base")


@journey(
    "push-escalated-faulty-brief",
    "an escalated commit at push after a verify run that failed only on its brief; "
    "corrected as the push block says, the push passes",
    fast=True,
)
def _push_escalated_faulty_brief(ctx: Ctx) -> None:
    from bench.journeys.catalog import plain
    from bench.journeys.ways_out import faulty_brief, file_faulty_verdict

    w = plain(ctx)
    faulty, corrected = faulty_brief(ctx, w)
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "escalated change")
    ctx.sb.prove(w, ["log", "-1", "--format=%B"], "Gentle-Writer:", "the writer commit")
    # the orchestrator verifies the commit before pushing, with its faulty brief, and files
    # the fail its run printed
    file_faulty_verdict(ctx, w, faulty, "--committed")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    ctx.check(
        ctx.agent.brief == str(corrected), "the push block sent the agent to correct its brief"
    )


@journey(
    "framework-only-ci-unverified",
    "framework-only writer clone pushed an unverified commit (its gates skipped); CI's "
    "printed way out runs in that clone, where gentle-hook is not on PATH",
    needs="pre-commit",
    on_path=False,
)
def _fw_only_ci_unverified(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.check(shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) is None, "CLI off PATH")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "HEAD")
    ctx.sb.prove(w, ["log", "-1", "--format=%B"], "Gentle-Writer:", "the writer commit")
    ci = ctx.sb.clone("ci")
    on_ci = {"PATH": os.pathsep.join([str(CLI_BIN), ctx.sb.env["PATH"]])}
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w, env=on_ci
    )
    passed(ctx, step.exit, "CI passed")
    # the spot check's block sends its commands nowhere else: they ran in CI's clone, with
    # the agent's PATH (no gentle-hook), after the line that puts the framework's copy there
    _ran_framework_copy(ctx, None)


@journey(
    "framework-only-server",
    "the server's pre-receive rejects a writer commit from a framework-only clone; its "
    "printed way out runs there, where gentle-hook is not on PATH",
    needs="pre-commit",
    on_path=False,
)
def _fw_only_server(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    server = {"PATH": os.pathsep.join([str(CLI_BIN), ctx.sb.env["PATH"]])}
    ctx.sb.sh(ctx.sb.remote(), "gentle-hook install --server", who="setup", env=server)
    ctx.check(shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) is None, "CLI off PATH")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.prove(w, ["log", "-1", "--format=%B"], "Gentle-Writer:", "the writer commit")
    step = ctx.agent.attempt(w, "git push -q --no-verify origin HEAD")
    passed(ctx, step.exit, "the push was accepted")
    _ran_framework_copy(ctx, w)


def _ran_framework_copy(ctx: Ctx, w: Path | None) -> None:
    """The commit was verified with the framework's copy of the CLI, in ``w`` (any clone
    when None): ``gentle-hook`` commands the block printed, each run after its line that
    puts that copy on PATH (``gentle-hook`` is not on PATH there otherwise), each exit 0."""
    ran = [s for s in ctx.sb.steps if s.who == "agent" and (w is None or s.cwd == str(w))]
    copy = [
        s
        for s in ran
        if s.argv[-1].startswith(PATH_LINE + "\n")
        and s.argv[-1].splitlines()[-1].startswith("gentle-hook ")
    ]
    words = [s.argv[-1].splitlines()[-1].split()[1:3] for s in copy]
    ctx.check(
        len(copy) >= 3 and all(s.exit == 0 for s in copy),
        f"the framework's copy ran receipt, spot-check and sync push: {words}",
    )
