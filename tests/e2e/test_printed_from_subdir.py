"""Every command a gate prints runs as printed from the directory the user is in (SPEC §7).

Each test works in ``src/`` of a world with ``gentle-hook install``: it meets a block there
(commit gate, push gate, ``status``, ``gate --range``), pastes every ``run:`` line literally
with ``sh -c`` from ``src/`` (a ``prefix:`` line completed with the writer's test command:
a hook's prefix names the repository top with ``--cwd``, so the command is the top's; the
prefix of ``status`` and ``gate --range`` runs where it is pasted, so it names ``app.py``
relative to ``src/``; a recorded report re-run names the directory it ran in), and the
same git command then gets through. A block ends by saying to run the same git command
again.
"""

from __future__ import annotations

import shlex
import sys

from tests.e2e.conftest import Run, World, paste_first_way

GOOD = "def add(a, b):\n    return a + b  # from src\n"
#: A report made at the top: it runs ``src/app.py`` by its path from there, so it fails
#: anywhere else.
CHECK = (sys.executable, "-c", "import runpy; runpy.run_path('src/app.py')")
#: The writer's test in ``src/``, where the user pastes a ``prefix:`` line: it fails elsewhere.
HERE = (sys.executable, "-c", "import runpy; runpy.run_path('app.py')")


def _paste(
    world: World, out: list[str], where_from: str = "src", test: tuple[str, ...] = HERE
) -> list[str]:
    """:func:`~tests.e2e.conftest.paste_first_way` of ``out`` in ``where_from``."""
    return paste_first_way(world, out, world.work / where_from, shlex.join(test))


def _error_commands(r: Run) -> list[str]:
    """The ``; run:`` commands of an error's one line."""
    return [seg.split(": ", 1)[1] for seg in r.err.strip().split("; ") if seg.startswith("run: ")]


def test_commit_gate_block_pasted_in_a_subdirectory(native: World) -> None:
    w = native
    sub = w.work / "src"
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    assert w.gh("receipt", "run", "--", *CHECK).code == 0  # at the top, for the snapshot
    w.write("src/extra.py", "X = 1\n")  # the writer adds a file: the report binds elsewhere
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "writer", cwd=sub)
    assert blocked.code == 1, blocked
    assert blocked.said[-2] == (
        "gentle-hooks: after that, run the same git commit again: the gate judges it again"
    )
    ran = _paste(w, blocked.said)
    assert any("receipt run" in c for c in ran), ran
    assert w.git("commit", "-m", "writer", cwd=sub).code == 0


def test_push_gate_block_pasted_in_a_subdirectory(native: World) -> None:
    w = native
    sub = w.work / "src"
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: unverified")
    blocked = w.git("push", "origin", "main", cwd=sub)
    assert blocked.code == 1, blocked
    assert blocked.said[-2] == (
        "gentle-hooks: after that, run the same git push again: the gate judges it again"
    )
    assert f"gentle-hooks:   prefix: gentle-hook receipt run --cwd {w.work} --committed --" in (
        blocked.said
    ), blocked
    _paste(w, blocked.said, test=CHECK)
    assert w.git("push", "origin", "main", cwd=sub).code == 0


def test_status_pasted_in_a_subdirectory(native: World) -> None:
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    status = w.gh("status", cwd=w.work / "src")
    assert "gate: applies (would block)" in status.out.splitlines(), status
    _paste(w, status.out.splitlines())
    again = w.gh("status", cwd=w.work / "src")
    assert "gate: applies (would pass)" in again.out.splitlines(), again


def test_gate_range_block_pasted_in_a_subdirectory(native: World) -> None:
    w = native
    sub = w.work / "src"
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: unverified")
    gate = w.gh("gate", "--range", "origin/main..HEAD", cwd=sub)
    assert gate.code == 1, gate
    _paste(w, gate.out.splitlines())
    assert w.gh("gate", "--range", "origin/main..HEAD", cwd=sub).code == 0, gate


def test_gate_range_block_pasted_in_a_directory_the_commit_does_not_have(native: World) -> None:
    """The ``prefix:`` line of a block verified in a worktree of its own runs the writer's
    command in the worktree's copy of the directory the user is in; pasted from an untracked
    ``d/`` the commit has no copy of, it runs at the worktree's top instead (refuter r14a
    F3: "…/verify-<c>/d: no such directory")."""
    w = native
    w.write("src/app.py", GOOD)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer: unverified")
    (w.work / "d").mkdir()
    assert w.ok("ls-tree", "-d", "HEAD", "d") == ""  # the commit has no d/
    gate = w.gh("gate", "--range", "origin/main..HEAD", cwd=w.work / "d")
    assert gate.code == 1, gate
    ran = _paste(w, gate.out.splitlines(), "d", CHECK)
    assert any(" receipt run --committed --cwd " in c for c in ran), ran
    assert w.gh("gate", "--range", "origin/main..HEAD", cwd=w.work / "d").code == 0


def test_spot_check_error_names_where_the_report_ran(native: World) -> None:
    # a failed report made in src/: the spot check's error line names the report again with
    # --cwd src, so it runs the same pasted from the top or from another directory
    w = native
    sub = w.work / "src"
    w.write("src/app.py", "def add(a, b):\n    return a - b\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    test = ["python3", "-c", "assert __import__('app').add(2, 2) == 4"]  # imports from cwd
    assert w.gh("receipt", "run", "--", *test, cwd=sub).code == 1
    w.write("src/app.py", GOOD)
    refused = w.gh("spot-check", "--receipt", "1", cwd=w.work / "tests")
    assert refused.code == 2, refused
    commands = _error_commands(refused)
    assert commands[0].startswith(f"gentle-hook receipt run --cwd {sub} "), refused
    for cmd in commands:
        done = w.run(["sh", "-c", cmd], cwd=w.work / "tests")
        assert done.code == 0, (cmd, done)


def test_a_hooks_prefix_runs_the_writers_test_at_the_top_and_says_so(native: World) -> None:
    # the commit gate's prefix names the top with --cwd (git ran the hook there), whatever
    # directory it is pasted in; a failing test completed after it is recorded as run at
    # the top, failing, and the commit stays blocked
    w = native
    sub = w.work / "pkg" / "sub"
    w.write("pkg/sub/m.py", "def f():\n    return 4\n")
    w.write(
        "pkg/sub/test_m.py",
        "import unittest\nimport m\n\n\nclass T(unittest.TestCase):\n"
        "    def test_f(self):\n        self.assertEqual(m.f(), 5)\n",
    )
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", cwd=sub).code == 0
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "broken", cwd=sub)
    assert blocked.code == 1, blocked
    prefixes = [line.split("prefix: ", 1)[1] for line in blocked.said if "prefix: " in line]
    assert prefixes == [f"gentle-hook receipt run --cwd {w.work} --staged --"], blocked
    assert any(f"it runs in {w.work}, the repository top" in line for line in blocked.said)
    test = shlex.join((sys.executable, "-c", "import runpy; runpy.run_path('pkg/sub/test_m.py')"))
    pasted = w.run(["sh", "-c", f"{prefixes[0]} {test}"], cwd=sub)
    assert pasted.code == 1, pasted
    assert w.ledger("SELECT exit_code, cwd FROM receipt ORDER BY id DESC LIMIT 1") == [(1, ".")]
    assert w.gh("spot-check", "--staged", cwd=sub).code != 0
    assert w.git("commit", "-qm", "broken", cwd=sub).code == 1
