"""Satisfaction means success, re-run on the exact candidate (SPEC §5
"Spot check", §6): each case through installed hooks, real git and the real CLI.

* a receipt of ``true``, a failure report (even "agreed" by a failing re-run) and
  ``receipt add "no-such-runner: ok" --exit-code 127`` satisfy nothing; a re-run that fails
  after a report of success blocks, naming both results;
* with ``verification.commands`` declared only those count, in CI read from the base;
* the re-run runs on the candidate's exact tree: in the work tree when it holds exactly the
  candidate (files the run creates never make it refuse), else in a temporary linked
  checkout with the ignored dependency folders linked in, removed afterwards, also when
  the spot check is killed (the next one sweeps it, ``doctor`` reports it); the user's
  index and work tree are never written.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import CHECK, CHECK_CODE, Run, World

GOOD = "def add(a, b):\n    return a + b  # writer\n"
BROKEN = "def add(a, b):\n    return a - b\n"
#: A test of ``src/app.py``: exit 0 when add(2, 2) == 4 in the tree it runs in.
TEST = (
    sys.executable,
    "-c",
    "import sys; sys.path.insert(0, 'src'); import app; sys.exit(0 if app.add(2, 2) == 4 else 1)",
)
TEST_LINE = shlex.join(TEST)
CHECK_LINE = shlex.join(CHECK)


def _write_config(w: World, text: str) -> None:
    """Commit the configuration and push it: the declared commands are the base's."""
    w.write(".gentle-hooks.toml", text)
    w.ok("add", ".gentle-hooks.toml")
    w.ok("commit", "-q", "-m", "config")
    w.ok("push", "-q", "origin", "main")


def _declare(commands: list[str]) -> str:
    return f"[verification]\ncommands = {json.dumps(commands)}\n"  # JSON strings are TOML


def _lines(run_said: list[str], label: str) -> list[str]:
    prefix = f"gentle-hooks:   {label}: "
    return [line[len(prefix) :] for line in run_said if line.startswith(prefix)]


def _index_digest(w: World) -> str:
    return hashlib.sha256((w.work / ".git" / "index").read_bytes()).hexdigest()


def _linked_worktrees(w: World) -> list[str]:
    out = w.ok("worktree", "list", "--porcelain")
    return [ln.split(" ", 1)[1] for ln in out.splitlines() if ln.startswith("worktree ")][1:]


def _ran_in(r: Run) -> str:
    """The checkout a spot check announced it re-ran in."""
    line = next(x for x in r.out.splitlines() if "temporary linked checkout" in x)
    return line.split("tree, ", 1)[1].split(" ", 1)[0].rstrip(":")


# -- receipts that cannot count ---------------------------------------------------------


def test_a_receipt_of_true_satisfies_nothing(native: World) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "run", "--", "true")
    assert made.code == 0
    assert (
        "note: receipt #1 cannot count as self-verification: it verifies nothing: true succeeds "
        "and checks nothing"
    ) in made.lines
    refused = w.gh("spot-check")
    assert refused.code == 2, refused
    assert refused.err.startswith(
        "gentle-hook: error: receipt #1 (true) cannot count: it verifies nothing: true "
        "succeeds and checks nothing; the writer reports the command "
        "that tests the change after the prefix (or declares it in verification.commands); "
        "prefix: gentle-hook receipt run --; run: gentle-hook spot-check"
    )
    assert w.ledger("SELECT count(*) FROM spot_check") == [(0,)]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1, blocked
    assert blocked.said[0].startswith("gentle-hooks: BLOCKED the staged change")
    assert _lines(blocked.said, "missing") == [
        "no spot check for this candidate (required in every tier; plan risk medium); "
        "receipts that cannot count: receipt #1 (true) verifies nothing: true succeeds and "
        "checks nothing"
    ]
    # a real check, reported and re-run, satisfies it
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-m", "writer").code == 0


