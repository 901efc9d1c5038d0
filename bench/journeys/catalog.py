"""The journeys: each builds its world, proves its edge case from git, then walks through.

A journey is a function of a :class:`Ctx`; :data:`JOURNEYS` lists them in order. ``fast``
journeys run in the test suite (tests/e2e/test_journeys.py); ``needs`` names a tool the
journey needs (``pre-commit``, ``prek``): without it the journey is reported ``skipped``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.journeys.agent import Agent, ByDesign
from bench.journeys.agent import printed_commands as _printed
from bench.journeys.sandbox import CLI_BIN, FixtureError, Sandbox, pip_env


def printed_commands_of(out: str) -> list[str]:
    """The ``run:`` commands a command's output printed (nothing to complete)."""
    return _printed(out, "", "text", "")


class Skip(Exception):
    """The journey cannot run here (a tool cannot be installed): reported ``skipped`` with
    the reason, never a pass."""


DOCS = Path(__file__).resolve().parents[2] / "docs"

#: The writer's test command: it checks the change (and writes no __pycache__).
TEST = "python3 -B -m unittest -q"
#: The same without -B: the run leaves __pycache__/ behind, untracked.
TEST_LITTER = "python3 -m unittest -q"
#: CI's steps before the gate, as docs/ci.md writes them.
CI_FETCH_NOTES = "git fetch -q origin '+refs/notes/gentle-hooks:refs/notes/gentle-hooks' || true"
#: Every hook type the README's one framework line installs.
PRE_COMMIT_INSTALL = (
    "pre-commit install -t pre-commit -t pre-merge-commit -t commit-msg -t pre-push "
    "-t prepare-commit-msg -t post-commit -t post-rewrite"
)
HOOK_IDS = (
    "gentle-hooks-commit-gate",
    "gentle-hooks-commit-msg-gate",
    "gentle-hooks-push-gate",
    "gentle-hooks-prepare-commit-msg",
    "gentle-hooks-post-commit",
    "gentle-hooks-post-rewrite",
)


@dataclass
class Ctx:
    """What a journey works with: its sandbox, its agent, and the checks it made."""

    sb: Sandbox
    agent: Agent
    hook_repo: tuple[Path, str] | None = None
    checks: list[tuple[bool, str]] = field(default_factory=list)
    node_modules: Path | None = None
    templates: Path | None = None
    #: How :func:`plain` installs the gate: ``plain`` (``gentle-hook install``) or
    #: ``pre-commit`` (the README's one framework line, then ``install --share``).
    install: str = "plain"

    def check(self, ok: bool, what: str) -> None:
        """A thing the journey expects once the agent is through (fails the journey)."""
        self.checks.append((ok, what))

    @property
    def gh(self) -> str:
        """How this user types the CLI (its absolute path when it is not on PATH)."""
        return "gentle-hook" if self.sb.on_path else shlex.quote(self.sb.cli)


@dataclass
class Journey:
    name: str
    what: str
    body: Callable[[Ctx], None]
    fast: bool = False
    needs: str = ""
    on_path: bool = True
    install: str = "plain"


JOURNEYS: list[Journey] = []


def journey(
    name: str, what: str, *, fast: bool = False, needs: str = "", on_path: bool = True
) -> Callable[[Callable[[Ctx], None]], Callable[[Ctx], None]]:
    def add(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
        JOURNEYS.append(Journey(name, what, fn, fast, needs, on_path))
        return fn

    return add


# -- helpers ------------------------------------------------------------------------------


def plain(ctx: Ctx, *, share: bool = True, commits: int = 1) -> Path:
    """A project clone with the plain hooks installed (and the notes shared): built once
    per bench run and variant in a template sandbox, then copied (:meth:`Sandbox.adopt`).
    A journey run under the framework (``ctx.install``) gets the framework's hooks
    instead, and the notes shared as the README says (:func:`framework_shared`)."""
    if ctx.install != "plain":
        return framework_shared(ctx, ctx.install, share=share, commits=commits)
    if ctx.templates is None or shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) != str(
        CLI_BIN / "gentle-hook"
    ):  # the template's hooks run the bench's CLI: another CLI installs its own
        return _plain(ctx.sb, ctx.gh, share, commits)
    key = (share, commits)
    with _TEMPLATE_LOCK:
        if key not in _TEMPLATES.setdefault(str(ctx.templates), {}):
            root = ctx.templates / f"plain-{int(share)}-{commits}"
            sb = Sandbox(root, pre_commit_home=ctx.sb.pre_commit_home)
            _plain(sb, "gentle-hook", share, commits)
            _TEMPLATES[str(ctx.templates)][key] = root
        template = _TEMPLATES[str(ctx.templates)][key]
    return ctx.sb.adopt(template)


#: The template sandboxes built so far, per templates directory and (share, commits).
_TEMPLATES: dict[str, dict[tuple[bool, int], Path]] = {}
_TEMPLATE_LOCK = threading.Lock()


def _plain(sb: Sandbox, gh: str, share: bool, commits: int) -> Path:
    w = sb.project(commits=commits)
    step = sb.sh(w, f"{gh} install" + (" --share origin" if share else ""), who="setup")
    if step.exit != 0:
        raise FixtureError(f"install failed: {step.out.strip()}")
    return w


def framework(ctx: Ctx, tool: str, commits: int = 1) -> Path:
    """A project clone whose hooks come from the framework (``tool``), installed with the
    README's one line; the CLI itself is where ``ctx.sb.on_path`` puts it."""
    assert ctx.hook_repo is not None
    path, sha = ctx.hook_repo
    w = ctx.sb.project(commits=commits)
    hooks = "".join(f"      - id: {h}\n" for h in HOOK_IDS)
    ctx.sb.write(
        w / ".pre-commit-config.yaml",
        f"repos:\n  - repo: {path}\n    rev: {sha}\n    hooks:\n{hooks}",
    )
    ctx.sb.git(w, "add", ".pre-commit-config.yaml")
    ctx.sb.git(w, "commit", "-q", "-m", "pre-commit config")
    ctx.sb.git(w, "push", "-q", "origin", "HEAD")
    line = (
        PRE_COMMIT_INSTALL
        if tool == "pre-commit"
        else PRE_COMMIT_INSTALL.replace("pre-commit install", "prek install")
    )
    step = ctx.sb.sh(w, line, who="setup")
    if step.exit != 0:
        raise FixtureError(f"{tool} install failed: {step.out.strip()}")
    ctx.sb.prove(w, ["config", "--get", "core.hooksPath"], "", "no core.hooksPath override")
    return w


