"""The process scan is bounded and fails closed: an over-long added line, or a scan past
its time, is counted as a process call (``high``), and the reason says so."""

from __future__ import annotations

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
