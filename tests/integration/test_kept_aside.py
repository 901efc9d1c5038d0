"""A spool line no fold can read, or a damaged ledger moved aside, never loses a writer
record: the fold keeps every readable line, the commit and push gates fail closed while a
file kept aside holds records no command has read, and the command they print gets the user
out, after which the record is back and the gate judges the work."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.conftest import paste, write
from tests.integration.test_hostile_inputs import hostile
from tests.integration.test_ledger_spool import _commit, _held, _installed, _mutations, _state


def _printed(stderr: str, label: str = "run") -> str:
    """The command a block prints after ``label:`` (the first one)."""
    found = re.search(rf"\b{label}: (gentle-hook [^;\n]*?)(?:; (?:or|run): |$)", stderr, re.M)
    assert found, stderr
    return found.group(1)


def _spool_a_record_and_a_tampered_copy(repo: Path, field: str) -> None:
    """A writer's record of ``a.py`` spooled behind a held lock, and a copy of its line with
    one bad field (``paths`` or ``state``) appended, as a tampering tool would."""
    write(repo / "a.py", "import os\nos.system('rm -rf /tmp/x')\n")
    with _held(repo):
        proc = hostile(repo, "record", "--model", "m", "--effort", "low", "a.py")
        assert proc.returncode == 0 and b"spooled" in proc.stdout, proc.stderr
    spool = _state(repo) / "spool.jsonl"
    line = json.loads(spool.read_bytes())
    if field == "paths":
        line["mutation"]["paths"] = 5
    else:
        line["entries"][0]["state"] = "weird"
    with spool.open("ab") as out:
        out.write(json.dumps(line).encode() + b"\n")


def test_a_tampered_spool_line_keeps_the_gate_closed_until_a_person_acknowledges_it(
    repo: Path,
) -> None:
    _installed(repo)
    _spool_a_record_and_a_tampered_copy(repo, "state")
    subprocess.run(["git", "add", "a.py"], cwd=repo, check=True)
    first = _commit(repo)
    assert first.returncode != 0, first.stderr
    (kept,) = _state(repo).glob("spool.jsonl.bad-*")
    assert str(kept) in first.stderr and "gentle-hook doctor --fix" in first.stderr
    assert _mutations(repo) == 1  # the readable line was folded in, not set aside
    assert len(kept.read_bytes().splitlines()) == 1 and b"weird" in kept.read_bytes()
    again = _commit(repo)  # the next commit does not pass either
    assert again.returncode != 0 and str(kept) in again.stderr, again.stderr
    fixed = paste(_printed(again.stderr), repo)
    assert f"folded 0 spooled writer record(s) from {kept}" in fixed.stdout, fixed.stdout
    assert "held spool.jsonl.bad-" in fixed.stdout and "doctor --discard" in fixed.stdout
    assert not kept.exists() and list(_state(repo).glob("spool.jsonl.folded-*"))
    held = _commit(repo)  # the unreadable line is held in quarantine: still closed
    assert held.returncode != 0 and "held in quarantine" in held.stderr, held.stderr
    assert "doctor --restore" not in held.stderr  # nothing to put back: only a discard
    discard = _printed(held.stderr)
    assert discard.startswith("gentle-hook doctor --discard ") and "--reason" in discard
    qid = discard.split()[3]
    restore = hostile(repo, "doctor", "--restore", qid)  # nothing to put back: says so
    assert restore.returncode == 2 and b"nothing to put back" in restore.stderr
    assert f"run: gentle-hook doctor --discard {qid} --reason".encode() in restore.stderr
    assert paste(discard, repo).returncode in (0, 2)
    judged = _commit(repo)  # the writer's record is back: the gate judges the work
    assert judged.returncode != 0 and "BLOCKED" in judged.stderr, judged.stderr
    assert "run: gentle-hook spot-check" in judged.stderr, judged.stderr
    log = subprocess.run(["git", "log", "--oneline"], cwd=repo, capture_output=True, text=True)
    assert len(log.stdout.splitlines()) == 1  # nothing was committed on the way


def test_a_bad_field_does_not_take_the_record_beside_it(repo: Path) -> None:
    _installed(repo)
    _spool_a_record_and_a_tampered_copy(repo, "paths")
    proc = hostile(repo, "doctor", "--fix", timeout=60)
    assert "folded the spooled writer records" in proc.stdout.decode(), proc.stdout
    assert _mutations(repo) == 1
    (kept,) = _state(repo).glob("spool.jsonl.folded-*")  # folded again: held in quarantine
    assert b'"paths": 5' in kept.read_bytes()


def test_a_whole_spool_kept_aside_earlier_is_folded_in_by_the_fix(repo: Path) -> None:
    """A kept-aside file of readable lines (a spool set aside whole, or a line repaired by
    hand) is folded in by ``doctor --fix``: the gate then judges the record."""
    _installed(repo)
    write(repo / "a.py", "import os\nos.system('rm -rf /tmp/x')\n")
    with _held(repo):
        proc = hostile(repo, "record", "--model", "m", "--effort", "low", "a.py")
        assert proc.returncode == 0 and b"spooled" in proc.stdout, proc.stderr
    spool = _state(repo) / "spool.jsonl"
    spool.rename(_state(repo) / "spool.jsonl.bad-1-abcdef")
    subprocess.run(["git", "add", "a.py"], cwd=repo, check=True)
    blocked = _commit(repo)  # the sh fast path sees the file too: Python refuses
    assert blocked.returncode != 0 and "spool.jsonl.bad-1-abcdef" in blocked.stderr
    fixed = paste(_printed(blocked.stderr), repo)
    assert "folded 1 spooled writer record(s)" in fixed.stdout, fixed.stdout
    assert _mutations(repo) == 1
    judged = _commit(repo)
    assert judged.returncode != 0 and "run: gentle-hook spot-check" in judged.stderr


def test_a_human_commit_stays_on_the_fast_path_only_without_kept_files(repo: Path) -> None:
    _installed(repo)
    write(repo / "README.md", "# changed\n")
    subprocess.run(["git", "add", "README.md"], cwd=repo, check=True)
    write(_state(repo) / "spool.jsonl.bad-1-abcdef", b"not json\n")
    blocked = _commit(repo)
    assert blocked.returncode != 0 and "spool.jsonl.bad-1-abcdef" in blocked.stderr
    (_state(repo) / "spool.jsonl.bad-1-abcdef").unlink()
    passed = _commit(repo)
    assert passed.returncode == 0 and passed.stderr == "", passed.stderr


def test_the_push_gate_fails_closed_while_a_spool_line_is_kept_aside(
    repo: Path, tmp_path: Path
) -> None:
    _installed(repo)
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    subprocess.run(["git", "remote", "add", "origin", str(remote)], cwd=repo, check=True)
    write(repo / "README.md", "# changed\n")
    subprocess.run(["git", "commit", "-qam", "c"], cwd=repo, check=True)
    write(_state(repo) / "spool.jsonl.bad-1-abcdef", b"not json\n")
    push = subprocess.run(
        ["git", "push", "-q", "origin", "HEAD:refs/heads/main"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert push.returncode != 0 and "spool.jsonl.bad-1-abcdef" in push.stderr, push.stderr
    assert "gentle-hook doctor --fix" in push.stderr


def _damage_page(repo: Path, sql: str) -> None:
    """Overwrite the page ``sql`` names (a ``rootpage`` from ``sqlite_master``) of the
    checkpointed ledger with garbage."""
    import sqlite3

    ledger = _state(repo) / "ledger.sqlite3"
    conn = sqlite3.connect(ledger)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        (page,) = conn.execute(sql).fetchone()
    finally:
        conn.close()
    with ledger.open("r+b") as fh:
        fh.seek((int(page) - 1) * size)
        fh.write(b"\xa5" * size)


def _record_writer_work(repo: Path) -> None:
    write(repo / "a.py", "import os\nos.system('rm -rf /tmp/x')\n")
    proc = hostile(repo, "record", "--model", "m", "--effort", "low", "a.py")
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["git", "add", "a.py"], cwd=repo, check=True)


def test_a_damaged_ledger_is_recovered_by_the_printed_fix_and_the_gate_judges(
    repo: Path,
) -> None:
    """A damaged index page: every row is still readable, so the fix recovers them all and
    nothing stays held; the gate then judges the writer's work."""
    _installed(repo)
    _record_writer_work(repo)
    _damage_page(
        repo,
        "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = "
        "'writer_entry' ORDER BY name LIMIT 1",
    )
    blocked = _commit(repo)
    assert blocked.returncode != 0 and "gentle-hook doctor" in blocked.stderr, blocked.stderr
    fixed = paste("gentle-hook doctor --fix", repo)
    assert "moved the damaged ledger aside" in fixed.stdout, fixed.stdout
    assert "recovered " in fixed.stdout and "held as quarantine" not in fixed.stdout
    assert not list(_state(repo).glob("ledger.sqlite3.damaged-*"))
    assert list(_state(repo).glob("ledger.sqlite3.salvaged-*"))  # kept
    assert _mutations(repo) == 1
    judged = _commit(repo)
    assert judged.returncode != 0 and "run: gentle-hook spot-check" in judged.stderr, judged.stderr


