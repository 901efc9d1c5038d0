"""What killed runs leave is removed by the next run that owns it, or reported and removed by
``doctor --fix``; ``doctor`` fails on every store state that makes another command fail
(SPEC §6; docs/robustness.md).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gentle_hooks.ledger.schema import SCHEMA_VERSION
from tests.conftest import git, write
from tests.integration.test_hostile_inputs import hostile

STATE = Path(".git") / "gentle-hooks"


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def leftovers(repo: Path) -> list[str]:
    """Every temporary file of ours in the git directory and the state directory."""
    out = [p.name for p in (repo / ".git").iterdir() if p.name.startswith("gentle-hooks-index-")]
    state = repo / STATE
    if state.is_dir():
        out += [p.name for p in state.iterdir() if ".new-" in p.name]
    return sorted(out)


@pytest.fixture
def recorded(repo: Path) -> Path:
    """A repository with a writer's pending change recorded (the ledger exists)."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return a + b + 0\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    return repo


def test_a_killed_hooks_index_copy_is_removed_by_the_next_hook(recorded: Path) -> None:
    dead = dead_pid()
    stale = recorded / ".git" / f"gentle-hooks-index-{dead}-0123456789ab"
    stale.write_bytes(b"DIRC" + b"\0" * 4096)
    live = recorded / ".git" / f"gentle-hooks-index-{os.getpid()}-0123456789ab"
    live.write_bytes(b"DIRC")  # a running process's copy is never touched
    assert hostile(recorded, "doctor").returncode == 2
    assert hostile(recorded, "assess").returncode == 0  # builds a snapshot index copy
    assert not stale.exists() and live.exists()
    live.unlink()


def test_a_killed_first_writes_file_is_removed_by_the_next_writer(recorded: Path) -> None:
    dead = dead_pid()
    state = recorded / STATE
    for name in (f"ledger.sqlite3.new-{dead}", f"ledger.sqlite3.new-{dead}-abcdef-journal"):
        (state / name).write_bytes(b"")
    (state / f"ledger.sqlite3.new-{dead}-evil").symlink_to("/etc/passwd")
    assert hostile(recorded, "receipt", "add", "--exit-code", "0", "pytest: ok").returncode == 0
    assert leftovers(recorded) == []
    assert Path("/etc/passwd").exists()  # a link is removed, never what it points to