def framework_shared(ctx: Ctx, tool: str, *, share: bool = True, commits: int = 1) -> Path:
    """:func:`framework`, then (``share``) the README's next step for a framework user:
    ``gentle-hook install --share origin`` (the CLI by its path when it is not on PATH),
    which installs no hook over the framework's and only sets up the notes."""
    w = framework(ctx, tool, commits)
    if not ctx.sb.on_path and shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) is not None:
        raise FixtureError("gentle-hook is on PATH in a journey that has it off PATH")
    if share:
        step = ctx.sb.sh(w, f"{ctx.gh} install --share origin", who="setup")
        if step.exit != 0:
            raise FixtureError(f"install --share under {tool} failed: {step.out.strip()}")
        ctx.sb.prove(w, ["config", "--get-all", "remote.origin.fetch"], "notes", "notes fetched")
    return w


def writer_commit(ctx: Ctx, w: Path, value: int, **extra: str) -> None:
    """The writer's change, verified and committed through the gate by the agent."""
    ctx.sb.writer_edit(w, value, extra or None)
    ctx.sb.git(w, "add", "-A")
    ctx.agent.attempt(w, f"git commit -q -m 'writer change {value}'")


def passed(ctx: Ctx, step_exit: int, what: str) -> None:
    ctx.check(step_exit == 0, what)


# -- plain hooks: the commit gate ----------------------------------------------------------


@journey("commit-medium", "plain hooks: a delegated medium change, committed", fast=True)
def _commit_medium(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.prove(w, ["diff", "--cached", "--name-only"], "m.py", "a staged change")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-medium-json", "plain hooks: the same, read as the JSON decision")
def _commit_json(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'", fmt="json")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-pycache", "the test run leaves __pycache__/ untracked", fast=True)
def _commit_pycache(ctx: Ctx) -> None:
    ctx.agent.test_command = TEST_LITTER
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.sh(w, TEST_LITTER, who="setup")
    ctx.sb.prove(
        w, ["status", "--porcelain"], "?? __pycache__/", "untracked files from the test run"
    )
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-pycache-snapshot", "a default-binding spot check after a littering test")
def _commit_pycache_snapshot(ctx: Ctx) -> None:
    ctx.agent.test_command = TEST_LITTER
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    # the writer's own plain test run (``receipt run`` keeps its bytecode out of the tree),
    # then the receipt
    ctx.sb.sh(w, TEST_LITTER, who="setup")
    ctx.sb.prove(
        w, ["status", "--porcelain"], "?? __pycache__/", "untracked files from the test run"
    )
    ctx.sb.sh(w, f"gentle-hook receipt run -- {TEST_LITTER}")
    ctx.sb.git(w, "add", "m.py", "test_m.py")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


#: A test module whose every run rewrites last-run.txt (another time each run), a file git
#: does not ignore.
_WRITES_LOG = (
    "import time\nimport unittest\n\n\nclass L(unittest.TestCase):\n"
    "    def test_log(self):\n"
    "        with open('last-run.txt', 'w') as f:\n"
    "            f.write(str(time.time_ns()))\n"
)


@journey(
    "commit-test-writes-file",
    "the test run rewrites a file git does not ignore, staged with the change",
    fast=True,
)
def _commit_writes_file(ctx: Ctx) -> None:
    _test_writes_file(ctx, second_edit=False)


@journey(
    "commit-test-writes-file-second-edit",
    "the test run rewrites a file git does not ignore; the writer edits again after the "
    "report, and both are staged: the report binds to the earlier candidate",
    fast=True,
)
def _commit_writes_file_second_edit(ctx: Ctx) -> None:
    _test_writes_file(ctx, second_edit=True)


def _test_writes_file(ctx: Ctx, *, second_edit: bool) -> None:
    """The writer's test rewrites ``last-run.txt`` (not ignored) under ``receipt run``; with
    ``second_edit`` the writer edits again after the report; everything is staged and the
    agent commits until it goes through, without the test's file."""
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1, {"test_log.py": _WRITES_LOG})
    ctx.sb.sh(w, f"{ctx.gh} receipt run -- {TEST}", who="setup")
    if second_edit:
        ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.prove(w, ["diff", "--cached", "--name-only"], "last-run.txt", "the test's file staged")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    shown = ctx.sb.run(w, ["git", "show", "--name-only", "--format=", "HEAD"], who="setup")
    ctx.check("last-run.txt" not in shown.out, "the test's file stayed out of the commit")


#: A test that makes ``out/`` and so cannot run twice in one directory.
_MAKES_DIR = (
    "import os\nimport unittest\n\n\nclass O(unittest.TestCase):\n"
    "    def test_out(self):\n"
    "        os.mkdir('out')\n"
    "        with open('out/r.txt', 'w') as f:\n"
    "            f.write('ok')\n"
)


@journey(
    "commit-test-not-rerunnable",
    "the test makes out/ and cannot run twice: its spot check in the work tree fails; the "
    "staged change, never re-run, is spot-checked in a clean checkout",
    fast=True,
)
def _commit_not_rerunnable(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1, {"test_out.py": _MAKES_DIR})
    ctx.sb.sh(w, f"{ctx.gh} receipt run -- {TEST}", who="setup")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? out/", "the run's out/, untracked")
    if ctx.sb.sh(w, f"{ctx.gh} spot-check", who="setup").exit != 1:
        raise FixtureError("the spot check in the work tree holding out/ did not fail")
    ctx.sb.git(w, "add", "m.py", "test_m.py", "test_out.py")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    printed = [line for b in ctx.agent.blocks for line in b.printed]
    ctx.check(
        any("spot-check --staged" in line for line in printed)
        and not any("GENTLE_HOOKS_SKIP" in line for line in printed),
        "the block offered the staged change's spot check, not an override of a refutation",
    )
    shown = ctx.sb.run(w, ["git", "show", "--name-only", "--format=", "HEAD"], who="setup")
    ctx.check("out/r.txt" not in shown.out, "the run's out/ stayed out of the commit")


@journey(
    "commit-second-edit",
    "an earlier test run left __pycache__/ (not ignored); the next edit's run rewrites it",
)
def _commit_second_edit(ctx: Ctx) -> None:
    ctx.agent.test_command = TEST_LITTER
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, TEST_LITTER, who="setup")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? __pycache__/", "the first run's bytecode")
    ctx.sb.sh(w, "sleep 1", who="setup")  # the next source's mtime differs: a new .pyc
    ctx.sb.writer_edit(w, 22)
    ctx.sb.sh(w, f"{ctx.gh} receipt run -- {TEST_LITTER}", who="setup")
    # the writer's own spot check of the work tree (the run rewrote the .pyc it reported
    # on), then the commit
    step = ctx.agent.attempt(w, f"{ctx.gh} spot-check")
    passed(ctx, step.exit, "the spot check counted")
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-declared", "verification.commands declared: the report is named")
def _commit_declared(ctx: Ctx) -> None:
    w = ctx.sb.project()
    ctx.sb.write(w / ".gentle-hooks.toml", f'[verification]\ncommands = ["{TEST}"]\n')
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "-m", "declare")
    ctx.sb.git(w, "push", "-q", "origin", "HEAD")
    ctx.sb.sh(w, "gentle-hook install --share origin", who="setup")
    ctx.sb.prove(w, ["show", "HEAD:.gentle-hooks.toml"], TEST, "a declared command")
    ctx.agent.test_command = "false"  # the block must name the command itself
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-subdir", "a commit from a subdirectory after a report made at the top", fast=True)
def _commit_subdir(ctx: Ctx) -> None:
    # a command that finds its tests only from the top: pasted in src/ it fails
    ctx.agent.test_command = "python3 -B -m unittest -q test_m"
    w = plain(ctx)
    ctx.sb.write(w / "src" / "data.txt", "one\n")
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "-m", "src dir")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, "gentle-hook receipt run -- python3 -B -m unittest -q test_m")
    ctx.sb.writer_edit(w, 2)  # the report above is for an earlier candidate now
    ctx.sb.git(w, "add", "-A")
    ctx.sb.prove(
        w / "src", ["rev-parse", "--show-prefix"], "src/", "the commit runs in a subdirectory"
    )
    step = ctx.agent.attempt(w / "src", "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-partial", "a partial commit: other writer files stay unstaged")
