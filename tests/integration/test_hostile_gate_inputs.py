"""Hostile values in the store, the config and the hook's environment that a gate meets
(SPEC §7 "Exit codes"; docs/robustness.md): each is echoed bounded, or refused in one line
with exit 2 naming it; never warning text, a hang, a bare "busy" or a decision on a ledger
a foreign trigger rewrites.

Real repositories with the hooks installed; the commit gate runs as git runs it (the
installed script, or ``git commit``), the ledger is edited with ``sqlite3`` itself.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import write
from tests.integration.test_hostile_inputs import hostile
from tests.integration.test_ledger_spool import _held

#: A stored value far beyond anything the recorder accepts (its labels stop at 200).
HUGE = 2_000_000
#: What one echo of a stored value may take on a screen (gentle_hooks.errors.MAX_SHOWN),
#: with room for the lines around it.
BOUNDED = 20_000


def _state(repo: Path) -> Path:
    return repo / ".git" / "gentle-hooks"


def _sql(repo: Path, *statements: str, params: tuple[object, ...] = ()) -> None:
    with contextlib.closing(sqlite3.connect(_state(repo) / "ledger.sqlite3")) as conn:
        for statement in statements:
            conn.execute(statement, params if "?" in statement else ())
        conn.commit()


def _delegated(repo: Path, name: str = "a.py") -> None:
    """Hooks installed and a writer's file recorded and staged."""
    assert hostile(repo, "install").returncode == 0
    write(repo / name, "import os\nos.system('true')\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", name).returncode == 0
    subprocess.run(["git", "add", name], cwd=repo, check=True)