def test_doctor_reports_residue_and_fix_removes_only_it(recorded: Path) -> None:
    dead = dead_pid()
    stale = recorded / STATE / f"ledger.sqlite3.new-{dead}-abcdef"
    stale.write_bytes(b"")
    index = recorded / ".git" / f"gentle-hooks-index-{dead}-abcdef"
    index.write_bytes(b"")
    report = hostile(recorded, "doctor")
    out = report.stdout.decode()
    assert report.returncode == 2
    assert "FAIL  residue: 2 file(s) left by killed runs" in out
    assert "; run: gentle-hook doctor --fix" in out
    fixed = hostile(recorded, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert f"removed {index}" in fixed.stdout.decode()
    assert leftovers(recorded) == []
    assert (recorded / STATE / "ledger.sqlite3").is_file()


def _sql(repo: Path, statement: str) -> None:
    ledger = repo / STATE / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        conn.executescript(statement)
        conn.commit()


@pytest.mark.parametrize(
    ("damage", "doctor_says"),
    [
        pytest.param(
            lambda r: _sql(r, "UPDATE pending_mutation SET paths = '[not json'"),
            "pending_mutation row 1 column paths: not a JSON list",
            id="invalid-json-in-paths",
        ),
        pytest.param(
            lambda r: _sql(r, "UPDATE pending_mutation SET paths = '5'"),
            "pending_mutation row 1 column paths: not a JSON list",
            id="paths-not-a-list",
        ),
        pytest.param(
            lambda r: _sql(r, "PRAGMA user_version = 2"),
            "FAIL  schema: version 2 cannot be migrated forward",
            id="lowered-user-version",
        ),
    ],
)
def test_doctor_fails_on_a_store_other_commands_refuse(
    recorded: Path, damage: object, doctor_says: str
) -> None:
    assert callable(damage)
    damage(recorded)
    report = hostile(recorded, "doctor")
    assert report.returncode == 2 and doctor_says in report.stdout.decode(), report.stdout
    git(recorded, "add", "-A")
    for args in (("status",), ("assess",), ("hook", "pre-commit")):
        proc = hostile(recorded, *args)  # one line naming the ledger and the doctor
        assert proc.returncode == 2 and b"gentle-hook doctor" in proc.stderr, (args, proc)


def _counts(repo: Path) -> dict[str, int]:
    ledger = repo / STATE / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


# a store whose tables are version 12's marked 11 is not among them: V12 (review_fact rebuilt)
# applies again to its own tables, so it is migrated on next use
# (test_a_store_lowered_below_v12_...)
@pytest.mark.parametrize("lowered", [0, 2, SCHEMA_VERSION - 2, SCHEMA_VERSION - 1])
def test_doctor_fix_writes_a_lowered_schema_version_back_keeping_every_row(
    recorded: Path, lowered: int
) -> None:
    before = _counts(recorded)
    _sql(recorded, f"PRAGMA user_version = {lowered}")
    report = hostile(recorded, "doctor").stdout.decode()
    assert f"which are version {SCHEMA_VERSION}'s" in report and "doctor --fix" in report, report
    fixed = hostile(recorded, "doctor", "--fix")
    out = fixed.stdout.decode()
    assert fixed.returncode == 0, out
    assert f"user_version {lowered} -> {SCHEMA_VERSION}" in out, out
    assert _counts(recorded) == before
    git(recorded, "add", "-A")
    assert hostile(recorded, "status").returncode == 0


def test_a_store_lowered_below_v12_is_migrated_again_keeping_every_row(recorded: Path) -> None:
    """V12 rebuilds review_fact with every row and id: on a store already at 12 it applies
    again, so doctor has nothing to fix and the next command migrates it (V13 and V14
    added a column each, taken out here: the store is a version 12 store marked 11)."""
    before = _counts(recorded)
    _sql(recorded, "ALTER TABLE discard DROP COLUMN claimed")
    _sql(recorded, "ALTER TABLE discard DROP COLUMN blobs")
    _sql(recorded, "PRAGMA user_version = 11")
    report = hostile(recorded, "doctor").stdout.decode()
    assert "version 11 (migrated on next use)" in report, report
    git(recorded, "add", "-A")
    assert hostile(recorded, "status").returncode == 0
    assert _counts(recorded) == before
    assert f"version {SCHEMA_VERSION} (current)" in hostile(recorded, "doctor").stdout.decode()


def test_doctor_fix_leaves_a_lowered_version_whose_tables_match_none(recorded: Path) -> None:
    _sql(recorded, "ALTER TABLE receipt ADD COLUMN extra TEXT")
    _sql(recorded, "PRAGMA user_version = 2")
    fixed = hostile(recorded, "doctor", "--fix")
    out = fixed.stdout.decode()
    assert fixed.returncode == 2 and "no version this gentle-hooks knows" in out, out
    assert "restored the schema version" not in out
    ledger = recorded / STATE / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2


@pytest.mark.parametrize("kind", ["file", "symlink"])
def test_doctor_fails_when_the_state_directory_is_not_ours(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    state = repo / STATE
    if kind == "file":
        state.write_text("not a directory\n")
    else:
        (tmp_path / "elsewhere").mkdir()
        state.symlink_to(tmp_path / "elsewhere")
    report = hostile(repo, "doctor")
    assert report.returncode == 2 and "FAIL  store:" in report.stdout.decode()
    write(repo / "src" / "app.py", "x = 2\n")
    record = hostile(repo, "record", "--model", "m", "--effort", "low")
    assert record.returncode == 2 and b".git/gentle-hooks" in record.stderr


@pytest.mark.parametrize("kind", ["file", "fifo"])
def test_a_state_directory_that_is_a_file_is_named_and_moved_aside_by_the_fix(
    recorded: Path, kind: str
) -> None:
    """Refuter r16y (issue 16): doctor named ledger.sqlite3-wal ("Not a directory") instead
    of the state directory itself, and --fix could not repair it."""
    state = recorded / STATE
    shutil.rmtree(state)
    if kind == "file":
        state.write_text("not a directory\n")
    else:
        os.mkfifo(state)
    out = hostile(recorded, "doctor").stdout.decode()
    line = next(x for x in out.splitlines() if x.startswith("FAIL  store:"))
    assert f"{state} is not a directory" in line and "-wal" not in line, line
    assert line.endswith("run: gentle-hook doctor --fix"), line
    assert "FAIL  key" not in out, out
    fixed = hostile(recorded, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout.decode()
    kept = [p for p in (recorded / ".git").iterdir() if p.name.startswith("gentle-hooks.broken-")]
    assert len(kept) == 1 and not kept[0].is_dir()  # kept, never deleted
    assert state.is_dir() and not state.is_symlink()
    write(recorded / "src" / "app.py", "x = 3\n")
    assert hostile(recorded, "record", "--model", "m", "--effort", "low").returncode == 0


def test_sigkills_during_hooks_leave_nothing_the_next_command_does_not_clean(
    recorded: Path,
) -> None:
    """Hooks killed at varied moments; the next command and doctor find nothing left."""
    git(recorded, "add", "-A")
    env = {**os.environ}
    for i in range(24):
        proc = subprocess.Popen(
            [sys.executable, "-m", "gentle_hooks", "hook", "pre-commit"],
            cwd=recorded,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.05 + (i % 8) * 0.04)
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert hostile(recorded, "assess").returncode == 0  # the next run that owns the residue
    report = hostile(recorded, "doctor")
    assert "FAIL  residue" not in report.stdout.decode(), report.stdout
    assert [n for n in leftovers(recorded) if n.startswith("gentle-hooks-index-")] == []


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("DROP TRIGGER pending_mutation_call_once", "trigger pending_mutation_call_once"),
        ("DROP INDEX writer_entry_state", "index writer_entry_state"),
    ],
)
def test_doctor_names_a_schema_object_the_store_lacks(recorded: Path, sql: str, named: str) -> None:
    _sql(recorded, sql)
    report = hostile(recorded, "doctor")
    out = report.stdout.decode()
    assert report.returncode == 2 and "FAIL  schema:" in out and f"missing {named}" in out, out


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        (  # a planted trigger that empties the tables the gates read as rows are written
            "CREATE TRIGGER zz AFTER INSERT ON receipt BEGIN DELETE FROM writer_entry; END",
            "not ours: trigger zz",
        ),
        ("CREATE INDEX zz_index ON receipt(id)", "not ours: index zz_index"),
        (  # LIKE 'sqlite_%' would take this name for one of SQLite's own
            "CREATE TRIGGER sqlitexdrop AFTER INSERT ON pending_mutation "
            "BEGIN DELETE FROM pending_mutation WHERE id = new.id; END",
            "not ours: trigger sqlitexdrop",
        ),
        (  # a unique index: the second receipt of a candidate fails
            "DROP INDEX receipt_identity; "
            "CREATE UNIQUE INDEX receipt_identity ON receipt (identity)",
            "changed: index receipt_identity",
        ),
        (  # ours by name, not by what it does
            "DROP TRIGGER pending_mutation_call_once; CREATE TRIGGER pending_mutation_call_once "
            "AFTER INSERT ON pending_mutation BEGIN SELECT 1; END",
            "changed: trigger pending_mutation_call_once",
        ),
    ],
)
def test_doctor_names_a_schema_object_that_is_not_ours(
    recorded: Path, sql: str, named: str
) -> None:
    _sql(recorded, sql)
    report = hostile(recorded, "doctor")
    out = report.stdout.decode()
    assert report.returncode == 2 and "FAIL  schema:" in out and named in out, out


