"""A push's block for a delegated commit that is not HEAD verifies it in a worktree of its
own (``git worktree add`` under the common git directory), which holds none of the work
tree's ignored files: the spot check it prints re-runs the writer's test in a temporary
linked checkout with the ignored files of the work tree the writer's report ran in (else
the one the user pastes in; a ``.env`` the test reads), so pasting the block gets the user
out and the writer's change is not refuted for what the room lacked (issue 14, SPEC §5
"Spot check"). A re-run that fails for a reason no missing ignored file explains still
refutes, and the way out then acts on the blocked commit, not on HEAD. Real git,
``gentle-hook install``, a bare remote.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from tests.e2e.conftest import World, paste_first_way

#: The writer's test: it needs the ignored ``.env`` (and ``src/app.py`` as committed).
READS_ENV = (
    sys.executable,
    "-c",
    "import pathlib; assert pathlib.Path('.env').read_text() == 'TOKEN=1\\n'; "
    "assert 'writer' in pathlib.Path('src/app.py').read_text()",
)


def _range_blocked(
    w: World, test: tuple[str, ...] | None, where: Path | None = None
) -> tuple[str, list[str]]:
    """A delegated commit (its report ``test`` recorded, passing in the work tree, which
    holds the ignored ``.env``) with a person's commit on top, pushed from ``where`` (a
    linked worktree made there on that commit, without ``.env``; default: the work tree):
    the delegated commit's id and what the blocked push said."""
    w.write(".gitignore", "__pycache__/\n.pytest_cache/\n.env\n")
    w.ok("add", ".gitignore")
    w.ok("commit", "-qm", "human: ignore .env")
    w.ok("push", "-q", "origin", "main")
    w.write(".env", "TOKEN=1\n")
    w.write("src/app.py", "def add(a, b):\n    return a + b  # writer\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    if test is not None:  # None: the writer reported nothing
        ran = w.gh("receipt", "run", "--", *test)
        assert ran.code == 0, ran
    w.ok("add", "src/app.py")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: change")
    delegated = w.rev("HEAD")
    w.write("README.md", "# demo, by a person\n")
    w.ok("add", "README.md")
    w.person_commits("-qm", "human: readme")
    assert w.rev("HEAD~1") == delegated
    if where is not None:
        w.ok("worktree", "add", "-q", "-b", "topic", str(where), "main")
        assert not (where / ".env").exists()
    pushed = w.git("push", "-q", "origin", "main", cwd=where)
    assert pushed.code == 1, pushed
    said = "\n".join(pushed.said)
    assert f"BLOCKED commit {delegated[:12]}" in said, pushed
    assert "git worktree add" in said, pushed  # not HEAD: verified in a worktree of its own
    return delegated, pushed.said


def test_the_blocks_worktree_spot_check_sees_the_ignored_env_file(native: World) -> None:
    w = native
    _, said = _range_blocked(w, READS_ENV)
    ran = paste_first_way(w, said, w.work, None)
    assert any("spot-check --committed --cwd" in c for c in ran), ran
    assert w.ledger("SELECT agreed FROM spot_check") == [(1,)]
    again = w.git("push", "-q", "origin", "main")
    assert again.code == 0, again
    assert w.remote_ref("refs/heads/main") == w.rev("HEAD")
    assert (w.work / ".env").read_text() == "TOKEN=1\n"  # the user's file stayed
    assert w.ok("worktree", "list", "--porcelain").count("worktree ") == 1


def test_pasted_in_a_linked_worktree_lacking_env_it_gets_the_reports_work_trees(
    native: World,
) -> None:
    """Pasted in a linked worktree that has no ``.env`` (git shares no ignored file between
    worktrees), the spot check still gets the ignored files of the work tree the writer's
    report ran in, so it agrees; that worktree stays without ``.env``."""
    w = native
    wt = w.base / "wt"
    _, said = _range_blocked(w, READS_ENV, wt)
    paste_first_way(w, said, wt, None)
    assert w.ledger("SELECT agreed FROM spot_check") == [(1,)]
    assert w.git("push", "-q", "origin", "main", cwd=wt).code == 0
    assert not (wt / ".env").exists()


def test_a_rerun_lacking_an_ignored_file_records_nothing_and_prints_the_copy(
    native: World,
) -> None:
    """The work tree the report ran in no longer holds ``.env``; another linked worktree
    does: the spot check fails for that, records nothing (no refutation), and says so in
    one line with the ``cp`` that brings it back; pasted, then the block again, it ends."""
    w = native
    _, said = _range_blocked(w, READS_ENV)
    side = w.base / "side"
    w.ok("worktree", "add", "-q", "-b", "side", str(side), "main")
    (w.work / ".env").rename(side / ".env")
    runs = [ln.split("run: ", 1)[1] for ln in said if "run: " in ln]
    assert "git worktree add" in runs[0] and "spot-check --committed --cwd" in runs[1], said
    assert w.run(["sh", "-c", runs[0]]).code == 0
    spot = w.run(["sh", "-c", runs[1]])
    assert spot.code == 1, spot
    assert "lacking the file .env, which git ignores" in spot.err, spot
    assert "nothing was recorded (the change is not refuted)" in spot.err, spot
    assert w.ledger("SELECT count(*) FROM spot_check") == [(0,)]
    copy = spot.err.split("to copy it, run: ", 1)[1].splitlines()[0]
    assert w.run(["sh", "-c", copy]).code == 0, copy
    paste_first_way(w, said, w.work, None)
    assert w.ledger("SELECT agreed FROM spot_check") == [(1,)]
    assert w.git("push", "-q", "origin", "main").code == 0


def test_with_no_report_the_blocks_receipt_run_there_sees_the_env_file_too(
    native: World,
) -> None:
    """No report was made: the block's ``prefix:`` line runs the writer's test in the
    commit's worktree; that run, and the spot check after it, get the work tree's ignored
    ``.env``, so the block pasted with the test ends it."""
    w = native
    _, said = _range_blocked(w, None)
    assert any("prefix: " in ln and "receipt run --committed" in ln for ln in said), said
    paste_first_way(w, said, w.work, shlex.join(READS_ENV))
    assert w.ledger("SELECT exit_code FROM receipt") == [(0,)]
    assert w.ledger("SELECT agreed FROM spot_check") == [(1,)]
    assert w.git("push", "-q", "origin", "main").code == 0


def test_a_failure_the_room_does_not_explain_refutes_and_the_fix_acts_on_that_commit(
    native: World,
) -> None:
    """The report passed while a file outside the repository was there (``flag``); it is
    gone before the spot check, so the re-run fails for a reason no ignored file explains
    and refutes the commit, as before. The way out names the blocked commit (a fixup folded
    into it), never ``git commit --amend``, which would amend the person's commit on top;
    run as printed, it changes that commit and leaves the person's on top."""
    w = native
    flag = w.base / "flag"
    flag.write_text("up\n", encoding="utf-8")
    reads_flag = (sys.executable, "-c", f"open({str(flag)!r}).read()")
    _, said = _range_blocked(w, reads_flag)
    flag.unlink()
    runs = [ln.split("run: ", 1)[1] for ln in said if "run: " in ln]
    assert "git worktree add" in runs[0] and "spot-check --committed --cwd" in runs[1], said
    for cmd in runs[:2]:  # the worktree, then its spot check: it disagrees
        w.run(["sh", "-c", cmd])
    refuted = w.git("push", "-q", "origin", "main")
    assert refuted.code == 1, refuted
    text = "\n".join(refuted.said)
    assert "is refuted" in text, refuted
    assert "git commit --amend" not in text, refuted
    fold = re.search(r"\((git commit -q --fixup=[^)]*)\)", text)
    assert fold is not None, refuted
    human = w.ok("log", "-1", "--format=%s %an")
    w.write("src/app.py", "def add(a, b):\n    return a + b  # writer, fixed\n")
    w.ok("add", "src/app.py")
    done = w.run(["sh", "-c", fold.group(1)])
    assert done.code == 0, (fold.group(1), done)
    assert w.ok("log", "-1", "--format=%s %an") == human  # the person's commit stays on top
    assert "fixed" in w.ok("show", "HEAD~1:src/app.py")
    assert w.ok("log", "-1", "--format=%s", "HEAD~1").strip() == "writer: change"
    assert w.ok("status", "--porcelain", "--untracked-files=no") == ""