def _commit_partial(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1, {"notes.txt": "later\n"})
    ctx.sb.git(w, "add", "m.py", "test_m.py")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? notes.txt", "a file left out of the commit")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the partial commit went through")
    ctx.sb.git(w, "add", "notes.txt")
    step = ctx.agent.attempt(w, "git commit -q -m 'the rest'")
    passed(ctx, step.exit, "the rest went through")


@journey("commit-paths", "git commit <paths>: a temporary index no flag binds", fast=True)
def _commit_paths(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.write(w / "README.md", "# demo\n\nnot in this commit\n")
    ctx.sb.git(w, "add", "README.md")
    ctx.sb.prove(w, ["diff", "--cached", "--name-only"], "README.md", "another path staged")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change' m.py test_m.py")
    passed(ctx, step.exit, "the commit of the named paths went through")
    shown = ctx.sb.run(w, ["git", "show", "--name-only", "--format=", "HEAD"]).out.split()
    ctx.check(sorted(shown) == ["m.py", "test_m.py"], f"only the named paths: {shown}")


@journey(
    "commit-paths-mm",
    "git commit <paths> while another path is staged and edited again (MM)",
    fast=True,
)
def _commit_paths_mm(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "test_m.py")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "the writer's test first")
    ctx.sb.write(w / "README.md", "# demo\n\nstaged, not in this commit\n")
    ctx.sb.git(w, "add", "README.md")
    ctx.sb.write(w / "README.md", "# demo\n\nedited again after staging\n")
    ctx.sb.prove(w, ["status", "--porcelain"], "MM README.md", "a staged path edited again")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change' -- m.py")
    passed(ctx, step.exit, "the commit of the named path went through")
    shown = ctx.sb.run(w, ["git", "show", "--name-only", "--format=", "HEAD"]).out.split()
    ctx.check(shown == ["m.py"], f"only the named path: {shown}")
    staged = ctx.sb.run(w, ["git", "show", ":README.md"]).out
    ctx.check("staged, not in this commit" in staged, f"README's staged edit kept: {staged!r}")
    said = "\n".join(s.out for s in ctx.sb.steps if s.who == "writer")
    ctx.check("neither --staged nor" not in said, "no block without commands that bind it")


@journey("commit-a-untracked", "git commit -a while the writer's new file stays untracked")
def _commit_a_untracked(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1, {"later.py": "X = 1\n"})
    ctx.sb.prove(w, ["status", "--porcelain"], "?? later.py", "an untracked writer file")
    step = ctx.agent.attempt(w, "git commit -q -a -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-a", "git commit -a: the index git hands the hook", fast=False)