def test_writer_rows_a_damaged_ledger_lost_keep_the_gates_closed_until_discarded(
    repo: Path,
) -> None:
    _installed(repo)
    _record_writer_work(repo)
    _damage_page(repo, "SELECT rootpage FROM sqlite_master WHERE name = 'writer_entry'")
    fixed = paste("gentle-hook doctor --fix", repo)
    assert fixed.returncode == 2, fixed.stdout
    held = _commit(repo)
    assert held.returncode != 0 and "held in quarantine" in held.stderr, held.stderr
    assert "writer_entry row(s) of ledger.sqlite3.damaged-" in held.stderr, held.stderr
    assert paste(_printed(held.stderr), repo).returncode in (0, 2)
    after = _commit(repo)  # acknowledged by a person: judged again, never fail-closed
    assert "held in quarantine" not in after.stderr, after.stderr
    assert "gentle-hook: error" not in after.stderr, after.stderr


def test_a_damaged_ledger_moved_aside_unrecovered_keeps_the_gates_closed(repo: Path) -> None:
    """A damaged ledger moved aside whose rows were never recovered (an older doctor, or a
    fix killed half way) blocks even a human's commit until the fix recovers it."""
    _installed(repo)
    _record_writer_work(repo)
    ledger = _state(repo) / "ledger.sqlite3"
    for suffix in ("-wal", "-shm", ""):
        if (_state(repo) / f"ledger.sqlite3{suffix}").exists():
            (_state(repo) / f"ledger.sqlite3{suffix}").rename(
                _state(repo) / f"ledger.sqlite3.damaged-20260101T000000Z{suffix}"
            )
    assert not ledger.exists()
    blocked = _commit(repo)
    assert blocked.returncode != 0 and "ledger.sqlite3.damaged-" in blocked.stderr
    fixed = paste(_printed(blocked.stderr), repo)
    assert "recovered " in fixed.stdout and "held as quarantine" not in fixed.stdout, fixed.stdout
    assert _mutations(repo) == 1
    judged = _commit(repo)
    assert judged.returncode != 0 and "run: gentle-hook spot-check" in judged.stderr
