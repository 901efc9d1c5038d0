"""Interleaved timing with only public tools: ``os.posix_spawnp`` and ``os.wait4``.

A case and its floors run round-robin, after warm-up (case, floor, floor', case, ...; the
order reverses every round so neither side always runs on a warmer cache), so machine noise
hits every side of a round alike. Each round gives one *tuple* of wall times; budgets are
evaluated per tuple and summarised by the median [min-max] of those per-tuple ratios.

Peak RSS is measured apart from time, by :func:`peak_rss`: ``ru_maxrss`` of a process
spawned with ``posix_spawn`` (vfork) counts the *spawning* process's peak, because Linux
records the old address space's high-water mark at ``exec``, and that space is the parent's.
A small helper interpreter forks and execs the command instead and reports ``wait4``'s
``ru_maxrss`` (KiB on Linux): the largest resident set of the command *or of any child it
waited for*, what ``/usr/bin/time`` shows, floored by the helper's own few MiB.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Cmd:
    """One command to time.

    Attributes:
        argv: program and arguments (the program is looked up on PATH).
        cwd: working directory.
        env: the complete environment.
        stdin: a file fed to standard input, or None for /dev/null.
        before: an untimed step before every run (e.g. undo the previous commit), or None.
    """

    argv: tuple[str, ...]
    cwd: str
    env: Mapping[str, str]
    stdin: str | None = None
    before: Callable[[], object] | None = None


@dataclass(frozen=True)
class Run:
    """One process run: wall seconds and exit status."""

    seconds: float
    status: int


def spawn(cmd: Cmd, argv: Sequence[str] | None = None, fd3: int | None = None) -> Run:
    """Run ``cmd`` once with stdout/stderr on /dev/null; measure its wall time.

    ``cmd.before`` runs first and is not timed. ``argv`` replaces ``cmd.argv`` (to run it
    through a helper), which then gets ``fd3`` as its file descriptor 3.
    """
    if cmd.before is not None:
        cmd.before()
    devnull = os.open(os.devnull, os.O_RDWR)
    stdin = os.open(cmd.stdin, os.O_RDONLY) if cmd.stdin else devnull
    here = os.getcwd()
    try:
        os.chdir(cmd.cwd)
        acts = [
            (os.POSIX_SPAWN_DUP2, stdin, 0),
            (os.POSIX_SPAWN_DUP2, devnull, 1),
            (os.POSIX_SPAWN_DUP2, devnull, 2),
        ]
        if fd3 is not None:
            acts.append((os.POSIX_SPAWN_DUP2, fd3, 3))
        args = list(cmd.argv if argv is None else argv)
        start = time.perf_counter()
        pid = os.posix_spawnp(args[0], args, dict(cmd.env), file_actions=acts)
        _, status, _ = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        os.chdir(here)
        os.close(devnull)
        if stdin != devnull:
            os.close(stdin)
    return Run(elapsed, os.waitstatus_to_exitcode(status))


#: Forks, execs the command, and writes "<ru_maxrss KiB> <exit status>" to fd 3.
_RSS_HELPER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.close(3)\n"
    "    try:\n"
    "        os.execvp(sys.argv[1], sys.argv[1:])\n"
    "    finally:\n"
    "        os._exit(127)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "os.write(3, b'%d %d' % (usage.ru_maxrss, os.waitstatus_to_exitcode(status)))\n"
)


def peak_rss(cmd: Cmd, python: str, runs: int = 2) -> float:
    """Peak RSS of ``cmd`` in MiB: the largest of ``runs`` runs through the helper.

    Raises:
        RuntimeError: the command exits non-zero.
    """
    peak = 0
    for _ in range(runs):
        read_end, write_end = os.pipe()
        try:
            spawn(cmd, [python, "-I", "-S", "-c", _RSS_HELPER, *cmd.argv], write_end)
        finally:
            os.close(write_end)
        with os.fdopen(read_end, "rb") as fh:
            kib, status = (int(x) for x in fh.read().split())
        if status != 0:
            raise RuntimeError(f"{' '.join(cmd.argv)} exited {status}")
        peak = max(peak, kib)
    return peak / 1024


def interleave(
    cmds: Mapping[str, Cmd], rounds: int = 20, warmup: int = 3, ok: Sequence[int] = (0,)
) -> dict[str, list[Run]]:
    """Run every command once per round, ``warmup`` untimed rounds then ``rounds`` timed.

    Args:
        cmds: name -> command; the first is the case, the others its floors.
        ok: exit statuses that are not failures.

    Returns:
        name -> the timed runs, index i of every list from the same round.

    Raises:
        RuntimeError: a command exits outside ``ok`` (a benchmark of a failure measures
            nothing).
    """
    names = list(cmds)
    out: dict[str, list[Run]] = {n: [] for n in names}
    for i in range(warmup + rounds):
        order = names if i % 2 == 0 else names[::-1]
        for name in order:
            run = spawn(cmds[name])
            if run.status not in ok:
                raise RuntimeError(f"{name}: {' '.join(cmds[name].argv)} exited {run.status}")
            if i >= warmup:
                out[name].append(run)
    return out


@dataclass(frozen=True)
class Spread:
    """Median [min-max] of a sample."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(statistics.median(values), min(values), max(values))

    def __str__(self) -> str:
        return f"{self.median:5.2f} [{self.low:5.2f}-{self.high:5.2f}]"


def median_ms(runs: Sequence[Run]) -> float:
    """Median wall time of ``runs`` in milliseconds."""
    return statistics.median(r.seconds for r in runs) * 1000
