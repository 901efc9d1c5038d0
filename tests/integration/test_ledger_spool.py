"""A writer record behind another process's held write lock is spooled, never lost: the
gate applies to it once the lock is free, and fails closed while it is held."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gentle_hooks.ledger.sqlite_file import settle_idle
from gentle_hooks.ledger.store import Ledger
from tests.conftest import write
from tests.integration.test_hostile_inputs import _claude, hostile
from tests.integration.test_ledger_lock_wait import HOLDER


def _state(repo: Path) -> Path:
    return repo / ".git" / "gentle-hooks"


@contextmanager
def _held(repo: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the ledger's write lock (``BEGIN EXCLUSIVE``) meanwhile."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(_state(repo) / "ledger.sqlite3")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.communicate("")


def _installed(repo: Path) -> None:
    """Hooks installed and an idle ledger (its sentinel says nothing is pending)."""
    assert hostile(repo, "install").returncode == 0
    Ledger.open(str(_state(repo) / "ledger.sqlite3")).close()
    assert (_state(repo) / "idle").is_file()


def _commit(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "c"], cwd=repo, capture_output=True, text=True, timeout=60
    )


def _mutations(repo: Path) -> int:
    with sqlite3.connect(_state(repo) / "ledger.sqlite3") as conn:
        count = int(conn.execute("SELECT count(*) FROM pending_mutation").fetchone()[0])
    conn.close()
    return count


def test_a_record_behind_a_held_lock_is_spooled_and_gates_the_next_commit(repo: Path) -> None:
    _installed(repo)
    write(repo / "a.py", "import os\nos.system('rm -rf /tmp/x')\n")
    with _held(repo) as holder:
        proc = hostile(repo, "record", "--model", "m", "--effort", "low", "a.py")
        assert proc.returncode == 0, proc.stderr
        assert "spooled: pending mutation" in proc.stdout.decode()
        assert (_state(repo) / "spool.jsonl").is_file()
        subprocess.run(["git", "add", "a.py"], cwd=repo, check=True)
        held = _commit(repo)  # the stale idle sentinel never passes it: fail closed
        assert held.returncode != 0, held.stderr
        assert "a writer record is waiting in" in held.stderr
        assert f"process {holder.pid} (" in held.stderr and "gentle-hook doctor" in held.stderr
        log = subprocess.run(["git", "log", "--oneline"], cwd=repo, capture_output=True)
        assert len(log.stdout.splitlines()) == 1  # nothing committed
    after = _commit(repo)
    assert after.returncode == 1 and "BLOCKED" in after.stderr, after.stderr
    assert "delegated" in after.stderr, after.stderr
    assert "run: gentle-hook spot-check" in after.stderr, after.stderr
    assert not (_state(repo) / "spool.jsonl").exists()
    assert _mutations(repo) == 1


def test_a_runtime_hook_behind_a_held_lock_is_spooled(repo: Path, tmp_path: Path) -> None:
    _installed(repo)
    data = _claude(repo, tmp_path)
    with _held(repo):
        proc = hostile(repo, "record", "--from", "claude-code", stdin=data)
        assert proc.returncode == 0 and b"spooled: pending mutation" in proc.stderr, proc.stderr
    assert hostile(repo, "status").returncode in (0, 1)
    assert _mutations(repo) == 1
    again = hostile(repo, "record", "--from", "claude-code", stdin=data)  # the replay
    assert again.returncode == 0 and b"nothing recorded" in again.stderr, again.stderr
    assert _mutations(repo) == 1


def test_no_idle_sentinel_is_created_while_a_spool_waits(repo: Path) -> None:
    _installed(repo)
    (_state(repo) / "idle").unlink()
    write(_state(repo) / "spool.jsonl", b"")
    conn = sqlite3.connect(_state(repo) / "ledger.sqlite3", isolation_level=None)
    try:
        assert settle_idle(conn, str(_state(repo) / "ledger.sqlite3")) is False
    finally:
        conn.close()
    assert not (_state(repo) / "idle").exists()


def test_a_replayed_spool_line_records_once(repo: Path) -> None:
    _installed(repo)
    write(repo / "a.py", "a = 1\n")
    call = ("--source", "s", "--session", "x", "--tool-call", "t1")
    with _held(repo):
        for _ in range(2):  # a runtime replaying its hook: both spooled
            proc = hostile(repo, "record", "--model", "m", "--effort", "low", *call, "a.py")
            assert proc.returncode == 0 and b"spooled" in proc.stdout, proc.stderr
        write(repo / "b.py", "b = 1\n")
        proc = hostile(repo, "record", "--model", "m", "--effort", "low", "b.py")
        assert proc.returncode == 0 and b"spooled" in proc.stdout, proc.stderr
    spooled = (_state(repo) / "spool.jsonl").read_bytes()
    assert len(spooled.splitlines()) == 3
    assert hostile(repo, "status").returncode in (0, 1)  # a reader folds it in
    assert _mutations(repo) == 2
    # a fold killed after its commit, before it removed the spool: the lines come again
    write(_state(repo) / "spool.jsonl", spooled)
    assert hostile(repo, "status").returncode in (0, 1)
    assert _mutations(repo) == 2
    assert not (_state(repo) / "spool.jsonl").exists()


def test_a_corrupt_spool_line_is_kept_and_named(repo: Path) -> None:
    _installed(repo)
    write(_state(repo) / "spool.jsonl", b'{"mutation": {"root": 5}, "entries": []}\nnot json\n')
    proc = hostile(repo, "status")
    assert proc.returncode == 2
    (kept,) = _state(repo).glob("spool.jsonl.bad-*")
    assert str(kept) in proc.stderr.decode()
    assert kept.read_bytes() == b'{"mutation": {"root": 5}, "entries": []}\nnot json\n'
    assert not (_state(repo) / "spool.jsonl").exists()


def test_doctor_reports_the_spool_and_fix_folds_it(repo: Path) -> None:
    _installed(repo)
    write(repo / "a.py", "a = 1\n")
    with _held(repo):
        proc = hostile(repo, "record", "--model", "m", "--effort", "low", "a.py")
        assert proc.returncode == 0 and b"spooled" in proc.stdout, proc.stderr
        report = hostile(repo, "doctor", timeout=60)
        (line,) = [x for x in report.stdout.decode().splitlines() if x.startswith("FAIL  spool:")]
        assert "spool.jsonl" in line and "doctor --fix" in line, report.stdout
    fixed = hostile(repo, "doctor", "--fix", timeout=60)
    assert "folded the spooled writer records" in fixed.stdout.decode(), fixed.stdout
    assert not (_state(repo) / "spool.jsonl").exists()
    assert _mutations(repo) == 1


def test_plain_doctor_leaves_a_symlinked_spool_where_it_is(repo: Path, tmp_path: Path) -> None:
    _installed(repo)
    target = write(tmp_path / "elsewhere.jsonl", b"{}\n")
    (_state(repo) / "spool.jsonl").symlink_to(target)
    before = sorted(p.name for p in _state(repo).iterdir())
    report = hostile(repo, "doctor", timeout=60)
    out = report.stdout.decode()
    assert report.returncode == 2 and "nothing was changed" in out, out
    (line,) = [x for x in out.splitlines() if x.startswith("FAIL  spool:")]
    assert "symbolic link" in line and "doctor --fix" in line, out
    assert sorted(p.name for p in _state(repo).iterdir()) == before  # nothing renamed
    assert (_state(repo) / "spool.jsonl").is_symlink() and target.read_bytes() == b"{}\n"
    fixed = hostile(repo, "doctor", "--fix", timeout=60).stdout.decode()
    assert not (_state(repo) / "spool.jsonl").is_symlink()
    # moved aside, then read as a kept spool: a link is never followed, so it is held in
    # quarantine (a person discards it) and kept, renamed, with its target untouched
    assert "cannot be read" in fixed and "doctor --discard" in fixed, fixed
    assert [p.is_symlink() for p in _state(repo).glob("spool.jsonl.folded-*")] == [True]
    assert target.read_bytes() == b"{}\n"


_SHORT_WRITE = """
import os, resource, signal, sys
from gentle_hooks.ledger import spool
ledger = sys.argv[1]
spool.append(ledger, b'{"whole": 1}\\n')
size = os.path.getsize(spool.spool_path(ledger))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 10, size + 10))
try:
    spool.append(ledger, b'{"torn": "' + b"x" * 4096 + b'"}\\n')