def _commit_a(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.prove_empty(w, ["diff", "--cached", "--name-only"], "nothing staged before commit -a")
    step = ctx.agent.attempt(w, "git commit -q -a -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-a-staged", "git commit -a when the index already holds every change")
def _commit_a_staged(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.prove_empty(w, ["diff", "--name-only"], "the index holds the work tree's changes")
    step = ctx.agent.attempt(w, "git commit -q -a -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    said = "\n".join(s.out for s in ctx.sb.steps if s.who == "writer")
    ctx.check(
        "neither --staged nor" not in said,
        "no note that --staged cannot bind it (the index holds the same tree)",
    )


@journey("commit-a-pycache", "git commit -a, then a test run that leaves __pycache__/", fast=True)
def _commit_a_pycache(ctx: Ctx) -> None:
    ctx.agent.test_command = TEST_LITTER
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.prove_empty(w, ["diff", "--cached", "--name-only"], "nothing staged before commit -a")
    ctx.sb.prove(w, ["check-ignore", "__pycache__/m.pyc"], "", "__pycache__/ is not ignored")
    # the writer's own plain test run, as agents do before committing (``receipt run``
    # keeps its bytecode out of the tree): the work tree holds more than the candidate
    ctx.sb.sh(w, TEST_LITTER, who="setup")
    ctx.sb.prove(
        w, ["status", "--porcelain"], "?? __pycache__/", "untracked files from the test run"
    )
    step = ctx.agent.attempt(w, "git commit -q -a -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    # the first block's commands keep its candidate: the commit passes after them alone
    ctx.check(len(ctx.agent.blocks) == 1, f"one block, not {len(ctx.agent.blocks)}")
    littered = ctx.sb.run(w, ["git", "status", "--porcelain"]).out
    ctx.check("?? __pycache__/" in littered, f"the test run left __pycache__/: {littered!r}")


@journey("commit-escalated", "an escalated change needs a verifier run", fast=False)
def _commit_escalated(ctx: Ctx) -> None:
    w = plain(ctx)
    brief = ctx.sb.root / "brief.json"
    ctx.sb.write(brief, _BRIEF)
    ctx.agent.brief = str(brief)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, "gentle-hook escalate --item security --reason 'token check changed'")
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'escalated change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-failing-test", "the writer's test fails: the report is refused, then fixed")
def _commit_failing(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.write(w / "m.py", "def f():\n    return 99\n")  # the writer broke it
    ctx.sb.git(w, "add", "-A")
    ctx.sb.sh(w, f"gentle-hook receipt run --staged -- {TEST}")
    step = ctx.agent.attempt(
        w,
        "git commit -q -m 'writer change'",
        by_design=ByDesign(
            r"reported exit [1-9]",
            "README.md",
            "its observed result is success, exit 0 (`S-failed`: a failure report is not "
            "self-verification",
        ),
    )
    ctx.check(step.exit != 0, "a failing change is not committed")


@journey("commit-amend-stale", "an amend that changes the tree after verification")
def _commit_amend(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q --amend --no-edit")
    passed(ctx, step.exit, "the amend went through")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("commit-amend-pushed", "an amend of a pushed writer commit, then a force push")
def _commit_amend_pushed(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the first push went through")
    ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q --amend --no-edit")
    passed(ctx, step.exit, "the amend went through")
    # the commit gate's way out bound the candidate the push gate judges: no block here
    blocks = len(ctx.agent.blocks)
    step = ctx.agent.attempt(w, "git push -q -f")
    passed(ctx, step.exit, "the force push went through")
    ctx.check(len(ctx.agent.blocks) == blocks, "the force push was not blocked again")


# -- push, CI, server ---------------------------------------------------------------------


@journey("push-verified", "a verified commit pushed with plain git push; CI passes")
def _push_verified(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("push-no-verify", "a writer commit made with --no-verify is caught at push", fast=True)
def _push_no_verify(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")


@journey("push-no-verify-json", "the same, read as the JSON decision")
def _push_no_verify_json(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    step = ctx.agent.attempt(w, "git push -q", fmt="json")
    passed(ctx, step.exit, "the push went through")


@journey("push-older-commit", "the unverified commit is not HEAD", fast=False)
def _push_older(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.write(w / "README.md", "# demo\n\nhuman words\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human docs")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")


@journey("push-older-escalated", "an escalated commit that is not HEAD at push")
def _push_older_escalated(ctx: Ctx) -> None:
    w = plain(ctx)
    brief = ctx.sb.root / "brief.json"
    ctx.sb.write(brief, _BRIEF)
    ctx.agent.brief = str(brief)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, "gentle-hook escalate --item security --reason 'token check changed'")
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "escalated change")
    ctx.sb.write(w / "README.md", "# demo\n\nhuman words\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human docs")
    ctx.sb.prove(w, ["log", "-1", "--format=%s", "HEAD~1"], "escalated", "the escalated commit")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    branch = ctx.sb.run(w, ["git", "symbolic-ref", "-q", "--short", "HEAD"]).out.strip()
    ctx.check(branch == "main", f"back on the branch after the printed steps: {branch!r}")


@journey(
    "push-older-escalated-dirty",
    "an escalated commit that is not HEAD at push, with uncommitted work and a file the "
    "older commit differs in",
)
def _push_older_escalated_dirty(ctx: Ctx) -> None:
    w = plain(ctx)
    brief = ctx.sb.root / "brief.json"
    ctx.sb.write(brief, _BRIEF)
    ctx.agent.brief = str(brief)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, "gentle-hook escalate --item security --reason 'token check changed'")
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "escalated change")
    ctx.sb.write(w / "README.md", "# demo\n\nhuman words\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human docs")
    ctx.sb.write(w / "README.md", "# demo\n\nhuman words, in progress\n")
    ctx.sb.write(w / "scratch.txt", "mine\n")
    ctx.sb.prove(w, ["log", "-1", "--format=%s", "HEAD~1"], "escalated", "the escalated commit")
    ctx.sb.prove(w, ["diff", "--name-only", "HEAD~1", "HEAD"], "README.md", "HEAD changed it")
    ctx.sb.prove(w, ["status", "--porcelain"], " M README.md", "README.md changed again")
    head = ctx.sb.run(w, ["git", "rev-parse", "HEAD"]).out.strip()
    status = ctx.sb.run(w, ["git", "status", "--porcelain"]).out
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    printed = [c for b in ctx.agent.blocks for c in b.printed]
    moves = ("git stash", "git switch", "git checkout")
    ctx.check(not any(c.startswith(moves) for c in printed), f"nothing moved: {printed}")
    branch = ctx.sb.run(w, ["git", "symbolic-ref", "-q", "--short", "HEAD"]).out.strip()
    ctx.check(branch == "main", f"the branch never moved: {branch!r}")
    now = ctx.sb.run(w, ["git", "rev-parse", "HEAD"]).out.strip()
    ctx.check(now == head, f"HEAD never moved: {now} != {head}")
    after = ctx.sb.run(w, ["git", "status", "--porcelain"]).out
    ctx.check(after == status, f"the uncommitted work is as it was: {after!r} != {status!r}")
    ctx.check(not ctx.sb.run(w, ["git", "stash", "list"]).out.strip(), "no stash left behind")
    trees = ctx.sb.run(w, ["git", "worktree", "list"]).out.splitlines()
    ctx.check(len(trees) == 1, f"no worktree left behind: {trees}")


@journey(
    "ci-coauthor", "a commit delegated only by its AI co-author trailer, through CI", fast=True
)
def _ci_coauthor(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.write(w / "m.py", "def f():\n    return 1\n")
    ctx.sb.write(
        w / "test_m.py",
        "import unittest\nfrom m import f\n\n\nclass T(unittest.TestCase):\n"
        "    def test_f(self):\n        self.assertEqual(f(), 1)\n",
    )
    ctx.sb.git(w, "add", "-A")
    msg = "ai change\n\nCo-authored-by: Claude <noreply@anthropic.com>"
    step = ctx.agent.attempt(w, f"git commit -q -m {shlex.quote(msg)}")
    passed(ctx, step.exit, "the commit went through")
    ctx.sb.prove(w, ["log", "-1", "--format=%B"], "Co-authored-by: Claude", "the trailer")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")
    ctx.check(
        len(ctx.agent.blocks) == 1,
        f"one block (the commit's), not {len(ctx.agent.blocks)}",
    )


@journey("ci-notes-not-pushed", "verified locally, pushed without its notes", fast=True)
def _ci_notes(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    # the pre-push hook shares the notes; a push that skips it (--no-verify) does not
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "main")
    ctx.sb.prove_empty(w, ["ls-remote", "origin", "refs/notes/*"], "no notes on the remote")
    ctx.sb.prove(w, ["notes", "--ref=gentle-hooks", "show", "HEAD"], "spot_check", "a note on HEAD")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("ci-shallow", "CI's shallow clone cuts the range", fast=True)
def _ci_shallow(ctx: Ctx) -> None:
    w = plain(ctx, commits=3)
    writer_commit(ctx, w, 1)
    ctx.agent.attempt(w, "git push -q")
    ci = ctx.sb.clone("ci", depth=1)
    ctx.sb.prove(ci, ["rev-parse", "--is-shallow-repository"], "true", "a shallow clone")
    step = ctx.agent.attempt(ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~2..HEAD")
    passed(ctx, step.exit, "CI passed")


@journey("ci-shallow-base", "CI's shallow clone holds the range but not the note's base")
def _ci_shallow_base(ctx: Ctx) -> None:
    w = plain(ctx)
    # the writer's base (origin/main when it verified) is two commits below its commit
    ctx.sb.write(w / "README.md", "# demo\n\nhuman words\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human docs")
    writer_commit(ctx, w, 1)
    ctx.agent.attempt(w, "git push -q")
    ci = ctx.sb.clone("ci", depth=2)
    ctx.sb.prove(ci, ["rev-parse", "--is-shallow-repository"], "true", "a shallow clone")
    ctx.sb.prove(ci, ["rev-parse", "HEAD~2"], "", "the base of the notes is not here")
    step = ctx.agent.attempt(ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD")
    passed(ctx, step.exit, "CI passed")
    said = "\n".join(s.out for s in ctx.sb.steps if s.who == "writer")
    ctx.check(
        not ("records writer work" in said and "no gentle-hooks note reached here" in said),
        "no block says both that the note records writer work and that no note reached here",
    )


@journey(
    "ci-complete-short", "gate --range HEAD~3..HEAD in a complete one-commit repository", fast=True
)
def _ci_complete_short(ctx: Ctx) -> None:
    w = ctx.sb.project()
    ctx.sb.prove(w, ["rev-parse", "--is-shallow-repository"], "false", "a complete clone")
    ctx.sb.prove(w, ["rev-list", "--count", "HEAD"], "1", "one commit")
    step = ctx.agent.attempt(
        w,
        "gentle-hook gate --range HEAD~3..HEAD",
        by_design=ByDesign(
            r"the history is complete and .* has only \d+ commit",
            "docs/ci.md",
            "a range start that is not a commit of a complete history (say `HEAD~3..HEAD` in a "
            "repository of one commit",
        ),
    )
    ctx.check("unshallow" not in ctx.sb.steps[-1].out, "no fetch --unshallow in a complete clone")
    ctx.check(step.exit == 2, "exit 2")


@journey(
    "ci-unborn-head", "CI's clone has an unborn HEAD: the remote's HEAD names no branch", fast=True
)
def _ci_unborn(ctx: Ctx) -> None:
    w = ctx.sb.clone("writer")
    ctx.sb.git(w, "switch", "-q", "-c", "dev")
    for i in range(2):
        ctx.sb.write(w / "README.md", f"# demo\n\nversion {i}\n")
        ctx.sb.git(w, "add", "-A")
        ctx.sb.git(w, "commit", "-q", "-m", f"human commit {i}")
    ctx.sb.git(w, "push", "-q", "origin", "dev")
    ci = ctx.sb.clone("ci")
    ctx.sb.prove(ci, ["rev-parse", "--verify", "-q", "HEAD"], "", "an unborn HEAD")
    ctx.sb.prove(ci, ["branch", "-r"], "origin/dev", "a fetched branch")
    step = ctx.agent.attempt(ci, "gentle-hook gate --range HEAD~1..HEAD")
    passed(ctx, step.exit, "CI passed on the branch it checked out")


@journey("empty-repo", "the gate and status in a repository with no commits", fast=True)
def _empty(ctx: Ctx) -> None:
    w = ctx.sb.clone()
    ctx.sb.prove(w, ["rev-parse", "--verify", "-q", "HEAD"], "", "no commit yet")
    step = ctx.agent.attempt(
        w,
        "gentle-hook gate --range HEAD~1..HEAD",
        by_design=ByDesign(
            r"no commits yet",
            "docs/ci.md",
            'a repository with no commits yet ("this repository has no commits yet: nothing to '
            'judge") are bad input, exit 2',
        ),
    )
    ctx.check(step.exit == 2, "exit 2")
    st = ctx.sb.sh(w, "gentle-hook status")
    ctx.check(st.exit == 0, f"status in an empty repository: {st.out.strip()[:120]}")


@journey("server-gate", "the server's pre-receive rejects, the pusher fixes", fast=True)
def _server(ctx: Ctx) -> None:
    w = plain(ctx, share=False)
    ctx.sb.sh(ctx.sb.remote(), "gentle-hook install --server", who="setup")
    ctx.sb.prove(ctx.sb.remote(), ["rev-parse", "--is-bare-repository"], "true", "a bare remote")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    # the local gates skipped (an agent's --no-verify): only the server judges
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.prove(w, ["log", "-1", "--format=%B"], "Gentle-Writer:", "the writer's trailer")
    step = ctx.agent.attempt(w, "git push -q --no-verify origin HEAD")
    passed(ctx, step.exit, "the push was accepted")


def _unverified_under_dirty_human(ctx: Ctx, w: Path) -> None:
    """An unverified writer commit (its gates skipped), a human commit on top, and the
    writer's clone left with an uncommitted change to a tracked file (a switch would stop)."""
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.write(w / "README.md", "# demo\n\nhuman edit\n")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-am", "human change")
    ctx.sb.write(w / "README.md", "# demo\n\nwork in progress\n")
    ctx.sb.prove(w, ["status", "--porcelain"], " M README.md", "a dirty tracked file")
    ctx.sb.prove(w, ["log", "-1", "--format=%B", "HEAD~1"], "Gentle-Writer:", "the writer commit")


@journey(
    "server-gate-dirty",
    "the server rejects a writer commit under a human one; the pusher's clone is dirty",
    fast=True,
)
def _server_dirty(ctx: Ctx) -> None:
    w = plain(ctx, share=False)
    ctx.sb.sh(ctx.sb.remote(), "gentle-hook install --server", who="setup")
    _unverified_under_dirty_human(ctx, w)
    step = ctx.agent.attempt(w, "git push -q --no-verify origin HEAD")
    passed(ctx, step.exit, "the push was accepted")
    st = ctx.sb.run(w, ["git", "status", "--porcelain"], who="setup")
    ctx.check(st.out.strip() == "M README.md", f"the work tree kept its change: {st.out!r}")
    wt = ctx.sb.run(w, ["git", "worktree", "list"], who="setup")
    ctx.check(len(wt.out.strip().splitlines()) == 1, f"no worktree left: {wt.out!r}")


@journey(
    "server-gate-dirty-head",
    "the server rejects the writer commit at the tip; the pusher's clone is dirty",
)
def _server_dirty_head(ctx: Ctx) -> None:
    w = plain(ctx, share=False)
    ctx.sb.sh(ctx.sb.remote(), "gentle-hook install --server", who="setup")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.write(w / "README.md", "# demo\n\nwork in progress\n")
    ctx.sb.prove(w, ["status", "--porcelain"], " M README.md", "a dirty tracked file")
    step = ctx.agent.attempt(w, "git push -q --no-verify origin HEAD")
    passed(ctx, step.exit, "the push was accepted")
    st = ctx.sb.run(w, ["git", "status", "--porcelain"], who="setup")
    ctx.check(st.out.strip() == "M README.md", f"the work tree kept its change: {st.out!r}")


@journey("ci-dirty", "CI blocks a writer commit under a human one; the writer's clone is dirty")
def _ci_dirty(ctx: Ctx) -> None:
    w = plain(ctx, share=False)
    _unverified_under_dirty_human(ctx, w)
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "main")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~2..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")
    st = ctx.sb.run(w, ["git", "status", "--porcelain"], who="setup")
    ctx.check(st.out.strip() == "M README.md", f"the work tree kept its change: {st.out!r}")


@journey("server-gate-shared", "server gate, the clone shares its notes", fast=False)
def _server_shared(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.sh(ctx.sb.remote(), "gentle-hook install --server", who="setup")
    writer_commit(ctx, w, 1)
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push was accepted")


# -- the framework -------------------------------------------------------------------------


@journey("framework-commit", "pre-commit framework, CLI on PATH", needs="pre-commit")
def _fw_commit(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    step = ctx.agent.attempt(w, "git push -q origin HEAD")
    passed(ctx, step.exit, "the push went through")


@journey(
    "framework-only", "pre-commit framework, the CLI not on PATH", needs="pre-commit", on_path=False
)
def _fw_only(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.check(shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) is None, "CLI off PATH")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey(
    "framework-coauthor",
    "framework: an AI co-author trailer hits the commit-msg gate",
    needs="pre-commit",
)
def _fw_coauthor(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.sb.write(w / "m.py", "def f():\n    return 0  # tidy\n")
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(
        w, "git commit -q -m 'tidy' -m 'Co-authored-by: Claude <noreply@anthropic.com>'"
    )
    passed(ctx, step.exit, "the commit went through")


@journey("prek-commit", "prek, CLI on PATH", needs="prek")
def _prek_commit(ctx: Ctx) -> None:
    w = framework(ctx, "prek")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    doctor = ctx.sb.sh(w, "gentle-hook doctor")
    ctx.check("another hook" not in doctor.out, "doctor knows prek's pre-push runs the gate")


# -- agent runtimes and other hook managers ---------------------------------------------------

#: The runtimes ``install --agent`` wires, with a documented payload fixture each
#: (tests/fixtures/agents, docs/agents).
AGENT_RUNTIMES = ("claude-code", "codex", "gemini-cli", "cursor", "copilot")


def _runtime_journey(name: str) -> None:
    def body(ctx: Ctx) -> None:
        from gentle_hooks.agents import wiring
        from gentle_hooks.agents.runtimes import runtime
        from tests.agent_payloads import apply_writes, materialize

        w = plain(ctx)
        brief = ctx.sb.root / "brief.json"
        ctx.sb.write(brief, _BRIEF)
        ctx.agent.brief = str(brief)
        step = ctx.sb.sh(w, f"gentle-hook install --agent {name}", who="setup")
        if step.exit != 0:
            raise FixtureError(f"install --agent {name} failed: {step.out.strip()}")
        rt = runtime(name)
        assert rt.wiring is not None
        config = w / rt.wiring.project
        ctx.sb.prove(
            w,
            ["status", "--porcelain", "--untracked-files=all"],
            rt.wiring.project,
            f"{name}'s configuration written",
        )
        ctx.sb.git(w, "add", "-A")
        ctx.sb.git(w, "commit", "-q", "-m", f"wire {name}")
        [command] = wiring.commands(json.loads(config.read_text()), rt)
        ctx.sb.write(w / "src" / "app.py", "def add(a, b):\n    return a + b\n")
        ctx.sb.git(w, "add", "-A")
        ctx.sb.git(w, "commit", "-q", "-m", "human: app")
        data, filled = materialize(name, w, ctx.sb.root / "runtime")
        apply_writes(filled, w)
        # the runtime runs the command its configuration holds, the payload on stdin
        hook = ctx.sb.sh(w, command, who="writer", stdin=data.decode())
        ctx.check(hook.exit == 0 and "recorded" in hook.out, f"the {name} hook recorded")
        ctx.sb.git(w, "add", "-A")
        step = ctx.agent.attempt(w, f"git commit -q -m '{name}: change'")
        passed(ctx, step.exit, "the commit went through")

    journey(f"agent-{name}", f"install --agent {name}: its hook records, the commit gate blocks")(
        body
    )


for _name in AGENT_RUNTIMES:
    _runtime_journey(_name)


def _npm_tool(ctx: Ctx, tool: str) -> str:
    """The path of ``tool`` from the bench's npm install (the journey needs ``npm``)."""
    assert ctx.node_modules is not None
    return str(ctx.node_modules / ".bin" / tool)


def doc_blocks(page: str) -> dict[str, str]:
    """The fenced blocks of a docs page whose first line is ``# <file name>``, by file."""
    text = (DOCS / page).read_text(encoding="utf-8")
    out = {}
    for body in re.findall(r"```(?:sh|yaml)\n(.*?)```", text, re.DOTALL):
        first, _, rest = body.partition("\n")
        if first.startswith("# ") and not first.startswith("# or"):
            out[first[2:].strip()] = rest
    return out


@journey(
    "husky", "husky 9 (.husky/ with core.hooksPath) runs the gate: block, fix, push", needs="npm"
)
def _husky(ctx: Ctx) -> None:
    w = ctx.sb.project()
    for rel, body in doc_blocks("husky.md").items():
        ctx.sb.write(w / rel, body)
    step = ctx.sb.sh(w, shlex.quote(_npm_tool(ctx, "husky")), who="setup")
    if step.exit != 0:
        raise FixtureError(f"husky failed: {step.out.strip()}")
    ctx.sb.prove(w, ["config", "core.hooksPath"], ".husky/_", "husky's core.hooksPath")
    ctx.sb.git(w, "add", ".husky")
    ctx.sb.git(w, "commit", "-q", "-m", "husky scripts")
    writer_commit(ctx, w, 1)
    ctx.check(ctx.agent.blocks != [], "husky's pre-commit ran the gate (a block)")
    ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change 2")
    step = ctx.agent.attempt(w, "git push -q origin HEAD")
    passed(ctx, step.exit, "the push went through")


@journey("lefthook", "lefthook (lefthook.yml of docs/lefthook.md) runs the gate", needs="npm")
def _lefthook(ctx: Ctx) -> None:
    w = ctx.sb.project()
    [(name, config)] = doc_blocks("lefthook.md").items()
    ctx.sb.write(w / name, config)
    ctx.sb.git(w, "add", name)
    ctx.sb.git(w, "commit", "-q", "-m", "lefthook config")
    step = ctx.sb.sh(w, f"{shlex.quote(_npm_tool(ctx, 'lefthook'))} install", who="setup")
    if step.exit != 0:
        raise FixtureError(f"lefthook install failed: {step.out.strip()}")
    hook = (w / ".git" / "hooks" / "pre-commit").read_text(errors="replace")
    if "lefthook" not in hook:
        raise FixtureError("lefthook did not install .git/hooks/pre-commit")
    writer_commit(ctx, w, 1)
    ctx.check(ctx.agent.blocks != [], "lefthook's pre-commit ran the gate (a block)")
    ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change 2")
    step = ctx.agent.attempt(w, "git push -q origin HEAD")
    passed(ctx, step.exit, "the push went through")


@journey(
    "pipx-install",
    "README's pipx line: pipx install <clone>, then install, block and fix with that CLI",
    needs="pipx",
    on_path=False,
)
def _pipx(ctx: Ctx) -> None:
    assert ctx.hook_repo is not None
    clone, _ = ctx.hook_repo  # this checkout, as a clone of it holds it
    sb = ctx.sb
    tools, home, bin_dir = sb.root / "pipx-venv", sb.root / "pipx-home", sb.root / "pipx-bin"
    env = {
        **pip_env(),
        "PIPX_HOME": str(home),
        "PIPX_BIN_DIR": str(bin_dir),
        "PIPX_MAN_DIR": str(sb.root / "pipx-man"),
    }
    sb.env.update(env)
    # pipx's own environment, without a pip of its own (ensurepip costs seconds of CPU):
    # the bench's pip installs pipx into it (pip --python)
    got = sb.run(sb.root, [sys.executable, "-m", "venv", "--without-pip", str(tools)], who="setup")
    if got.exit == 0:
        pip = [sys.executable, "-m", "pip", "--python", str(tools / "bin" / "python")]
        got = sb.run(sb.root, [*pip, "install", "-q", "pipx"], who="setup")
    if got.exit != 0:
        raise Skip(f"pipx cannot be installed from the package index: {got.out.strip()[-200:]}")
    sb.env["PATH"] = os.pathsep.join([str(tools / "bin"), str(bin_dir), sb.env["PATH"]])
    step = sb.sh(sb.root, f"pipx install {shlex.quote(str(clone))}", who="writer")
    ctx.check(step.exit == 0, f"pipx install <clone> succeeded: {step.out.strip()[-200:]}")
    ctx.check((bin_dir / "gentle-hook").exists(), "pipx put gentle-hook in PIPX_BIN_DIR")
    where = shutil.which("gentle-hook", path=sb.env["PATH"])
    ctx.check(where == str(bin_dir / "gentle-hook"), f"gentle-hook on PATH is pipx's: {where}")
    sb.on_path = True  # the CLI is pipx's now, on PATH: typed as gentle-hook
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    ctx.check(ctx.agent.blocks != [], "the gate blocked once")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")


# -- the CLI itself ------------------------------------------------------------------------


@journey("hook-help", "gentle-hook hook --help", fast=True)
def _hook_help(ctx: Ctx) -> None:
    w = ctx.sb.project()
    step = ctx.sb.sh(w, "gentle-hook hook --help")
    ctx.check(step.exit == 0 and "pre-commit" in step.out, "hook --help prints its usage")


@journey("uninstall-reverts", "uninstall reverts what install --share changed")
def _uninstall(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    out = ctx.sb.sh(w, "gentle-hook uninstall").out
    cfg = ctx.sb.run(w, ["git", "config", "--local", "--list"]).out
    for key in ("remote.origin.push", "notes.rewriteref", "refs/notes/gentle-hooks"):
        ctx.check(key not in cfg.lower(), f"uninstall removed {key}")
    ctx.check("kept" in out, "uninstall says what it kept")


@journey("framework-uninstall", "uninstall where the framework runs the gate", needs="pre-commit")
def _fw_uninstall(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.sb.prove(w, ["show", "HEAD:.pre-commit-config.yaml"], "gentle-hooks-", "framework ids")
    step = ctx.sb.sh(w, "gentle-hook uninstall")
    ctx.check("still gated" in step.out, f"uninstall says the framework still gates: {step.out}")
    for cmd in printed_commands_of(step.out):
        ran = ctx.sb.sh(w, cmd, who="agent")
        ctx.check(ran.exit == 0, f"the printed {cmd} ran: {ran.out.strip()[-200:]}")
    again = ctx.sb.sh(w, "gentle-hook uninstall")
    ctx.check("still gated" not in again.out, f"after it, nothing gates: {again.out}")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    done = ctx.sb.sh(w, "git commit -q -m 'writer change'")
    ctx.check(done.exit == 0, f"the gate no longer runs: {done.out.strip()[-200:]}")


@journey("push-two-commits", "two unverified writer commits in one push")
def _push_two(ctx: Ctx) -> None:
    w = plain(ctx)
    for value in (1, 2):
        ctx.sb.writer_edit(w, value)
        ctx.sb.git(w, "add", "-A")
        ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", f"writer change {value}")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")


@journey("push-new-branch", "a new branch with a verified commit", fast=False)
def _push_branch(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.git(w, "switch", "-q", "-c", "feature")
    writer_commit(ctx, w, 1)
    step = ctx.agent.attempt(w, "git push -q -u origin feature")
    passed(ctx, step.exit, "the push went through")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range origin/main..origin/feature", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("ci-json", "CI reads gate --json", fast=False)
def _ci_json(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    # the pre-push hook shares the notes; a push that skips it (--no-verify) does not
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "main")
    ctx.sb.prove_empty(w, ["ls-remote", "origin", "refs/notes/*"], "no notes on the remote")
    ci = ctx.sb.clone("ci")
    step = ctx.sb.sh(ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD --json")
    ctx.check(step.exit == 1 and '"fixes"' in step.out, "gate --json names the fixes")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("notes-unfetched", "a fresh clone whose remote has the notes fetches them", fast=True)
def _notes_unfetched(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through, with its notes")
    ci = ctx.sb.clone("fresh")
    ctx.sb.prove(
        ci,
        ["ls-remote", "origin", "refs/notes/gentle-hooks"],
        "refs/notes/gentle-hooks",
        "the notes on the remote",
    )
    ctx.sb.prove_empty(ci, ["for-each-ref", "refs/notes/"], "no notes fetched into the clone")
    step = ctx.agent.attempt(ci, "gentle-hook gate --range HEAD~1..HEAD")
    passed(ctx, step.exit, "the range passed after the printed fetch")


@journey("ci-unverified", "CI catches a commit verified nowhere; the writer verifies it")
def _ci_unverified(ctx: Ctx) -> None:
    w = plain(ctx, share=False)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "main")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("ci-after-amend", "CI judges an amended commit whose note is stale")
def _ci_amend(ctx: Ctx) -> None:
    w = plain(ctx)
    writer_commit(ctx, w, 1)
    ctx.sb.writer_edit(w, 2)
    ctx.sb.git(w, "add", "-A")
    # the amend skips the local gate: only the note (stale now) travels
    ctx.sb.git(w, "commit", "-q", "--amend", "--no-verify", "--no-edit")
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "main")
    ctx.sb.sh(w, "gentle-hook sync push", who="setup")
    ci = ctx.sb.clone("ci")
    step = ctx.agent.attempt(
        ci, f"{CI_FETCH_NOTES}; gentle-hook gate --range HEAD~1..HEAD", where=w
    )
    passed(ctx, step.exit, "CI passed")


@journey("warn-mode", "warn mode reports and lets the commit through, recorded", fast=False)
def _warn(ctx: Ctx) -> None:
    w = ctx.sb.project()
    ctx.sb.sh(w, "gentle-hook install --warn", who="setup")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    ctx.check(step.exit == 0 and "warn mode" in step.out, "warn mode let it through and said so")


@journey("skip-override", "GENTLE_HOOKS_SKIP lets a block through, recorded")
def _skip(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.sb.sh(w, "GENTLE_HOOKS_SKIP='hotfix' git commit -q -m 'writer change'")
    ctx.check(step.exit == 0 and "recorded" in step.out, "the override is recorded and said")


@journey("human-commit", "a human's ordinary commit passes silently")
def _human(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.write(w / "README.md", "# demo\n\nhuman words\n")
    step = ctx.agent.attempt(w, "git commit -q -am 'docs'")
    ctx.check(step.exit == 0 and not step.out.strip(), "passed, nothing printed")
    step = ctx.agent.attempt(w, "git push -q")
    ctx.check(step.exit == 0, "pushed")


@journey("status-explain", "status says what is missing in words; rows only with --explain")
def _status(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    plain_out = ctx.sb.sh(w, "gentle-hook status").out
    explained = ctx.sb.sh(w, "gentle-hook status --explain").out
    ctx.check(
        "rows " not in plain_out and "(fallback, small)" not in plain_out, "no row ids by default"
    )
    ctx.check("rows " in explained, "--explain shows the rows")
    ctx.check("prefix: gentle-hook receipt run --" in plain_out, "status prints the report prefix")


@journey("doctor-plain", "doctor after install says the gates are reachable", fast=False)
def _doctor(ctx: Ctx) -> None:
    w = plain(ctx)
    step = ctx.sb.sh(w, "gentle-hook doctor")
    ctx.check(step.exit == 0, f"doctor is clean: {step.out.strip()[-200:]}")


@journey("escalated-json", "an escalated change read as the JSON decision")
def _escalated_json(ctx: Ctx) -> None:
    w = plain(ctx)
    brief = ctx.sb.root / "brief.json"
    ctx.sb.write(brief, _BRIEF)
    ctx.agent.brief = str(brief)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, "gentle-hook escalate --item security --reason 'token check changed'")
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'escalated change'", fmt="json")
    passed(ctx, step.exit, "the commit went through")


@journey("prek-push", "prek: a --no-verify writer commit is caught at push", needs="prek")
def _prek_push(ctx: Ctx) -> None:
    w = framework(ctx, "prek")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    step = ctx.agent.attempt(w, "git push -q origin HEAD")
    passed(ctx, step.exit, "the push went through")


@journey(
    "framework-only-push",
    "pre-commit framework without the CLI on PATH: a push block",
    needs="pre-commit",
    on_path=False,
)
def _fw_only_push(ctx: Ctx) -> None:
    w = framework(ctx, "pre-commit")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change")
    step = ctx.agent.attempt(w, "git push -q origin HEAD")
    passed(ctx, step.exit, "the push went through")


@journey("plain-cli-off-path", "plain hooks installed from a venv that is not on PATH")
def _plain_off_path(ctx: Ctx) -> None:
    w = ctx.sb.project()
    ctx.sb.sh(w, f"{shlex.quote(ctx.sb.cli)} install", who="setup")
    ctx.sb.env["PATH"] = ctx.sb.env["PATH"].replace(str(CLI_BIN) + ":", "")
    ctx.check(shutil.which("gentle-hook", path=ctx.sb.env["PATH"]) is None, "CLI off PATH")
    ctx.sb.on_path = False
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


_BRIEF = """{
  "id": "f-2",
  "objective": "f() returns the new value",
  "outputFormat": "a patch to m.py",
  "toolGuidance": ["run the unit tests"],
  "boundaries": ["m.py and test_m.py only"],
  "stopCondition": "the tests pass",
  "readOnly": false,
  "sideEffects": ["write-repo"],
  "successCriteria": [{"criterion": "f() returns 1",
                       "run": ["python3", "-B", "-c", "import m; print(m.f()); assert m.f()"]}],
  "negativeTests": [{"criterion": "the old value is gone",
                     "run": ["python3", "-B", "-c", "import m; assert m.f() == 0"]}],
  "fullSuite": "python3 -B -m unittest -q"
}
"""
from bench.journeys import framework_twins as _twins  # noqa: E402,F401 (registers its journeys)
from bench.journeys import handoffs as _handoffs  # noqa: E402,F401 (registers its journeys)
from bench.journeys import human_ways as _human_ways  # noqa: E402,F401 (registers its journeys)
from bench.journeys import refuted as _refuted  # noqa: E402,F401 (registers its journeys)
from bench.journeys import ways_out as _ways_out  # noqa: E402,F401 (registers its journeys)
