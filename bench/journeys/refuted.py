"""Journeys of a change a re-run refuted (a flaky test: the writer's report passed, its
spot check failed), at commit, at push and in CI, and of a push whose commit tracks a file
the user's work tree holds untracked.

Registered in :data:`bench.journeys.catalog.JOURNEYS` when :mod:`.catalog` is imported (it
imports this module last); each builds its world, proves its edge case from git, then lets
the agent resolve every block only by what it printed. A refuted change's block prints no
report or spot check of it (they would succeed and change nothing: a loop); at commit and
push its printed override runs the action itself (``in_band``); in CI it prints words only,
a documented refusal (``by_design``).
"""

from __future__ import annotations

from pathlib import Path

from bench.journeys.agent import ByDesign
from bench.journeys.catalog import CI_FETCH_NOTES, TEST, Ctx, journey, passed, plain
from bench.journeys.sandbox import FixtureError

#: The writer's extra test: it fails while the sandbox's ``flaky`` file exists.
_FLAKY_TEST = (
    "import os\nimport unittest\n\n\nclass Flaky(unittest.TestCase):\n"
    "    def test_env(self):\n        self.assertFalse(os.path.exists({flag!r}))\n"
)
#: The documented refusal a CI block of a refuted commit prints (README, "A block names").
_CI_REFUSAL = ByDesign(
    r"a later commit does not clear it",
    "README.md",
    "In CI and at the server a later commit does not clear an earlier refuted one: rewrite "
    "the branch without it (or with it changed); a recorded override counts there only with "
    "`gate.honour_overrides = true`.",
)


def _refuted(ctx: Ctx, w: Path) -> None:
    """A staged writer change whose report passed and whose spot check then failed (the
    flag file existed only while the spot check ran); an agreeing spot check after it."""
    flag = ctx.sb.root / "flaky"
    ctx.sb.writer_edit(w, 1, {"test_flaky.py": _FLAKY_TEST.format(flag=str(flag))})
    ctx.sb.git(w, "add", "-A")
    ctx.sb.prove(w, ["diff", "--cached", "--name-only"], "test_flaky.py", "a staged change")
    if ctx.sb.sh(w, f"{ctx.gh} receipt run --staged -- {TEST}", who="setup").exit != 0:
        raise FixtureError("the writer's report failed")
    ctx.sb.write(flag, "")
    checked = ctx.sb.sh(w, f"{ctx.gh} spot-check --staged", who="setup")
    flag.unlink()
    if checked.exit != 1 or "DISAGREED" not in checked.out:
        raise FixtureError(f"the spot check did not disagree: {checked.out.strip()[-200:]}")
    if ctx.sb.sh(w, f"{ctx.gh} spot-check --staged", who="setup").exit != 0:
        raise FixtureError("the second spot check did not agree")


def _no_loop(ctx: Ctx) -> None:
    """No block offered a report or spot check of the refuted change."""
    for b in ctx.agent.blocks:
        loop = [c for c in b.printed if "receipt run" in c or "spot-check" in c]
        ctx.check(not loop, f"no report or spot check offered for the refuted change: {loop}")


@journey("commit-flaky-rerun", "a re-run disagreed (flaky test): the commit's override", fast=True)
def _commit_flaky(ctx: Ctx) -> None:
    w = plain(ctx)
    _refuted(ctx, w)
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through, overridden and recorded")
    head = ctx.sb.run(w, ["git", "log", "-1", "--format=%s"]).out.strip()
    ctx.check(head == "writer change", f"the user's own commit message: {head!r}")
    _no_loop(ctx)


@journey("push-flaky-rerun", "a refuted commit overridden at commit, then at push")
def _push_flaky(ctx: Ctx) -> None:
    w = plain(ctx)
    _refuted(ctx, w)
    made = ctx.sb.sh(w, "GENTLE_HOOKS_SKIP=flaky git commit -q -m 'writer change'", who="setup")
    if made.exit != 0:
        raise FixtureError(f"the overridden commit failed: {made.out.strip()[-200:]}")
    step = ctx.agent.attempt(w, "git push -q origin main")
    passed(ctx, step.exit, "the push went through, overridden and recorded")
    _no_loop(ctx)


@journey(
    "push-flaky-and-unverified",
    "a refuted commit overridden at commit and an unverified one on top: the printed "
    "override names the refuted one only",
)
def _push_flaky_and_unverified(ctx: Ctx) -> None:
    w = plain(ctx)
    _refuted(ctx, w)
    made = ctx.sb.sh(w, "GENTLE_HOOKS_SKIP=flaky git commit -q -m 'writer change'", who="setup")
    if made.exit != 0:
        raise FixtureError(f"the overridden commit failed: {made.out.strip()[-200:]}")
    ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change, unverified")
    ctx.sb.prove(w, ["log", "-1", "--format=%s", "HEAD~1"], "writer change", "the refuted one")
    step = ctx.agent.attempt(w, "git push -q origin main")
    passed(ctx, step.exit, "the push went through once the unverified commit was verified")
    only = [c for b in ctx.agent.blocks for c in b.printed if "GENTLE_HOOKS_SKIP=" in c]
    ctx.check(
        bool(only) and all("GENTLE_HOOKS_SKIP_ONLY=" in c for c in only),
        f"every printed override names its candidate: {only}",
    )
    _no_loop_for_refuted(ctx)


def _no_loop_for_refuted(ctx: Ctx) -> None:
    """No block offered a report or spot check of the refuted commit (the unverified one's
    are in its own worktree, named by its commit)."""
    refuted = ctx.sb.run(ctx.sb.root / "work", ["git", "rev-parse", "HEAD~1"]).out.strip()
    for b in ctx.agent.blocks:
        loop = [c for c in b.printed if refuted[:12] in c and ("spot-check" in c)]
        ctx.check(not loop, f"no spot check offered for the refuted commit: {loop}")


@journey("ci-flaky-rerun", "CI meets a commit a re-run refuted: the rewrite, in words")
def _ci_flaky(ctx: Ctx) -> None:
    w = plain(ctx)
    _refuted(ctx, w)
    skip = "GENTLE_HOOKS_SKIP=flaky"
    for line in (f"{skip} git commit -q -m 'writer change'", f"{skip} git push -q origin main"):
        if ctx.sb.sh(w, line, who="setup").exit != 0:
            raise FixtureError(f"{line} failed")
    ctx.sb.prove(w, ["ls-remote", "origin", "refs/notes/gentle-hooks"], "refs/notes", "notes")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci,
        f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD",
        where=w,
        by_design=_CI_REFUSAL,
    )
    ctx.check(step.exit == 1, "CI keeps the refuted commit out")
    _no_loop(ctx)


@journey("push-untracked-collision", "the pushed commit tracks a file untracked here", fast=True)
def _push_untracked(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.git(w, "switch", "-q", "-c", "topic")
    ctx.sb.writer_edit(w, 1, {"test_extra.py": "import unittest\n"})
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.git(w, "switch", "-q", "main")
    ctx.sb.write(w / "test_extra.py", "# mine, not committed\n")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? test_extra.py", "an untracked file")
    ctx.sb.prove(w, ["switch", "--detach", "topic"], "", "a switch to the commit refused")
    step = ctx.agent.attempt(w, "git push -q origin topic")
    passed(ctx, step.exit, "the push went through")
    branch = ctx.sb.run(w, ["git", "branch", "--show-current"]).out.strip()
    ctx.check(branch == "main", f"still on the branch: {branch!r}")
    mine = (w / "test_extra.py").read_text()
    ctx.check(mine == "# mine, not committed\n", f"the untracked file kept: {mine!r}")
