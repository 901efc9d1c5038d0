"""A CI ``gate --range --reverify`` whose re-run could not run in the job (SPEC §8; issue 14:
every printed way out gets the user out): the job lacks a module or a program, so the gate
cannot verify the commit and blocks (exit 1), but it names what the job lacks and points to
docs/ci.md, never "refuted" nor "rewrite the branch" (nothing is recorded in CI: the same
commit passes once the job can run its test). A real failure there stays refuted
(tests/e2e/test_refuted.py).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n"

#: What the claimed test does in the CI job (while the flag file exists), one row each.
ROWS = {
    "missing-module": (
        "__import__('gentle_hooks_no_such_module')",
        "the Python module gentle_hooks_no_such_module (not installed there)",
    ),
    "not-found-127": (
        "os.execvp('sh', ['sh', '-c', 'gentle_hooks_no_such_tool'])",
        "the program gentle_hooks_no_such_tool (not on the PATH it ran with)",
    ),
}


def _test(flag: Path, in_ci: str) -> str:
    """A test command that passes, and runs ``in_ci`` instead while ``flag`` exists."""
    code = f"import os, sys; {in_ci} if os.path.exists({str(flag)!r}) else sys.exit(0)"
    return shlex.join((sys.executable, "-c", code))


@pytest.mark.parametrize("row", sorted(ROWS))
def test_a_reverify_the_ci_job_cannot_run_names_what_it_lacks(
    native: World, tmp_path: Path, row: str
) -> None:
    w = native
    flag = tmp_path / "in-ci"
    in_ci, lacks = ROWS[row]
    test = _test(flag, in_ci)
    w.write(".gentle-hooks.toml", f"[verification]\ncommands = {json.dumps([test])}\n")
    w.ok("add", ".gentle-hooks.toml")
    w.ok("commit", "-q", "-m", "config")
    w.ok("push", "-q", "origin", "main")
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *shlex.split(test)).code == 0
    assert w.gh("spot-check", "--staged").code == 0
    w.ok("commit", "-q", "-m", "writer change")
    w.ok("push", "-q", "origin", "HEAD")
    assert w.gh("sync", "push").code == 0
    ci = w.ci_clone(tmp_path)
    flag.write_text("", encoding="utf-8")
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 1, gate  # fails closed: nothing was verified
    text = gate.out + gate.err
    assert "could not re-run here: " in text and f"environment lacks {lacks}" in text, text
    assert "refuted" not in text and "rewrite the branch" not in text, text
    assert "docs/ci.md" in text and "install the project's dependencies" in text, text
    # the way out it prints: the job gets what the command needs, and the same commit passes
    flag.unlink()
    again = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert again.code == 0, again


def test_a_reverify_needing_a_file_git_ignores_names_it_not_refuted(
    native: World, tmp_path: Path
) -> None:
    """Issue 14: the claimed test reads ``local.cfg``, a file the writer's clone has and git
    ignores: the CI clone has none, so the re-run fails. That is what the job lacks, not a
    refutation: "could not re-run here" naming the file; the way out (the file made in the
    job's work tree before the gate) lets the same commit pass."""
    w = native
    test = shlex.join((sys.executable, "-c", "open('local.cfg').read()"))
    w.write(".gitignore", "__pycache__/\n.pytest_cache/\nlocal.cfg\n")
    w.write(".gentle-hooks.toml", f"[verification]\ncommands = {json.dumps([test])}\n")
    w.ok("add", ".gitignore", ".gentle-hooks.toml")
    w.ok("commit", "-q", "-m", "config")
    w.ok("push", "-q", "origin", "main")
    w.write("local.cfg", "token = local\n")
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    assert w.gh("receipt", "run", "--staged", "--", *shlex.split(test)).code == 0
    assert w.gh("spot-check", "--staged").code == 0
    w.ok("commit", "-q", "-m", "writer change")
    w.ok("push", "-q", "origin", "HEAD")
    assert w.gh("sync", "push").code == 0
    ci = w.ci_clone(tmp_path)
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 1, gate  # fails closed: nothing was verified
    text = gate.out + gate.err
    assert "could not re-run here: " in text, text
    assert "environment lacks the file local.cfg, which git ignores" in text, text
    assert "refuted" not in text and "rewrite the branch" not in text, text
    (ci / "local.cfg").write_text("token = ci\n", encoding="utf-8")
    again = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert again.code == 0, again


def test_a_reverify_that_rewrites_a_file_the_run_wrote_names_it_and_counts(
    native: World, tmp_path: Path
) -> None:
    """The reported run writes junit.xml, committed with the change: the local spot check
    counts a re-run rewriting it (the run created it), and so does CI, naming it (a note
    does not say which files the reported run created: docs/ci.md)."""
    w = native
    test = shlex.join(
        (sys.executable, "-c", "import time; open('junit.xml', 'w').write(str(time.time_ns()))")
    )
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.gh("receipt", "run", "--", *shlex.split(test)).code == 0
    assert w.gh("spot-check").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "writer change")
    assert "junit.xml" in w.ok("show", "--name-only", "--format=", "HEAD").split()
    w.ok("push", "-q", "origin", "HEAD")
    assert w.gh("sync", "push").code == 0
    ci = w.ci_clone(tmp_path)
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 0, gate
    text = gate.out + gate.err
    assert "re-run agrees: " in text and "(it rewrote junit.xml, which the commit tracks" in text
