"""Journeys of the printed ways out that touch the user's own state: uncommitted changes
(staged and not) under a push block, a commit made from a subdirectory, bytecode committed
by the writer, a merge git keeps in progress.

Registered in :data:`bench.journeys.catalog.JOURNEYS` when :mod:`.catalog` is imported (it
imports this module last); each builds its world, proves its edge case from git, then lets
the agent resolve every block only by what it printed.
"""

from __future__ import annotations

from pathlib import Path

from bench.journeys.catalog import TEST_LITTER, Ctx, journey, passed, plain, printed_commands_of
from bench.journeys.sandbox import FixtureError

#: A test command that finds its tests only from the repository top.
TOP_TEST = "python3 -B -m unittest -q test_m"


def _unverified_commit(ctx: Ctx, value: int = 1) -> None:
    """The writer's change, committed with ``--no-verify`` (its block comes at push)."""
    w = ctx.sb.root / "work"
    ctx.sb.writer_edit(w, value)
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", f"writer change {value}")


@journey("push-dirty-head", "push with uncommitted tracked changes; the commit is HEAD", fast=True)
def _push_dirty_head(ctx: Ctx) -> None:
    w = plain(ctx)
    _unverified_commit(ctx)
    ctx.sb.write(w / "README.md", "# demo\n\nwork in progress\n")
    ctx.sb.prove(w, ["status", "--porcelain"], " M README.md", "an uncommitted tracked change")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    readme = (w / "README.md").read_text()
    ctx.check("work in progress" in readme, f"the uncommitted change is back: {readme!r}")
    ctx.check(not ctx.sb.run(w, ["git", "stash", "list"]).out.strip(), "no stash left behind")


@journey("push-dirty-older", "push with uncommitted changes to a file the older commit differs in")
def _push_dirty_older(ctx: Ctx) -> None:
    w = plain(ctx)
    _unverified_commit(ctx)
    ctx.sb.write(w / "m.py", "def f():\n    # a human's comment\n    return 1\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human comment")
    ctx.sb.write(w / "m.py", "def f():\n    # a human's comment, edited again\n    return 1\n")
    ctx.sb.prove(w, ["diff", "--name-only", "HEAD~1", "HEAD"], "m.py", "HEAD changed m.py")
    ctx.sb.prove(w, ["status", "--porcelain"], " M m.py", "m.py changed again, uncommitted")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    ctx.check("edited again" in (w / "m.py").read_text(), "the uncommitted change is back")
    branch = ctx.sb.run(w, ["git", "symbolic-ref", "-q", "--short", "HEAD"]).out.strip()
    ctx.check(branch == "main", f"back on the branch after the printed steps: {branch!r}")
    ctx.check(not ctx.sb.run(w, ["git", "stash", "list"]).out.strip(), "no stash left behind")


def _staged_with_src(ctx: Ctx) -> Path:
    """A plain-hooks clone with a committed ``src/`` and the writer's edit staged."""
    w = plain(ctx)
    ctx.sb.write(w / "src" / "data.txt", "one\n")
    ctx.sb.git(w, "add", "-A")
    ctx.sb.git(w, "commit", "-q", "-m", "src dir")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    return w