def test_a_pipeline_that_hides_the_check_s_failure_satisfies_nothing(native: World) -> None:
    """``TEST | sort`` succeeds with the change broken (no pipefail: sort's status): it
    cannot count, and the refusal prints the same command without the pipe, runnable."""
    w = native
    w.write("src/app.py", BROKEN)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    made = w.gh("receipt", "run", "--staged", "--", "sh", "-c", f"{TEST_LINE} | sort")
    assert made.code == 0  # the broken change "passes" through the pipe
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 2, refused
    assert "the pipeline's status is its last command's (no pipefail)" in refused.err
    assert refused.err.endswith(
        "the writer reports the same command without the part that hides a failure; "
        f"run: gentle-hook receipt run --staged -- {TEST_LINE}; "
        "run: gentle-hook spot-check --staged\n"
    ), refused.err
    assert w.ledger("SELECT count(*) FROM spot_check") == [(0,)]
    way_out = f"gentle-hook receipt run --staged -- {TEST_LINE}"
    pasted = way_out.replace("gentle-hook", f"{shlex.quote(sys.executable)} -m gentle_hooks")
    assert w.run(["sh", "-c", pasted]).code == 1  # the check itself fails on the broken change
    w.write("src/app.py", GOOD)
    w.ok("add", "-A")
    assert w.run(["sh", "-c", pasted]).code == 0
    w.spot_check("--staged")
    assert w.git("commit", "-m", "writer").code == 0


def test_a_failure_report_is_not_self_verification(native: World) -> None:
    w = native
    w.write("src/app.py", BROKEN)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    made = w.gh("receipt", "run", "--staged", "--", *TEST)
    assert made.code == 1  # receipt run exits with the command's status
    assert (
        "note: receipt #1 cannot count as self-verification: it reports exit 1: a failure "
        "report is not self-verification"
    ) in made.lines
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 2, refused
    assert refused.err == (
        f"gentle-hook: error: receipt #1 ({TEST_LINE}) cannot count: it reports exit 1: a "
        "failure report is not self-verification; fix the change, then the "
        f"writer reports it again; run: gentle-hook receipt run --staged -- {TEST_LINE}; "
        "run: gentle-hook spot-check --staged\n"
    )
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1, blocked
    assert _lines(blocked.said, "missing") == [
        "no spot check for this candidate (required in every tier; plan risk medium); "
        f"receipts that cannot count: receipt #1 ({TEST_LINE}) reported exit 1: a failure "
        "report is not self-verification"
    ]
    # no re-run disagreed: the changed change is reported and spot-checked again
    assert _lines(blocked.said, "run") == [
        f"gentle-hook receipt run --staged -- {TEST_LINE}",
        "gentle-hook spot-check --staged",
    ]


def test_a_failure_agreed_by_a_failing_re_run_satisfies_nothing(native: World) -> None:
    """A spot check recorded before satisfaction meant success ("reported exit 1, observed
    exit 1: agreed") is in the ledger: the gate re-derives agreement and still blocks."""
    w = native
    w.write("src/app.py", BROKEN)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *TEST).code == 1
    identity, root = w.ledger("SELECT identity, root FROM receipt WHERE id = 1")[0]
    conn = sqlite3.connect(w.work / ".git" / "gentle-hooks" / "ledger.sqlite3")
    with conn:
        conn.execute(
            "INSERT INTO spot_check (root, identity, kind, receipt_id, command, reported_exit,"
            " observed_exit, agreed, counts, recorded_at) VALUES (?, ?, 'rerun', 1, ?, 1, 1, 1,"
            " 1, 0)",
            (root, identity, TEST_LINE),
        )
    conn.close()
    status = w.gh("status", "--staged")
    assert "spot check: MISSING" in status.lines, status
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1, blocked
    assert "reported exit 1: a failure report is not self-verification" in blocked.err


