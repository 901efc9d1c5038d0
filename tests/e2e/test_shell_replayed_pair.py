"""A replayed pre-tool/post-tool pair of a shell call already read records nothing: a
person's edit made between the replayed inputs stays the person's (SPEC §3 "Attribution
follows content", §6 "a replay records once"; issue 17, refuter r17s finding 2).

Codex's inputs: tests/fixtures/agents/shell.json (its ``tool_use_id``, openai/codex hook
schemas named there); Claude Code's: tests/e2e/claude_bash.py (hooks reference). Both name
the tool call id both events share, so the post-tool input that read the call's snapshot
settles that call: its replay, and a replayed pre-tool input before it, keep and record
nothing, whether the call changed no file or recorded what it wrote.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agent_payloads import shell_inputs
from tests.e2e.claude_bash import bash_input
from tests.e2e.conftest import World

BIN = str(Path(sys.executable).parent)
PATH = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
#: (what the call runs, what its first post-tool input says)
CALLS = {
    "changed no file": ("ls", "nothing recorded: "),
    "recorded": ("echo 'WRITER = 2' >> src/app.py", "recorded: pending mutation #1: "),
}


def _inputs(name: str, w: World, command: str) -> tuple[bytes, bytes]:
    if name == "codex":
        before, after, _ = shell_inputs("codex", w.work, command)
        return before, after
    pair = (bash_input(e, command, w.work, "toolu_9") for e in ("PreToolUse", "PostToolUse"))
    return tuple(pair)  # type: ignore[return-value]


def _pending(w: World) -> list[tuple[object, ...]]:
    """The pending mutations the ledger holds (none: no ledger yet)."""
    if not (w.work / ".git" / "gentle-hooks" / "ledger.sqlite3").exists():
        return []
    return w.ledger("SELECT id, tool_call_id, paths FROM pending_mutation ORDER BY id")


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("name", ["codex", "claude-code"])
def test_a_replayed_pair_records_nothing_and_the_persons_edit_stays_theirs(
    name: str, call: str, native: World
) -> None:
    w = native
    command, first = CALLS[call]
    before, after = _inputs(name, w, command)
    assert w.gh("record", "--from", name, input=before, env=PATH).code == 0
    subprocess.run(["sh", "-c", command], cwd=w.work, check=True)
    r = w.gh("record", "--from", name, input=after, env=PATH)
    assert r.code == 0 and r.err.startswith(first), r
    pending = _pending(w)
    # the pair replayed, a person's edit between its inputs
    again = w.gh("record", "--from", name, input=before, env=PATH)
    assert again.code == 0 and again.err.startswith("nothing recorded: "), again
    assert "was read already" in again.err and "kept the work tree" not in again.err, again
    w.write("person.txt", "person = 1\n")
    replay = w.gh("record", "--from", name, input=after, env=PATH)
    assert replay.code == 0 and replay.err.startswith("nothing recorded: "), replay
    assert "was read already" in replay.err, replay
    assert _pending(w) == pending
    w.ok("add", "person.txt")
    passed = w.git("commit", "-m", "person")
    assert passed.code == 0, passed
