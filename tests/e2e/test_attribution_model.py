"""Attribution against a simple model (SPEC §3 "Attribution follows content", §5, §6): random
sequences of git moves through ``gentle-hook install``, the server gate and a bare remote.

The model knows which lines a writer wrote: every edit inserts two lines of its own, unique
in the whole run (``w_7_a = "writer 7"`` or ``h_8_a = "human 8"``), after one of a few anchor
lines of one of three files, so edits in different places never conflict. Writer edits are
followed by ``gentle-hook record PATH``; nothing else is recorded. A commit *carries writer
content* when it introduces a writer line (its diff against its parent adds one); a plan is
unmet unless ``spot-check --committed`` agreed for that commit's candidate (the trees of
``merge-base(origin/main, commit)`` and of the commit). Invariants:

* a push (``git push`` with the pre-push gate) is blocked iff a pushed commit carries writer
  content whose plan is unmet; when it is, the server gate rejects the same push made with
  ``--no-verify``;
* the commit gate blocks a commit iff the commit it makes carries writer content whose plan
  is unmet (then it is made with ``--no-verify``, which still runs the recorders);
* a commit has a ``Gentle-Writer`` trailer iff it carries writer content.

Moves: writer and human edits, ``add``, ``commit`` (staged, ``-a``, ``--only PATH``,
``--amend -m``, ``--amend -a --no-edit``), ``reset --soft|--hard HEAD~1`` and ``reset --hard``,
``rebase`` (onto the other worktree's branch or ``origin/main``; ``--autostash`` when the
tree is dirty), ``cherry-pick`` of the other branch's tip, ``stash`` push and pop, switching
between two worktrees (``main`` and ``topic``), the parent's spot check (a dirty tree makes
``receipt run --committed`` refuse; the parent then runs the stash, receipt, stash pop it
prints) and pushes (``+HEAD:main`` and the notes). A move git refuses (a conflict, nothing
to commit) is aborted and changes nothing the model knows.

Speed: the default profile runs 6 sequences of up to 25 moves (about 70 s on a 2-core
machine at load 8). ``ATTRIBUTION_MODEL_PROFILE=slow`` runs 40 sequences of up to 30 moves
(about 20 minutes at load 13)::

    ATTRIBUTION_MODEL_PROFILE=slow .venv/bin/python -m pytest -q tests/e2e/test_attribution_model.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    rule,
    run_state_machine_as_test,
)

from tests.e2e.conftest import CHECK, World, build_world

FILES = ("src/f1.py", "src/f2.py", "src/f3.py")
ANCHORS = 4
TRAILER = "Gentle-Writer:"
#: Kinds of move, repeated to weight them: mostly edits and commits, some history, a push
#: now and then.
MOVES = ("edit",) * 4 + ("commit",) * 3 + ("history",) * 2 + ("switch", "verify", "push", "push")
COMMITS = ("staged", "all", "only", "amend-m", "amend-a")
HISTORY = (
    "reset --soft",
    "reset --hard",
    "reset --hard HEAD",
    "rebase other",
    "rebase origin",
    "cherry-pick",
    "stash push",
    "stash pop",
)
PROFILES = {
    # the suite's profile replays one fixed set of sequences, so a red run names a sequence
    # anyone can replay; the slow profile explores new ones
    "fast": {"max_examples": 6, "stateful_step_count": 25, "derandomize": True},
    "slow": {"max_examples": 40, "stateful_step_count": 30},
}
PROFILE = PROFILES[os.environ.get("ATTRIBUTION_MODEL_PROFILE", "fast")]


def _anchored(name: str) -> str:
    return "".join(f"anchor_{name}_{k} = {k}\n" for k in range(ANCHORS))


def template(base: Path) -> Path:
    """One world, built once per test and copied for every sequence: the remote and the
    clone with the hooks, the server gate and the notes shared, and ``FILES`` pushed."""
    where = base / "template"
    where.mkdir()
    w = build_world(where, "gentle-hook", None)
    for path in FILES:
        w.write(path, _anchored(path[4:6]))
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "human: files")
    w.ok("push", "-q", "origin", "main")
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    return where


class AttributionModel(RuleBasedStateMachine):
    """Two worktrees of one clone, a bare remote with the server gate, and the model."""

    base: Path  # set by the test: the template world and this run's copies
    worlds = 0

    def __init__(self) -> None:
        super().__init__()
        AttributionModel.worlds += 1
        where = self.base / f"world-{AttributionModel.worlds}"
        shutil.copytree(self.base / "template", where, symlinks=True)
        self.w = World(where, "gentle-hook")
        self.w.ok("remote", "set-url", "origin", str(self.w.remote))
        self.w.ok("worktree", "add", "-q", "-b", "topic", str(where / "b"), "main")
        self.trees: list[Path] = [self.w.work, where / "b"]
        self.branches = ("main", "topic")
        self.cur = 0
        self.n = 0
        self.writer_lines: set[str] = set()
        self.verified: set[tuple[str, str]] = set()
        self.steps: list[str] = []

    # -- helpers ----------------------------------------------------------------------------

    @property
    def here(self) -> Path:
        return self.trees[self.cur]

    def git(self, *args: str) -> tuple[int, str, str]:
        r = self.w.git(*args, cwd=self.here)
        return r.code, r.out, r.err

    def ok(self, *args: str) -> str:
        return self.w.ok(*args, cwd=self.here)

    def succeeds(self, *args: str) -> bool:
        return self.w.git(*args, cwd=self.here).code == 0

    def note(self, step: str) -> None:
        self.steps.append(f"[{self.branches[self.cur]}] {step}")

    def story(self) -> str:
        return "\n".join(self.steps)

    def introduced(self, commit: str) -> set[str]:
        """Lines the commit adds against its first parent (each line is unique)."""
        diff = self.ok("diff", "-U0", "--no-color", f"{commit}^", commit)
        plus = {ln[1:] for ln in diff.splitlines() if ln.startswith("+") and ln[:3] != "+++"}
        minus = {ln[1:] for ln in diff.splitlines() if ln.startswith("-") and ln[:3] != "---"}
        return plus - minus

    def carries(self, commit: str) -> bool:
        return bool(self.introduced(commit) & self.writer_lines)

    def identity(self, commit: str) -> tuple[str, str]:
        base = self.ok("merge-base", "origin/main", commit).strip()
        trees = self.ok("rev-parse", f"{base}^{{tree}}", f"{commit}^{{tree}}").split()
        return trees[0], trees[1]

    def unmet(self, commit: str) -> bool:
        return self.carries(commit) and self.identity(commit) not in self.verified

    def unpushed(self, rev: str = "HEAD") -> bool:
        return not self.succeeds("merge-base", "--is-ancestor", rev, "origin/main")

    def check_trailers(self, commits: list[str]) -> None:
        for c in commits:
            message = self.ok("log", "-1", "--format=%B", c)
            assert (TRAILER in message) == self.carries(c), (
                f"{c[:12]}: trailer {TRAILER in message}, carries {self.carries(c)}\n"
                f"{message}\n{self.story()}"
            )

    def new_commits(self, before: str) -> list[str]:
        return self.ok("rev-list", "--reverse", f"{before}..HEAD").split()

    def edit(self, path: str, anchor: int, who: str) -> list[str]:
        self.n += 1
        lines = [f'{who[0]}_{self.n}_{s} = "{who} {self.n}"\n' for s in ("a", "b")]
        file = self.here / path
        text = file.read_text().splitlines(keepends=True)
        at = next(i for i, ln in enumerate(text) if ln.startswith(f"anchor_{path[4:6]}_{anchor} "))
        file.write_text("".join(text[: at + 1] + lines + text[at + 1 :]))
        return [ln.rstrip("\n") for ln in lines]

    # -- moves ------------------------------------------------------------------------------

    @rule(
        kind=st.sampled_from(MOVES),
        writer=st.booleans(),
        path=st.sampled_from(FILES),
        anchor=st.integers(0, ANCHORS - 1),
        stage=st.booleans(),
        how=st.sampled_from(COMMITS),
        history=st.sampled_from(HISTORY),
    )
    def move(
        self,
        kind: str,
        writer: bool,
        path: str,
        anchor: int,
        stage: bool,
        how: str,
        history: str,
    ) -> None:
        """One move, of a kind drawn by weight (one rule, so that every sequence can mix
        every kind of move)."""
        if kind == "edit":
            self.edit_file(writer, path, anchor, stage)
        elif kind == "commit":
            self.commit(how, path)
        elif kind == "history":
            self.history(history)
        else:
            getattr(self, kind)()

    def edit_file(self, writer: bool, path: str, anchor: int, stage: bool) -> None:
        """A writer's edit (recorded) or a human's, of ``path``; staged or not."""
        lines = self.edit(path, anchor, "writer" if writer else "human")
        if writer:
            self.writer_lines.update(lines)
            r = self.w.gh("record", "--model", "o4-mini", "--effort", "low", path, cwd=self.here)
            assert r.code == 0, r
        if stage:
            self.ok("add", path)
        who = "writer" if writer else "human"
        self.note(f"{who} edits {path} at {anchor}{' and stages it' if stage else ''}")

    def commit(self, how: str, path: str) -> None:
        self.n += 1
        message = f"commit {self.n}"
        if how == "staged":
            if self.succeeds("diff", "--cached", "--quiet"):
                return
            args = ["commit", "-m", message]
        elif how == "all":
            if self.succeeds("diff", "--quiet", "HEAD"):
                return
            args = ["commit", "-a", "-m", message]
        elif how == "only":
            if self.succeeds("diff", "--quiet", "HEAD", "--", path):
                return
            args = ["commit", "--only", path, "-m", message]
        else:
            if not self.unpushed():  # amending a pushed commit is a force push's business
                return
            args = ["commit", "--amend", "-m", message]
            if how == "amend-a":
                args = ["commit", "--amend", "-a", "--no-edit"]
        before = self.ok("rev-parse", "HEAD").strip()
        parent = before if not how.startswith("amend") else f"{before}^"
        code, out, err = self.git(*args)
        blocked = code != 0
        if blocked:
            assert code == 1 and "gentle-hooks: BLOCKED" in err, (code, out, err, self.story())
            code, out, err = self.git(args[0], "--no-verify", *args[1:])
            assert code == 0, (out, err, self.story())
        self.note(f"git {' '.join(args)}{' (blocked, then --no-verify)' if blocked else ''}")
        event(f"commit gate: {'blocked' if blocked else 'passed'}")
        head = self.ok("rev-parse", "HEAD").strip()
        assert self.ok("rev-parse", "HEAD^").strip() == self.ok("rev-parse", parent).strip()
        assert blocked == self.unmet(head), (
            f"commit gate blocked={blocked}, model unmet={self.unmet(head)}\n{err}\n{self.story()}"
        )
        self.check_trailers([head])

    def history(self, move: str) -> None:
        """A move of history or of the work in progress."""
        if move.startswith("reset"):
            self.reset(move)
        elif move.startswith("rebase"):
            self.rebase(move.split()[1])
        elif move == "cherry-pick":
            self.cherry_pick()
        else:
            self.stash(move == "stash pop")

    def reset(self, move: str) -> None:
        if move == "reset --hard HEAD":
            self.ok("reset", "-q", "--hard")
        else:
            if not self.succeeds("merge-base", "--is-ancestor", "origin/main", "HEAD~1"):
                return  # never below what was pushed (a force push would drop it)
            self.ok(*move.split(), "HEAD~1")
        self.note(f"git {move}")

    def rebase(self, onto: str) -> None:
        target = self.branches[1 - self.cur] if onto == "other" else "origin/main"
        before = self.ok("rev-parse", "HEAD").strip()
        code = self.git("rebase", "--autostash", target)[0]
        if code != 0:
            self.git("rebase", "--abort")
            self.git("reset", "-q", "--hard", before)
            self.note(f"git rebase --autostash {target} (conflict: aborted)")
            return
        if self.ok("diff", "--name-only", "--diff-filter=U").strip():
            # the rebase went through but its autostash did not apply back (git exits 0 and
            # keeps the stash): undo both, as a user would, so no move starts on a conflict
            self.ok("reset", "-q", "--hard", before)
            self.ok("stash", "pop", "-q", "--index")
            self.note(f"git rebase --autostash {target} (autostash conflict: undone)")
            return
        self.note(f"git rebase --autostash {target}")
        event("rebase: done")
        self.check_trailers(self.new_commits(target))

    def cherry_pick(self) -> None:
        other = self.branches[1 - self.cur]
        if self.succeeds("merge-base", "--is-ancestor", other, "HEAD"):
            return
        if not self.succeeds("diff", "--quiet", "HEAD"):
            return  # git refuses to cherry-pick over local changes
        before = self.ok("rev-parse", "HEAD").strip()
        code = self.git("cherry-pick", other)[0]
        if code != 0:
            self.git("cherry-pick", "--abort")
            self.git("reset", "-q", "--hard", before)
            self.note(f"git cherry-pick {other} (refused: aborted)")
            return
        self.note(f"git cherry-pick {other}")
        event("cherry-pick: done")
        self.check_trailers(self.new_commits(before))

    def stash(self, pop: bool) -> None:
        if pop:
            if not self.succeeds("rev-parse", "-q", "--verify", "refs/stash"):
                return
            if self.git("stash", "pop", "-q")[0] != 0:
                self.ok("reset", "-q", "--hard")  # a conflict: the stash stays
                self.note("git stash pop (conflict: reset --hard, stash kept)")
                return
            self.note("git stash pop")
        else:
            if self.succeeds("diff", "--quiet", "HEAD"):
                return
            self.ok("stash", "push", "-q")
            self.note("git stash push")

    def switch(self) -> None:
        self.cur = 1 - self.cur
        self.note("switch worktree")

    def verify(self) -> None:
        head = self.ok("rev-parse", "HEAD").strip()
        if not self.unpushed() or not self.unmet(head):
            return  # nothing for the parent to check
        receipt = ("receipt", "run", "--committed", "--", *CHECK)
        dirty = bool(self.ok("status", "--porcelain", "--untracked-files=no").strip())
        # with uncommitted changes the report runs in a temporary checkout of the commit,
        # leaving the work tree and the index as they are (no stash)
        status = self.ok("status", "--porcelain")
        r = self.w.gh(*receipt, cwd=self.here)
        assert self.ok("status", "--porcelain") == status, (r, self.story())
        self.note(f"receipt run --committed ({'dirty: in a checkout' if dirty else 'clean'})")
        event(f"verify: {'dirty, in a checkout' if dirty else 'clean'}")
        assert r.code == 0, (r, self.story())
        r = self.w.gh("spot-check", "--committed", cwd=self.here)
        self.note(f"spot-check --committed {head[:12]} -> {r.code}")
        assert r.code == 0 and r.err.splitlines()[-1].endswith(": agreed"), (r, self.story())
        self.verified.add(self.identity(head))

    def push(self) -> None:
        commits = self.ok("rev-list", "--reverse", "HEAD", "^origin/main").split()
        if not commits:
            return
        expect = any(self.unmet(c) for c in commits)
        refspecs = ("+HEAD:refs/heads/main", "refs/notes/gentle-hooks*:refs/notes/gentle-hooks*")
        code, out, err = self.git("push", "origin", *refspecs)
        self.note(f"git push ({len(commits)} commits) -> {code}")
        event(f"push: {'blocked' if code == 1 else 'passed'}")
        assert code in (0, 1), (code, out, err, self.story())
        assert (code == 1) == expect, (
            f"pre-push blocked={code == 1}, model={expect}\n{err}\n{self.story()}"
        )
        if code == 1:
            assert "gentle-hooks: BLOCKED" in err, (err, self.story())
            code, out, err = self.git("push", "--no-verify", "origin", *refspecs)
            self.note(f"git push --no-verify -> {code}")
            assert code != 0 and "remote: gentle-hooks: REJECTED" in err, (err, self.story())
        else:
            assert self.ok("rev-parse", "origin/main").strip() == commits[-1]

    @invariant()
    def no_operation_in_progress(self) -> None:
        for gone in ("rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "MERGE_HEAD"):
            path = self.ok("rev-parse", "--git-path", gone).strip()
            assert not (self.here / path).exists(), (gone, self.story())
        unmerged = self.ok("diff", "--name-only", "--diff-filter=U")
        assert not unmerged.strip(), (unmerged, self.story())


def test_push_blocked_iff_pushed_writer_content_is_unverified(tmp_path: Path) -> None:
    template(tmp_path)
    AttributionModel.base = tmp_path
    run_state_machine_as_test(
        AttributionModel,
        settings=settings(
            **PROFILE,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