def test_a_re_run_that_fails_after_a_success_report_blocks_naming_both(native: World) -> None:
    w = native
    w.write("src/app.py", BROKEN)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    line = f"{TEST_LINE}: 1 passed"
    assert w.gh("receipt", "add", "--staged", line, "--exit-code", "0").code == 0
    r = w.gh("spot-check", "--staged")
    assert r.code == 1, r
    assert r.err.splitlines()[-1].endswith("reported exit 0, observed exit 1: DISAGREED")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1
    assert _lines(blocked.said, "missing") == [
        "a spot check failed after the writer reported success: spot check #1 re-ran receipt "
        f"#1 ({TEST_LINE}): reported exit 0, observed exit 1"
    ]
    # the disagreement stays with the candidate: no report or spot check of it is offered,
    # only the override with the user's own git command (a changed change is the other way)
    staged = json.loads(w.gh("assess", "--json", "--staged").out)["candidate"]["identity"]
    assert _lines(blocked.said, "run") == [
        "GENTLE_HOOKS_SKIP='a re-run of this change disagreed (flaky test?)' "
        f"GENTLE_HOOKS_SKIP_ONLY={staged} git commit -m writer"
    ]


def test_a_runner_that_is_not_there_satisfies_nothing(native: World) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "add", "no-such-runner: ok", "--exit-code", "127")
    assert made.code == 0
    assert "it reports exit 127: a failure report is not self-verification" in made.out
    refused = w.gh("spot-check")
    assert refused.code == 2
    assert "receipt #1 (no-such-runner) cannot count: it reports exit 127" in refused.err
    w.ok("add", "-A")
    assert w.git("commit", "-m", "writer").code == 1
    # reported as a success, the re-run finds no runner: a disagreement
    assert w.gh("receipt", "add", "--staged", "no-such-runner: ok", "--exit-code", "0").code == 0
    r = w.gh("spot-check", "--staged")
    assert r.code == 1
    assert r.err.splitlines()[-1].endswith("reported exit 0, observed exit 127: DISAGREED")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1
    assert "reported exit 0, observed exit 127" in _lines(blocked.said, "missing")[0]


# -- declared verification commands -----------------------------------------------------


def test_only_declared_commands_count_and_the_fix_runs_as_printed(native: World) -> None:
    w = native
    _write_config(w, _declare([CHECK_LINE]))
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    made = w.gh("receipt", "run", "--staged", "--", *TEST)
    assert made.code == 0
    assert (
        f"it is not one of the declared verification.commands ({CHECK_LINE})"
    ) in made.out + made.err
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 2
    assert refused.err.endswith(
        f"the writer reports a declared one; run: gentle-hook receipt run --staged -- "
        f"{CHECK_LINE}; run: gentle-hook spot-check --staged\n"
    )
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1
    printed = _lines(blocked.said, "run")
    assert printed[0].startswith(f"gentle-hook receipt run --staged -- {CHECK_LINE}")
    for command in printed:  # exactly as printed, through a shell
        done = w.run(
            ["sh", "-c", command.replace("gentle-hook", f"{sys.executable} -m gentle_hooks")]
        )
        assert done.code == 0, (command, done)
    assert w.git("commit", "-m", "writer").code == 0


def test_a_change_that_declares_its_own_command_is_judged_by_the_base_s(native: World) -> None:
    """The declared commands are the base's at every local gate: a change that rewrites
    ``verification.commands`` to its own command gets no spot check from it, and its
    commit is blocked until the base's command is reported."""
    w = native
    _write_config(w, _declare([CHECK_LINE]))
    w.write(".gentle-hooks.toml", _declare([TEST_LINE]))  # the change loosens its own gate
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    made = w.gh("receipt", "run", "--staged", "--", *TEST)
    assert made.code == 0
    assert f"it is not one of the declared verification.commands ({CHECK_LINE})" in (
        made.out + made.err
    )
    refused = w.gh("spot-check", "--staged")
    assert refused.code == 2, refused
    assert refused.err.endswith(
        f"the writer reports a declared one; run: gentle-hook receipt run --staged -- "
        f"{CHECK_LINE}; run: gentle-hook spot-check --staged\n"
    )
    assert w.git("commit", "-m", "writer").code == 1
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-m", "writer").code == 0


#: Declared lines a shell reads differently from ``shlex.join``: quotes of their own, an
#: assignment before the command word.
ODD_DECLARED = [
    f'{shlex.quote(sys.executable)} -c "{CHECK_CODE}"',
    f"PYTHONHASHSEED=0 {shlex.quote(sys.executable)} -c {shlex.quote(CHECK_CODE)}",
]


