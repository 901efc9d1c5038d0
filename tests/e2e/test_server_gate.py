"""The server and CI gates verify instead of believe (SPEC §8): real pushes to a bare
remote with the pre-receive gate installed.

The notes ref is protected (no deletion, no rewind, every added line schema-checked);
poisoned lines give a rejection or exit 2, never 3.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import gh, git
from tests.integration import test_notes_gate as base
from tests.integration.test_notes_gate import clone, delegated_change, ok, run

server = base.server  # the bare server fixture

NOTES = "refs/notes/gentle-hooks"


def _server_notes(server: Path) -> str:
    return git(server, "rev-parse", NOTES).strip()


def _poison(repo: Path, commit: str, line: str) -> None:
    """Append a raw line to the commit's note, as a careless or malicious hand would."""
    git(repo, "notes", f"--ref={NOTES}", "append", "-m", line, commit)


def test_the_notes_ref_cannot_be_deleted(server: Path) -> None:
    a = clone(server, "a")
    delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    before = _server_notes(server)
    deleted = run(a, "git", "push", "origin", f":{NOTES}")
    assert deleted.returncode == 1, deleted.stderr
    assert f"remote: gentle-hooks: {NOTES}: deleting {NOTES} is refused" in deleted.stderr
    assert _server_notes(server) == before


def test_the_notes_ref_cannot_be_rewound_or_shrunk(server: Path) -> None:
    a = clone(server, "a")
    first = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    delegated_change(a, "def f():\n    return 3\n", spot_check=True)
    ok(run(a, "git", "push"))
    before = _server_notes(server)
    rewound = run(a, "git", "push", "-f", "origin", f"{before}~1:{NOTES}")
    assert rewound.returncode == 1
    assert "a non-fast-forward update of refs/notes/gentle-hooks is refused" in rewound.stderr
    assert "gentle-hook sync push" in rewound.stderr
    # a fast-forward that drops a commit's note is refused too
    git(a, "fetch", "-q", "origin", f"{NOTES}:{NOTES}")
    git(a, "notes", f"--ref={NOTES}", "remove", first)
    shrunk = run(a, "git", "push", "origin", f"{NOTES}:{NOTES}")
    assert shrunk.returncode == 1
    assert f"the note of {first[:12]} is removed: notes only grow" in shrunk.stderr
    assert _server_notes(server) == before


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('{"kind":"escalation","v":1,"item":2}', "escalation: slug is missing"),
        (
            '{"kind":"escalation","v":1,"item":2.0,"slug":"security","reason":"r"}',
            "escalation: item must be an integer 1..6, not 2.0",
        ),
        ("not json at all", "not JSON"),
    ],
    ids=["slug-missing", "item-float", "not-json"],
)
def test_a_poisoned_line_is_rejected_naming_it_alone_or_with_a_branch(
    server: Path, line: str, why: str
) -> None:
    a = clone(server, "a")
    commit = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    before = _server_notes(server)
    _poison(a, commit, line)
    alone = run(a, "git", "push", "origin", f"{NOTES}:{NOTES}")
    assert alone.returncode == 1, alone.stderr
    assert f"note of {commit[:12]} line " in alone.stderr and why in alone.stderr
    assert "REJECTED refs/notes/gentle-hooks" in alone.stderr
    assert "Traceback" not in alone.stderr
    assert _server_notes(server) == before
    # with a branch in the same push: the whole push is refused
    nxt = delegated_change(a, "def f():\n    return 3\n", spot_check=True)
    both = run(a, "git", "push", "origin", "main", f"{NOTES}:{NOTES}")
    assert both.returncode == 1 and why in both.stderr
    assert git(server, "rev-parse", "main").strip() != nxt
    # CI over the same notes: the line counts for nothing, named; exit 0..2, never 3
    gate = gh(a, "gate", "--range", "origin/main..HEAD", "--json")
    assert gate.returncode in (0, 1, 2), gate.stderr
    assert "Traceback" not in gate.stderr
    verdicts = json.loads(gate.stdout)["commits"]
    assert verdicts and all(not v["blocked"] for v in verdicts)
    whole = gh(a, "gate", "--range", "origin/main~1..HEAD")
    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert "note line refused (counts for nothing): line " in whole.stdout
    assert why in whole.stdout


