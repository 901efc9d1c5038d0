"""The push gate records a writer commit made with hooks off (SPEC §3 "Attribution follows
content", §7, §8): real git, ``gentle-hook install``, a bare remote with the server gate
(``install --server``) and notes shared (``install --share origin``).

A writer's commit made with ``core.hooksPath=/dev/null`` has no commit record and no note.
The pre-push gate blocks it from its content, and records it as post-commit would have
(the ledger and a note under ``refs/notes/gentle-hooks``) before blocking, so ``git push
--no-verify`` (which sends the shared notes too) meets a server gate that reads the
commit's writer from that note and rejects it; ``gate --range`` says the same.
"""

from __future__ import annotations

from tests.e2e.conftest import World

GOOD = "def add(a, b):\n    return a + b  # writer\n\n\ndef audit(x):\n    return check_all(x)\n"


def test_a_hooks_off_writer_commit_is_recorded_by_the_push_gate_that_blocks_it(
    native: World,
) -> None:
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text=GOOD)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "agent, hooks off")
    commit = w.rev("HEAD")
    assert w.git("notes", "--ref", "gentle-hooks", "show", commit).code != 0
    push = w.git("push", "origin", "main")
    assert push.code == 1 and any(f"BLOCKED commit {commit[:12]}" in s for s in push.said), push
    assert any(f"recorded {commit[:12]} as delegated" in s for s in push.said), push
    note = w.ok("notes", "--ref", "gentle-hooks", "show", commit)
    assert '"kind":"writer"' in note, note
    assert w.ledger("SELECT hook FROM commit_record WHERE commit_id = ?", [commit]) == [
        ("pre-push",)
    ]
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 1 and f"BLOCKED {commit[:12]}" in ci.out + ci.err, ci
    before = w.remote_ref("main")
    server = w.git("push", "--no-verify", "origin")
    assert server.code != 0, server
    assert f"remote: gentle-hooks: BLOCKED {commit[:12]}" in server.err, server
    assert w.remote_ref("main") == before
    # a second push finds the record and blocks alike, without recording again
    again = w.git("push", "origin", "main")
    assert again.code == 1 and not [s for s in again.said if "as delegated" in s], again
