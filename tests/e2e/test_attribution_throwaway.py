"""Writer work laundered through a throwaway branch stays the writer's (SPEC §3 "Attribution
follows content": cherry-pick neither launders writer work nor attaches it to a human's commit).

Refuter r17p: the agent writes (an ``Edit``, or a ``sed -i`` in one Bash call), then in
another Bash call ``git switch -c tmp && git commit --no-verify -am x && git switch -``: its
work tree is back as it was. Later the person (or the agent) picks the commit into their
branch with ``git cherry-pick tmp`` or ``git cherry-pick HEAD@{1}``: the picked commit holds the
writer's content, so the push is blocked. Real git, ``gentle-hook install``, Claude Code's
documented ``PostToolUse`` (``Edit``) and ``PreToolUse``/``PostToolUse`` (``Bash``) inputs.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.claude_bash import bash_call
from tests.e2e.conftest import World

BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
OLD = "    return VALUE\n"
NEW = "    return apply_discount_rules(VALUE, region_table)\n"
PATH = "src/calc.py"
MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"
THROWAWAY = "git switch -qc tmp && git commit --no-verify -qam x && git switch -q -"


def _edit(w: World) -> None:
    """Claude Code's ``Edit`` of :data:`PATH` (:data:`OLD` -> :data:`NEW`), recorded."""
    file = w.work / PATH
    file.write_text(BASE.replace(OLD, NEW))
    data = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(w.work),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": str(file), "old_string": OLD, "new_string": NEW},
        "tool_response": {"filePath": str(file), "success": True, "originalFile": BASE},
        "tool_use_id": "toolu_e1",
    }
    r = w.gh("record", "--from", "claude-code", input=json.dumps(data).encode(), env=MODEL)
    assert r.code == 0 and "recorded: pending mutation #1" in r.err, r


@pytest.mark.parametrize("pick", ["tmp", "HEAD@{1}"])
@pytest.mark.parametrize("wrote", ["edit", "bash"])
def test_a_cherry_pick_of_the_throwaway_commit_blocks_the_push(
    native: World, wrote: str, pick: str
) -> None:
    w = native
    w.write(PATH, BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    if wrote == "edit":
        _edit(w)
    else:
        said = bash_call(w, SED, "toolu_s1", MODEL)
        assert "recorded: pending mutation #1" in said, said
    bash_call(w, THROWAWAY, "toolu_t1", MODEL)
    assert w.ok("status", "--porcelain") == ""  # the work tree is back as it was
    assert w.ok("rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    w.ok("cherry-pick", pick)
    assert NEW in (w.work / PATH).read_text()
    r = w.git("push", "-q", "origin", "main")
    assert r.code != 0 and any("BLOCKED commit" in line for line in r.said), r


@pytest.mark.parametrize("wrote", ["edit", "bash"])
def test_a_cherry_pick_without_commit_then_the_persons_commit_is_blocked(
    native: World, wrote: str
) -> None:
    """``git cherry-pick -n tmp`` then the person's own ``git commit``: the commit gate sees
    the writer's content in the staged change."""
    w = native
    w.write(PATH, BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    if wrote == "edit":
        _edit(w)
    else:
        bash_call(w, SED, "toolu_s1", MODEL)
    bash_call(w, THROWAWAY, "toolu_t1", MODEL)
    w.ok("cherry-pick", "-n", "tmp")
    r = w.git("commit", "-qm", "human: picked")
    assert r.code == 1 and "BLOCKED the staged change: delegated" in r.said[0], r
