"""``python -m tests.fuzz --minutes N [--seed S]``: fuzz the CLI for N minutes (see
:mod:`tests.fuzz`); exits 1 when any run broke the exit-code contract."""

from __future__ import annotations

import argparse
import random
import sys

from tests.fuzz import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=None, help="replay a run's inputs")
    ns = parser.parse_args(argv)
    seed = random.randrange(2**32) if ns.seed is None else ns.seed
    print(f"seed {seed}", flush=True)
    n, per_family, findings = run(ns.minutes * 60, seed)
    for finding in findings:
        print(finding)
    families = ", ".join(f"{name} {count}" for name, count in sorted(per_family.items()))
    print(f"{n} runs across {len(per_family)} families ({families}); {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
