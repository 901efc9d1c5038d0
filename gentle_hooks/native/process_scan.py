"""The process-execution scan of added lines (SPEC §4 "process execution in the changed
lines"), bounded and failing closed.

Room ``native``, pure but for a monotonic clock and, for a repository's own patterns, a
child process that bounds the scan: added lines and the risk settings in, the flagged
lines out. A line over :data:`PROCESS_SCAN_LINE_LIMIT` characters (minified code, a data
blob) is not scanned but flagged, so no configured pattern runs over megabytes of one line;
once :data:`PROCESS_SCAN_SECONDS` are spent the next line is flagged and the scan ends (a
repository's own patterns run in a child process killed then, so one runaway match cannot
outlast the limit). Either makes the candidate ``high`` (``process_boundary``), as a
process call would (``docs/native-contract.md``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterable

from gentle_hooks.config.settings import DEFAULT_PROCESS_PATTERNS, RiskSettings
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
    unscanned and the scan ends (the candidate is ``high`` whatever the rest holds). The
    packaged patterns run here, checked between lines; a repository's own patterns run in
    a child process that is killed when the time is up, so that even a pattern the
    config loader's shape check misses cannot hold the scan inside one match.
    """
    lines = list(lines)
    todo = [line.text for line in lines if not _shebang(line) and not _too_long(line)]
    if not todo:
        verdicts: list[bool] = []
        why_not = ""
    elif s.process_patterns == DEFAULT_PROCESS_PATTERNS:
        verdicts, why_not = _scan_here(todo, s.process_patterns, seconds)
    else:
        verdicts, why_not = _scan_in_child(todo, s.process_patterns, seconds)
    hits: list[tuple[AddedLine, str]] = []
    scanned = iter(verdicts)
    for line in lines:
        if _shebang(line):
            hits.append((line, ""))
        elif _too_long(line):
            hits.append((line, _unscanned_long(line)))
        else:
            verdict = next(scanned, None)
            if verdict is None:
                hits.append(
                    (
                        line,
                        f"{why_not}; line {line.line} and the rest are counted as a process call",
                    )
                )
                break
            if verdict:
                hits.append((line, ""))
    return hits


def _shebang(line: AddedLine) -> bool:
    return line.line == 1 and line.text.startswith("#!")


def _too_long(line: AddedLine) -> bool:
    return len(line.text) > PROCESS_SCAN_LINE_LIMIT


def _scan_here(
    texts: list[str], patterns: tuple[str, ...], seconds: float
) -> tuple[list[bool], str]:
    """Whether each of a prefix of ``texts`` matches one of ``patterns``, the time checked
    between lines; the prefix ends where the time ran out (the second item says so)."""
    compiled = [re.compile(p) for p in patterns]
    deadline = time.monotonic() + seconds
    verdicts: list[bool] = []
    for text in texts:
        if time.monotonic() > deadline:
            break
        verdicts.append(any(p.search(text) for p in compiled))
    return verdicts, _late(seconds)


#: The child of :func:`_scan_in_child`: standard library only, one byte per line as
#: soon as the line is decided, so that a kill keeps every verdict already reached.
_CHILD = """
import json, re, sys
job = json.loads(sys.stdin.buffer.read())
compiled = [re.compile(p) for p in job["patterns"]]
out = sys.stdout.buffer
for text in job["texts"]:
    out.write(b"1" if any(p.search(text) for p in compiled) else b"0")
    out.flush()
"""


def _scan_in_child(
    texts: list[str], patterns: tuple[str, ...], seconds: float
) -> tuple[list[bool], str]:
    """As :func:`_scan_here`, in a child Python killed after ``seconds``: a match that
    backtracks without end is interrupted there, whatever thread asked."""
    if not sys.executable:  # an embedded interpreter: nothing to run the child with
        return [], "the process scan could not start"
    import json  # only a repository's own patterns come here: the pass path stays without it

    job = json.dumps({"patterns": patterns, "texts": texts}).encode()
    # -I -S: no user site, no PYTHON* variables, no site-packages: only the stdlib runs
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        out, _ = proc.communicate(job, timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()  # what the child wrote before it was killed
        return _verdicts(out), _late(seconds)
    return _verdicts(out), f"the process scan stopped (exit {proc.returncode})"


def _verdicts(out: bytes) -> list[bool]:
    return [byte == ord("1") for byte in out if byte in b"01"]


def _late(seconds: float) -> str:
    return f"the process scan took over {seconds:g} s"


def _unscanned_long(line: AddedLine) -> str:
    return (
        f"line {line.line} has {len(line.text)} characters, over the "
        f"{PROCESS_SCAN_LINE_LIMIT} scanned: counted as a process call"
    )
