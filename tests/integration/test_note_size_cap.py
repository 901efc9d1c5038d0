"""A note over the cap on a note is never read (issue 16, refuter r16z): the notes ref is
shared, and a 300 MB note line made ``gate --range`` take 19.5 s and 1.2 GB, a 183 MB one
made pre-receive run past its bound. Such a note counts for nothing, as a refused line
does, and its commit reads as delegated (fail closed); pre-receive refuses it unread; the
hook's time bound is checked inside a commit's work too.

Real repositories: a bare server with the installed pre-receive gate, a clone pushing to it.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from gentle_hooks.errors import UsageError
from tests.conftest import git
from tests.integration.test_hostile_inputs import hostile, strict_json
from tests.integration.test_notes_gate import clone, delegated_change, server

__all__ = ["server"]  # the bare server fixture

NOTES = "refs/notes/gentle-hooks"
CAP = "4096"  # GENTLE_HOOKS_NOTE_BYTES: the cap lowered, so a note over it is a few kB


def _note(repo: Path, commit: str) -> bytes:
    return subprocess.run(
        ["git", "notes", "--ref", NOTES, "show", commit], cwd=repo, capture_output=True, check=True
    ).stdout


def _pad(repo: Path, commit: str, size: int) -> bytes:
    """The commit's note with one refused line added, so it holds ``size`` bytes or more:
    read, it still verifies the commit (the line counts for nothing)."""
    note = _note(repo, commit)
    line = json.dumps({"v": 1, "kind": "padding", "text": "x" * max(size - len(note), 0)})
    padded = note + line.encode() + b"\n"
    git(repo, "notes", f"--ref={NOTES}", "add", "-f", "-F", "-", commit, input=padded)
    return padded


def _push(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "push", "--no-verify", "origin", "HEAD", NOTES],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_a_note_over_the_cap_counts_for_nothing_in_the_range_gate(server: Path) -> None:
    b = clone(server, "b")
    commit = delegated_change(b, "def f():\n    return 2\n", spot_check=True)
    padded = _pad(b, commit, 6000)
    assert len(padded) > int(CAP)
    within = hostile(b, "gate", "--range", "origin/main..HEAD")
    assert within.returncode == 0, within.stderr  # under the default cap it is read
    over = hostile(b, "gate", "--range", "origin/main..HEAD", env={"GENTLE_HOOKS_NOTE_BYTES": CAP})
    err = over.stdout.decode()
    assert over.returncode == 1, err  # fail closed: delegated, no note that counts
    assert f"BLOCKED {commit[:12]}" in err, err
    said = f"the note of {commit[:12]} in {NOTES} holds {len(padded):,} bytes, over the 4,096-byte"
    assert said in err and err.count("over the 4,096-byte cap") == 1, err
    as_json = hostile(
        b,
        "gate",
        "--range",
        "origin/main..HEAD",
        "--json",
        env={"GENTLE_HOOKS_NOTE_BYTES": CAP},
    )
    [verdict] = strict_json(as_json.stdout)["commits"]  # type: ignore[index]
    assert verdict["blocked"] and verdict["delegated"], verdict
    assert any("4,096-byte cap" in x for x in verdict["refused_lines"]), verdict


def test_a_note_over_the_default_cap_is_not_read(server: Path) -> None:
    """A 1.5 MB note under the default 1 MiB cap: blocked, one line naming the cap."""
    b = clone(server, "b")
    commit = delegated_change(b, "def f():\n    return 3\n", spot_check=True)
    padded = _pad(b, commit, 3 << 19)
    start = time.monotonic()
    over = hostile(b, "gate", "--range", "origin/main..HEAD")
    err = over.stdout.decode()
    assert over.returncode == 1, err
    assert f"holds {len(padded):,} bytes, over the 1,048,576-byte cap on a note" in err, err
    assert time.monotonic() - start < 20


def test_a_human_commit_with_a_note_over_the_cap_is_judged_as_delegated(server: Path) -> None:
    """The unread note may hold a writer line: the commit needs a note that counts."""
    b = clone(server, "b")
    (b / "app.py").write_text("def f():\n    return 4\n")
    git(b, "commit", "-qam", "a person's change")
    commit = git(b, "rev-parse", "HEAD").strip()
    writer = json.dumps({"v": 1, "kind": "writer", "model": "o4-mini", "effort": "low"})
    git(b, "notes", f"--ref={NOTES}", "add", "-f", "-m", writer + "\n" + "y" * 5000, commit)
    over = hostile(b, "gate", "--range", "origin/main..HEAD", env={"GENTLE_HOOKS_NOTE_BYTES": CAP})
    assert over.returncode == 1, over.stderr
    assert b"over the 4,096-byte cap" in over.stdout, over.stdout


def test_pre_receive_refuses_a_pushed_note_over_the_cap_unread(server: Path) -> None:
    b = clone(server, "b")
    commit = delegated_change(b, "def f():\n    return 5\n", spot_check=True)
    ok = _push(b, {"GENTLE_HOOKS_NOTE_BYTES": CAP})
    assert ok.returncode == 0, ok.stderr  # within the cap: accepted
    _pad(b, commit, 6000)
    over = _push(b, {"GENTLE_HOOKS_NOTE_BYTES": CAP})
    assert over.returncode == 1, over.stderr
    assert f"the note of {commit[:12]} in {NOTES} holds " in over.stderr, over.stderr
    assert "over the 4,096-byte cap on a note: not read" in over.stderr, over.stderr
    assert "REJECTED refs/notes/gentle-hooks" in over.stderr, over.stderr
    assert "Traceback" not in over.stderr and "unexpected error" not in over.stderr
    # read at the default cap, the padding line is a line the schema refuses: refused too
    read = _push(b, {})
    assert read.returncode == 1 and "line " in read.stderr, read.stderr
    assert "cap on a note" not in read.stderr, read.stderr


def test_the_hook_bound_is_checked_while_pushed_notes_are_checked(server: Path) -> None:
    """pre-receive's bound stops the notes check itself, not only the commits after it."""
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.notes.guard import check_notes_update

    b = clone(server, "b")
    delegated_change(b, "def f():\n    return 6\n", spot_check=True)
    new = git(b, "rev-parse", NOTES).strip()
    calls: list[int] = []

    def in_time() -> None:
        calls.append(1)
        raise UsageError("past the bound")

    with pytest.raises(UsageError, match="past the bound"):
        check_notes_update(Repository.open(str(b)), "0" * 40, new, in_time)
    assert calls == [1]


