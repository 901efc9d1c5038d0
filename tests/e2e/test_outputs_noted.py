"""A report the writer's test run writes again (``pytest --junitxml=report.xml``) reaches CI
and the server as it reached the local gates (SPEC §3 "Binding", §8 "Notes"; docs/spec-notes
§5 "the work tree holds exactly the candidate").

The receipt binds to the snapshot the reported run left; the spot check that wrote the
report again binds also to the state it left, which ``git add -A`` commits. The commit's
note carries the spot check, and the receipt it re-ran bound as the spot check is: the
server's pre-receive and ``gate --range`` in a fresh clone let the commit through as the
commit and push gates did. A note that holds a re-run but not its receipt says so.
Real git, ``gentle-hook install``, a bare remote with the server gate, real pytest.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return b + a\n"
JUNIT = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
JUNIT = (*JUNIT, "--junitxml=report.xml")


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it."""
    return native.serve({})


def _committed_with_report(w: World) -> str:
    """The writer's change, reported with a JUnit report, spot-checked, ``git add -A``
    committed (the report with it) and pushed by a plain push; the commit id."""
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.gh("receipt", "run", "--", *JUNIT).code == 0
    w.spot_check()
    w.ok("add", "-A")
    assert "report.xml" in w.ok("diff", "--cached", "--name-only")
    committed = w.git("commit", "-q", "-m", "writer")
    assert committed.code == 0, committed
    pushed = w.git("push", "-q", "origin", "main")
    assert pushed.code == 0, pushed  # the push gate and the server's pre-receive
    return w.rev("HEAD")


def _fresh_clone(w: World) -> World:
    """A clone of the remote with its notes and no ledger (CI)."""
    ci = World(w.base / "ci", "gentle-hook")
    ci.work = w.base / "ci-work"
    w.ok("clone", "-q", str(w.remote), str(ci.work), cwd=w.base)
    ci.ok("fetch", "-q", "origin", "refs/notes/*:refs/notes/*")
    return ci


def test_the_note_carries_the_receipt_its_rerun_re_ran(served: World) -> None:
    w = served
    commit = _committed_with_report(w)
    note = w.ok("notes", "--ref", "gentle-hooks", "show", commit, cwd=w.remote)
    lines = [json.loads(x) for x in note.splitlines()]
    ident = next(x["identity"] for x in lines if x["kind"] == "candidate")
    receipts = [x for x in lines if x["kind"] == "receipt"]
    assert [(x["identity"], x["exit_code"]) for x in receipts] == [(ident, 0)], note
    assert receipts[0]["command"].endswith("--junitxml=report.xml")
    ci = _fresh_clone(w)
    gated = ci.gh("gate", "--range", "HEAD~1..HEAD")
    assert gated.code == 0, gated
    assert "verified as its plan requires" in gated.out + gated.err, gated


def test_a_note_without_the_receipt_says_so(served: World) -> None:
    """A note holding the agreed re-run and not the receipt it re-ran (as notes were written
    before they carried it): the range gate blocks, saying that, not "missing a passing
    re-run"."""
    w = served
    commit = _committed_with_report(w)
    ci = _fresh_clone(w)
    held = ci.ok("notes", "--ref", "gentle-hooks", "show", commit)
    kept = [x for x in held.splitlines() if json.loads(x)["kind"] != "receipt"]
    assert len(kept) < len(held.splitlines()), held
    edited = w.base / "note.txt"
    edited.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    ci.ok("notes", "--ref", "gentle-hooks", "add", "-f", "-F", str(edited), commit)
    gated = ci.gh("gate", "--range", "HEAD~1..HEAD")
    assert gated.code == 1, gated
    said = gated.out + gated.err
    assert "missing a passing re-run" not in said, said
    assert (
        "missing the writer's report in its note: the note holds a spot check but not the "
        "receipt it re-ran"
    ) in said, said
    assert "its note holds a re-run that agreed of `" in said, said
    assert "gentle-hook sync push in the clone that recorded them adds the receipt" in said


def test_sync_push_adds_the_receipt_to_a_note_written_without_it(served: World) -> None:
    """A note written before notes carried the re-run's receipt, here and on the remote:
    ``gentle-hook sync push`` in the writer's clone merges the receipt line in and shares
    it, and ``gate --range`` in a fresh clone lets the commit through."""
    w = served
    commit = _committed_with_report(w)
    held = w.ok("notes", "--ref", "gentle-hooks", "show", commit)
    kept = [x for x in held.splitlines() if json.loads(x)["kind"] != "receipt"]
    edited = w.base / "note.txt"
    edited.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    for where in (w.work, w.remote):
        w.ok("notes", "--ref", "gentle-hooks", "add", "-f", "-F", str(edited), commit, cwd=where)
    assert _fresh_clone(w).gh("gate", "--range", "HEAD~1..HEAD").code == 1
    synced = w.gh("sync", "push")
    assert synced.code == 0, synced
    assert "added receipt lines to 1 note(s)" in synced.out + synced.err, synced
    shared = w.ok("notes", "--ref", "gentle-hooks", "show", commit, cwd=w.remote)
    assert '"kind":"receipt"' in shared, shared
    (w.base / "ci-work").rename(w.base / "ci-before")
    gated = _fresh_clone(w).gh("gate", "--range", "HEAD~1..HEAD")
    assert gated.code == 0, gated
