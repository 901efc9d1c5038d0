"""Cursor's ``afterFileEdit`` names no tool call: two distinct edits with the same old and
new text in one generation are two calls (the file differs after each), while the same
input delivered again with the file unchanged records once (SPEC §6 "a replay records
once"; refuter r17z)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.conftest import gh


def _edit(repo: Path) -> str:
    return json.dumps(
        {
            "conversation_id": "conv-1",
            "generation_id": "gen-1",
            "model": "claude-sonnet-4-5",
            "hook_event_name": "afterFileEdit",
            "cursor_version": "1.7.0",
            "workspace_roots": [str(repo)],
            "file_path": str(repo / "src" / "app.py"),
            "edits": [{"old_string": "a + b", "new_string": "a - b"}],
        }
    )


def test_two_identical_edits_in_one_generation_record_twice_and_a_replay_once(
    repo: Path,
) -> None:
    assert gh(repo, "install").returncode == 0
    app = repo / "src" / "app.py"
    app.write_text("def add(a, b):\n    return a - b\n\n\ndef add2(a, b):\n    return a + b\n")
    first = gh(repo, "record", "--from", "cursor", input=_edit(repo))
    assert first.stderr.startswith("recorded: pending mutation #1: "), first.stderr
    again = gh(repo, "record", "--from", "cursor", input=_edit(repo))
    assert "is recorded already (mutation #1)" in again.stderr, again.stderr
    # the same replacement made a second time, on the next occurrence
    app.write_text("def add(a, b):\n    return a - b\n\n\ndef add2(a, b):\n    return a - b\n")
    second = gh(repo, "record", "--from", "cursor", input=_edit(repo))
    assert second.stderr.startswith("recorded: pending mutation #2: "), second.stderr
    replay = gh(repo, "record", "--from", "cursor", input=_edit(repo))
    assert "is recorded already (mutation #2)" in replay.stderr, replay.stderr


def _payload(name: str, repo: Path) -> str:
    """One call replacing ``a + b`` with ``a - b`` in src/app.py, in runtime ``name``'s
    documented input (tests/fixtures/agents/NAME.json names the sources)."""
    path = str(repo / "src" / "app.py")
    if name == "cursor":
        return _edit(repo)
    if name == "kiro":
        return json.dumps(
            {
                "hook_event_name": "PostToolUse",
                "cwd": str(repo),
                "tool_name": "fs_write",
                "tool_input": {
                    "command": "str_replace",
                    "path": path,
                    "old_str": "a + b",
                    "new_str": "a - b",
                },
                "tool_response": {"success": True, "result": ["Successfully replaced text"]},
            }
        )
    return json.dumps(
        {
            "hook_event_name": "PostToolUse",
            "conversation_id": "aug-conv-1",
            "workspace_roots": [str(repo)],
            "tool_name": "str-replace-editor",
            "tool_input": {
                "command": "str_replace",
                "path": "src/app.py",
                "old_str_1": "a + b",
                "new_str_1": "a - b",
            },
            "tool_output": "Successfully edited the file src/app.py",
            "tool_error": None,
            "file_changes": [{"path": "src/app.py"}],
            "context": {"modelName": "claude-sonnet-4-5"},
        }
    )


def _ledger(repo: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        calls = conn.execute("SELECT id, tool_call_id FROM pending_mutation").fetchall()
        rows = conn.execute("SELECT mutation_id, path, blob FROM writer_entry").fetchall()
    return calls, rows


THREE = (
    "def f(a, b):\n    return {}\n\n\ndef g(a, b):\n    return {}\n\n\n"
    "def h(a, b):\n    return {}\n"
)


@pytest.mark.parametrize("name", ["cursor", "kiro", "augment"])
def test_each_identical_edit_records_and_a_person_edit_between_is_never_the_writers(
    name: str, repo: Path
) -> None:
    """Three identical replacements in one file, each replayed: three calls, each replay
    once; then a person's edit and the same input again: nothing is recorded, and the
    person's content is no entry of the writer's."""
    app = repo / "src" / "app.py"
    counts = []
    for done in range(1, 4):
        app.write_text(THREE.format(*(["a - b"] * done + ["a + b"] * (3 - done))))
        proc = gh(repo, "record", "--from", name, input=_payload(name, repo))
        assert proc.stderr.startswith(f"recorded: pending mutation #{done}: "), proc.stderr
        again = gh(repo, "record", "--from", name, input=_payload(name, repo))
        assert f"is recorded already (mutation #{done})" in again.stderr, again.stderr
        counts.append(len(_ledger(repo)[0]))
    assert counts == [1, 2, 3]
    calls, rows = _ledger(repo)
    first = str(calls[0][1])
    assert [c[1] for c in calls] == [first, f"{first}+1", f"{first}+1+2"]
    assert [(m, p) for m, p, _ in rows] == [(1, "src/app.py"), (2, "src/app.py"), (3, "src/app.py")]
    # a person's edit, and the runtime delivers the last input once more
    app.write_text(THREE.format("a - b", "a - b", "a - b") + "# the person's note\n")
    late = gh(repo, "record", "--from", name, input=_payload(name, repo))
    assert "is recorded already (mutation #3)" in late.stderr, late.stderr
    assert _ledger(repo) == (calls, rows)


@pytest.mark.parametrize("name", ["cursor", "kiro", "augment"])
def test_a_person_making_another_edit_is_not_explained_by_the_call(name: str, repo: Path) -> None:
    """The file differs from what the first call left, but not by its replacement made once
    more (the person replaced the other occurrence by hand with something else): a replay,
    never a new call carrying the person's line."""
    app = repo / "src" / "app.py"
    app.write_text(THREE.format("a - b", "a + b", "a + b"))
    assert gh(repo, "record", "--from", name, input=_payload(name, repo)).returncode == 0
    app.write_text(THREE.format("a - b", "a * b", "a + b"))
    again = gh(repo, "record", "--from", name, input=_payload(name, repo))
    assert "is recorded already (mutation #1)" in again.stderr, again.stderr
    assert len(_ledger(repo)[0]) == 1


