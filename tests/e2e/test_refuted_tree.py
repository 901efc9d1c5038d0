"""A spot check that disagreed refutes only the tree it re-ran (SPEC §5 "Spot check": the
re-run runs "on the candidate's exact tree"; §3 "Binding"; issue 14). Real git,
``gentle-hook install``, real pytest.

The writer's test writes ``out/r.txt`` and cannot run twice in one directory
(``os.mkdir``). Its reported run leaves ``out/`` in the work tree, so ``receipt run`` binds
to the work tree with it too; the default spot check re-runs there and fails. That refutes
the work tree holding ``out/``, and only it: the writer's files alone, staged, were never
re-run, so their commit is blocked for a spot check (``spot-check --staged``, in a clean
checkout of exactly that tree), not refuted; and CI's re-run of the commit agrees.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n"
TEST = (
    "import os\nimport sys\n\nsys.path.insert(0, 'src')\nfrom app import add\n\n\n"
    "def test_add():\n    os.mkdir('out')\n"
    "    open('out/r.txt', 'w').write('ok')\n    assert add(2, 3) == 5\n"
)
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


def _disagreed_in_the_work_tree(w: World) -> None:
    """The writer's change reported (its run left ``out/``), then spot-checked in the work
    tree holding ``out/``: the re-run fails there."""
    w.write("src/app.py", GOOD)
    w.write("tests/test_out.py", TEST)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    made = w.gh("receipt", "run", "--", *PYTEST)
    assert made.code == 0, made
    assert any("the receipt binds to the work tree with them too" in x for x in made.lines), made
    checked = w.gh("spot-check")
    assert checked.code == 1 and checked.err.splitlines()[-1].endswith("DISAGREED"), checked


def test_a_disagreement_in_the_work_tree_does_not_refute_the_staged_files(
    native: World, tmp_path: Path
) -> None:
    w = native
    _disagreed_in_the_work_tree(w)
    w.ok("add", "src/app.py", "tests/test_out.py")  # the staged tree has no out/
    explained = w.gh("status", "--staged", "--explain")
    assert "REFUTED" not in explained.err + explained.out, explained
    assert "spot check #" not in explained.err + explained.out, explained
    blocked = w.git("commit", "-q", "-m", "fix")
    assert blocked.code == 1, blocked
    said = "\n".join(blocked.said)
    assert "refuted" not in said and "no new report or spot check" not in said, said
    assert "gentle-hook spot-check --staged" in said, said
    checked = w.gh("spot-check", "--staged")  # a clean checkout of exactly the staged tree
    assert checked.code == 0, checked
    assert checked.err.splitlines()[-1].endswith(": agreed"), checked
    assert "temporary linked checkout" in checked.out + checked.err, checked
    committed = w.git("commit", "-q", "-m", "fix")
    assert committed.code == 0, committed
    head = w.rev("HEAD")
    pushed = w.git("push", "-q", "origin", "HEAD")
    assert pushed.code == 0, pushed
    assert w.gh("sync", "push").code == 0

    ci = w.ci_clone(tmp_path)
    assert w.rev("HEAD", cwd=ci) == head
    gate = w.gh("gate", "--range", "HEAD~1..HEAD", "--reverify", cwd=ci)
    assert gate.code == 0, gate
    assert "refuted" not in gate.out + gate.err, gate


def test_the_work_tree_the_rerun_failed_in_stays_refuted(native: World) -> None:
    w = native
    _disagreed_in_the_work_tree(w)
    status = w.gh("status")
    assert "spot check: REFUTED (a re-run of this change disagreed)" in status.lines, status
    w.ok("add", "-A")  # out/r.txt too: the very tree the re-run failed in
    staged = w.gh("status", "--staged")
    assert "spot check: REFUTED (a re-run of this change disagreed)" in staged.lines, staged
    blocked = w.git("commit", "-q", "-m", "fix")
    assert blocked.code == 1, blocked
    assert any("this change is refuted, a re-run of it disagreed" in x for x in blocked.said), (
        blocked
    )