def test_an_explicit_refspec_push_carries_the_notes_to_the_server_and_ci(
    server: Path, tmp_path: Path
) -> None:
    a = clone(server, "a")
    git(a, "switch", "-q", "-c", "topic")
    verified = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    pushed = run(a, "git", "push", "-u", "origin", "topic")
    assert pushed.returncode == 0, pushed.stderr
    assert f"remote: gentle-hooks: ok {verified[:12]} on refs/heads/topic" in pushed.stderr
    assert f"pushed {NOTES} to origin" in pushed.stderr
    assert git(server, "notes", f"--ref={NOTES}", "list", verified).strip()
    # a fresh CI clone, as docs/ci.md fetches it, with no extra command
    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(server), str(ci))
    git(ci, "fetch", "-q", "origin", "+refs/notes/*:refs/notes/*")
    gate = gh(ci, "gate", "--range", "origin/main..origin/topic")
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert f"ok {verified[:12]}" in gate.stdout


def test_pushing_the_notes_ref_alone_is_not_judged_as_code(server: Path) -> None:
    a = clone(server, "a")
    delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    delegated_change(a, "def f():\n    return 3\n", spot_check=True)
    (a / "app.py").write_text("def f():\n    return 4\n", encoding="utf-8")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))  # writer work pending
    notes = run(a, "git", "push", "origin", f"{NOTES}:{NOTES}")
    assert notes.returncode == 0, notes.stderr
    assert f"{NOTES}: the gentle-hooks records themselves, not code" in notes.stderr
    assert "BLOCKED" not in notes.stderr


def test_doctor_finds_a_recorded_commit_without_its_note_and_sync_push_writes_it(
    server: Path,
) -> None:
    a = clone(server, "a")
    commit = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    git(a, "notes", f"--ref={NOTES}", "remove", commit)
    doctor = gh(a, "doctor")
    assert doctor.returncode == 2
    assert (
        f"FAIL  notes: 1 recorded commit(s) without a note (first {commit[:12]}); CI and the "
        "server would block them; write and share them: gentle-hook sync push"
    ) in doctor.stdout
    synced = gh(a, "sync", "push")
    assert synced.returncode == 0, synced.stderr
    assert synced.stdout.startswith("wrote 1 missing note(s); ")
    assert "ok    notes: every recorded commit has its note" in gh(a, "doctor").stdout
    assert git(server, "notes", f"--ref={NOTES}", "list", commit).strip()


@pytest.mark.parametrize(
    ("author", "message"),
    [
        ("Claude Code <claude@anthropic.com>", "change f\n"),
        ("Jane <jane@example.com>", "change f\n\nAssisted-by: Gemini:gemini-2.5-pro\n"),
        ("Jane <jane@example.com>", "change f\n\n🤖 Generated with Claude Code\n"),
        (
            "Devin AI <158243242+devin-ai-integration[bot]@users.noreply.github.com>",
            "change f\n",
        ),
    ],
    ids=["claude-code-author", "assisted-by", "generated-without-link", "devin-author"],
)
def test_an_ai_commit_without_records_is_caught_by_its_markers(
    server: Path, author: str, message: str
) -> None:
    b = clone(server, "b")
    (b / "app.py").write_text("def f():\n    return 7\n", encoding="utf-8")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", f"--author={author}", "-m", message)
    commit = git(b, "rev-parse", "HEAD").strip()
    pushed = run(b, "git", "push", "--no-verify", "origin", "main")
    assert pushed.returncode == 1, pushed.stderr
    assert f"remote: gentle-hooks: BLOCKED {commit[:12]} on refs/heads/main" in pushed.stderr
