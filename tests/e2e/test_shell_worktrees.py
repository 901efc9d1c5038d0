"""A Claude Code ``Bash`` call that ``cd``s into a linked worktree of the repository records
what it writes there, in that worktree (SPEC §3 "Attribution follows content", §7 "Hooks";
docs/agents/claude-code.md, "What a Bash command writes").

Real git, ``gentle-hook install``, a real ``git worktree add``, a real shell command run
between Claude Code's documented ``PreToolUse`` and ``PostToolUse`` inputs
(code.claude.com/docs/en/hooks, ``tool_name`` ``Bash``, ``tool_input.command``, the same
``tool_use_id``). Refuter r17o: with the payload's ``cwd`` the main worktree and the
command ``cd ../B && sed -i ... app.py``, nothing was recorded (and, with the post-tool
``cwd`` in B, the note said "if it did not run, install the recorder again" though the
``PreToolUse`` hook had run); the person's commit in B passed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.claude_bash import bash_input
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
PATH = "src/calc.py"
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "high"}


def _bash(w: World, command: str, post_cwd: Path, call: str = "toolu_w1") -> str:
    """Claude Code's Bash call of ``command`` started in the main worktree: PreToolUse
    (``cwd`` the main worktree), the command, PostToolUse (``cwd`` ``post_cwd``)."""
    pre = bash_input("PreToolUse", command, w.work, call)
    r = w.gh("record", "--from", "claude-code", input=pre, cwd=w.work)
    assert r.code == 0 and "kept the work tree before the Bash call" in r.err, r
    kept_in_b = "(and in the 1 other worktree(s) of the repository" in r.err
    subprocess.run(["sh", "-c", command], cwd=w.work, check=True)
    post = bash_input("PostToolUse", command, post_cwd, call)
    r = w.gh("record", "--from", "claude-code", input=post, cwd=post_cwd, env=MODEL)
    assert r.code == 0, r
    assert "install the recorder again" not in r.err, r
    return r.err + ("kept in B\n" if kept_in_b else "")


@pytest.fixture
def linked(native: World) -> tuple[World, Path]:
    w = native
    w.write(PATH, BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    other = w.base / "B"
    w.ok("worktree", "add", "-q", str(other), "-b", "b")
    return w, other


def _blocked_delegated(w: World, cwd: Path) -> None:
    r = w.git("commit", "-qam", "human: tidy", cwd=cwd)
    assert r.code == 1, r
    assert "BLOCKED the staged change: delegated (writer content" in r.said[0], r
    assert PATH in r.said[0], r


@pytest.mark.parametrize("post_in", ["main", "linked"])
def test_a_call_that_cds_into_a_linked_worktree_records_there(
    linked: tuple[World, Path], post_in: str
) -> None:
    w, other = linked
    said = _bash(w, f"cd ../B && {SED}", w.work if post_in == "main" else other)
    assert "recorded: pending mutation #1" in said, said
    assert w.ok("status", "--porcelain") == ""  # the main worktree is untouched
    _blocked_delegated(w, other)
    assert "kept in B" in said, "the pre-tool line names the other worktree it kept"


def test_one_call_writing_in_two_worktrees_records_in_each(linked: tuple[World, Path]) -> None:
    """The worktrees share one ledger, where a tool call id records once: each worktree's
    write is recorded all the same, and a replayed post-tool input records nothing."""
    w, other = linked
    command = f"{SED} && cd ../B && {SED}"
    said = _bash(w, command, w.work)
    assert "recorded: pending mutation #1" in said and "pending mutation #2" in said, said
    again = bash_input("PostToolUse", command, w.work, "toolu_w1")
    r = w.gh("record", "--from", "claude-code", input=again, env=MODEL)
    assert r.code == 0 and "was read already" in r.err, r
    _blocked_delegated(w, other)
    _blocked_delegated(w, w.work)
    assert "kept in B" in said, "the pre-tool line names the other worktree it kept"


@pytest.mark.parametrize("post_in", ["main", "created"])
def test_a_worktree_the_call_creates_records_what_it_writes_there(
    native: World, post_in: str
) -> None:
    """Refuter r17p: ``git worktree add ../C -b c && cd ../C && sed -i ...`` in one call: C
    did not exist when the pre-tool snapshot was kept; it is measured from its ``HEAD``,
    so the write is recorded there and the person's commit in C is blocked."""
    w = native
    w.write(PATH, BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    other = w.base / "C"
    command = f"git worktree add -q ../C -b c && cd ../C && {SED}"
    pre = bash_input("PreToolUse", command, w.work, "toolu_c1")
    assert w.gh("record", "--from", "claude-code", input=pre, cwd=w.work).code == 0
    subprocess.run(["sh", "-c", command], cwd=w.work, check=True)
    where = w.work if post_in == "main" else other
    post = bash_input("PostToolUse", command, where, "toolu_c1")
    r = w.gh("record", "--from", "claude-code", input=post, cwd=where, env=MODEL)
    assert r.code == 0 and "recorded: pending mutation #1" in r.err, r
    assert "the worktree" in r.err and "created" in r.err, r
    _blocked_delegated(w, other)