def _commit(repo: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "c"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def _hook(
    repo: Path, name: str, env: dict[str, str], stdin: str = "", timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """The installed hook script, run as git runs it (at the top, with git's variables)."""
    return subprocess.run(
        [str(repo / ".git" / "hooks" / name)],
        cwd=repo,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=timeout,
    )


# --- a stored value is echoed bounded ---------------------------------------------------------


def test_a_huge_stored_model_reason_and_result_are_echoed_bounded(repo: Path) -> None:
    _delegated(repo)
    assert hostile(repo, "escalate", "--item", "security", "--reason", "auth").returncode == 0
    assert hostile(repo, "receipt", "add", "--exit-code", "0", "pytest: 1 passed").returncode == 0
    _sql(repo, "UPDATE pending_mutation SET model = ?, source = ?", params=("M" * HUGE, "S" * HUGE))
    _sql(repo, "UPDATE escalation SET reason = ?, slug = ?", params=("R" * HUGE, "s" * HUGE))
    _sql(repo, "UPDATE receipt SET observed = ?", params=("O" * HUGE,))
    blocked = _commit(repo)
    assert blocked.returncode == 1 and "BLOCKED" in blocked.stderr, blocked.stderr[:2000]
    assert len(blocked.stderr) < BOUNDED, len(blocked.stderr)
    assert "M" * 500 in blocked.stderr and "characters]..." in blocked.stderr  # cut, not lost
    as_object = _commit(repo, {"GENTLE_HOOKS_FORMAT": "json"})
    assert as_object.returncode == 1 and len(as_object.stderr) < BOUNDED, len(as_object.stderr)
    for command in ("status", "assess", "receipt list"):
        proc = hostile(repo, *command.split())
        out = proc.stdout.decode() + proc.stderr.decode()
        assert len(out) < BOUNDED, (command, len(out))
    status = hostile(repo, "status").stdout.decode()
    assert "pending mutation #1: MMMM" in status and "escalation #1: item 2 ssss" in status
    assert "receipt #1: pytest: OOOO" in status


def test_a_spooled_record_with_a_huge_model_is_echoed_bounded(repo: Path) -> None:
    assert hostile(repo, "install").returncode == 0
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "first", "--effort", "low", "a.py").returncode == 0
    write(repo / "b.py", "b = 1\n")
    with _held(repo):
        proc = hostile(repo, "record", "--model", "m", "--effort", "low", "b.py")
        assert proc.returncode == 0 and b"spooled" in proc.stdout, proc.stderr
    spool = _state(repo) / "spool.jsonl"
    line = spool.read_bytes()
    assert line.count(b'"model": "m"') == 1
    spool.write_bytes(line.replace(b'"model": "m"', b'"model": "' + b"M" * HUGE + b'"'))
    subprocess.run(["git", "add", "b.py"], cwd=repo, check=True)
    blocked = _commit(repo)  # the gate folds the spool in, then names the writer
    assert blocked.returncode == 1 and "BLOCKED" in blocked.stderr, blocked.stderr[:2000]
    assert len(blocked.stderr) < BOUNDED and "M" * 500 in blocked.stderr, len(blocked.stderr)
    assert not spool.exists()


# --- a POSIX class in risk.process_patterns ---------------------------------------------------


def test_a_posix_class_in_the_process_patterns_is_one_line_naming_it(repo: Path) -> None:
    write(repo / ".gentle-hooks.toml", '[risk]\nprocess_patterns = ["[[:alpha:]]+\\\\("]\n')
    subprocess.run(["git", "add", ".gentle-hooks.toml"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "config"], cwd=repo, check=True)
    _delegated(repo)
    hook = _hook(repo, "pre-commit", {"GIT_INDEX_FILE": ".git/index"})
    assert hook.returncode == 2, hook.stderr
    assert hook.stderr.count("\n") == 1 and "Warning" not in hook.stderr, hook.stderr
    assert "risk.process_patterns: '[[:alpha:]]+\\\\('" in hook.stderr, hook.stderr
    assert "a POSIX class such as [[:alpha:]] is not Python regex syntax" in hook.stderr
    assess = hostile(repo, "assess")
    err = assess.stderr.decode()
    assert assess.returncode == 2 and "Warning" not in err and "[[:alpha:]]" in err, err
    assert _commit(repo).stderr.count("\n") == 1  # git commit: the same one line


def test_other_set_syntax_python_warns_about_is_one_line_too(repo: Path) -> None:
    write(repo / ".gentle-hooks.toml", '[risk]\nprocess_patterns = ["[a--z]"]\n')
    proc = hostile(repo, "assess")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Warning" not in err, err
    assert "'[a--z]': Possible set difference" in err and "escape" in err, err


# --- GIT_INDEX_FILE that is not a file ---------------------------------------------------------


def test_an_index_that_is_a_fifo_is_refused_before_git_reads_it(repo: Path, tmp_path: Path) -> None:
    _delegated(repo)
    fifo = tmp_path / "index-fifo"
    os.mkfifo(fifo)
    proc = _hook(repo, "pre-commit", {"GIT_INDEX_FILE": str(fifo)}, timeout=30)  # hung before
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        f"gentle-hook: error: GIT_INDEX_FILE={fifo}: a FIFO, not an index file (git would hang "
        "on it or misread it); unset GIT_INDEX_FILE or name the index file\n"
    )


def test_an_index_that_is_a_device_or_a_directory_is_refused(repo: Path, tmp_path: Path) -> None:
    _delegated(repo)
    for index, kind in (("/dev/zero", "a character device"), (str(tmp_path), "a directory")):
        proc = _hook(repo, "pre-commit", {"GIT_INDEX_FILE": index})
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert f"GIT_INDEX_FILE={index}: {kind}, not an index file" in proc.stderr, proc.stderr
        assert "unmerged" not in proc.stderr
    for command in ("assess", "status"):
        proc = hostile(repo, command, env={"GIT_INDEX_FILE": "/dev/zero"})
        assert proc.returncode == 2 and b"a character device" in proc.stderr, proc.stderr


def test_an_index_git_has_not_written_yet_is_still_judged(repo: Path, tmp_path: Path) -> None:
    """A name no file has yet is an empty index to git: no refusal, a decision."""
    _delegated(repo)
    proc = _hook(repo, "pre-commit", {"GIT_INDEX_FILE": str(tmp_path / "none-yet")})
    assert "not an index file" not in proc.stderr and proc.returncode in (0, 1), proc.stderr


