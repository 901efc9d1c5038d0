"""A block printed after ``git -C REPO commit`` typed from outside the work tree binds every
command it prints to the repository (``cd <top> && ...``, :mod:`gentle_hooks.hooks.elsewhere`):
pasted literally where the user is, each line runs in the repository, not in the user's
directory (not a repository, or another one, whose files a bare ``git add`` would stage)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.e2e.conftest import Run, World, paste_first_way

CHECK = (sys.executable, "-B", "-c", "import sys; sys.path.insert(0, 'src'); import app")
WRITER = "def add(a, b):\n    return a + b  # writer\n"


def _typed(w: World, line: str, where: Path) -> Run:
    """``line`` typed in an interactive shell in ``where`` (which exports ``PWD``)."""
    return w.run(["sh", "-c", line], cwd=where, env={"PWD": str(where)})


def _commands(said: list[str]) -> list[str]:
    words = [line.removeprefix("gentle-hooks:").strip() for line in said]
    return [w.split(": ", 1)[1] for w in words if w.startswith(("run: ", "prefix: "))]


def test_a_block_after_git_dash_c_from_outside_runs_as_pasted_there(native: World) -> None:
    w = native
    w.write("src/app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    outside = w.base  # holds the work tree; no repository itself
    typed = f"git -C {shlex.quote(w.work.name)} commit -qm writer"
    blocked = _typed(w, typed, outside)
    assert blocked.code == 1, blocked
    top = f"cd {shlex.quote(str(w.work))} && "
    commands = _commands(blocked.said)
    assert commands and all(c.startswith(top) for c in commands), blocked
    paste_first_way(w, blocked.said, outside, shlex.join(CHECK))
    assert _typed(w, typed, outside).code == 0


def test_commit_a_typed_inside_another_repository_never_stages_its_files(native: World) -> None:
    w = native
    other = w.base / "other"
    other.mkdir()
    w.ok("init", "-q", cwd=other)
    w.write("src/app.py", "the other repository's own file\n", cwd=other)
    w.write("src/app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    typed = f"git -C {shlex.quote(str(w.work))} commit -a -qm writer"
    blocked = _typed(w, typed, other)
    assert blocked.code == 1, blocked
    commands = _commands(blocked.said)
    assert any("git add" in c for c in commands), blocked
    assert all(c.startswith(f"cd {shlex.quote(str(w.work))} && ") for c in commands), blocked
    paste_first_way(w, blocked.said, other, shlex.join(CHECK))
    assert w.ok("status", "--porcelain", cwd=other) == "?? src/\n"  # nothing staged there
    assert _typed(w, typed, other).code == 0


def test_a_block_typed_in_the_work_tree_prints_its_commands_unbound(native: World) -> None:
    w = native
    w.write("src/app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    blocked = _typed(w, "git commit -qm writer", w.work / "src")
    assert blocked.code == 1, blocked
    assert not any(c.startswith("cd ") for c in _commands(blocked.said)), blocked


def test_the_json_then_run_after_git_dash_c_from_outside_is_bound_as_the_text(
    native: World,
) -> None:
    """A merge blocked after ``git -C REPO merge`` typed from outside: the JSON decision's
    ``then_run`` (``git commit --no-edit``) starts with ``cd <top> &&``, as the text's
    ``run:`` line of it does, so it concludes the merge in the repository, pasted there."""
    w = native
    w.ok("switch", "-q", "-c", "topic")
    w.write("src/app.py", WRITER)
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "--no-verify", "-m", "writer")
    w.ok("switch", "-q", "main")
    w.write("README.md", "# demo, main moved on\n")
    w.ok("commit", "-qam", "human: readme")
    outside = w.base
    typed = (
        f"GENTLE_HOOKS_FORMAT=json git -C {shlex.quote(w.work.name)} merge --no-ff --no-edit topic"
    )
    blocked = _typed(w, typed, outside)
    assert blocked.code != 0, blocked
    decision = json.loads(next(x for x in blocked.lines if x.startswith("{")))
    top = f"cd {shlex.quote(str(w.work))} && "
    assert decision["then_run"] == [f"{top}git commit --no-edit"], decision
    said = [x for x in decision["lines"] if x.strip() == f"run: {top}git commit --no-edit"]
    assert said, decision["lines"]
