"""The journey results: the ``gentle-hooks.journeys/v1`` document and its table.

Per journey: ``status`` (``ok``, or the worst of ``dead_end``, ``out_of_band``,
``self_recovered``, ``failed`` — a check after the walk did not hold —, ``void`` — the
fixture did not show its edge case —, ``skipped``), its seconds, its blocks with their
class, and every command it ran: argv, working directory, who ran it, exit code, output
bytes, seconds, CPU seconds. The summary adds the run's wall time, jobs, shared setup and load.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bench.journeys.agent import CLASSES, Block
from bench.journeys.sandbox import Step

SCHEMA = "gentle-hooks.journeys/v1"
#: Worst first: a journey's status is the first of these any of its parts reached.
ORDER = ("void", "dead_end", "out_of_band", "failed", "self_recovered", "ok", "skipped")


@dataclass
class Outcome:
    name: str
    what: str
    status: str = "ok"
    detail: str = ""
    seconds: float = 0.0
    blocks: list[Block] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    checks: list[tuple[bool, str]] = field(default_factory=list)

    def settle(self) -> None:
        """The status from the blocks and checks (unless already void or skipped)."""
        if self.status in ("void", "skipped"):
            return
        found = {"ok"}
        for b in self.blocks:
            if b.cls in ("dead_end", "out_of_band", "self_recovered"):
                found.add(b.cls)
        failed = [w for ok, w in self.checks if not ok]
        if failed:
            found.add("failed")
            self.detail = "; ".join(failed)
        self.status = min(found, key=ORDER.index)


@dataclass
class Run:
    """How the bench ran: ``wall`` seconds from start to the last outcome, ``jobs`` at a
    time, the shared ``setup`` steps' seconds, the load averages (1, 5, 15 min) at
    ``load_start`` and ``load_end``."""

    wall: float
    jobs: int
    setup: dict[str, float] = field(default_factory=dict)
    load_start: tuple[float, ...] = ()
    load_end: tuple[float, ...] = ()

    def line(self) -> str:
        """One line for the table's reader: wall time, jobs, load."""
        load = " -> ".join(f"{x[0]:.2f}" for x in (self.load_start, self.load_end) if x)
        setup = ", ".join(f"{k} {v:.1f} s" for k, v in self.setup.items())
        return (
            f"wall {self.wall:.1f} s, {self.jobs} journey(s) at a time"
            + (f", shared setup: {setup}" if setup else "")
            + (f", load average (1 min) {load}" if load else "")
        )


def document(outcomes: list[Outcome], run: Run | None = None) -> dict[str, object]:
    """The JSON document; ``run``: how the bench ran (the summary's ``wall_seconds``,
    ``jobs``, ``setup_seconds`` and ``load_average``), when known."""
    classes = Counter(b.cls for o in outcomes for b in o.blocks)
    summary: dict[str, object] = {
        "journeys": len(outcomes),
        "status": dict(Counter(o.status for o in outcomes)),
        "blocks": {c: classes.get(c, 0) for c in CLASSES},
        "seconds": round(sum(o.seconds for o in outcomes), 1),
        "cpu_seconds": round(sum(s.cpu for o in outcomes for s in o.steps), 1),
    }
    if run is not None:
        summary.update(
            wall_seconds=round(run.wall, 1),
            jobs=run.jobs,
            setup_seconds={k: round(v, 2) for k, v in run.setup.items()},
            load_average={"start": list(run.load_start), "end": list(run.load_end)},
        )
    return {
        "schema": SCHEMA,
        "summary": summary,
        "journeys": [
            {
                "name": o.name,
                "what": o.what,
                "status": o.status,
                "detail": o.detail,
                "seconds": round(o.seconds, 2),
                "cpu_seconds": round(sum(s.cpu for s in o.steps), 2),
                "blocks": [
                    {
                        "action": b.action,
                        "class": b.cls,
                        "why": b.why,
                        "first_line": b.first_line,
                        "printed": b.printed,
                        "quote": b.quote,
                    }
                    for b in o.blocks
                ],
                "checks": [{"ok": ok, "what": w} for ok, w in o.checks],
                "commands": [
                    {
                        "argv": s.argv,
                        "cwd": s.cwd,
                        "who": s.who,
                        "exit": s.exit,
                        "output_bytes": s.output_bytes,
                        "seconds": round(s.seconds, 3),
                        "cpu_seconds": round(s.cpu, 3),
                    }
                    for s in o.steps
                ],
            }
            for o in outcomes
        ],
    }


def table(outcomes: list[Outcome]) -> str:
    """One line per journey: status (a skipped journey's with why), blocks per class,
    commands, seconds; then totals."""
    head = f"| journey | status | blocks | {' | '.join(CLASSES)} | cmds | s |"
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    for o in outcomes:
        c = Counter(b.cls for b in o.blocks)
        status = f"skipped: {o.detail or 'no reason given'}" if o.status == "skipped" else o.status
        rows.append(
            f"| {o.name} | {status.replace('|', '/')} | {len(o.blocks)} | "
            + " | ".join(str(c.get(k, 0)) for k in CLASSES)
            + f" | {len(o.steps)} | {o.seconds:.1f} |"
        )
    total = Counter(b.cls for o in outcomes for b in o.blocks)
    rows.append(
        f"| **{len(outcomes)} journeys** | "
        + ", ".join(f"{k} {v}" for k, v in sorted(Counter(o.status for o in outcomes).items()))
        + f" | {sum(total.values())} | "
        + " | ".join(str(total.get(k, 0)) for k in CLASSES)
        + f" | {sum(len(o.steps) for o in outcomes)} | {sum(o.seconds for o in outcomes):.1f} |"
    )
    return "\n".join(rows)


def problems(outcomes: list[Outcome]) -> list[str]:
    """A line per block or check that is not as it should be, and per journey skipped
    (with the reason: a skip is never silent)."""
    lines = []
    for o in outcomes:
        if o.status in ("void", "failed", "skipped") and o.detail:
            lines.append(f"{o.name}: {o.status}: {o.detail}")
        for b in o.blocks:
            if b.cls not in ("in_band", "by_design"):
                lines.append(f"{o.name}: {b.cls}: {b.action}: {b.why}")
    return lines


def skipped_line(outcomes: list[Outcome]) -> str:
    """One line for the summary naming how many journeys were skipped, of how many, and
    why (each reason with its count), or "" when none was: a skipped journey verified
    nothing, and the run must not read as a pass."""
    why = Counter(o.detail or "no reason given" for o in outcomes if o.status == "skipped")
    if not why:
        return ""
    return f"{sum(why.values())} of {len(outcomes)} journey(s) SKIPPED, not run: " + "; ".join(
        f"{reason} ({n})" for reason, n in why.items()
    )
