"""``receipt run --staged`` observes the staged tree, not unstaged edits (SPEC §6
"receipt"): with the work tree holding other changes it runs in a temporary linked
checkout of the staged tree, and the user's work tree and index stay as they were."""

from __future__ import annotations

import hashlib

from tests.e2e.conftest import World
from tests.e2e.test_spot_check import BROKEN, GOOD, TEST


def _index_digest(w: World) -> str:
    return hashlib.sha256((w.work / ".git" / "index").read_bytes()).hexdigest()


def _stage_writer(w: World, staged: str, unstaged: str) -> None:
    w.write("src/app.py", staged)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.write("src/app.py", unstaged)  # not staged: the work tree is not the candidate


def test_a_staged_report_with_unstaged_edits_observes_the_staged_tree(native: World) -> None:
    w = native
    _stage_writer(w, GOOD, BROKEN)
    index, status = _index_digest(w), w.ok("status", "--porcelain")
    r = w.gh("receipt", "run", "--staged", "--", *TEST)
    assert r.code == 0, r  # the staged tree passes the test the work tree fails
    assert "temporary linked checkout of the staged tree" in r.err + r.out, r
    assert w.ledger("SELECT exit_code FROM receipt") == [(0,)]
    assert (w.work / "src" / "app.py").read_text() == BROKEN
    assert (_index_digest(w), w.ok("status", "--porcelain")) == (index, status)
    assert w.ok("worktree", "list", "--porcelain").count("worktree ") == 1
    assert w.gh("spot-check", "--staged").code == 0


def test_a_broken_staged_tree_is_reported_failing_under_a_good_work_tree(
    native: World,
) -> None:
    w = native
    _stage_writer(w, BROKEN, GOOD)
    r = w.gh("receipt", "run", "--staged", "--", *TEST)
    assert r.code == 1, r
    assert w.ledger("SELECT exit_code FROM receipt") == [(1,)]
    assert (w.work / "src" / "app.py").read_text() == GOOD


def test_a_staged_report_of_a_clean_tree_runs_in_the_work_tree(native: World) -> None:
    w = native
    _stage_writer(w, GOOD, GOOD)
    r = w.gh("receipt", "run", "--staged", "--", *TEST)
    assert r.code == 0, r
    assert "temporary linked checkout" not in r.err + r.out


def test_a_failed_staged_report_does_not_call_its_own_report_a_file_it_did_not_see(
    native: World,
) -> None:
    """A failing ``receipt run --staged`` of ``pytest --junitxml report.xml`` ran in the work
    tree (it held the staged tree) and left ``report.xml`` there, untracked: the block
    names no file "the run did not see" and no ``git add`` of the report it wrote
    (issue 14, refuter r14v LOW)."""
    import sys

    w = native
    w.write("src/app.py", BROKEN)
    w.write(
        "tests/test_add.py",
        "import sys\n\nsys.path.insert(0, 'src')\n\nimport app  # noqa: E402\n\n\n"
        "def test_add():\n    assert app.add(2, 3) == 5\n",
    )
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "src/app.py", "tests/test_add.py")
    pytest = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    ran = w.gh("receipt", "run", "--staged", "--", *pytest, "--junitxml", "report.xml")
    assert ran.code != 0 and (w.work / "report.xml").exists(), ran
    blocked = w.git("commit", "-qm", "writer")
    assert blocked.code == 1, blocked
    printed = "\n".join(blocked.said)
    assert "fix the change" in printed, blocked
    assert "did not see" not in printed and "git add" not in printed, blocked
    spot = w.gh("spot-check", "--staged")
    assert spot.code == 2 and "did not see" not in spot.err and "git add" not in spot.err, spot