def _plant(place: Path, kind: str, tmp: Path) -> Path:
    """Put ``kind`` at ``place``: an empty or a full directory (holding a link out), a FIFO,
    a link to a file outside the repository; the outside file, whose bytes must survive."""
    outside = tmp / "outside.txt"
    outside.write_text("keep me\n")
    if kind == "empty-directory":
        place.mkdir()
    elif kind == "full-directory":
        place.mkdir()
        (place / "note.txt").write_text("x\n")
        (place / "link").symlink_to(outside)
    elif kind == "fifo":
        os.mkfifo(place)
    else:
        place.symlink_to(outside)
    return outside


IDLE_KINDS = ["empty-directory", "full-directory", "fifo", "link"]


@pytest.mark.parametrize("kind", IDLE_KINDS)
def test_a_displaced_idle_sentinel_never_stops_a_record_and_doctor_fixes_it(
    recorded: Path, tmp_path: Path, kind: str
) -> None:
    idle = recorded / STATE / "idle"
    with contextlib.suppress(FileNotFoundError):
        idle.unlink()
    outside = _plant(idle, kind, tmp_path)
    report = hostile(recorded, "doctor")
    out = report.stdout.decode()
    described = {"fifo": "a FIFO", "link": "a symbolic link"}.get(kind, "a directory")
    assert report.returncode == 2, out
    assert (
        f"FAIL  sentinel: {idle}: is {described}, not the idle sentinel (a regular file); the "
        "hooks read the ledger instead; run: gentle-hook doctor --fix"
    ) in out
    fixed = hostile(recorded, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert f"removed {idle}" in fixed.stdout.decode()
    assert outside.read_text() == "keep me\n"  # never through a link
    assert "FAIL" not in fixed.stdout.decode()


@pytest.mark.parametrize("kind", IDLE_KINDS)
def test_writers_and_hooks_work_beside_a_displaced_idle_sentinel(
    recorded: Path, tmp_path: Path, kind: str
) -> None:
    idle = recorded / STATE / "idle"
    with contextlib.suppress(FileNotFoundError):
        idle.unlink()
    outside = _plant(idle, kind, tmp_path)
    write(recorded / "src" / "app.py", "def add(a, b):\n    return a + b + 1\n")
    proc = hostile(recorded, "record", "--model", "m", "--effort", "low")
    assert proc.returncode == 0, proc.stderr
    assert hostile(recorded, "receipt", "add", "--exit-code", "0", "pytest -q: ok").returncode == 0
    git(recorded, "add", "-A")
    gate = hostile(recorded, "hook", "pre-commit")
    assert gate.returncode == 1 and b"spot" in gate.stderr  # the gate judged: no spot check
    assert outside.read_text() == "keep me\n"


@pytest.mark.parametrize("where", ["ledger-new", "index-copy"])
def test_a_directory_at_a_residue_name_is_removed_by_doctor_fix(
    recorded: Path, tmp_path: Path, where: str
) -> None:
    dead = dead_pid()
    place = (
        recorded / STATE / f"ledger.sqlite3.new-{dead}-abcdef"
        if where == "ledger-new"
        else recorded / ".git" / f"gentle-hooks-index-{dead}-abcdef"
    )
    outside = _plant(place, "full-directory", tmp_path)
    report = hostile(recorded, "doctor")
    assert report.returncode == 2 and "FAIL  residue: 1 file(s)" in report.stdout.decode()
    fixed = hostile(recorded, "doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert f"removed {place}" in fixed.stdout.decode()
    assert not place.exists() and outside.read_text() == "keep me\n"


def test_residue_is_never_removed_through_a_symlinked_state_directory(
    repo: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    stale = elsewhere / f"ledger.sqlite3.new-{dead_pid()}-abcdef"
    stale.write_bytes(b"")
    (repo / STATE).symlink_to(elsewhere)
    fixed = hostile(repo, "doctor", "--fix")
    assert fixed.returncode == 2 and "FAIL  store:" in fixed.stdout.decode()
    assert stale.exists()  # not ours to remove: the directory is a link


@pytest.mark.parametrize(
    ("kind", "described"),
    [("fifo", "a FIFO"), ("socket", "a socket"), ("directory", "a directory")],
)
def test_doctor_describes_what_stands_at_the_ledger_path(
    repo: Path, kind: str, described: str
) -> None:
    ledger = repo / STATE / "ledger.sqlite3"
    ledger.parent.mkdir()
    if kind == "fifo":
        os.mkfifo(ledger)
    elif kind == "directory":
        ledger.mkdir()
    else:
        import socket

        sock = socket.socket(socket.AF_UNIX)
        here = os.getcwd()
        os.chdir(ledger.parent)  # a relative name: the full path may pass AF_UNIX's 108 bytes
        try:
            sock.bind(ledger.name)
        finally:
            os.chdir(here)
            sock.close()
    report = hostile(repo, "doctor", timeout=30)
    out = report.stdout.decode()
    assert report.returncode == 2
    assert f"FAIL  store: {ledger}: is {described}, not a database file" in out, out
    assert "empty" not in out


def test_doctor_from_the_main_worktree_sees_a_linked_worktrees_index_copy(recorded: Path) -> None:
    git(recorded, "worktree", "add", "-q", str(recorded.parent / "wt"), "-b", "side")
    stale = recorded / ".git" / "worktrees" / "wt" / f"gentle-hooks-index-{dead_pid()}-0123456789ab"
    stale.write_bytes(b"DIRC" + b"\0" * 64)
    report = hostile(recorded, "doctor")
    assert report.returncode == 2 and stale.name.encode() in report.stdout, report.stdout
    hostile(recorded, "doctor", "--fix")
    assert not stale.exists()


def test_index_copies_in_the_temporary_directory_are_named_swept_and_reported(
    recorded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refuter 16r finding 4: a copy made in $TMPDIR (the git directory refused it) carries
    the pid, so the next such copy sweeps a killed run's, and doctor reports and removes it."""
    import tempfile

    from gentle_hooks.git.index import INDEX_PREFIX, _private_copy

    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    dead = dead_pid()
    stale = [tmp / f"{INDEX_PREFIX}{dead}-0123456789ab", tmp / f"{INDEX_PREFIX}{dead}-ab.lock"]
    for path in stale:
        path.write_bytes(b"DIRC")
    report = hostile(recorded, "doctor", env={"TMPDIR": str(tmp)})
    assert report.returncode == 2
    assert "FAIL  residue: 2 file(s) left by killed runs" in report.stdout.decode()
    fixed = hostile(recorded, "doctor", "--fix", env={"TMPDIR": str(tmp)})
    assert fixed.returncode == 0 and not any(p.exists() for p in stale), fixed.stdout

    stale[0].write_bytes(b"DIRC")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    # a directory that takes no file (it does not exist) sends the copy to $TMPDIR
    copy = _private_copy(str(recorded / ".git" / "index"), str(tmp_path / "gone"))
    assert Path(copy).parent == tmp
    assert Path(copy).name.startswith(f"{INDEX_PREFIX}{os.getpid()}-")
    assert not stale[0].exists()
    os.unlink(copy)


def test_a_receipt_row_with_an_empty_argv_fails_doctor_and_spot_check_names_it(
    recorded: Path,
) -> None:
    """Refuter 16r finding 5: ``argv='[]'`` decoded as a command-less receipt; doctor said
    healthy while spot-check said "no command given: put it after --"."""
    ran = hostile(recorded, "receipt", "run", "--", sys.executable, "-c", "pass")
    assert ran.returncode == 0, ran.stderr
    _sql(recorded, "UPDATE receipt SET argv = '[]'")
    report = hostile(recorded, "doctor")
    assert report.returncode == 2
    assert "receipt row 1 column argv: an empty JSON list" in report.stdout.decode()
    spot = hostile(recorded, "spot-check")
    err = spot.stderr.decode()
    assert spot.returncode == 2 and "no command given" not in err, err
    assert "receipt row 1 column argv" in err and "gentle-hook doctor" in err, err
