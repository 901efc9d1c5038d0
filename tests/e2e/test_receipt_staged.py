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
