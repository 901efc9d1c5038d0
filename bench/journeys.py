"""Run the journey bench: ``python bench/journeys.py [--fast] [--only NAME] [--json FILE]
[--allow-skip]``.

Run it with the interpreter gentle-hooks is installed in (its ``gentle-hook`` is the CLI
under test). Prints the table, the summary (how many journeys were skipped and why, when
any was) and every block that is not ``in_band``/``by_design``. Exits 1 when any journey
is not ``ok`` (a dead end, an out-of-band step, a failed check, a void fixture), or when
any was skipped (a tool it needs is not installed: it verified nothing) unless
``--allow-skip`` accepts the skips; 0 otherwise. See bench/journeys/__init__.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.journeys.results import Run, document, problems, skipped_line, table
from bench.journeys.runner import run_journeys

#: Journeys at a time by default: two per CPU.
JOBS = 2 * (os.cpu_count() or 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fast", action="store_true", help="only the test suite's subset")
    ap.add_argument("--only", action="append", default=[], help="a journey name (repeatable)")
    ap.add_argument("--json", help="write the gentle-hooks.journeys/v1 document here")
    ap.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=JOBS,
        help=f"journeys at a time (default {JOBS}: two per CPU; a journey is a chain of "
        "short processes, one at a time, so two per core keep the cores busy)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the sandboxes")
    ap.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print every command of a journey that is not ok",
    )
    ap.add_argument("--list", action="store_true", help="list the journeys and exit")
    ap.add_argument(
        "--allow-skip",
        action="store_true",
        help="exit 0 although journeys were skipped (a tool they need is not installed); "
        "by default a skip exits 1: a skipped journey verified nothing",
    )
    args = ap.parse_args(argv)
    from bench.journeys.catalog import JOURNEYS

    if args.list:
        for j in JOURNEYS:
            print(f"{j.name:28} {'fast ' if j.fast else '     '}{j.needs:11} {j.what}")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="gentle-journeys-"))
    start, load_start = time.monotonic(), os.getloadavg()
    setup: dict[str, float] = {}
    outcomes = run_journeys(
        tmp, fast=args.fast, only=args.only, keep=args.keep, jobs=args.jobs, setup=setup
    )
    run = Run(time.monotonic() - start, args.jobs, setup, load_start, os.getloadavg())
    if args.keep:
        print(f"sandboxes kept under {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print(table(outcomes))
    print(run.line())
    skips = skipped_line(outcomes)
    if skips:
        print(skips)
    for line in problems(outcomes):
        print(line)
    if args.verbose:
        for o in outcomes:
            if o.status in ("ok", "skipped"):
                continue
            print(f"\n== {o.name} ({o.status})")
            for st in o.steps:
                print(f"$ [{st.who}] {' '.join(st.argv)}  -> {st.exit}")
                print(
                    "    " + st.out.rstrip().replace("\n", "\n    ") if st.out.strip() else "",
                    end="",
                )
                print()
    if args.json:
        Path(args.json).write_text(json.dumps(document(outcomes, run), indent=2) + "\n")
    if not all(o.status in ("ok", "skipped") for o in outcomes):
        return 1
    if skips and not args.allow_skip:
        print("exit 1: install what the skipped journeys need, or pass --allow-skip to accept")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
