"""A report the writer's test run writes (``pytest --junitxml=report.xml``) never makes the
spot check refuse (issue 13 Build 4: "files the run itself creates, and ignored files,
never make it refuse"); only a change to a file the candidate holds counts (SPEC §5 "Spot
check"), unless the command names it as its report (issue 14: then it is the run's output,
tracked or staged). Real git, ``gentle-hook install``, real pytest.

A JUnit report holds the run's time, so the re-run writes other bytes than the reported
run did: in a snapshot the report is part of the work tree the receipt binds to (the run
made it), and the re-run that rewrote it was refused as "changed the candidate's files"
(refuter r13y).
"""

from __future__ import annotations

import sys

import pytest

from tests.e2e.conftest import World, paste_first_way

GOOD = "def add(a, b):\n    return b + a\n"
TESTS = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
JUNIT = (*TESTS, "--junitxml=report.xml")


@pytest.mark.parametrize("staged", [("src/app.py",), ("-A",)], ids=["writer-files", "add-A"])
def test_a_report_the_rerun_writes_again_does_not_refuse(
    native: World, staged: tuple[str, ...]
) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "run", "--", *JUNIT)
    assert made.code == 0, made
    assert any(
        "the run wrote 1 file(s) git neither tracks nor ignores (report.xml)" in x
        for x in made.lines
    )
    first = (w.work / "report.xml").read_bytes()
    checked = w.gh("spot-check")
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    assert "does not count" not in checked.err
    assert (w.work / "report.xml").read_bytes() != first  # the re-run wrote it again
    assert "spot check: satisfied" in w.gh("status").lines
    # the writer's files alone, or the work tree as the re-run left it
    w.ok("add", *staged)
    committed = w.git("commit", "-m", "writer")
    assert committed.code == 0, committed


def test_a_staged_report_of_a_staged_run_does_not_refuse(native: World) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "src/app.py")
    assert w.gh("receipt", "run", "--staged", "--", *JUNIT).code == 0
    assert (w.work / "report.xml").exists()  # the work tree held the staged tree: ran there
    checked = w.gh("spot-check", "--staged")
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    assert w.ok("diff", "--cached", "--name-only").split() == ["src/app.py"]
    committed = w.git("commit", "-m", "writer")
    assert committed.code == 0, committed


def test_a_staged_report_the_command_names_is_its_output_and_counts(native: World) -> None:
    """The report staged into the candidate: the command names it (``--junitxml``), so a
    run that writes other bytes there wrote its output after testing the candidate, as
    ``report.xml`` committed would be (issue 14, refuter r14u: refusing it looped). The
    receipt binds the staged candidate as it was, the spot check that writes the report
    again counts, and the commit goes through with the staged report."""
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.gh("receipt", "run", "--", *JUNIT).code == 0
    w.ok("add", "-A")  # report.xml is staged: part of the candidate now
    staged = w.ok("rev-parse", ":report.xml")
    ran = w.gh("receipt", "run", "--staged", "--", *JUNIT)
    assert ran.code == 0, ran
    assert "the run rewrote report.xml, the report its command names" in ran.err, ran
    checked = w.gh("spot-check", "--staged")
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    assert w.git("commit", "-qm", "writer").code == 0
    assert w.ok("rev-parse", "HEAD:report.xml") == staged


def test_a_report_an_earlier_plain_run_left_does_not_loop(native: World) -> None:
    # the writer's own plain run left report.xml (untracked, not ignored); the reported run
    # writes it again: the receipt binds to the state it left too, and the spot check
    # counts, instead of "no receipt recorded for this candidate" after every report
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.run(list(JUNIT)).code == 0
    assert w.ok("status", "--porcelain", "report.xml") == "?? report.xml\n"
    made = w.gh("receipt", "run", "--", *JUNIT)
    assert made.code == 0, made
    assert any(
        "the run wrote 1 file(s) git neither tracks nor ignores (report.xml)" in x
        for x in made.lines
    ), made
    checked = w.gh("spot-check")
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    assert "spot check: satisfied" in w.gh("status").lines
    w.ok("add", "src/app.py")
    committed = w.git("commit", "-m", "writer")
    assert committed.code == 0, committed


def _second_edit_staged(w: World) -> None:
    """The writer's report run wrote report.xml, the writer edited again (the receipt binds
    to the earlier candidate) and ``git add -A`` staged both."""
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.gh("receipt", "run", "--", *JUNIT).code == 0
    w.write("src/app.py", '"""Sums."""\n\n\n' + GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert "report.xml" in w.ok("diff", "--cached", "--name-only").split()


def test_a_report_file_staged_after_a_second_edit_is_named_as_the_runs(native: World) -> None:
    """The block names report.xml as the test run's file (kept out, then the report made
    again), not as writer content to report with a run that would rewrite it and be
    refused (a loop: issue 14, r14t)."""
    w = native
    _second_edit_staged(w)
    blocked = w.git("commit", "-q", "-m", "writer")
    assert blocked.code == 1, blocked
    assert any("the writer's test run created report.xml" in x for x in blocked.said), blocked
    ran = paste_first_way(w, blocked.said, w.work, None)
    assert any(" rm -q --cached " in f" {c}" for c in ran), ran
    committed = w.git("commit", "-q", "-m", "writer")
    assert committed.code == 0, committed
    assert w.ok("show", "--name-only", "--format=", "HEAD").split() == ["src/app.py"]


def test_spot_check_of_a_report_file_staged_after_a_second_edit_gets_out(native: World) -> None:
    """``spot-check --staged`` there refuses (no receipt for this candidate) and prints the
    lines that keep report.xml out, then the report and the spot check: run as printed,
    they get out (not the report alone, refused for rewriting report.xml: a loop)."""
    w = native
    _second_edit_staged(w)
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 2, refused
    runs = refused.err.strip().split("; run: ")[1:]
    assert runs and runs[0].startswith("git rm -q --cached "), refused
    for cmd in runs:
        done = w.run(["sh", "-c", cmd])
        assert done.code == 0, (cmd, done)
    committed = w.git("commit", "-q", "-m", "writer")
    assert committed.code == 0, committed
    assert w.ok("show", "--name-only", "--format=", "HEAD").split() == ["src/app.py"]


def test_a_report_staged_after_a_second_edit_is_never_called_writer_content(
    native: World,
) -> None:
    """Issue 14: the reported run wrote report.xml, the writer edited again (its record
    saw report.xml in the work tree) and ``git add -A`` staged both, report.xml now a file
    the candidate tracks: the block names report.xml as written by the test run, never
    as writer content."""
    w = native
    _second_edit_staged(w)
    blocked = w.git("commit", "-q", "-m", "writer")
    assert blocked.code == 1, blocked
    said = "\n".join(blocked.said)
    assert blocked.said[0].endswith(
        "delegated (writer content (o4-mini/low) in src/app.py; report.xml written by the "
        "writer's test run)"
    ), said
    assert "in report.xml" not in said and "report.xml, src/app.py" not in said, said
