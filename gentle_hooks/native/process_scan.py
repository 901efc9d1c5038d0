"""The process-execution scan of added lines (SPEC §4 "process execution in the changed
lines"), bounded and failing closed.

Room ``native``, pure but for a monotonic clock that bounds the scan: added lines and the
risk settings in, the flagged lines out. A line over :data:`PROCESS_SCAN_LINE_LIMIT`
characters (minified code, a data blob) is not scanned but flagged, so no configured
pattern runs over megabytes of one line; once :data:`PROCESS_SCAN_SECONDS` are spent the
next line is flagged and the scan ends. Either makes the candidate ``high``
(``process_boundary``), as a process call would (``docs/native-contract.md``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine

#: Characters of one added line the process scan reads at most: a longer line (minified
#: code, a data blob) is not scanned but counted as a process call (fail closed), so that
#: no configured pattern runs over megabytes of one line.
PROCESS_SCAN_LINE_LIMIT = 4096
#: Seconds the process scan of one candidate takes at most: the line being scanned when
#: they are spent, and the rest, are not scanned but counted as a process call.
PROCESS_SCAN_SECONDS = 10.0


def process_hits(lines: Iterable[AddedLine], s: RiskSettings) -> list[AddedLine]:
    """Added lines that execute a process: a shebang on line 1, or a process call
    (:func:`process_scan` without the reason each is flagged for)."""
    return [line for line, _ in process_scan(lines, s)]


def process_scan(
    lines: Iterable[AddedLine], s: RiskSettings, *, seconds: float = PROCESS_SCAN_SECONDS
) -> list[tuple[AddedLine, str]]:
    """Added lines flagged as process execution, each with why it is flagged unscanned
    (empty: a shebang on line 1 or a match of ``risk.process_patterns``).

    Fail closed, bounded: a line over :data:`PROCESS_SCAN_LINE_LIMIT` characters is
    flagged without being scanned; once ``seconds`` are spent, the next line is flagged
    unscanned and the scan ends (the candidate is ``high`` whatever the rest holds). A
    line's scan is bounded by its length and the patterns' cost (nested repeats are
    refused by the config loader).
    """
    patterns: list[re.Pattern[str]] = []
    hits: list[tuple[AddedLine, str]] = []
    deadline: float | None = None
    for line in lines:
        if not patterns:  # compiled on the first line: most candidates bring none to scan
            patterns = [re.compile(p) for p in s.process_patterns]
            deadline = time.monotonic() + seconds
        if line.line == 1 and line.text.startswith("#!"):
            hits.append((line, ""))
        elif len(line.text) > PROCESS_SCAN_LINE_LIMIT:
            hits.append((line, _unscanned_long(line)))
        elif deadline is not None and time.monotonic() > deadline:
            hits.append((line, _unscanned_late(line, seconds)))
            break
        elif any(p.search(line.text) for p in patterns):
            hits.append((line, ""))
    return hits


def _unscanned_long(line: AddedLine) -> str:
    return (
        f"line {line.line} has {len(line.text)} characters, over the "
        f"{PROCESS_SCAN_LINE_LIMIT} scanned: counted as a process call"
    )


def _unscanned_late(line: AddedLine, seconds: float) -> str:
    return (
        f"the process scan took over {seconds:g} s; line {line.line} and the rest "
        "are counted as a process call"
    )
