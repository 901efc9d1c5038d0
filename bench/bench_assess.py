"""Benchmark ``gentle-hook assess --committed-only`` against its floors.

Floors, measured in the same run as interleaved pairs: P = ``python -I -c pass`` with the
interpreter gentle-hook runs on; G = ``git diff --raw --numstat -z A B`` on the same range.
Budget (issue 8): assess <= 1.3 x G + 10 x P (medians).

Usage:
  python bench/bench_assess.py                      # generated 30k-file fixture, 5 ranges
  python bench/bench_assess.py --repo PATH --range A..B [--range C..D]
  python bench/bench_assess.py --files 3000 --history 200   # a smaller fixture, faster
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fixture import RANGES, build  # noqa: E402
from harness import format_row, paired  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def gentle_hook_argv() -> list[str]:
    """How to run gentle-hook: the console script beside this interpreter, else -m."""
    script = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "gentle_hooks"]


def changed_files(repo: str, a: str, b: str) -> int:
    out = subprocess.run(["git", "diff", "--name-only", "-z", a, b], cwd=repo,
                         capture_output=True, check=True).stdout
    return out.count(b"\0")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="assess latency as ratios against its floors")
    ap.add_argument("--repo", help="an existing repository (default: generated fixture)")
    ap.add_argument("--range", action="append", default=[], help="A..B (repeatable)")
    ap.add_argument("--files", type=int, default=30000, help="fixture size (files)")
    ap.add_argument("--history", type=int, default=2000, help="fixture history (commits)")
    ap.add_argument("--pairs", type=int, default=20)
    args = ap.parse_args(argv)

    if args.repo:
        repo = os.path.abspath(args.repo)
        ranges = [tuple(r.split("..", 1)) for r in args.range] or [("HEAD~1", "HEAD")]
    else:
        repo = os.path.join(HERE, ".fixtures", f"large-{args.files}-{args.history}")
        if not os.path.isdir(repo):
            os.makedirs(os.path.dirname(repo), exist_ok=True)
            print(f"building fixture {repo} ...", flush=True)
            build(repo, args.files, args.history)
        ranges = [(f"range-{k}-base", f"range-{k}") for k in RANGES]

    work = os.path.join(HERE, ".fixtures", "worktree-" + os.path.basename(repo.rstrip("/")))
    if os.path.isdir(work):
        subprocess.run(["git", "worktree", "remove", "--force", work], cwd=repo, check=False)
        shutil.rmtree(work, ignore_errors=True)
    subprocess.run(["git", "worktree", "add", "-q", "--detach", work, ranges[0][1]], cwd=repo,
                   check=True)
    py_floor = [sys.executable, "-I", "-c", "pass"]
    failures = 0
    print(f"{'case':<34} {'ratio median [min-max]':<28} {'case':>11} / {'floor':>10}")
    try:
        for a, b in ranges:
            subprocess.run(["git", "checkout", "-q", "--detach", b], cwd=work, check=True)
            n = changed_files(work, a, b)
            git_floor = ["git", "diff", "--raw", "--numstat", "-z", a, b]
            case = [*gentle_hook_argv(), "assess", "--committed-only", "--base-ref", a, "--json"]
            label = f"assess {n} files"
            vs_p = paired(label, case, py_floor, work, pairs=args.pairs)
            vs_g = paired(label, case, git_floor, work, pairs=args.pairs)
            budget = 1.3 * vs_g.floor_ms + 10 * vs_p.floor_ms
            ok = vs_g.case_ms <= budget
            failures += not ok
            print(format_row(vs_p, "P"))
            print(format_row(vs_g, "G"))
            print(f"{'':<34} budget 1.3G+10P = {budget:.1f} ms, median {vs_g.case_ms:.1f} ms: "
                  f"{'PASS' if ok else 'FAIL'}", flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", work], cwd=repo, check=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
