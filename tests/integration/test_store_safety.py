"""The ledger and the files we own under a full disk, a read-only file system and planted
symbolic links (SPEC §6; docs/robustness.md).

A full disk and a read-only file system are real: a small tmpfs mounted for the test (root
only; skipped where mounting is not permitted). Every command ends in a result or one line
and exit 2 naming the path and the reason; a record is acknowledged only when it is in the
ledger, and a refused one leaves no partial row.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import gh, git, write
from tests.integration.test_hostile_inputs import hostile

TABLES = ("pending_mutation", "escalation", "receipt", "spot_check")


def rows(repo: Path) -> dict[str, int]:
    """Rows per record table, read with sqlite3 itself."""
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)) as conn:
        return {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in TABLES}


def _mount(target: Path, size: str) -> bool:
    target.mkdir()
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target)],
        capture_output=True,
        check=False,
    )
    return proc.returncode == 0


def _umount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A repository on its own 4 MiB tmpfs, with a writer's pending change recorded."""
    disk = tmp_path / "disk"
    if os.geteuid() != 0 or not _mount(disk, "4m"):
        pytest.skip("needs root and permission to mount a tmpfs")
    try:
        repo = disk / "repo"
        git(disk, "init", "-q", str(repo))
        write(repo / "app.py", "def f():\n    return 1\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "initial")
        write(repo / "app.py", "def f():\n    return 2\n")
        assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
        yield repo
    finally:
        _umount(disk)


def _fill(disk: Path) -> Path:
    """Fill the file system to the last byte; the filler's path."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


FULL_DISK_COMMANDS = [
    ("receipt", "run", "--", sys.executable, "-c", "print('ok')"),
    ("receipt", "add", "--exit-code", "0", "pytest -q: 3 passed"),
    ("spot-check",),
    ("assess",),
    ("status",),
    ("escalate", "--item", "security", "--reason", "token validation changed"),
    ("hook", "pre-commit"),
    ("install",),
    ("record", "--model", "m2", "--effort", "high"),
    ("doctor",),
]


@pytest.mark.parametrize("args", FULL_DISK_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_full_disk_is_one_line_exit_2_and_no_partial_record(
    small_disk: Path, args: tuple[str, ...]
) -> None:
    repo = small_disk
    git(repo, "add", "-A")
    before = rows(repo)
    filler = _fill(repo.parent)
    proc = hostile(repo, *args)
    after = rows(repo)
    if proc.returncode == 2:
        err = proc.stderr.decode()
        assert "No space left on device" in err, err  # not SQLite's "disk I/O error" alone
        assert str(repo) in err, err  # the line names the file that could not be written
    if proc.returncode != 0 or args[0] in ("assess", "status", "hook", "install", "doctor"):
        assert after == before  # refused, or nothing to record: no row appeared
    else:
        assert sum(after.values()) == sum(before.values()) + 1  # acknowledged: it is there
    filler.unlink()
    assert hostile(repo, "doctor").returncode == 0  # nothing half-written is left behind
    assert hostile(repo, "status").returncode == 0


#: A command that leaves the disk nearly full: room for the ledger's one transaction, not
#: for the 400 KB file it creates in the work tree (the candidate after the run).
FILL_ALL_BUT_48K = """
import os, sys
disk = sys.argv[1]
with open(os.path.join(disk, "spare"), "wb") as fh:
    fh.write(b"\\0" * 48 * 1024)
with open("big.bin", "wb") as fh:
    fh.write(os.urandom(400 * 1024))
fd = os.open(os.path.join(disk, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
for size in (1 << 16, 4096, 1):
    try:
        while True:
            os.write(fd, b"\\0" * size)
    except OSError:
        pass
os.close(fd)
os.unlink(os.path.join(disk, "spare"))
"""


def test_receipt_run_on_a_nearly_full_disk_stores_all_or_nothing(small_disk: Path) -> None:
    """Room for the receipt, none for what the run created: the receipt is stored with its
    exit status, or refused in one line and not stored (never stored with exit 2)."""
    repo = small_disk
    before = rows(repo)
    proc = hostile(
        repo, "receipt", "run", "--", sys.executable, "-c", FILL_ALL_BUT_48K, str(repo.parent)
    )
    after = rows(repo)
    (repo.parent / "filler").unlink()
    if proc.returncode == 2:
        assert after == before, proc.stderr
    else:
        assert proc.returncode == 0 and after["receipt"] > before["receipt"], proc.stderr
    assert hostile(repo, "doctor").returncode == 0


def test_a_spot_check_refused_after_its_run_is_one_line(small_disk: Path) -> None:
    """The re-run fills the disk, so the spot check cannot be stored: one line on stderr
    (where it ran is said on stdout, with the re-run's output), exit 2, nothing stored."""
    repo = small_disk
    disk = repo.parent
    script = (
        "import os, sys; d = sys.argv[1]\n"
        "if os.path.exists(os.path.join(d, 'fill-now')):\n"
        "    fd = os.open(os.path.join(d, 'filler'), os.O_WRONLY | os.O_CREAT, 0o600)\n"
        "    for size in (1 << 16, 4096, 1):\n"
        "        try:\n"
        "            while True: os.write(fd, bytes(size))\n"
        "        except OSError: pass\n"
    )
    ran = hostile(repo, "receipt", "run", "--", sys.executable, "-c", script, str(disk))
    assert ran.returncode == 0, ran.stderr
    before = rows(repo)
    (disk / "fill-now").write_text("")
    proc = hostile(repo, "spot-check")  # one line on stderr (hostile asserts it)
    (disk / "filler").unlink()
    assert proc.returncode == 2, proc.stderr
    assert b"No space left on device" in proc.stderr
    assert proc.stdout.decode().startswith("spot check: re-running receipt #")
    assert rows(repo) == before


def test_a_note_git_cannot_write_never_reports_a_stored_record_as_refused(repo: Path) -> None:
    lock = repo / ".git" / "refs" / "notes" / "gentle-hooks.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")  # a stale lock: git refuses to move the notes ref
    proc = hostile(repo, "receipt", "add", "--committed", "--exit-code", "0", "pytest -q: ok")
    assert proc.returncode == 0, proc.stderr
    assert rows(repo)["receipt"] == 1
    assert b"note: the record is stored in the ledger, but git could not write the note" in (
        proc.stderr + proc.stdout
    )


@pytest.mark.parametrize(
    "args",
    [("install",), ("record", "--model", "m2", "--effort", "high"), ("spot-check",)],
    ids=lambda a: a[0],
)
def test_a_read_only_file_system_is_one_line_exit_2(
    small_disk: Path, args: tuple[str, ...]
) -> None:
    repo = small_disk
    before = rows(repo)
    subprocess.run(["mount", "-o", "remount,ro", str(repo.parent)], check=True)
    try:
        proc = hostile(repo, *args)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(repo.parent)], check=True)
    assert proc.returncode == 2, proc.stderr  # one line (hostile): ours or git's own
    if args[0] == "install":
        assert b"Read-only file system" in proc.stderr and b".git/hooks" in proc.stderr
    assert rows(repo) == before


# --- symbolic links -------------------------------------------------------------------------


def test_a_symlinked_state_directory_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (repo / ".git" / "gentle-hooks").symlink_to(outside)
    write(repo / "src" / "app.py", "x = 2\n")
    proc = hostile(repo, "record", "--model", "m", "--effort", "low")
    assert proc.returncode == 2
    assert b"is a symbolic link; refusing to write through it" in proc.stderr
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_symlinked_wal_or_shm_is_named_by_doctor_and_writers(
    repo: Path, tmp_path: Path, suffix: str
) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    link = repo / ".git" / "gentle-hooks" / f"ledger.sqlite3{suffix}"
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    target = tmp_path / "elsewhere"
    link.symlink_to(target)
    doctor = hostile(repo, "doctor")
    assert doctor.returncode == 2 and f"ledger.sqlite3{suffix}: is a symbolic link" in (
        doctor.stdout.decode()
    ), doctor.stdout
    proc = hostile(repo, "record", "--model", "m", "--effort", "low")
    assert proc.returncode == 2 and f"ledger.sqlite3{suffix} is a symbolic link" in (
        proc.stderr.decode()
    ), proc.stderr
    assert not target.exists()


@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_a_fifo_beside_the_ledger_is_refused_not_waited_on(repo: Path, suffix: str) -> None:
    """SQLite would block for ever opening a FIFO where its journal goes: every command
    refuses it in one line, and doctor names it (never calls the ledger damaged)."""
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    fifo = repo / ".git" / "gentle-hooks" / f"ledger.sqlite3{suffix}"
    with contextlib.suppress(FileNotFoundError):
        fifo.unlink()
    os.mkfifo(fifo)
    for args in (["status"], ["record", "--model", "m", "--effort", "low"]):
        proc = hostile(repo, *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert f"ledger.sqlite3{suffix} is a FIFO" in proc.stderr.decode(), proc.stderr
    doctor = hostile(repo, "doctor")
    assert doctor.returncode == 2 and f"ledger.sqlite3{suffix}: is a FIFO" in (
        doctor.stdout.decode()
    ), doctor.stdout
    fixed = hostile(repo, "doctor", "--fix", timeout=30)
    assert not list((repo / ".git" / "gentle-hooks").glob("ledger.sqlite3.damaged-*")), fixed
    # the FIFO is moved aside (kept) as other residue is, and the ledger works again
    assert fixed.returncode == 0, fixed.stdout
    (kept,) = (repo / ".git" / "gentle-hooks").glob(f"ledger.sqlite3{suffix}.odd-*")
    assert stat.S_ISFIFO(kept.lstat().st_mode)
    assert f"moved {fifo} (a FIFO) aside: {kept}" in fixed.stdout.decode(), fixed.stdout
    status = hostile(repo, "status", timeout=30)
    assert status.returncode == 0 and b"pending mutation #1" in status.stdout, status.stderr


def test_a_symlinked_ledger_is_refused_and_its_target_untouched(repo: Path, tmp_path: Path) -> None:
    write(repo / "src" / "app.py", "x = 2\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    state = repo / ".git" / "gentle-hooks"
    outside = tmp_path / "stolen.sqlite3"
    (state / "ledger.sqlite3").rename(outside)
    (state / "ledger.sqlite3").symlink_to(outside)
    before = outside.read_bytes()
    for args in (("record", "--model", "m", "--effort", "low"), ("status",), ("spot-check",)):
        proc = hostile(repo, *args)
        assert proc.returncode == 2 and b"symbolic link" in proc.stderr, proc.stderr
    git(repo, "add", "-A")
    gate = hostile(repo, "hook", "pre-commit")
    assert gate.returncode == 2 and b"symbolic link" in gate.stderr  # fails closed
    assert outside.read_bytes() == before


def test_a_link_planted_at_the_old_temporary_name_is_never_followed(
    repo: Path, tmp_path: Path
) -> None:
    from gentle_hooks.ledger.sqlite_file import create_store

    state = repo / ".git" / "gentle-hooks"
    state.mkdir()
    target = tmp_path / "attacker.sqlite3"
    ledger = state / "ledger.sqlite3"
    (state / f"ledger.sqlite3.new-{os.getpid()}").symlink_to(target)
    create_store(str(ledger), 1000)
    assert not target.exists() and ledger.is_file() and not ledger.is_symlink()
    leftovers = [p.name for p in state.iterdir() if p.name.startswith("ledger.sqlite3.new-")]
    assert leftovers == [f"ledger.sqlite3.new-{os.getpid()}"]  # the planted link, untouched


def test_install_writes_hooks_whole_and_never_through_a_planted_link(
    repo: Path, tmp_path: Path
) -> None:
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    target = tmp_path / "attacker-file"
    (hooks / "pre-commit.gentle-tmp").symlink_to(target)  # the name an older install used
    assert hostile(repo, "install").returncode == 0
    assert not target.exists()
    assert os.access(hooks / "pre-commit", os.X_OK)
    assert not [p for p in hooks.iterdir() if ".gentle-tmp-" in p.name]


def _tree(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (links as their target), by relative name."""
    out = {}
    for p in sorted(directory.rglob("*")):
        if p.is_symlink():
            out[str(p.relative_to(directory))] = os.readlink(p).encode()
        elif p.is_file():
            out[str(p.relative_to(directory))] = p.read_bytes()
    return out


@contextlib.contextmanager
def _read_only(directory: Path) -> Iterator[None]:
    """``directory`` bind-mounted read-only onto itself (root only; skipped elsewhere)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to bind-mount a directory read-only")
    bound = subprocess.run(
        ["mount", "--bind", str(directory), str(directory)], capture_output=True, check=False
    )
    if bound.returncode != 0:
        pytest.skip("needs permission to bind-mount")
    try:
        subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(directory)], capture_output=True, check=True
        )
        yield
    finally:
        _umount(directory)


@pytest.mark.parametrize("existing", ["none", "foreign", "ours", "no hooks directory"])
@pytest.mark.parametrize(
    "args", [("install",), ("install", "--share", "origin"), ("install", "--warn")]
)
def test_install_on_a_read_only_git_directory_is_one_line_and_changes_nothing(
    repo: Path, existing: str, args: tuple[str, ...]
) -> None:
    git_dir = repo / ".git"
    hooks = git_dir / "hooks"
    if existing == "no hooks directory":
        shutil.rmtree(hooks, ignore_errors=True)
    elif existing == "foreign":
        write(hooks / "pre-commit", "#!/bin/sh\necho theirs\n")
        (hooks / "pre-commit").chmod(0o755)
    elif existing == "ours":
        assert hostile(repo, "install").returncode == 0
    if "--share" in args:  # install --share checks the remote before it writes anything
        subprocess.run(["git", "-C", str(repo), "remote", "add", "origin", str(repo)], check=True)
    config = (git_dir / "config").read_bytes()
    before = _tree(hooks) if hooks.exists() else None
    with _read_only(git_dir):
        proc = hostile(repo, *args)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "Read-only file system" in err and str(hooks) in err, err
    assert (_tree(hooks) if hooks.exists() else None) == before  # nothing half-written
    assert (git_dir / "config").read_bytes() == config


def test_install_refused_on_a_later_hook_changes_no_earlier_one(repo: Path) -> None:
    from gentle_hooks.services.install import DEFAULT_HOOK_TYPES

    hooks = repo / ".git" / "hooks"
    first, last = DEFAULT_HOOK_TYPES[0], DEFAULT_HOOK_TYPES[-1]
    for name in (first, last, f"{last}.gentle-legacy"):
        write(hooks / name, f"#!/bin/sh\necho {name}\n")
        (hooks / name).chmod(0o755)
    before = _tree(hooks)
    proc = hostile(repo, "install")
    assert proc.returncode == 2 and b"already exists" in proc.stderr, proc.stderr
    assert _tree(hooks) == before  # the first hook was not moved aside nor replaced


def test_install_refuses_a_symlinked_hooks_directory(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "shared-hooks"
    outside.mkdir()
    hooks = repo / ".git" / "hooks"
    shutil.rmtree(hooks)
    hooks.symlink_to(outside)
    proc = hostile(repo, "install")
    assert proc.returncode == 2
    assert f"{hooks} is a symbolic link; refusing to write through it".encode() in proc.stderr
    assert list(outside.iterdir()) == []
    git(repo, "config", "core.hooksPath", str(hooks))  # named on purpose: installed there
    assert hostile(repo, "install").returncode == 0
    assert (outside / "pre-commit").is_file()


def test_an_escalation_whose_link_fails_is_not_stored(tmp_path: Path) -> None:
    """Refuter 16r finding 3: the escalation and its links to the work in flight are one
    transaction, so an escalation refused mid-write (a full disk) stores nothing."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    write(repo / "app.py", "x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "initial")
    write(repo / "app.py", "x = 2\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low", "app.py").returncode == 0
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with sqlite3.connect(ledger) as conn:
        # the second write of a two-transaction escalate fails as a full disk makes it fail
        conn.execute(
            "CREATE TRIGGER full BEFORE INSERT ON escalation_entry "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    proc = gh(repo, "escalate", "--item", "security", "--reason", "token check changed")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.count("\n") == 1, proc.stderr
    with sqlite3.connect(ledger) as conn:
        assert conn.execute("SELECT count(*) FROM escalation").fetchone() == (0,)
        conn.execute("DROP TRIGGER full")
    assert "security" not in gh(repo, "status").stdout


def test_a_write_past_the_file_size_limit_says_so(tmp_path: Path) -> None:
    """Refuter 16r finding 6: a write cut short by ``ulimit -f`` (EFBIG; Python ignores
    SIGXFSZ) was reported as "unreadable: disk I/O error"."""
    import resource

    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    write(repo / "a.py", "x = 1\n")
    assert gh(repo, "record", "--model", "m", "--effort", "low", "a.py").returncode == 0

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "receipt", "add", "--exit-code", "0", "t: ok"],
        cwd=repo,
        preexec_fn=limited,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "the file size limit (ulimit -f) is 4096 bytes" in proc.stderr
    assert "unreadable" not in proc.stderr


def test_gate_range_shows_a_non_utf8_ref_as_its_bytes(tmp_path: Path) -> None:
    """Refuter 16r finding 6: a range side that is not UTF-8 is echoed ``\\xfe\\xfd`` (the
    documented form), never ``\\udcfe\\udcfd``."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    git(repo, "commit", "-q", "--allow-empty", "-m", "a")
    for given in ("\udcfe\udcfd..HEAD", "\udcfe\udcfd..", "HEAD..\udcfe\udcfd"):
        proc = subprocess.run(
            [sys.executable, "-m", "gentle_hooks", "gate", "--range", given],
            cwd=repo,
            capture_output=True,
            check=False,
        )
        err = proc.stderr.decode()
        assert proc.returncode == 2 and "\\xfe\\xfd" in err and "udc" not in err, err


def test_overrides_of_one_push_are_stored_together_or_not_at_all(tmp_path: Path) -> None:
    """The two-transaction pattern of refuter 16r finding 3 in overrides: a push of two
    blocked refs overridden stores both overrides in one transaction, so a refused second
    write (a full disk) leaves neither."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    repo = tmp_path / "repo"
    git(tmp_path, "clone", "-q", str(bare), str(repo))
    write(repo / "app.py", "x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "initial")
    git(repo, "push", "-q", "origin", "main")
    write(repo / "app.py", "x = 2\n")
    assert gh(repo, "record", "--model", "o4-mini", "--effort", "low", "app.py").returncode == 0
    git(repo, "commit", "-qam", "writer work")
    head = git(repo, "rev-parse", "HEAD").strip()
    stdin = "".join(f"refs/heads/{b} {head} refs/heads/{b} {'0' * 40}\n" for b in ("a", "b"))
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with sqlite3.connect(ledger) as conn:
        # the second override's insert is refused, as a full disk refuses it (a trigger
        # would do it too, but the gates refuse a ledger with a trigger not theirs): both
        # overrides name the same candidate, which this index lets one row hold
        conn.execute("CREATE UNIQUE INDEX full ON override (identity)")
    env = {"GENTLE_HOOKS_SKIP": "release tonight"}
    proc = gh(repo, "hook", "pre-push", "origin", str(bare), input=stdin, env=env)
    assert proc.returncode == 2 and "UNIQUE constraint failed" in proc.stderr, proc.stderr
    with sqlite3.connect(ledger) as conn:
        assert conn.execute("SELECT count(*) FROM override").fetchone() == (0,)


@pytest.mark.parametrize(
    "args",
    [
        ("record", "--model", "m", "--effort", "low", "src/app.py"),
        ("status",),
        ("assess",),
        ("doctor",),
    ],
    ids=lambda a: a[0],
)
def test_a_read_only_git_directory_names_the_path_and_the_reason(
    repo: Path, args: tuple[str, ...]
) -> None:
    """Neither SQLite's ``unable to open database file`` nor git's ``updating files
    failed`` alone: the line names the directory that refused and the system's reason."""
    write(repo / "src" / "app.py", "x = 2\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low").returncode == 0
    write(repo / "src" / "app.py", "x = 3\n")
    before = rows(repo)
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    wal = Path(f"{ledger}-wal")
    if wal.exists() and wal.stat().st_size == 0:  # as the last connection to close leaves it
        wal.unlink()
        Path(f"{ledger}-shm").unlink(missing_ok=True)
    with _read_only(repo / ".git"):
        proc = hostile(repo, *args)
    err = proc.stderr.decode() + proc.stdout.decode()
    assert proc.returncode == 2, err
    assert f"{repo / '.git'}" in err and ": Read-only file system" in err, err
    assert "SQLite could not read it" not in err
    assert rows(repo) == before