@pytest.mark.parametrize("declared", ODD_DECLARED)
def test_a_declared_line_with_quotes_or_assignments_is_resolved_by_pasting(
    native: World, declared: str
) -> None:
    w = native
    _write_config(w, _declare([declared]))
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer")
    assert blocked.code == 1
    printed = _lines(blocked.said, "run")
    assert "sh -c" not in printed[0], printed
    for command in printed:  # exactly as printed, through a shell
        done = w.run(
            ["sh", "-c", command.replace("gentle-hook", f"{sys.executable} -m gentle_hooks")]
        )
        assert done.code == 0, (command, done)
        assert "S-undeclared" not in done.out + done.err, (command, done)
    assert w.git("commit", "-m", "writer").code == 0


def test_the_range_gate_reads_the_declared_commands_from_the_base(native: World) -> None:
    """A branch cannot declare its own verification commands: ``gate --range`` reads
    ``verification.commands`` from the range's base, and the local gates do not read them
    from a commit no remote holds, even when told to judge from there."""
    w = native
    _write_config(w, _declare([CHECK_LINE]))
    base = w.rev("HEAD")
    # the branch declares its own command in a commit of its own, and the local gates are
    # told to judge from there (gentle.baseRef HEAD): that commit is on no remote, so the
    # gates' settings are not read from it and the commit is blocked all the same
    w.write(".gentle-hooks.toml", _declare([TEST_LINE]))
    w.ok("commit", "-q", "-am", "declare our own command")
    w.ok("config", "gentle.baseRef", "HEAD")
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *TEST).code == 0
    local = w.git("commit", "-q", "-m", "writer: own command")
    assert local.code == 1 and "BLOCKED the staged change" in local.err, local
    # committed with the hooks off, CI still judges it from the range's base
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "writer: own command")
    w.ok("config", "--unset", "gentle.baseRef")
    ci = w.gh("gate", "--range", f"{base}..HEAD")
    assert ci.code == 1, ci
    assert "BLOCKED" in ci.out + ci.err
    # the base's declared command, reported and spot-checked for that commit, passes CI
    w.ok("reset", "-q", "--hard", base)
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.report("--staged")
    w.spot_check("--staged")
    assert w.git("commit", "-q", "-m", "writer: declared command").code == 0
    ci = w.gh("gate", "--range", f"{base}..HEAD")
    assert ci.code == 0, ci


# -- the exact tree: work tree or temporary checkout ------------------------------------


#: A pytest test of ``src/app.py`` and an ignored ``conftest.py`` that makes it pass.
PYTEST_TEST = (
    "import sys\nsys.path.insert(0, 'src')\nimport app\n\n\n"
    "def test_add():\n    assert app.add(2, 2) == 4\n"
)
FIXING_CONFTEST = (
    "import sys\nsys.path.insert(0, 'src')\nimport app\n\napp.add = lambda a, b: a + b\n"
)
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_app.py")


def _broken_behind_an_ignored_conftest(w: World) -> World:
    """``w`` with a committed pytest test of ``src/app.py``, an ignored ``tests/conftest.py``
    (in ``.git/info/exclude``) that makes it pass, and the writer's recorded broken change."""
    w.write("tests/test_app.py", PYTEST_TEST)
    w.ok("add", "tests/test_app.py")
    w.ok("commit", "-q", "-m", "a test")
    with open(w.work / ".git" / "info" / "exclude", "a", encoding="utf-8") as fh:
        fh.write("tests/conftest.py\n")
    w.write("tests/conftest.py", FIXING_CONFTEST)
    w.write("src/app.py", BROKEN)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    return w