@pytest.mark.parametrize("name", ["cursor", "kiro", "augment"])
def test_the_same_edit_after_a_persons_edit_is_a_new_call_without_the_persons_lines(
    name: str, repo: Path
) -> None:
    """A person edits another part of the file between two identical replacements: the
    second is a new call (its replacement made once more, in lines of its own), measured
    from the file as the person left it, so the person's line is no entry of the writer's;
    the same input once more is a replay."""
    app = repo / "src" / "app.py"
    app.write_text(THREE.format("a - b", "a + b", "a + b"))
    assert gh(repo, "record", "--from", name, input=_payload(name, repo)).returncode == 0
    person = "# the person's header\n" + THREE.format("a - b", "a + b", "a + b")
    app.write_text(person)
    app.write_text("# the person's header\n" + THREE.format("a - b", "a - b", "a + b"))
    second = gh(repo, "record", "--from", name, input=_payload(name, repo))
    assert second.stderr.startswith("recorded: pending mutation #2: "), second.stderr
    replay = gh(repo, "record", "--from", name, input=_payload(name, repo))
    assert "is recorded already (mutation #2)" in replay.stderr, replay.stderr
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        [(start, added)] = conn.execute(
            "SELECT before_blob, added FROM writer_entry WHERE mutation_id = 2"
        ).fetchall()
    shown = subprocess.run(
        ["git", "cat-file", "blob", start], cwd=repo, capture_output=True, text=True, check=True
    )
    assert shown.stdout == person  # measured from the file as the person left it
    # line keys are by content: the replaced line's text is in the file already, and the
    # person's header is not the writer's (measured from HEAD's side it would be)
    assert json.loads(added) == []
