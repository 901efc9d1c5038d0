"""A receipt run or spot check in a temporary linked checkout sees the work tree's ignored
files (SPEC §5 "Spot check": the candidate's exact tree "with the project's ignored
dependency folders available"): a test reading a gitignored ``.env`` passes there as it
does in the work tree, so the block's printed way out resolves it; tracked paths stay the
candidate's and nothing outside the checkout is removed with it."""

from __future__ import annotations

import shlex
import sys

from tests.e2e.conftest import World, paste_first_way

#: A test of the staged tree that needs the ignored ``.env`` next to it.
READS_ENV = (
    sys.executable,
    "-c",
    "import pathlib; assert pathlib.Path('.env').read_text() == 'TOKEN=1\\n'",
)


def _blocked_with_env(w: World) -> list[str]:
    w.write(".gitignore", "__pycache__/\n.pytest_cache/\n.env\nbuild/\n")
    w.ok("add", ".gitignore")
    w.ok("commit", "-qm", "human: ignore .env")
    w.write(".env", "TOKEN=1\n")
    w.write("build/out.txt", "generated\n")
    w.write("notes.txt", "scratch, untracked\n")  # the work tree is not the staged tree
    w.write("src/app.py", "def add(a, b):\n    return a + b  # writer\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "src/app.py")
    blocked = w.git("commit", "-qm", "writer: change")
    assert blocked.code == 1, blocked
    return blocked.said


def test_a_staged_receipt_run_sees_the_ignored_env_file(native: World) -> None:
    w = native
    said = _blocked_with_env(w)
    ran = paste_first_way(w, said, w.work, shlex.join(READS_ENV))
    assert any("receipt run" in c and "--staged" in c for c in ran), ran
    assert w.ledger("SELECT exit_code FROM receipt") == [(0,)]
    assert w.git("commit", "-qm", "writer: change").code == 0
    # the links went with the checkout; the user's ignored files stayed
    assert (w.work / ".env").read_text() == "TOKEN=1\n"
    assert (w.work / "build" / "out.txt").read_text() == "generated\n"
    assert w.ok("worktree", "list", "--porcelain").count("worktree ") == 1


def test_ignored_files_never_replace_the_candidates_tracked_ones(native: World) -> None:
    w = native
    _blocked_with_env(w)
    w.write("src/app.py", "raise SystemExit('the work tree copy ran')\n")  # unstaged
    check = (sys.executable, "-c", "import runpy; runpy.run_path('src/app.py')")
    r = w.gh("receipt", "run", "--staged", "--", *check)
    assert r.code == 0, r  # the staged src/app.py ran, not a link to the work tree's
    assert "temporary linked checkout of the staged tree" in r.err + r.out, r


def test_a_failing_run_in_the_checkout_names_what_the_work_tree_has_besides(
    native: World,
) -> None:
    w = native
    _blocked_with_env(w)
    reads_notes = (sys.executable, "-c", "open('notes.txt').read()")
    r = w.gh("receipt", "run", "--staged", "--", *reads_notes)
    assert r.code == 1, r
    said = r.err + r.out
    assert "the command failed in the staged tree" in said, r
    assert "differs from it in notes.txt the run did not see" in said, r
    assert "stage it or list it in .gitignore" in said, r
    passing = w.gh("receipt", "run", "--staged", "--", *READS_ENV)
    assert passing.code == 0, passing
    assert "the command failed" not in passing.err + passing.out, passing


def test_a_failed_staged_report_missing_an_untracked_file_prints_its_git_add(
    native: World,
) -> None:
    """A report that failed because its run lacked a file only the work tree holds: the
    receipt run and the spot check print the ``git add`` that stages it, runnable as
    printed, before the report again (the spot check's way out was a loop: report again,
    spot-check, "fix the change")."""
    w = native
    _blocked_with_env(w)
    w.write("lib/stale.pyc", "bytecode no run needs staged\n")  # untracked, not ignored
    reads_notes = (sys.executable, "-c", "open('notes.txt').read()")
    r = w.gh("receipt", "run", "--staged", "--", *reads_notes)
    assert r.code == 1, r
    add = "git add -- ':(top,literal)notes.txt'"
    assert f"to stage the untracked ones, run: {add}" in r.err + r.out, r
    spot = w.gh("spot-check", "--staged")
    assert spot.code == 2, spot
    [line] = [x for x in spot.err.splitlines() if x.startswith("gentle-hook: error: ")]
    assert "did not see notes.txt (in the work tree, not staged)" in line, line
    printed = line.split("; run: ")[1:]
    assert printed[0] == add, printed
    assert "receipt run --staged" in printed[1] and "spot-check --staged" in printed[2], line
    for cmd in printed:
        done = w.run(["sh", "-c", cmd], cwd=w.work)
        assert done.code == 0, (cmd, done)
    assert w.git("commit", "-qm", "writer: change").code == 0
