"""The process scan is bounded and fails closed: an over-long added line, or a scan past
its time, is counted as a process call (``high``), and the reason says so."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.classifier import PROCESS_SCAN_LINE_LIMIT, process_scan
from tests.conftest import commit_all, write
from tests.integration.helpers import assess_json


def test_an_over_long_added_line_is_high_and_the_reason_says_it_was_not_scanned(
    repo: Path,
) -> None:
    # "executed" holds the needle "exec" (the file is diffed) but no pattern matches it:
    # scanned, the line would be harmless; at 2 MB it is not scanned but counted.
    write(repo / "src" / "bundle.js", "var a='" + "executed " * 250_000 + "';\n")
    commit_all(repo)
    start = time.monotonic()
    env = assess_json(repo, "--base-ref", "HEAD~1")
    native = env["native"]["assessment"]
    assert env["nativeRisk"] == native["risk"] == "high"
    (reason,) = [r for r in native["reasons"] if r["code"] == "process_boundary"]
    assert reason["path"] == "src/bundle.js"
    assert reason["detail"].startswith("signal: shell_process; line 1 has 2250009 characters")
    assert "counted as a process call" in reason["detail"]
    assert time.monotonic() - start < 30


def test_a_line_at_the_limit_is_scanned() -> None:
    s = RiskSettings()
    ok = AddedLine("a.py", 2, "x" * PROCESS_SCAN_LINE_LIMIT)
    long = AddedLine("a.py", 3, "x" * (PROCESS_SCAN_LINE_LIMIT + 1))
    hit = AddedLine("a.py", 4, "os.system('ls')")
    assert process_scan([ok, long, hit], s) == [
        (
            long,
            f"line 3 has {PROCESS_SCAN_LINE_LIMIT + 1} characters, over the "
            f"{PROCESS_SCAN_LINE_LIMIT} scanned: counted as a process call",
        ),
        (hit, ""),
    ]


def test_the_scan_stops_at_its_time_limit_and_counts_the_rest() -> None:
    # quadratic on a line of x's with no 'z' (no nested repeat: the loader accepts it)
    s = RiskSettings(process_patterns=(r"x.*z\(",))
    lines = [AddedLine("a.py", n, "x" * 4000) for n in range(2, 400)]
    start = time.monotonic()
    hits = process_scan(lines, s, seconds=0.3)
    assert time.monotonic() - start < 3
    ((line, why),) = hits
    assert line.line > 2 and "took over 0.3 s" in why


def test_a_runaway_match_of_a_repository_pattern_is_cut_at_the_time_limit() -> None:
    # '(a|a)*$' backtracks 2**24 ways on this line (~7 s in one re.search): the limit is
    # checked between lines, so only killing the child running the match keeps it
    s = RiskSettings(process_patterns=(r"(a|a)*$",))
    line = AddedLine("a.py", 2, "a" * 24 + "!")
    start = time.monotonic()
    assert process_scan([line], s, seconds=0.5) == [
        (
            line,
            "the process scan took over 0.5 s; line 2 and the rest are counted as a process call",
        )
    ]
    assert time.monotonic() - start < 3


def test_a_runaway_match_is_cut_on_a_worker_thread_too() -> None:
    """The push gate judges commits on threads, where no signal can interrupt a match."""
    s = RiskSettings(process_patterns=(r"(a|a)*$",))
    lines = [AddedLine("a.py", 2, "x = 1"), AddedLine("a.py", 3, "a" * 24 + "!")]
    found: list[list[tuple[AddedLine, str]]] = []
    start = time.monotonic()
    worker = threading.Thread(target=lambda: found.append(process_scan(lines, s, seconds=0.5)))
    worker.start()
    worker.join(10)
    assert time.monotonic() - start < 3
    # 'x = 1' matches '(a|a)*$' (empty at the end): scanned before the time ran out
    assert [(h.line, bool(why)) for h, why in found[0]] == [(2, False), (3, True)]


def test_a_repository_pattern_still_finds_its_matches() -> None:
    s = RiskSettings(process_patterns=(r"\brun_it\(", r"(?i)SPAWN"))
    lines = [
        AddedLine("a.py", 1, "#!/bin/sh"),
        AddedLine("a.py", 2, "x = run_it(1)"),
        AddedLine("a.py", 3, "y = 2"),
        AddedLine("a.py", 4, "spawn \udcff"),  # a non-UTF-8 byte survives the trip
    ]
    assert [(h.line, why) for h, why in process_scan(lines, s)] == [
        (1, ""),
        (2, ""),
        (4, ""),
    ]