def test_an_ignored_conftest_does_not_decide_the_re_run(native: World) -> None:
    """An ignored ``tests/conftest.py`` (in ``.git/info/exclude``, in no candidate's tree)
    makes the broken change's tests pass in the work tree: the work tree does not hold
    exactly the candidate, so the spot check re-runs in a checkout of it, disagrees, and
    the commit is blocked."""
    w = _broken_behind_an_ignored_conftest(native)
    w.ok("add", "-A")
    assert w.ok("status", "--porcelain") == "M  src/app.py\n"  # the conftest is ignored
    assert w.gh("receipt", "run", "--staged", "--", *PYTEST).code == 0  # passes here
    r = w.gh("spot-check", "--staged")
    assert r.code == 1, r
    assert "in a temporary linked checkout of the staged candidate's tree" in r.out, r
    assert r.err.splitlines()[-1].endswith("reported exit 0, observed exit 1: DISAGREED")
    assert w.git("commit", "-m", "writer").code == 1


def test_an_ignored_conftest_does_not_decide_the_default_re_run(native: World) -> None:
    """The same without ``--staged`` (the work tree's snapshot, the default): the work tree
    is the candidate, but the ignored ``conftest.py`` it holds is run with it, so the re-run
    goes to a checkout of the snapshot's tree, disagrees, and the commit is blocked
    (refuter r14w F3: it re-ran in the work tree and agreed; the broken change was pushed)."""
    w = _broken_behind_an_ignored_conftest(native)
    assert w.gh("receipt", "run", "--", *PYTEST).code == 0  # passes here
    r = w.gh("spot-check")
    assert r.code == 1, r
    assert "in a temporary linked checkout" in r.out, r
    assert r.err.splitlines()[-1].endswith("reported exit 0, observed exit 1: DISAGREED")
    assert w.git("commit", "-qam", "writer").code == 1


def test_files_the_run_creates_never_make_it_refuse(native: World) -> None:
    """No ignore rules: the writer's run leaves a file of its own untracked (a log beside
    the sources); the staged spot check re-runs in a checkout of the staged tree and the
    commit passes."""
    w = native
    w.write(".gitignore", "")
    w.ok("commit", "-q", "-am", "no ignore file rules")
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    logs = f"import pathlib; pathlib.Path('src/run.log').write_text('ran'); {CHECK_CODE}"
    r = w.gh("receipt", "run", "--staged", "--", sys.executable, "-c", logs)
    assert r.code == 0, r
    assert w.ok("status", "--porcelain", "--untracked-files=all").splitlines()[-1] == (
        "?? src/run.log"
    )
    index = _index_digest(w)
    r = w.gh("spot-check", "--staged")
    assert r.code == 0, r
    assert r.err.splitlines()[-1].endswith(": agreed")
    assert not os.path.exists(_ran_in(r))
    assert _index_digest(w) == index
    assert w.git("commit", "-q", "-m", "writer").code == 0
    assert w.ok("ls-files", "src") == "src/app.py\n"


def test_staged_with_unstaged_edits_re_runs_the_staged_tree(native: World) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *TEST).code == 0
    w.write("src/app.py", BROKEN)  # not staged: the work tree is not the candidate
    w.write("notes.txt", "scratch\n")
    index, status = _index_digest(w), w.ok("status", "--porcelain")
    r = w.gh("spot-check", "--staged")
    assert r.code == 0, r  # the staged tree passes the test the broken work tree fails
    assert "in a temporary linked checkout of the staged candidate's tree" in r.out
    assert (w.work / "src" / "app.py").read_text() == BROKEN
    assert (_index_digest(w), w.ok("status", "--porcelain")) == (index, status)
    assert _linked_worktrees(w) == [] and not os.path.exists(_ran_in(r))
    assert w.ok("stash", "list") == ""
    assert w.git("commit", "-q", "-m", "writer").code == 0
    assert w.ok("show", "HEAD:src/app.py") == GOOD


def test_committed_with_a_dirty_tree_re_runs_the_commit(native: World) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer")
    assert w.gh("receipt", "run", "--committed", "--", *TEST).code == 0
    w.write("src/app.py", BROKEN)
    r = w.gh("spot-check", "--committed")
    assert r.code == 0, r
    assert "in a temporary linked checkout of the committed candidate's tree" in r.out
    assert (w.work / "src" / "app.py").read_text() == BROKEN
    assert _linked_worktrees(w) == []
    push = w.git("push", "origin", "main")
    assert push.code == 0, push