# --- a spool append the system refuses -------------------------------------------------------


def test_a_spool_append_past_the_file_size_limit_names_the_system_reason(repo: Path) -> None:
    assert hostile(repo, "install").returncode == 0
    write(repo / "a.py", "a = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0
    spool = _state(repo) / "spool.jsonl"
    kept = b"\n" * (1 << 20)  # blank lines a fold skips: the spool at the size limit
    spool.write_bytes(kept)
    write(repo / "b.py", "b = 1\n")

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(kept), len(kept)))

    record = ("record", "--model", "m", "--effort", "low", "b.py")
    with _held(repo):
        proc = subprocess.run(
            [sys.executable, "-m", "gentle_hooks", *record],
            cwd=repo,
            preexec_fn=limited,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert (
        f"cannot keep the record in the spool {spool}: File too large: the file size limit "
        f"(ulimit -f) is {len(kept)} bytes (its earlier lines are kept whole); the store "
        "itself refused it: busy: "
    ) in proc.stderr, proc.stderr
    assert spool.read_bytes() == kept  # no torn line: the next fold reads every line


# --- a trigger gentle-hooks did not create ----------------------------------------------------

_EAT = (
    "CREATE TRIGGER eat AFTER INSERT ON writer_entry "
    "BEGIN DELETE FROM writer_entry WHERE id = NEW.id; END"
)


def test_a_foreign_trigger_closes_the_commit_gate_naming_doctor_fix(repo: Path) -> None:
    _delegated(repo, "a.py")
    _sql(repo, _EAT)
    write(repo / "b.py", "import subprocess\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "b.py").returncode == 0
    subprocess.run(["git", "add", "b.py"], cwd=repo, check=True)
    hook = _hook(repo, "pre-commit", {"GIT_INDEX_FILE": ".git/index"})
    ledger = _state(repo) / "ledger.sqlite3"
    assert hook.returncode == 2, hook.stderr
    assert hook.stderr == (
        f"gentle-hook: error: ledger {ledger}: holds a trigger gentle-hooks did not create "
        "(eat): a trigger can change or delete records as they are written, so no gate "
        "decides on this ledger until it is dropped (nothing was deleted); run: "
        "gentle-hook doctor --fix\n"
    )
    assert _commit(repo).returncode != 0
    _sql(repo, "DROP TRIGGER eat")
    assert "BLOCKED" in _commit(repo).stderr  # the gate decides again


def test_a_changed_trigger_of_ours_closes_the_push_gate(repo: Path) -> None:
    _delegated(repo)
    subprocess.run(["git", "commit", "-qm", "w", "--no-verify"], cwd=repo, check=True)
    _sql(
        repo,
        "DROP TRIGGER pending_mutation_call_once",
        "CREATE TRIGGER pending_mutation_call_once AFTER INSERT ON pending_mutation "
        "BEGIN DELETE FROM writer_entry; END",
    )
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    stdin = f"refs/heads/main {head} refs/heads/main {'0' * 40}\n"
    proc = _hook(repo, "pre-push", {}, stdin=stdin)
    assert proc.returncode == 2, proc.stderr
    assert "holds a trigger gentle-hooks did not create (pending_mutation_call_once)" in (
        proc.stderr
    )
    assert proc.stderr.endswith("run: gentle-hook doctor --fix\n"), proc.stderr


def test_a_foreign_trigger_that_empties_the_ledger_still_closes_the_commit_gate(
    repo: Path,
) -> None:
    assert hostile(repo, "install").returncode == 0
    write(repo / "seed.py", "seed = 1\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "seed.py").returncode == 0
    _sql(
        repo, "CREATE TRIGGER eat AFTER INSERT ON writer_entry BEGIN DELETE FROM writer_entry; END"
    )
    write(repo / "b.py", "import subprocess\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "b.py").returncode == 0
    with contextlib.closing(sqlite3.connect(_state(repo) / "ledger.sqlite3")) as conn:
        assert conn.execute("SELECT count(*) FROM writer_entry").fetchone() == (0,)
    assert not (_state(repo) / "idle").exists()  # the sentinel never stands for such a store
    subprocess.run(["git", "add", "b.py"], cwd=repo, check=True)
    hook = _hook(repo, "pre-commit", {"GIT_INDEX_FILE": ".git/index"})
    assert hook.returncode == 2, hook.stderr
    assert "holds a trigger gentle-hooks did not create (eat)" in hook.stderr
    assert _commit(repo).returncode != 0


def test_doctor_fix_drops_a_foreign_trigger_printing_its_sql(repo: Path) -> None:
    _delegated(repo, "a.py")
    _sql(repo, _EAT)
    doctor = hostile(repo, "doctor")
    out = doctor.stdout.decode()
    assert doctor.returncode == 2 and "not ours: trigger eat" in out, out
    assert "the fix drops each, printing its SQL; run: gentle-hook doctor --fix" in out, out
    fixed = hostile(repo, "doctor", "--fix")
    out = fixed.stdout.decode()
    assert f"dropped the trigger eat gentle-hooks did not create from {_state(repo)}" in out
    assert "it was: CREATE TRIGGER eat AFTER INSERT ON writer_entry BEGIN DELETE" in out, out
    with contextlib.closing(sqlite3.connect(_state(repo) / "ledger.sqlite3")) as conn:
        names = conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    assert names == [("pending_mutation_call_once",)]
    assert "BLOCKED" in _commit(repo).stderr  # the gate decides again


@pytest.mark.parametrize("table", ["receipt", "pending_mutation"])
def test_a_dropped_table_names_doctor_fix_which_creates_it_again_empty(
    repo: Path, table: str
) -> None:
    """A table of ours dropped (``sqlite3 ledger.sqlite3 'DROP TABLE receipt'``) is damage
    ``doctor --fix`` repairs: every command's one line names it, and the fix creates the
    table (its indexes and triggers too) again, empty; the gate then decides again."""
    _delegated(repo, "a.py")
    add = ("receipt", "add", "--staged", "--exit-code", "0", "pytest -q: 1 passed")
    assert hostile(repo, *add).returncode == 0
    _sql(repo, f"DROP TABLE {table}")
    for args in (("status",), ("assess", "--staged")):
        proc = hostile(repo, *args)
        err = proc.stderr.decode()
        assert proc.returncode == 2, (args, err)
        assert f"no such table: {table}" in err, err
        assert err.endswith("; run: gentle-hook doctor --fix\n"), err
    assert "; run: gentle-hook doctor --fix" in _commit(repo).stderr  # the gate: closed
    doctor = hostile(repo, "doctor")
    out = doctor.stdout.decode()
    schema = next(line for line in out.splitlines() if " schema: " in line)
    assert doctor.returncode == 2 and f"missing table {table}" in schema, out
    assert schema.endswith("(a table empty: its rows are gone); run: gentle-hook doctor --fix")
    assert "a condition, not damage" not in out, out
    fixed = hostile(repo, "doctor", "--fix")
    out = fixed.stdout.decode()
    assert f"created the missing table {table} in {_state(repo)}" in out, out
    assert fixed.returncode == 0 and out.rstrip().endswith("healthy"), out
    assert hostile(repo, "status").returncode == 0
    assert "BLOCKED" in _commit(repo).stderr  # the writer's work is still gated


def test_a_foreign_table_named_like_a_trigger_is_not_offered_the_trigger_fix(
    repo: Path,
) -> None:
    """Whether the schema line is fixable is decided from what differs, not from its words:
    a planted table whose name reads ``... trigger ...`` is no trigger ``doctor --fix``
    drops."""
    _delegated(repo, "a.py")
    _sql(repo, 'CREATE TABLE "x: trigger y" (a)')
    doctor = hostile(repo, "doctor")
    out = doctor.stdout.decode()
    assert doctor.returncode == 2 and "not ours: table x: trigger y" in out, out
    assert "the fix drops each" not in out, out
    schema = next(line for line in out.splitlines() if " schema: " in line)
    # a foreign table: the fix moves the ledger aside and recovers its rows, never drops it
    assert "the fix moves it aside" in schema, out
