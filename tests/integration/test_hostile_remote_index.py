"""Hostile input to sync, the index and the echo of user input: one line and exit 2 that
names what is wrong, never an option smuggled into git, never a misleading reason
(SPEC §7 "Exit codes"; docs/robustness.md).

Each case is driven through the real CLI in a real repository with real git commands.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import git, write
from tests.integration.test_hostile_inputs import _dead_pid, hostile
from tests.integration.test_notes_gate import clone, server

__all__ = ["server"]  # the bare server fixture, used by the note-line cases

# --- sync: a remote that git would read as an option ----------------------------------------


def test_sync_refuses_a_remote_that_is_an_option(repo: Path, tmp_path: Path) -> None:
    planted = tmp_path / "PWN"
    for direction in ("fetch", "push"):
        proc = hostile(repo, "sync", direction, "--", f"--upload-pack=touch {planted}")
        assert proc.returncode == 2
        assert not planted.exists(), direction
        err = proc.stderr.decode()
        assert "no remote named '--upload-pack=touch" in err and "git remote -v" in err


def test_sync_fetch_refuses_a_remote_that_is_not_configured(repo: Path) -> None:
    proc = hostile(repo, "sync", "fetch", "nowhere")
    assert proc.returncode == 2
    assert "no remote named 'nowhere' (see: git remote -v)" in proc.stderr.decode()


def test_sync_fetch_from_a_configured_remote_still_works(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    proc = hostile(repo, "sync", "fetch")
    assert proc.returncode == 0, proc.stderr
    assert b"origin has no gentle-hooks notes yet" in proc.stdout


# --- the staged tree: git's own reason, "unmerged" only for a conflict ----------------------


def test_a_ghost_blob_in_the_index_is_named_not_called_a_conflict(repo: Path) -> None:
    ghost = "1234567890123456789012345678901234567890"
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{ghost},ghost.py")
    proc = hostile(repo, "assess", "--staged")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "unmerged" not in err and "--committed-only" not in err
    index = repo / ".git" / "index"
    assert f"the index '{index}' cannot be written as a tree: invalid object" in err, err
    assert "'ghost.py'" in err


def test_a_corrupt_index_is_named_with_gits_reason(repo: Path) -> None:
    (repo / ".git" / "index").write_bytes(b"garbage")
    proc = hostile(repo, "assess", "--staged")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "unmerged" not in err, err
    assert "cannot be written as a tree: index file smaller than expected" in err, err
    assert "gentle-hooks-index-" not in err  # the private copy is not what the user has


# --- residue: every scratch directory a killed run leaves in $TMPDIR -------------------------


def test_doctor_reports_and_fix_removes_a_killed_runs_pycache_and_objects(
    repo: Path, tmp_path: Path
) -> None:
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    dead = _dead_pid()
    kinds = ("pycache", "objects", "salvage")
    for kind in kinds:
        (tmp / f"gentle-hooks-{kind}-{dead}-abc").mkdir()
        (tmp / f"gentle-hooks-{kind}-{dead}-abc" / "x").write_text("x")
    env = {"TMPDIR": str(tmp)}
    report = hostile(repo, "doctor", env=env).stdout.decode()
    for kind in kinds:
        assert f"gentle-hooks-{kind}-{dead}-abc" in report, report
    assert "--fix" in report
    hostile(repo, "doctor", "--fix", env=env)
    assert list(tmp.iterdir()) == []


# --- user input that is not UTF-8 is echoed \xHH, the bytes themselves ----------------------


@pytest.mark.parametrize(
    ("args", "stdin", "env", "echo"),
    [
        (("record", "--model", "m", "--effort", "\udcff", "a.txt"), b"", {}, "'\\xff'"),
        (("review", "\udcff"), b"", {}, "'\\xff'"),
        (("hook", "\udcff\udcfe"), b"", {}, "'\\xff\\xfe'"),
        (("hook", "pre-push", "origin", "url"), b"refs/heads/x \xff y z\n", {}, "'\\xff'"),
    ],
    ids=["effort", "review", "hook", "pre-push"],
)
def test_a_non_utf8_argument_is_echoed_as_its_bytes(
    repo: Path, args: tuple[str, ...], stdin: bytes, env: dict[str, str], echo: str
) -> None:
    proc = hostile(repo, *args, stdin=stdin, env=env)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and echo in err and "\\udc" not in err, err


# --- a note line that cannot be read fails closed in the range gate --------------------------

_WRITER = '{"v":1,"kind":"writer","model":"o4-mini","effort":"low","source":"cli"}'


@pytest.mark.parametrize(
    "line",
    [
        pytest.param('{"v":1,"kind":"writer","model":' + "[" * 70 + "]" * 70 + "}", id="nested"),
        pytest.param(_WRITER + " x", id="trailing-bytes"),
        pytest.param("\ufeff" + _WRITER, id="bom"),
        pytest.param(_WRITER.replace('"v":1', '"v":2'), id="version-2"),
        pytest.param(_WRITER.replace('"v":1', '"v":1,"v":1'), id="duplicate-key"),
    ],
)
def test_an_unreadable_note_line_makes_its_commit_blocked(server: Path, line: str) -> None:
    b = clone(server, "b")
    write(b / "app.py", "def f():\n    return 9\n")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", "-m", "change")
    git(b, "notes", "--ref=gentle-hooks", "add", "-f", "-m", line, "HEAD")
    gate = hostile(b, "gate", "--range", "origin/main..HEAD")
    out = gate.stdout.decode()
    assert gate.returncode == 1, (out, gate.stderr)
    assert "BLOCKED" in out and "note line refused" in out, out


def test_a_non_utf8_skip_reason_is_echoed_as_its_bytes(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    git(repo, "add", "-A")
    proc = hostile(repo, "hook", "pre-commit", env={"GENTLE_HOOKS_SKIP": "by hand \udcff"})
    said = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 0, said
    assert "recorded ('by hand \\xff')" in said and "\\udc" not in said, said


# --- a table no gentle-hooks version creates: doctor --fix moves the ledger aside ------------


def test_a_foreign_table_names_its_remedy_and_the_fix_keeps_the_records(repo: Path) -> None:
    write(repo / "src" / "app.py", "def add(a, b):\n    return b + a\n")
    assert hostile(repo, "record", "--model", "m", "--effort", "low", "src/app.py").returncode == 0
    ledger = repo / ".git" / "gentle-hooks" / "ledger.sqlite3"
    with contextlib.closing(sqlite3.connect(ledger)) as conn:
        conn.execute("CREATE TABLE evil(x)")
        conn.commit()
    report = hostile(repo, "doctor").stdout.decode()
    assert "not ours: table evil; the fix moves it aside" in report, report
    assert "doctor --fix" in report.split("not ours: table evil", 1)[1].split("\n", 1)[0]
    hostile(repo, "doctor", "--fix")
    after = hostile(repo, "doctor")
    assert after.returncode == 0, after.stdout.decode()
    assert "writer: m/low" in hostile(repo, "status").stdout.decode()