@journey(
    "commit-from-subdir", "the writer commits from src/; its test runs from the top", fast=True
)
def _commit_from_subdir(ctx: Ctx) -> None:
    ctx.agent.test_command = TOP_TEST  # fails in src/: the printed prefix must run at the top
    w = _staged_with_src(ctx)
    ctx.sb.prove(w / "src", ["rev-parse", "--show-prefix"], "src/", "the commit runs in src/")
    step = ctx.agent.attempt(w / "src", "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey(
    "commit-failed-in-subdir",
    "the writer reported its top-level test from src/ (it failed there); the block offers the top",
)
def _commit_failed_in_subdir(ctx: Ctx) -> None:
    ctx.agent.test_command = TOP_TEST
    w = _staged_with_src(ctx)
    failed = ctx.sb.sh(w / "src", f"gentle-hook receipt run --staged -- {TOP_TEST}")
    ctx.check(failed.exit == 1, f"the report made in src/ failed: exit {failed.exit}")
    step = ctx.agent.attempt(w / "src", "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey(
    "push-committed-pycache",
    "the writer committed __pycache__/; the push's spot check re-runs in a checkout of it",
)
def _push_committed_pycache(ctx: Ctx) -> None:
    ctx.agent.test_command = TEST_LITTER  # the re-run would write bytecode into the tree
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, TEST_LITTER, who="setup")
    ctx.sb.git(w, "add", "-A")  # the writer's add -A takes the bytecode too
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-m", "writer change with bytecode")
    ctx.sb.prove(w, ["ls-files", "__pycache__"], ".pyc", "bytecode committed")
    ctx.sb.write(w / "m.py", "def f():\n    # a human's comment\n    return 1\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human comment")
    ctx.sb.prove(w, ["diff", "--name-only", "HEAD~1", "HEAD"], "m.py", "HEAD changed m.py")
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")


#: The faults a verifier's brief starts with, by name: what it replaces in the corrected
#: brief and the words its verify run says of it. ``negative``: its negative test holds on
#: no tree, so it fails on the base as on the change; ``nothing``: its criterion (the suite
#: as the criterion, under another brief id) passes on the base and with the change
#: emptied too, so it observes nothing of the change; ``failing``: its criterion (under
#: another brief id) fails on every tree, the candidate's too, so that brief can never pass
#: (an observed failure that stands: a corrected brief under a new id settles it);
#: ``changes``: its criterion appends to
#: README.md, a tracked file, so the run stops there before the negative test and the suite.
FAULTS: dict[str, tuple[tuple[str, str], ...]] = {
    "negative": (("m.f() == 0", "m.f() == 7"),),
    "nothing": (
        ('"id": "f-2"', '"id": "f-1"'),
        ('["python3", "-B", "-c", "import m; print(m.f()); assert m.f()"]', '"test -e m.py"'),
    ),
    "changes": (
        (
            '"import m; print(m.f()); assert m.f()"',
            "\"import m; open('README.md', 'a').write('ran'); assert m.f()\"",
        ),
    ),
    "failing": (
        ('"id": "f-2"', '"id": "f-1"'),
        (
            '["python3", "-B", "-c", "import m; print(m.f()); assert m.f()"]',
            '"test -e nonexistent"',
        ),
    ),
}
#: What the verify run of each faulty brief says of the check at fault.
FAULT_SAID = {
    "negative": "fails on the base tree too",
    "nothing": "observes nothing of it",
    "changes": "changed README.md",
    "failing": "fails with the change emptied too",
}


def faulty_brief(ctx: Ctx, w: Path, fault: str = "negative") -> tuple[Path, Path]:
    """A writer's escalated change staged in ``w``, and the agent's verifier briefs: the
    faulty one it starts with (:data:`FAULTS`: no evidence either way) and the corrected
    one a block sends it to."""
    from bench.journeys.catalog import _BRIEF

    faulty, corrected = ctx.sb.root / "faulty-brief.json", ctx.sb.root / "brief.json"
    text = _BRIEF
    for old, new in FAULTS[fault]:
        if old not in text:
            raise FixtureError(f"the brief has no {old!r} to make faulty")
        text = text.replace(old, new)
    ctx.sb.write(faulty, text)
    ctx.sb.write(corrected, _BRIEF)
    ctx.agent.brief, ctx.agent.corrected_brief = str(faulty), str(corrected)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.sh(w, "gentle-hook escalate --item security --reason 'token check changed'")
    ctx.sb.git(w, "add", "-A")
    return faulty, corrected


