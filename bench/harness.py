"""Paired-ratio timing with only public tools: ``os.posix_spawn`` and ``os.wait4``.

Each case runs as interleaved pairs against its floor (case, floor, case, floor...), after
warm-up, so machine noise hits both sides alike; we report the per-pair ratio median
[min-max], absolute medians, and peak RSS (``ru_maxrss`` of the child, KiB on Linux).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    """One process run: wall seconds, peak RSS in KiB, exit status."""

    seconds: float
    rss_kib: int
    status: int


def spawn(argv: Sequence[str], cwd: str, env: Mapping[str, str] | None = None) -> Run:
    """Run argv once with stdout/stderr to /dev/null; measure wall time and peak RSS."""
    devnull = os.open(os.devnull, os.O_RDWR)
    here = os.getcwd()
    try:
        os.chdir(cwd)
        acts = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                (os.POSIX_SPAWN_DUP2, devnull, 2)]
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], list(argv), dict(env or os.environ), file_actions=acts)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        os.chdir(here)
        os.close(devnull)
    return Run(elapsed, int(usage.ru_maxrss), os.waitstatus_to_exitcode(status))


@dataclass(frozen=True)
class PairStats:
    """Result of a paired comparison (times in milliseconds, RSS in MiB)."""

    name: str
    ratio_median: float
    ratio_min: float
    ratio_max: float
    case_ms: float
    floor_ms: float
    case_rss_mib: float
    floor_rss_mib: float
    pairs: int


def paired(
    name: str,
    case: Sequence[str],
    floor: Sequence[str],
    cwd: str,
    pairs: int = 20,
    warmup: int = 3,
    env: Mapping[str, str] | None = None,
) -> PairStats:
    """Run ``case`` and ``floor`` interleaved ``pairs`` times after ``warmup`` pairs.

    Raises:
        RuntimeError: the case exits non-zero (a benchmark of a failure measures nothing).
    """
    for _ in range(warmup):
        spawn(case, cwd, env)
        spawn(floor, cwd, env)
    ratios, cs, fs, crss, frss = [], [], [], [], []
    for _ in range(pairs):
        c = spawn(case, cwd, env)
        f = spawn(floor, cwd, env)
        if c.status not in (0, 1):
            raise RuntimeError(f"{name}: {' '.join(case)} exited {c.status}")
        ratios.append(c.seconds / f.seconds)
        cs.append(c.seconds)
        fs.append(f.seconds)
        crss.append(c.rss_kib)
        frss.append(f.rss_kib)
    return PairStats(
        name, statistics.median(ratios), min(ratios), max(ratios),
        statistics.median(cs) * 1000, statistics.median(fs) * 1000,
        max(crss) / 1024, max(frss) / 1024, pairs,
    )


def median_ms(argv: Sequence[str], cwd: str, runs: int = 20, env: Mapping[str, str] | None = None
              ) -> float:
    """Median wall time of ``argv`` in milliseconds over ``runs`` runs (after one warm-up)."""
    spawn(argv, cwd, env)
    return statistics.median(spawn(argv, cwd, env).seconds for _ in range(runs)) * 1000


def format_row(s: PairStats, vs: str) -> str:
    """One table row: name, ratio median [min-max] vs floor, absolute medians, peak RSS."""
    return (f"{s.name:<34} {s.ratio_median:6.2f}x [{s.ratio_min:5.2f}-{s.ratio_max:5.2f}] vs {vs:<4}"
            f" {s.case_ms:8.1f} ms / {s.floor_ms:7.1f} ms   RSS {s.case_rss_mib:6.1f} MiB"
            f" (floor {s.floor_rss_mib:5.1f})")
