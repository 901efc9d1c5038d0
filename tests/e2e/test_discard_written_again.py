"""The writer writing its content again after ``git reset --hard`` threw it away is a new
write (SPEC §3 "Attribution follows content", "Pending work ends cleanly"; issue 13,
refuter r13t MED 3): recorded and gated like the first, never a person's retyping that a
``discard`` may claim.

Real git, ``gentle-hook install``, Claude Code's ``PostToolUse`` input of a ``Write``
(``tool_response.originalFile``: the file just before the call) through ``gentle-hook
record --from claude-code``. The first write is recorded; ``git reset --hard`` throws it
away; the writer's second ``Write`` of the same content, from ``HEAD``'s file, said "no
path differs from where the writer started" (its last write was taken as the start) and
recorded nothing, so the block offered the ``human:`` discard of the first entry and it
was accepted. Now the second write is recorded, the commit is blocked with no ``human:``
offer and a discard is refused; the spot check is the way through. A person who types the
content again after the reset (no writer call) still has the one-paste discard
(tests/e2e/test_discard_retyped.py).
"""

from __future__ import annotations

import json

from tests.e2e.conftest import World
from tests.e2e.written_again import BASE, PATH, WRITER, gated_until_spot_checked

MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}


def _write(w: World, call: str) -> str:
    """Claude Code's ``Write`` of :data:`WRITER` over the file as it is (its
    ``originalFile``), recorded; what the recorder said."""
    file = str(w.work / PATH)
    original = (w.work / PATH).read_text(encoding="utf-8")
    w.write(PATH, WRITER)
    data = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(w.work),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": file, "content": WRITER},
        "tool_response": {
            "type": "update",
            "filePath": file,
            "content": WRITER,
            "structuredPatch": [],
            "originalFile": original,
        },
        "tool_use_id": call,
    }
    r = w.gh("record", "--from", "claude-code", input=json.dumps(data).encode(), env=MODEL)
    assert r.code == 0, r
    return r.out + r.err


def test_the_writer_writing_again_after_a_hard_reset_is_recorded_and_gated(
    native: World,
) -> None:
    w = native.serve({PATH: BASE})
    assert "recorded: pending mutation #1" in _write(w, "toolu_1")
    w.ok("reset", "-q", "--hard")
    said = _write(w, "toolu_2")
    assert "no path differs" not in said, said
    assert "recorded: pending mutation #2" in said, said
    gated_until_spot_checked(w, "claude-sonnet-4-5/low")


def test_a_person_typing_it_again_after_the_reset_keeps_the_one_paste_discard(
    native: World,
) -> None:
    w = native.serve({PATH: BASE})
    assert "recorded: pending mutation #1" in _write(w, "toolu_1")
    w.ok("reset", "-q", "--hard")
    w.write(PATH, WRITER)  # typed again by a person: no writer call
    w.ok("add", "-A")
    blocked = w.git("commit", "-qm", "human: typed by me")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
    offered = [s for s in blocked.said if "human: " in s and " discard " in s]
    assert len(offered) == 1, blocked
    done = w.run(["sh", "-c", offered[0].split("human: ", 1)[1]])
    assert done.code == 0, done
    passed = w.git("commit", "-qm", "human: typed by me")
    assert passed.code == 0, passed
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")