def file_faulty_verdict(
    ctx: Ctx, w: Path, faulty: Path, binding: str, fault: str = "negative"
) -> None:
    """The orchestrator's verify run of the ``binding`` (``--staged``/``--committed``)
    candidate with the faulty brief, and the ``verdict add`` it printed, run as printed; a
    run failed by its brief alone prints none (it is no failure of the change to file) but
    the ``verify run`` prefix a corrected brief completes, and the gate reads the run
    itself."""

    ran = ctx.sb.sh(w, f"gentle-hook verify run {binding} --brief {faulty}", who="setup")
    ctx.check(ran.exit == 1 and FAULT_SAID[fault] in ran.out, "the brief failed")
    filed = [c for c in printed_commands_of(ran.out) if " verdict add " in c]
    if "the brief is at fault, not the change" in ran.out:
        again = f" verify run {binding} --brief"
        prefixed = [ln for ln in ran.out.splitlines() if "prefix:" in ln and ln.endswith(again)]
        ctx.check(not filed and len(prefixed) == 1, f"verify run printed {again!r} as a prefix")
        return
    ctx.check(len(filed) == 1, f"verify run printed its verdict add: {filed}")
    for c in filed:
        ctx.sb.sh(w, c, who="setup")


@journey(
    "commit-escalated-faulty-brief",
    "the verifier's brief has a negative test that fails on the base too; corrected, it passes",
    fast=True,
)
def _commit_escalated_faulty_brief(ctx: Ctx) -> None:
    _commit_with_faulty_brief(ctx, "negative")


@journey(
    "commit-escalated-nothing-brief",
    "the verifier's brief has a criterion that observes nothing of the change; a corrected "
    "brief (another brief id) written where the block says passes",
    fast=True,
)
def _commit_escalated_nothing_brief(ctx: Ctx) -> None:
    _commit_with_faulty_brief(ctx, "nothing")


@journey(
    "commit-escalated-changing-brief",
    "the verifier's brief has a criterion that rewrites a tracked file: the run stops there "
    "and the block names that check and the file; a corrected brief passes",
    fast=True,
)
def _commit_escalated_changing_brief(ctx: Ctx) -> None:
    _commit_with_faulty_brief(ctx, "changes")
    said = "\n".join(s.out for s in ctx.sb.steps if s.who == "writer")
    ctx.check("changed README.md in the clean room" in said, "the block names the check's file")
    ctx.check("no negative test ran" not in said, "the block does not say no negative test ran")


@journey(
    "commit-escalated-failing-brief",
    "the verifier's brief has a criterion that fails on every tree (the candidate's too): "
    "that brief can never pass; a corrected brief (another brief id) whose run passes "
    "settles the failure",
    fast=True,
)
def _commit_escalated_failing_brief(ctx: Ctx) -> None:
    _commit_with_faulty_brief(ctx, "failing")


def _commit_with_faulty_brief(ctx: Ctx, fault: str) -> None:
    """The orchestrator verifies before committing with a brief faulty by ``fault`` (a
    ``FAULT_SAID`` key), files the fail, and commits; the block's printed way out, pasted,
    corrects the brief and the commit goes through."""
    w = plain(ctx)
    faulty, corrected = faulty_brief(ctx, w, fault)
    file_faulty_verdict(ctx, w, faulty, "--staged", fault)
    step = ctx.agent.attempt(w, "git commit -q -m 'escalated change'")
    passed(ctx, step.exit, "the commit went through")
    ctx.check(ctx.agent.brief == str(corrected), "the block sent the agent to correct its brief")


def _index_and_tree(ctx: Ctx, w: Path, paths: tuple[str, ...]) -> tuple[str, dict[str, bytes]]:
    """What the user has uncommitted: the index as a tree id (``git write-tree``: every
    staged byte, mode and path) and the work tree's bytes of ``paths``."""
    tree = ctx.sb.run(w, ["git", "write-tree"], who="setup").out.strip()
    return tree, {p: (w / p).read_bytes() for p in paths if (w / p).exists()}