def test_ignored_dependency_folders_are_linked_in_and_left_alone(native: World) -> None:
    w = native
    _write_config(w, "[verification]\ndependency_dirs = ['deps/']\n")
    w.write(".gitignore", "__pycache__/\nnode_modules/\ndeps/\n")
    w.ok("commit", "-q", "-am", "ignore dependencies")
    w.write("node_modules/dep/VERSION", "1.0\n")
    w.write("deps/data.txt", "data\n")
    needs = (
        sys.executable,
        "-c",
        "open('node_modules/dep/VERSION').read(); open('deps/data.txt').read()",
    )
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *needs).code == 0
    w.write("README.md", "# demo, edited\n")  # the work tree is not the candidate
    r = w.gh("spot-check", "--staged")
    assert r.code == 0, r
    assert "(linked in: node_modules, deps)" in r.out
    assert (w.work / "node_modules" / "dep" / "VERSION").read_text() == "1.0\n"
    assert (w.work / "deps" / "data.txt").read_text() == "data\n"
    assert _linked_worktrees(w) == []


def _start_slow_spot_check(w: World, flag: Path) -> subprocess.Popen[bytes]:
    """A spot check whose re-run waits while ``flag`` exists; started once its checkout
    is there."""
    wait = (
        sys.executable,
        "-c",
        f"import os, time\nwhile os.path.exists({str(flag)!r}): time.sleep(0.1)",
    )
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *wait).code == 0
    w.write("README.md", "# edited\n")
    flag.write_text("")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gentle_hooks", "spot-check", "--staged"],
        cwd=w.work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not _linked_worktrees(w):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(0.5)  # the re-run has started
    return proc


def test_a_killed_spot_check_is_swept_by_the_next_and_reported_by_doctor(native: World) -> None:
    w = native
    flag = w.base / "hold"
    proc = _start_slow_spot_check(w, flag)
    os.killpg(proc.pid, signal.SIGKILL)  # the spot check and its re-run, by their group id
    proc.wait()
    left = _linked_worktrees(w)
    assert len(left) == 1
    doctor = w.gh("doctor")
    assert doctor.code != 0
    assert (
        f"{left[0]}: left behind by a spot check that was killed; the fix removes it; run: "
        "gentle-hook doctor --fix"
    ) in doctor.out + doctor.err
    flag.unlink()
    r = w.gh("spot-check", "--staged")
    assert r.code == 0, r
    assert _linked_worktrees(w) == [] and not os.path.exists(left[0])
    assert "spot-check checkouts" in w.gh("doctor").out


def test_a_terminated_spot_check_removes_its_checkout(native: World) -> None:
    w = native
    flag = w.base / "hold"
    proc = _start_slow_spot_check(w, flag)
    checkout = _linked_worktrees(w)[0]
    proc.send_signal(signal.SIGTERM)  # the spot check only, by its id
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    assert _linked_worktrees(w) == [] and not os.path.exists(os.path.dirname(checkout))
    flag.unlink()


def test_a_committed_report_with_tracked_changes_runs_on_the_commit(native: World) -> None:
    """An edit after the commit is not part of it: the report runs in a temporary checkout
    of the commit, not in the work tree and with nothing stashed (issue 13 Build 4;
    tests/e2e/test_receipt_committed.py has the untracked and staged cases)."""
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer")
    w.write("src/app.py", BROKEN)  # an edit after the commit, not part of it
    made = w.gh("receipt", "run", "--committed", "--", *TEST)
    assert made.code == 0, made
    assert "exit 0" in made.err and "stash" not in made.err, made
    assert w.ledger("SELECT exit_code FROM receipt") == [(0,)]
    assert (w.work / "src" / "app.py").read_text() == BROKEN
    assert w.ok("stash", "list") == ""
    assert w.gh("spot-check", "--committed").code == 0
    assert (w.work / "src" / "app.py").read_text() == BROKEN