except OSError as exc:
    print(exc.errno)
"""


def test_a_short_append_leaves_no_torn_line(tmp_path: Path) -> None:
    """A spool append that a file size limit (or a full disk) cuts short is cut back off:
    the spool keeps its whole lines only, so the next fold reads them all."""
    state = tmp_path / "state"
    state.mkdir()
    ledger = state / "ledger.sqlite3"
    done = subprocess.run(
        [sys.executable, "-c", _SHORT_WRITE, str(ledger)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "27"  # EFBIG: the second append failed
    assert (state / "spool.jsonl").read_bytes() == b'{"whole": 1}\n'


def test_doctor_says_a_held_spool_line_can_only_be_discarded(repo: Path, tmp_path: Path) -> None:
    _installed(repo)
    target = write(tmp_path / "elsewhere.jsonl", b"{}\n")
    (_state(repo) / "spool.jsonl").symlink_to(target)
    hostile(repo, "doctor", "--fix", timeout=60)
    out = hostile(repo, "doctor", timeout=60).stdout.decode()
    (line,) = [x for x in out.splitlines() if x.startswith("FAIL  quarantine:")]
    assert "until each is discarded; a person discards it (doctor --discard" in line, line
    assert "restore" not in line, line
    assert "run: gentle-hook doctor --discard" in line, line
    discard = line.rsplit("run: ", 1)[1]
    # the gate fails closed; its decision object carries the very command the line prints
    write(repo / "a.py", "a = 1\n")
    subprocess.run(["git", "add", "a.py"], cwd=repo, check=True)
    env = {**os.environ, "GENTLE_HOOKS_FORMAT": "json"}
    commit = subprocess.run(
        ["git", "commit", "-qm", "c"], cwd=repo, capture_output=True, text=True, env=env
    )
    decision = json.loads(commit.stderr)
    assert decision["decision"] == "error" and "held in quarantine" in decision["reason"]
    assert decision["run"] == [discard], decision


def test_a_spooled_runtime_record_prints_the_warnings_a_stored_one_does(
    repo: Path, tmp_path: Path
) -> None:
    """The warning on a record (an effort the runtime does not name, recorded as unknown)
    is printed whether the record reached the ledger or the spool: the person reads it
    either way."""
    _installed(repo)
    data = _claude(repo, tmp_path)
    with _held(repo):
        proc = hostile(repo, "record", "--from", "claude-code", "--effort", "extreme", stdin=data)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.decode().splitlines()
    assert lines[0].startswith("spooled: pending mutation"), lines
    # not numbered yet: the number is given when the spool is folded in
    assert "#0" not in lines[0] and "numbered when folded into the ledger" in lines[0], lines
    warning = "note: warning: --effort names effort 'extreme', not one of claude-code's ("
    assert [line for line in lines if line.startswith(warning)], lines
    assert lines[-1].endswith(": recorded as effort unknown"), lines
