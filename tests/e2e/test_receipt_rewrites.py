"""A ``receipt run`` whose command rewrites a file the candidate tracks tested something
else: it does not count as the writer's self-verification, is not recorded, and says so in
one line naming the files, with the ``prefix:`` of a report to make (exit 1: ran but does
not count). The block that follows offers that ``prefix:`` line, never a spot check that
refuses for the same reason, so pasting what it prints ends the loop (SPEC §5 "Spot
check", §6 "receipt"). Real git, ``gentle-hook install``, the installed CLI.
"""

from __future__ import annotations

import shlex
import sys

from tests.e2e.conftest import World, paste_first_way

#: The refuter's command: it rewrites the tracked ``golden.txt``, then tests ``m.f``.
REWRITES = (
    sys.executable,
    "-c",
    "open('golden.txt','w').write('v2'); import m; assert m.f()==1",
)
#: The same test, leaving tracked files alone.
LEAVES = (sys.executable, "-c", "import m; assert m.f()==1")


def _writer_staged(w: World) -> None:
    w.write("golden.txt", "v1")
    w.ok("add", "golden.txt")
    w.ok("commit", "-q", "-m", "golden", "--no-verify")
    w.write("m.py", "def f(): return 1\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "m.py")


def test_a_run_that_rewrites_a_tracked_file_does_not_count_and_no_loop(native: World) -> None:
    w = native
    _writer_staged(w)
    ran = w.gh("receipt", "run", "--staged", "--", *REWRITES)
    assert ran.code == 1, ran
    said = ran.err
    assert "changed the candidate's tracked files (golden.txt)" in said, ran
    assert "does not count as the writer's self-verification" in said, ran
    assert "prefix: gentle-hook receipt run --staged --" in said, ran
    assert w.gh("receipt", "list", "--staged").out.startswith("no receipts for "), "recorded"
    # the files put back by the printed git restore, pasted as is (not a command of our own)
    restore = [x.split("run: ", 1)[1] for x in said.split("; ") if x.startswith("run: git ")]
    assert len(restore) == 1, said
    assert restore[0].startswith(f"git -C {shlex.quote(str(w.work))} restore "), said
    assert w.run(["sh", "-c", restore[0]], cwd=w.work).code == 0, restore
    assert (w.work / "golden.txt").read_text() == "v1"
    assert w.ok("status", "--porcelain", "--", "golden.txt") == ""
    blocked = w.git("commit", "-qm", "w")
    assert blocked.code == 1, blocked
    prefix = [x for x in blocked.said if "prefix: gentle-hook receipt run" in x]
    assert prefix and prefix[0].endswith(" --staged --"), blocked
    # the way out the block printed, pasted literally, completed with a command that leaves
    # tracked files alone
    paste_first_way(w, blocked.said, w.work, shlex.join(LEAVES))
    assert w.git("commit", "-qm", "w").code == 0
    assert w.ok("show", "HEAD:golden.txt") == "v1"


def test_the_printed_restore_puts_back_a_work_tree_candidates_files(native: World) -> None:
    """Without ``--staged`` the candidate is the work tree (a snapshot tree): the restore
    names that tree and runs as printed from a subdirectory."""
    w = native
    _writer_staged(w)
    w.write("m.py", "def f(): return 1  # unstaged\n")
    (w.work / "sub").mkdir()
    ran = w.gh("receipt", "run", "--", *REWRITES)
    assert ran.code == 1 and "golden.txt" in ran.err, ran
    restore = [x.split("run: ", 1)[1] for x in ran.err.split("; ") if x.startswith("run: git ")]
    assert len(restore) == 1, ran
    assert w.run(["sh", "-c", restore[0]], cwd=w.work / "sub").code == 0, restore
    assert (w.work / "golden.txt").read_text() == "v1"
    assert "# unstaged" in (w.work / "m.py").read_text()


def test_the_printed_restore_acts_on_the_verify_worktree_the_run_was_in(native: World) -> None:
    """A ``--committed`` report made in a verify worktree (``--cwd``, as a gate prints it)
    whose command rewrote a tracked file: every line the refusal prints, pasted in the
    user's own clone, puts the file back in the verify worktree and leaves the user's
    uncommitted edit of that file as it is."""
    w = native
    _writer_staged(w)
    w.ok("commit", "-q", "--no-verify", "-m", "writer")
    wt = w.base / "verify wt"  # a space: the printed tree is quoted
    w.ok("worktree", "add", "-q", "--detach", str(wt), "HEAD")
    w.write("golden.txt", "v1\nmine, not committed\n")
    ran = w.gh("receipt", "run", "--committed", "--cwd", str(wt), "--", *REWRITES)
    assert ran.code == 1 and "changed the candidate's tracked files (golden.txt)" in ran.err, ran
    assert (wt / "golden.txt").read_text() == "v2"
    pasted = [x.split(": ", 1)[1] for x in ran.err.split("; ") if x.startswith("run: ")]
    assert pasted, ran
    for line in pasted:
        assert w.run(["sh", "-c", line], cwd=w.work).code == 0, line
    assert (w.work / "golden.txt").read_text() == "v1\nmine, not committed\n"
    assert (wt / "golden.txt").read_text() == "v1"
    assert w.ok("status", "--porcelain", cwd=wt) == ""


def test_a_run_that_only_creates_files_still_counts(native: World) -> None:
    w = native
    _writer_staged(w)
    made = (sys.executable, "-c", "open('out.txt','w').write('x'); import m; assert m.f()==1")
    ran = w.gh("receipt", "run", "--staged", "--", *made)
    assert ran.code == 0, ran


def test_a_report_whose_spot_check_rewrote_a_tracked_file_is_refused_in_the_block(
    native: World,
) -> None:
    """The same command reported from elsewhere: the spot check refuses it, and the block
    says why and offers the report to make instead of that spot check again."""
    w = native
    _writer_staged(w)
    line = f"{shlex.join(REWRITES)}: exit 0"
    assert w.gh("receipt", "add", "--staged", line, "--exit-code", "0").code == 0
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 1, refused
    w.ok("checkout", "golden.txt")
    blocked = w.git("commit", "-qm", "w")
    assert blocked.code == 1, blocked
    printed = "\n".join(blocked.said)
    assert "changed the candidate's files when the spot check re-ran it" in printed, blocked
    prefix = [x for x in blocked.said if "prefix: gentle-hook receipt run" in x]
    assert prefix and prefix[0].endswith(" --staged --"), blocked
    paste_first_way(w, blocked.said, w.work, shlex.join(LEAVES))
    assert w.git("commit", "-qm", "w").code == 0