@journey(
    "push-dirty-staged",
    "push with staged and unstaged changes (one file both): the printed way out keeps both "
    "and sets nothing aside (its receipt runs in a temporary checkout of the commit)",
    fast=True,
)
def _push_dirty_staged(ctx: Ctx) -> None:
    w = plain(ctx)
    _unverified_commit(ctx)
    ctx.sb.write(w / "README.md", "# demo\n\nstaged words\n")
    ctx.sb.write(w / "added.txt", "a new file, staged\n")
    ctx.sb.git(w, "add", "README.md", "added.txt")
    ctx.sb.write(w / "README.md", "# demo\n\nstaged words, then edited again\n")
    ctx.sb.write(w / "test_m.py", (w / "test_m.py").read_text() + "# unstaged\n")
    ctx.sb.prove(w, ["status", "--porcelain"], "MM README.md", "a staged file edited again")
    ctx.sb.prove(w, ["status", "--porcelain"], "A  added.txt", "a new file staged")
    ctx.sb.prove(w, ["status", "--porcelain"], " M test_m.py", "an unstaged change")
    paths = ("README.md", "added.txt", "test_m.py")
    before = _index_and_tree(ctx, w, paths)
    step = ctx.agent.attempt(w, "git push -q")
    passed(ctx, step.exit, "the push went through")
    printed = [c for b in ctx.agent.blocks for c in b.printed]
    ctx.check(not any(c.startswith("git stash") for c in printed), f"no stash: {printed}")
    after = _index_and_tree(ctx, w, paths)
    ctx.check(after[0] == before[0], "the index is back byte for byte (git write-tree)")
    ctx.check(after[1] == before[1], "the work tree's files are back byte for byte")
    ctx.check(not ctx.sb.run(w, ["git", "stash", "list"]).out.strip(), "no stash left behind")


@journey(
    "merge-human-no-ff",
    "a human's git merge --no-ff of an unverified writer branch: blocked at pre-merge-commit",
    fast=True,
)
def _merge_human_text(ctx: Ctx) -> None:
    _merge_human(ctx, "text")


def _merge_human(ctx: Ctx, fmt: str) -> None:
    """The merge journey's body, the block read as ``fmt`` (``text`` or ``json``)."""
    w = plain(ctx)
    ctx.sb.git(w, "switch", "-q", "-c", "topic")
    _unverified_commit(ctx)
    ctx.sb.git(w, "switch", "-q", "main")
    ctx.sb.write(w / "README.md", "# demo\n\nmain moved on\n")
    ctx.sb.git(w, "commit", "-q", "-am", "human: readme")
    ctx.sb.prove(w, ["log", "-1", "--format=%B", "topic"], "Gentle-Writer:", "the writer commit")
    ctx.sb.prove(w, ["merge-base", "--is-ancestor", "topic", "main"], "", "topic not merged")
    step = ctx.agent.attempt(w, "git merge -q --no-ff -m 'merge topic' topic", fmt=fmt)
    passed(ctx, step.exit, "the merge went through")
    ctx.check(bool(ctx.agent.blocks), "the merge was blocked once")
    parents = ctx.sb.run(w, ["git", "rev-list", "--parents", "-n", "1", "HEAD"]).out.split()
    ctx.check(len(parents) == 3, f"HEAD is the merge commit: {parents}")
    said = ctx.sb.run(w, ["git", "log", "-1", "--format=%s"]).out.strip()
    ctx.check(said == "merge topic", f"the merge keeps its message: {said!r}")


@journey("merge-human-no-ff-json", "the same merge, read as the JSON decision (its then_run)")
def _merge_human_json(ctx: Ctx) -> None:
    _merge_human(ctx, "json")


@journey(
    "server-gate-untracked-subdir",
    "the server rejects a writer commit pushed from an untracked d/; its worktree prefix "
    "runs at the worktree's top (the commit has no d/)",
    fast=True,
)
def _server_untracked_subdir(ctx: Ctx) -> None:
    w = plain(ctx, share=False)
    ctx.sb.sh(ctx.sb.remote(), "gentle-hook install --server", who="setup")
    _unverified_commit(ctx)
    ctx.sb.write(w / "d" / "notes.txt", "the user's own scratch notes\n")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? d/", "an untracked d/")
    ctx.sb.prove_empty(w, ["ls-tree", "-d", "HEAD", "d"], "no d/ in the commit")
    step = ctx.agent.attempt(w / "d", "git push -q --no-verify origin HEAD")
    passed(ctx, step.exit, "the push was accepted")


