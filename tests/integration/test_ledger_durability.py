"""Losing nothing (SPEC §6): concurrent writers from two linked worktrees, and SIGKILL.

Writers are separate processes, as hooks are: each opens the shared ledger under the
common git dir itself and records through the real service (one transaction per record).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gentle_hooks.git.repository import Repository
from gentle_hooks.ledger.diagnose import diagnose
from gentle_hooks.ledger.location import ledger_path
from gentle_hooks.ledger.records import PendingMutation
from gentle_hooks.ledger.store import Ledger

PROCESSES_PER_WORKTREE = 3
RECORDS_PER_PROCESS = 250

_WRITER = textwrap.dedent(
    """
    import os, sys, time
    from gentle_hooks.services.mutation import MutationRequest, record_mutation
    worktree, tag, count, start_at = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    while time.time() < start_at:
        time.sleep(0.001)
    for i in range(count):
        record_mutation(
            MutationRequest(
                cwd=worktree, model="o4-mini", effort="low", source="test",
                session_id=tag, tool_call_id=str(i), paths=(f"src/f{i}.py",),
            ),
            os.environ,
        )
    """
)

_KILLED_WRITER = textwrap.dedent(
    """
    import itertools, sys
    from gentle_hooks.ledger.store import Ledger
    from gentle_hooks.ledger.records import PendingMutation
    led = Ledger.open(sys.argv[1])
    for i in itertools.count():
        rec = led.add(PendingMutation(
            root=sys.argv[2], model="m", effort="low", tool_call_id=str(i),
            paths=tuple(f"dir{i}/file{j}.py" for j in range(40)),
        ))
        print(rec.id, flush=True)
    """
)


@pytest.fixture
def two_worktrees(repo: Path, git: Callable[..., str]) -> tuple[Path, Path]:
    second = repo.parent / "second worktree"
    git(repo, "worktree", "add", "-q", "-b", "other", str(second))
    return repo, second


def test_linked_worktrees_share_one_ledger_outside_the_work_tree(
    two_worktrees: tuple[Path, Path],
) -> None:
    a, b = (Repository.open(str(p)) for p in two_worktrees)
    path = ledger_path(a.paths.common_dir)
    assert path == ledger_path(b.paths.common_dir)
    assert path == str(two_worktrees[0] / ".git" / "gentle-hooks" / "ledger.sqlite3")
    assert a.paths.toplevel != b.paths.toplevel


def test_concurrent_writers_from_two_worktrees_lose_nothing(
    two_worktrees: tuple[Path, Path], tmp_path: Path
) -> None:
    script = tmp_path / "writer.py"
    script.write_text(_WRITER, encoding="utf-8")
    start_at = time.time() + 1.5  # every writer starts together, after all imports
    procs = []
    for wt_index, wt in enumerate(two_worktrees):
        for p in range(PROCESSES_PER_WORKTREE):
            tag = f"wt{wt_index}-p{p}"
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        str(script),
                        str(wt),
                        tag,
                        str(RECORDS_PER_PROCESS),
                        str(start_at),
                    ],
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
    began = time.monotonic()
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    elapsed = time.monotonic() - began

    repo = Repository.open(str(two_worktrees[0]))
    led = Ledger.open_existing(ledger_path(repo.paths.common_dir))
    assert led is not None
    with led:
        total = led.counts()["pending_mutation"]
        for wt_index, wt in enumerate(two_worktrees):
            root = Repository.open(str(wt)).paths.toplevel
            assert root is not None
            seen = {(m.session_id, m.tool_call_id) for m in led.pending_mutations(root)}
            expected = {
                (f"wt{wt_index}-p{p}", str(i))
                for p in range(PROCESSES_PER_WORKTREE)
                for i in range(RECORDS_PER_PROCESS)
            }
            assert seen == expected
            assert len(led.pending_mutations(root)) == len(expected)
    writers = 2 * PROCESSES_PER_WORKTREE
    assert total == writers * RECORDS_PER_PROCESS
    print(
        f"\nconcurrency: {writers} processes x {RECORDS_PER_PROCESS} records = {total} "
        f"recorded, lost 0, in {elapsed:.1f} s"
    )
    assert all(c.ok for c in diagnose(led.path))


def test_concurrent_cli_writers_lose_nothing(two_worktrees: tuple[Path, Path]) -> None:
    per_process = 8
    loop = (
        "for i in $(seq 1 {n}); do "
        '"$PY" -m gentle_hooks record --model o4-mini --effort low --session {tag} '
        '--tool-call "$i" || exit 1; done'
    )
    procs = [
        subprocess.Popen(
            ["sh", "-c", loop.format(n=per_process, tag=f"cli{k}")],
            cwd=two_worktrees[k % 2],
            env={**os.environ, "PY": sys.executable},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    repo = Repository.open(str(two_worktrees[0]))
    led = Ledger.open_existing(ledger_path(repo.paths.common_dir))
    assert led is not None
    with led:
        assert led.counts()["pending_mutation"] == 4 * per_process


@pytest.mark.parametrize("round_", range(3))
def test_a_writer_killed_mid_write_leaves_every_committed_record(
    repo: Path, tmp_path: Path, round_: int
) -> None:
    path = ledger_path(str(repo / ".git"))
    script = tmp_path / "killed.py"
    script.write_text(_KILLED_WRITER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), path, str(repo)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    committed: list[int] = []
    target = random.randint(150, 400)
    while len(committed) < target:
        line = proc.stdout.readline()
        assert line, "the writer died before it was killed"
        committed.append(int(line))
    os.kill(proc.pid, signal.SIGKILL)  # most likely inside the next transaction
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    # acknowledgements still in the pipe were printed before the kill: they count too
    committed += [int(line) for line in proc.stdout.read().split()]

    led = Ledger.open_existing(path)
    assert led is not None
    with led:
        rows = led.pending_mutations(str(repo))
        ids = [r.id for r in rows]
        assert ids[: len(committed)] == committed  # every acknowledged record, in order
        assert len(ids) - len(committed) in (0, 1)  # at most the one committed unacknowledged
        assert all(len(r.paths) == 40 for r in rows)  # no torn record
    checks = {c.name: c for c in diagnose(path)}
    assert checks["integrity"].detail == "ok"
    with Ledger.open(path) as led:  # the lock died with the writer: others can write
        led.add(PendingMutation(root=str(repo), model="m", effort="low"))
        assert led.counts()["pending_mutation"] == len(ids) + 1
