"""The ``/proc`` reading of :func:`gentle_hooks.services.agent_leftover.left_behind`, over
a fake ``/proc`` root: a real directory tree of ``PID/stat`` files, ``PID/cwd`` and
``PID/fd/N`` symbolic links (issue 17: a process a shell call left behind, seen by the
process, not the words).

The call's snapshot was written at tick 1000; the hook (pid 50) started at tick 1100 under
the agent (pid 10, started at tick 5), itself under a terminal (pid 5) under pid 1.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gentle_hooks.services.agent_leftover import left_behind, ticks_since

SINCE = 1000
World = tuple[Path, Path, Path]
HOOK = 1100


def _proc(
    root: Path,
    pid: int,
    ppid: int,
    start: int,
    *,
    name: str = "sh",
    state: str = "S",
    cwd: Path | None = None,
    fds: tuple[Path, ...] = (),
) -> None:
    d = root / str(pid)
    (d / "fd").mkdir(parents=True)
    rest = " ".join(["0"] * 17 + [str(start)] + ["0"] * 30)
    (d / "stat").write_text(f"{pid} ({name}) {state} {ppid} {rest}\n")
    os.symlink(cwd or Path("/"), d / "cwd")
    for i, f in enumerate(fds):
        os.symlink(f, d / "fd" / str(i))


@pytest.fixture
def world(tmp_path: Path) -> World:
    """(fake /proc, the work tree, a directory outside it), with init, a terminal, the
    agent and the hook."""
    proc, work, other = tmp_path / "proc", tmp_path / "work", tmp_path / "elsewhere"
    for d in (proc, work / "src", other):
        d.mkdir(parents=True)
    _proc(proc, 1, 0, 1, name="init")
    _proc(proc, 5, 1, 3, name="tmux: server")
    _proc(proc, 10, 5, 5, name="claude", cwd=work)
    _proc(proc, 50, 10, HOOK, name="python3", cwd=work)
    return proc, work, other


def _found(proc: Path, work: Path) -> list[int]:
    return [f.pid for f in left_behind([str(work)], SINCE, proc=str(proc), me=50)]


def test_an_orphan_started_in_the_call_with_its_cwd_in_the_work_tree(world: World) -> None:
    proc, work, _ = world
    _proc(proc, 60, 1, 1050, cwd=work / "src")
    got = left_behind([str(work)], SINCE, proc=str(proc), me=50)
    assert [(f.pid, f.name, f.where) for f in got] == [(60, "sh", str(work / "src"))]


def test_a_process_started_before_the_call_does_not_count(world: World) -> None:
    proc, work, _ = world
    _proc(proc, 60, 1, 999, cwd=work)  # a person's watcher, orphaned long ago
    _proc(proc, 61, 10, 900, cwd=work)  # the agent's own older child
    assert _found(proc, work) == []


def test_a_descendant_of_the_agent_with_an_open_file_in_the_work_tree(world: World) -> None:
    proc, work, other = world
    _proc(proc, 60, 10, 1010, name="bash", cwd=other)  # the call's shell, still alive
    _proc(proc, 61, 60, 1020, name="sed", cwd=other, fds=(Path("/dev/null"), work / "a.py"))
    assert _found(proc, work) == [61]


def test_a_persons_process_not_under_the_agent_nor_orphaned(world: World) -> None:
    proc, work, _ = world
    _proc(proc, 20, 1, 2, name="sshd")
    _proc(proc, 21, 20, 4, name="bash", cwd=work)  # a person's shell, started before
    _proc(proc, 60, 21, 1050, name="vim", cwd=work)  # started during the call
    assert _found(proc, work) == []


def test_outside_the_work_tree_or_a_zombie_does_not_count(world: World) -> None:
    proc, work, other = world
    _proc(proc, 60, 1, 1050, cwd=other, fds=(other / "x",))
    _proc(proc, 61, 1, 1050, state="Z", cwd=work)
    _proc(proc, 62, 1, 1050, cwd=Path(f"{work}-sibling"))  # a prefix, not inside
    assert _found(proc, work) == []


def test_the_hooks_own_chain_and_another_hook_of_the_event_do_not_count(world: World) -> None:
    proc, work, _ = world
    (proc / "50").rename(proc / "gone")
    _proc(proc, 40, 10, HOOK, name="sh", cwd=work)  # the runtime's shell running our hook
    _proc(proc, 50, 40, HOOK, name="python3", cwd=work)
    _proc(proc, 41, 10, HOOK, name="sh", cwd=work)  # another hook of the same event
    _proc(proc, 42, 41, HOOK + 1, name="prettier", cwd=work)
    _proc(proc, 51, 50, HOOK + 2, name="git", cwd=work)  # the hook's own child
    assert _found(proc, work) == []


def test_an_orphan_in_the_hooks_tick_counts(world: World) -> None:
    """A call that returns at once: its orphan may start in the hook's clock tick."""
    proc, work, _ = world
    _proc(proc, 60, 1, HOOK, name="bash", cwd=work)
    assert _found(proc, work) == [60]


def test_the_child_of_a_fresh_orphan_and_an_orphan_of_a_subreaper(world: World) -> None:
    proc, work, other = world
    _proc(proc, 60, 1, 1050, name="bash", cwd=other)
    _proc(proc, 61, 60, 1060, name="sleep", cwd=work)  # under the orphan, in the work tree
    _proc(proc, 70, 5, 1070, name="bash", cwd=work)  # reparented to the multiplexer
    assert _found(proc, work) == [61, 70]


def test_unreadable_entries_are_skipped(world: World) -> None:
    proc, work, _ = world
    (proc / "77").mkdir()  # no stat: gone, or not readable
    (proc / "78").mkdir()
    (proc / "78" / "stat").write_text("78 (x) S\n")  # cut short
    (proc / "self").mkdir()  # not a pid
    _proc(proc, 60, 1, 1050, name="a) b (c", cwd=work)  # a name holding parentheses
    os.unlink(proc / "60" / "cwd")
    _proc(proc, 61, 1, 1050, name="a) b (c", cwd=work)
    got = left_behind([str(work)], SINCE, proc=str(proc), me=50)
    assert [(f.pid, f.name) for f in got] == [(61, "a) b (c")]


def test_no_proc_finds_nothing(tmp_path: Path) -> None:
    assert left_behind([str(tmp_path)], SINCE, proc=str(tmp_path / "none"), me=1) == []


@pytest.mark.skipif(not hasattr(time, "CLOCK_BOOTTIME"), reason="Linux clock")
def test_ticks_since_matches_the_kernels_clock() -> None:
    now = ticks_since(time.time())
    up = float(Path("/proc/uptime").read_text().split()[0])
    assert abs(now - up * os.sysconf("SC_CLK_TCK")) < 200
    assert ticks_since(time.time() - 10) <= now - 9 * os.sysconf("SC_CLK_TCK")