@journey("commit-dash-c", "git -C work commit typed from outside the clone", fast=True)
def _commit_dash_c(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "-A")
    outside = ctx.sb.root
    ctx.sb.prove(outside, ["rev-parse", "--git-dir"], "", "the user's directory is no repository")
    step = ctx.agent.attempt(outside, f"git -C {w.name} commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey("commit-dash-c-other-repo", "git -C ../work commit -a typed inside another repository")
def _commit_dash_c_other(ctx: Ctx) -> None:
    w = plain(ctx)
    other = ctx.sb.root / "other"
    ctx.sb.git(ctx.sb.root, "init", "-q", str(other))
    ctx.sb.write(other / "m.py", "# the other repository's own m.py\n")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.prove(other, ["status", "--porcelain"], "?? m.py", "another repository with an m.py")
    step = ctx.agent.attempt(other, f"git -C ../{w.name} commit -a -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")
    staged = ctx.sb.run(other, ["git", "diff", "--cached", "--name-only"]).out.strip()
    ctx.check(not staged, f"nothing staged in the other repository: {staged!r}")


@journey("commit-ignored-env", "the test reads a gitignored .env; an untracked file is there too")
def _commit_ignored_env(ctx: Ctx) -> None:
    ctx.agent.test_command = "sh -c 'test -f .env && python3 -B -m unittest -q'"
    w = plain(ctx)
    ctx.sb.write(w / ".gitignore", ".env\n")
    ctx.sb.git(w, "add", ".gitignore")
    ctx.sb.git(w, "commit", "-q", "-m", "ignore .env")
    ctx.sb.write(w / ".env", "TOKEN=1\n")
    ctx.sb.write(w / "notes.txt", "scratch\n")
    ctx.sb.writer_edit(w, 1)
    ctx.sb.git(w, "add", "m.py", "test_m.py")
    ctx.sb.prove(w, ["check-ignore", ".env"], ".env", "a gitignored .env")
    ctx.sb.prove(w, ["status", "--porcelain"], "?? notes.txt", "an untracked file")
    step = ctx.agent.attempt(w, "git commit -q -m 'writer change'")
    passed(ctx, step.exit, "the commit went through")


@journey(
    "ci-shallow-other-branch",
    "CI's shallow single-branch clone; the range starts at a commit of another branch",
    fast=True,
)
def _ci_shallow_other_branch(ctx: Ctx) -> None:
    w = plain(ctx)
    ctx.sb.git(w, "switch", "-q", "-c", "feature")
    ctx.sb.write(w / "README.md", "# demo\n\nfeature words\n")
    ctx.sb.git(w, "commit", "-q", "--no-verify", "-am", "feature docs")
    ctx.sb.git(w, "push", "-q", "--no-verify", "origin", "feature")
    start = ctx.sb.git(w, "rev-parse", "HEAD").out.strip()
    ctx.sb.git(w, "switch", "-q", "main")
    ctx.sb.write(w / "NOTES.md", "human notes\n")
    ctx.sb.git(w, "add", "NOTES.md")
    ctx.sb.git(w, "commit", "-q", "-m", "human notes")
    ctx.sb.git(w, "push", "-q", "origin", "main")
    ci = ctx.sb.clone("ci", depth=1)  # --depth implies --single-branch
    ctx.sb.prove(ci, ["rev-parse", "--is-shallow-repository"], "true", "a shallow clone")
    ctx.sb.prove(ci, ["cat-file", "-e", f"{start}^{{commit}}"], "", "the start is not here")
    ctx.sb.prove_empty(ci, ["branch", "-r", "--list", "origin/feature"], "feature not fetched")
    step = ctx.agent.attempt(ci, f"gentle-hook gate --range {start}..HEAD")
    passed(ctx, step.exit, "CI passed")