def test_the_hook_bound_is_checked_before_each_candidate_of_a_commit(server: Path) -> None:
    """A note may hold many candidate lines for one commit, each judged in full: the bound
    is checked before each, not once per commit."""
    from gentle_hooks.config.load import load_config
    from gentle_hooks.git.repository import Repository
    from gentle_hooks.hooks.judgement import judge_commits

    b = clone(server, "b")
    commit = delegated_change(b, "def f():\n    return 7\n", spot_check=False)
    repo = Repository.open(str(b))
    config = load_config(repo.paths.toplevel, repo.gentle_config(), {})

    def checks() -> int:
        calls: list[str] = []
        [verdict] = judge_commits(
            repo, config, [commit], "r", [NOTES], None, lambda: calls.append("")
        )
        assert verdict.blocked  # every candidate judged, none verified
        return len(calls)

    one = checks()
    [cand] = [json.loads(x) for x in _note(b, commit).splitlines() if b'"candidate"' in x]
    extra = [json.dumps({**cand, "commit": f"{i:040x}"}, sort_keys=True) for i in range(3)]
    more = _note(b, commit) + "".join(x + "\n" for x in extra).encode()
    git(b, "notes", f"--ref={NOTES}", "add", "-f", "-F", "-", commit, input=more)
    assert checks() == one + 3  # one more check before each candidate after the first


def test_the_note_cap_can_only_be_lowered() -> None:
    from gentle_hooks.git.notes import NOTE_BYTES, note_bytes

    for given in ("1e9", "99999999999999999999", "-1", "x", "", "٣", " 5"):
        assert note_bytes({"GENTLE_HOOKS_NOTE_BYTES": given}) == NOTE_BYTES, given
    assert note_bytes({"GENTLE_HOOKS_NOTE_BYTES": str(NOTE_BYTES * 4)}) == NOTE_BYTES
    assert note_bytes({"GENTLE_HOOKS_NOTE_BYTES": "4096"}) == 4096
    assert NOTE_BYTES == 1 << 20


def test_doctor_names_a_recorded_commits_note_over_the_cap_and_how_to_write_it_again(
    server: Path,
) -> None:
    """Every gate counts the note for nothing and no record can be added to it: doctor's
    ``notes`` check says so, with the git command that removes it; ``sync push`` then
    writes it again from the ledger, and the gate passes."""
    b = clone(server, "b")
    commit = delegated_change(b, "def f():\n    return 8\n", spot_check=True)
    _pad(b, commit, 6000)
    env = {"GENTLE_HOOKS_NOTE_BYTES": CAP}
    report = hostile(b, "doctor", env=env).stdout.decode()
    [line] = [x for x in report.splitlines() if x.startswith("FAIL  notes:")]
    assert f"the note of {commit[:12]} in {NOTES} holds " in line, report
    removal = line.split("remove it (", 1)[1].split(")", 1)[0]
    assert removal == f"git notes --ref={NOTES} remove {commit}", line
    assert "run: gentle-hook sync push" in report, report
    subprocess.run(removal, shell=True, cwd=b, check=True, capture_output=True)
    synced = hostile(b, "sync", "push", env=env)
    assert synced.returncode == 0, synced.stderr
    assert (
        "ok    notes: every recorded commit has its note"
        in hostile(b, "doctor", env=env).stdout.decode()
    )
    gate = hostile(b, "gate", "--range", "origin/main..HEAD", env=env)
    assert gate.returncode == 0, gate.stdout