def test_commit_all_after_a_report_bound_with_an_untracked_file_has_a_way_out_as_printed(
    native: World,
) -> None:
    """A test run left an untracked file, so the writer's report and the spot check bound to
    the work tree with it; ``git commit -a`` judges the tree without it. The block names the
    report to make again (the writer's own command, runnable as printed, no prefix to
    complete); its ``run:`` lines pasted in order let the same commit through, and a bare
    ``spot-check --staged`` names that report too."""
    w = native
    w.write("scratch.log", "left by an earlier test run\n")
    w.delegate(text=GOOD)
    w.spot_check()
    r = w.git("commit", "-qam", "agent")
    assert r.code == 1, r
    assert not _lines(r.said, "prefix"), r
    runs = _lines(r.said, "run")
    assert runs[1:] == [
        f"gentle-hook receipt run --staged -- {CHECK_LINE}",
        "gentle-hook spot-check --staged",
    ], r
    assert runs[0].startswith("git add "), r
    alone = w.gh("spot-check", "--staged")
    assert alone.code == 2 and f"receipt run --staged -- {CHECK_LINE}" in alone.err, alone
    for line in runs:
        done = w.run(["sh", "-c", line])
        assert done.code == 0, (line, done)
    assert w.git("commit", "-qam", "agent").code == 0
    assert (w.work / "scratch.log").exists()


def _editable_venv(w: World) -> Path:
    """A virtual environment in the work tree (ignored) with an editable install of
    ``src/`` as pip writes one: a ``.pth`` line naming the work tree's ``src``."""
    w.write(".gitignore", "__pycache__/\n.venv/\n")
    w.ok("add", ".gitignore")
    w.ok("commit", "-q", "-m", "ignore the venv")
    venv = w.work / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "_app_editable.pth").write_text(f"{w.work / 'src'}\n")
    return venv


def test_an_editable_install_in_a_linked_venv_imports_the_candidates_copy(
    native: World,
) -> None:
    """The staged tree is broken, the work tree fixed: the temporary checkout's re-run
    imports the checkout's ``src``, not the work tree's the editable install names."""
    w = native
    venv = _editable_venv(w)
    test = (str(venv / "bin" / "python"), "-c", "import app, sys; sys.exit(app.add(2, 2) != 4)")
    w.write("src/app.py", BROKEN + "# writer\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "src/app.py")
    w.write("src/app.py", GOOD)  # unstaged: the work tree is not the candidate
    r = w.gh("receipt", "run", "--staged", "--", *test)
    assert r.code != 0, r
    assert "its editable install of src imports the checkout's" in r.err
    spot = w.gh("spot-check", "--staged")
    assert spot.code != 0, spot
    assert w.git("commit", "-q", "-m", "writer").code == 1
    w.ok("stash", "push", "--keep-index", "--quiet")  # now the work tree is the candidate
    assert w.gh("receipt", "run", "--staged", "--", *test).code != 0


def test_a_runner_module_the_editable_install_puts_first_in_the_checkout_is_not_re_run(
    native: World,
) -> None:
    """In a temporary checkout the editable install's ``src`` comes first on PYTHONPATH
    (run_env), ahead of the installed pytest: a staged ``src/pytest.py`` printing
    ``2 passed`` would be the re-run's runner, so the spot check refuses the receipt
    naming it (issue 18; the verifier's row D-shadow)."""
    w = native
    venv = _editable_venv(w)
    w.write("src/app.py", BROKEN + "# writer\n")
    w.write("src/pytest.py", 'import sys\nprint("2 passed in 0.01s")\nsys.exit(0)\n')
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "src/app.py", "src/pytest.py")
    w.write("src/app.py", GOOD)  # unstaged: the work tree is not the candidate
    test = (str(venv / "bin" / "python"), "-m", "pytest", "-q")
    assert w.gh("receipt", "run", "--staged", "--", *test).code == 0
    spot = w.gh("spot-check", "--staged")
    assert spot.code == 2, spot
    assert "the change adds or changes src/pytest.py, which defines what it runs" in spot.err
    assert w.git("commit", "-q", "-m", "writer").code == 1
