"""The latency benchmark and the budget it enforces: ``python bench/run.py``.

Run it with the interpreter gentle-hooks is installed in (that interpreter is the one under
test: hooks are installed from it and P is measured with it). Every case runs as
interleaved rounds against its floors, measured in the same run:

* P = ``python -I -c pass`` with the hook's own interpreter;
* G = ``git diff --raw --numstat -z`` on the same range (base tree -> candidate tree);
* S = a plain ``sh`` hook doing nothing (run directly, through ``git hook run``, or as the
  hooks of the same ``git commit``/``git push``).

A budget is evaluated per round (``case / (8P + G)``, ``(case - S) / 3P`` ...) and a line
PASSes when the median of those ratios is at most 1. Prints one table; exits 1 on any FAIL.

Usage:
  python bench/run.py                               # generated fixtures (cached)
  python bench/run.py --repo PATH --range A..B      # a real repository as the large one
  python bench/run.py --only pass --only assess     # some sections
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import scenarios as sc
import tools
from fixture import GATE_RANGES, RANGES, build, build_gated
from harness import Cmd, Run, Spread, interleave, median_ms, peak_rss

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, ".fixtures")
SECTIONS = ("pass", "delegated", "push", "assess", "range", "structure")
HEAVY = ("pydantic", "click", "pygit2")
#: Standard modules the pass path also avoids (each costs more than starting Python).
COSTLY_STDLIB = ("subprocess", "dataclasses", "typing", "tomllib", "sqlite3", "threading")


@dataclass
class Row:
    """One line of the table."""

    name: str
    budget: str
    verdict: str | None  # PASS, FAIL, or None (informational)
    ratio: Spread | None = None  # per-round measure / budget
    vs_p: Spread | None = None  # per-round case / P (or (case - S) / P)
    case_ms: float | None = None
    floors_ms: dict[str, float] = field(default_factory=dict)
    rss_mib: float | None = None
    note: str = ""
    floors_rss: dict[str, float] = field(default_factory=dict)


class Table:
    """Collects rows and prints each as it comes (a long run shows progress)."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        print(
            f"{'case':<46} {'budget':<16} {'of budget med [min-max]':<25} "
            f"{'x P med [min-max]':<25} {'case ms':>8}  {'floors ms':<26} {'RSS MiB':>7}  verdict"
        )

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        floors = " ".join(f"{k}={v:.1f}" for k, v in row.floors_ms.items())
        print(
            f"{row.name:<46} {row.budget:<16} {row.ratio or ''!s:<25} "
            f"{row.vs_p or ''!s:<25} "
            f"{'' if row.case_ms is None else f'{row.case_ms:8.1f}':>8}  {floors:<26} "
            f"{'' if row.rss_mib is None else f'{row.rss_mib:7.1f}':>7}  "
            f"{row.verdict or 'info'}" + (f"  ({row.note})" if row.note else ""),
            flush=True,
        )
        return row

    @property
    def failures(self) -> list[Row]:
        return [r for r in self.rows if r.verdict == "FAIL"]


@dataclass
class Timer:
    """How many rounds, and the P floor command for a directory."""

    python: str
    env: dict[str, str]
    rounds: int
    warmup: int

    def p(self, cwd: str) -> Cmd:
        return Cmd((self.python, "-I", "-c", "pass"), cwd, self.env)

    def measure(
        self,
        name: str,
        case: Cmd,
        floors: Mapping[str, Cmd],
        budget: str,
        limit: Callable[[Mapping[str, float]], float] | None,
        minus: str | None = None,
        warmup: int | None = None,
        gate: bool = True,
        note: str = "",
        rss_floors: Sequence[str] = (),
    ) -> tuple[Row, dict[str, list[Run]]]:
        """Time ``case`` interleaved with ``floors``; evaluate the budget per round.

        Args:
            limit: the budget in seconds from one round's floor times (``P``, ``G``...), or
                None for an informational row; minus: a floor subtracted from the case
                first (the hook's own cost is the difference to the same run with S).
            gate: False for a row shown against the budget but not enforced.
            rss_floors: floors whose peak RSS is measured too (the case's always is).
        """
        runs = interleave(
            {"case": case, **floors}, self.rounds, self.warmup if warmup is None else warmup
        )
        ratios, vs_p = [], []
        for i in range(self.rounds):
            t = {k: v[i].seconds for k, v in runs.items()}
            measured = t["case"] - (t[minus] if minus else 0.0)
            if limit is not None:
                ratios.append(measured / limit(t))
            if "P" in t:
                vs_p.append(measured / t["P"])
        ratio = Spread.of(ratios) if ratios else None
        verdict = None
        if ratio is not None and gate:
            verdict = "PASS" if ratio.median <= 1.0 else "FAIL"
        row = Row(
            name,
            budget,
            verdict,
            ratio,
            Spread.of(vs_p) if vs_p else None,
            median_ms(runs["case"]),
            {k: median_ms(v) for k, v in runs.items() if k != "case"},
            peak_rss(case, self.python, runs=1),
            note,
            {k: peak_rss(floors[k], self.python, runs=1) for k in rss_floors},
        )
        return row, runs


# -- set-up -----------------------------------------------------------------------------------


def interpreter_facts(python: str) -> tuple[str, str, str]:
    """(package directory, hook entry code, install kind) of gentle_hooks for ``python``."""
    code = (
        "import gentle_hooks, os, json; from gentle_hooks.services.install import ENTRY; "
        "import importlib.metadata as m; d = m.distribution('gentle-hooks'); "
        "t = d.read_text('direct_url.json') or '{}'; "
        "e = json.loads(t).get('dir_info', {}).get('editable', False); "
        "print(json.dumps([os.path.dirname(gentle_hooks.__file__), ENTRY, "
        "'editable' if e else 'regular']))"
    )
    out = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, check=True)
    pkg, entry, kind = json.loads(out.stdout)
    return pkg, entry, kind


def console_script(python: str) -> list[str]:
    """How to run gentle-hook: the console script beside the interpreter, else ``-m``."""
    script = os.path.join(os.path.dirname(python), "gentle-hook")
    return [script] if os.path.exists(script) else [python, "-m", "gentle_hooks"]


def fixture(files: int, history: int, realistic: bool = False) -> str:
    """The cached generated fixture (built on first use, ~10 s for 30k files);
    ``realistic``: every fifth file holds an unchanged process call."""
    path = os.path.join(FIXTURES, f"large-{files}-{history}" + ("-real" if realistic else ""))
    if not os.path.isdir(path):
        os.makedirs(FIXTURES, exist_ok=True)
        print(f"building fixture {path} ...", flush=True)
        build(path, files, history, realistic)
    return path


def scenario_key(python: str, pkg: str, *sources: str) -> str:
    """What the prepared repositories depend on: the interpreter, gentle-hooks' and the
    benchmark's code, and the repositories cloned (by HEAD)."""
    h = hashlib.sha256(python.encode())
    for src in sources:
        h.update(
            subprocess.run(
                ["git", "-C", src, "rev-parse", "HEAD"], capture_output=True, check=True
            ).stdout
        )
    files = sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".py"))
    for dirpath, dirnames, filenames in os.walk(pkg):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
        files += sorted(os.path.join(dirpath, f) for f in filenames if f.endswith(".py"))
    for path in sorted(files):
        with open(path, "rb") as fh:
            h.update(path.encode() + b"\0" + fh.read())
    return h.hexdigest()[:12]


def fresh_state() -> str:
    """A directory for the private git config of a run that prepares no scenario."""
    path = os.path.join(FIXTURES, "state-range")
    os.makedirs(path, exist_ok=True)
    return path


def real_assess_repo(b: sc.Bench, source: str) -> str:
    """A shared clone of the realistic fixture to assess in (made once per run dir)."""
    path = b.path("assess-real")
    if not os.path.isdir(path):
        sc.clone(b, source, path, checkout=False)
    return path


def forget_old_runs(keep: int = 2) -> None:
    """Remove prepared repositories of other keys but the ``keep`` most recent."""
    runs = [os.path.join(FIXTURES, d) for d in os.listdir(FIXTURES) if d.startswith("run")]
    runs.sort(key=os.path.getmtime, reverse=True)
    for old in runs[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def resolve_ranges(b: sc.Bench, repo: str, ranges: Sequence[str]) -> list[tuple[str, str, str]]:
    """(label, base commit, tip commit) per ``A..B``, resolved in ``repo``."""
    out = []
    for r in ranges:
        a, _, c = r.partition("..")
        base = b.git(repo, "rev-parse", "--verify", a + "^{commit}")
        tip = b.git(repo, "rev-parse", "--verify", (c or "HEAD") + "^{commit}")
        n = len(b.git(repo, "diff", "--name-only", "-z", base, tip).split("\0")) - 1
        out.append((f"{n} files", base, tip))
    return out


# -- sections ---------------------------------------------------------------------------------


def pass_section(
    t: Timer,
    table: Table,
    b: sc.Bench,
    large: sc.HumanRepo,
    small: sc.HumanRepo,
    ledgered: sc.PushRepo | None,
) -> None:
    """A human's ordinary commit through the commit gate: the pass path."""
    shdir = sc.sh_hooks(b.path("sh-hooks"))
    shgate = sc.sh_hooks(b.path("sh-gate-hooks"), ["pre-commit"])
    three_p = (lambda f: 3 * f["P"], "<= 3P")

    def script(h: sc.HumanRepo | sc.PushRepo, env: Mapping[str, str]) -> Cmd:
        return Cmd((os.path.join(h.hooks, "pre-commit"),), h.repo, {**b.env, **env})

    def s_script(h: sc.HumanRepo, env: Mapping[str, str]) -> Cmd:
        return Cmd((os.path.join(shdir, "pre-commit"),), h.repo, {**b.env, **env})

    for label, h in (("small", small), ("large", large)):
        row, _ = t.measure(
            f"human commit: pre-commit hook, {label} repo",
            script(h, h.env),
            {"P": t.p(h.repo), "S": s_script(h, h.env)},
            three_p[1],
            three_p[0],
        )
        table.add(row)
    if ledgered is not None:
        env = large.env  # same variables; only the repository differs
        row, _ = t.measure(
            "human commit: pre-commit hook, ledger present",
            script(ledgered, env),
            {"P": t.p(ledgered.repo), "S": s_script(large, env)},
            three_p[1],
            three_p[0],
            note="large repo, a ledger with records, none pending",
        )
        table.add(row)
    row, _ = t.measure(
        "human commit: git hook run pre-commit, large",
        Cmd(
            ("git", "-c", f"core.hooksPath={large.hooks}", "hook", "run", "pre-commit"),
            large.repo,
            b.env,
        ),
        {
            "P": t.p(large.repo),
            "S": Cmd(
                ("git", "-c", f"core.hooksPath={shdir}", "hook", "run", "pre-commit"),
                large.repo,
                b.env,
            ),
        },
        three_p[1],
        three_p[0],
    )
    table.add(row)
    row, _ = t.measure(
        "human commit: large repo / small repo",
        script(large, large.env),
        {"small": script(small, small.env)},
        "<= 1.25 small",
        lambda f: 1.25 * f["small"],
    )
    table.add(row)

    def commit(h: sc.HumanRepo, hooks: str) -> Cmd:
        return Cmd(
            ("git", "-c", f"core.hooksPath={hooks}", "commit", "-q", "-m", "bench"),
            h.repo,
            b.env,
            before=lambda: b.git(h.repo, "reset", "-q", "--soft", h.base),
        )

    row, _ = t.measure(
        "human commit: git commit, commit gate",
        commit(large, large.gate_hooks),
        {"S": commit(large, shgate), "P": t.p(large.repo)},
        "(c-S) <= 3P",
        three_p[0],
        minus="S",
        note="large repo, only pre-commit installed",
    )
    table.add(row)
    row, _ = t.measure(
        "human commit: git commit, all hooks",
        commit(large, large.hooks),
        {"S": commit(large, shdir), "P": t.p(large.repo)},
        "(c-S) vs P",
        None,
        minus="S",
        note=f"large repo, {len(sc.HOOK_TYPES)} hooks installed, 4 run per commit",
    )
    table.add(row)
    managers_rows(t, table, b, large, shdir)


def managers_rows(t: Timer, table: Table, b: sc.Bench, large: sc.HumanRepo, shdir: str) -> None:
    """The default install's whole ``git commit`` on the large repo, a ledger with nothing
    pending (what a repository agents worked in holds), against empty ``sh`` hooks, lefthook
    running ``true`` and prek running ``true``, all in the same interleaved rounds. A tool
    that cannot be installed makes its line SKIP with the reason."""
    b.git(large.repo, "reset", "-q", "--soft", large.base)  # the human's staged change
    # writer work thrown away, then discarded (a discard is refused while its lines are
    # here): the ledger holds an ended entry, nothing pending, none of it in the change
    scratch = os.path.join(large.repo, "bench_scratch.py")
    with open(scratch, "w", encoding="utf-8") as out:
        out.write("def scratch():\n    return compute_scratch(1)\n")
    b.gentle(
        large.repo, "record", "--model", "o4-mini", "--effort", "low", "--paths=bench_scratch.py"
    )
    os.remove(scratch)
    b.gentle(large.repo, "discard", "--all", "--reason", "bench: nothing pending")
    tools_dir = os.path.join(FIXTURES, "tools")
    os.makedirs(tools_dir, exist_ok=True)

    def commit(hooks: str, extra: Mapping[str, str] | None = None) -> Cmd:
        return Cmd(
            ("git", "-c", f"core.hooksPath={hooks}", "commit", "-q", "-m", "bench"),
            large.repo,
            {**b.env, **(extra or {})},
            before=lambda: b.git(large.repo, "reset", "-q", "--soft", large.base),
        )

    floors = {"S": commit(shdir), "P": t.p(large.repo)}
    skipped: dict[str, str] = {}
    placed: list[str] = []
    for make in (tools.lefthook, tools.prek):
        name = make.__name__
        try:
            th = make(tools_dir, b.path(f"{name}-hooks"), b.env)
        except tools.Unavailable as exc:
            skipped[name] = str(exc)
            continue
        th.place_config(large.repo)
        placed.append(os.path.join(large.repo, th.config_name))
        floors[name] = commit(th.hooks, th.env)
    try:
        row, runs = t.measure(
            "human commit, default install: vs empty sh",
            commit(large.hooks),
            floors,
            "<= 3S",
            lambda f: 3 * f["S"],
            note="large repo, a ledger with nothing pending; whole git commit, 4 hooks run",
        )
        table.add(row)
        for name in ("lefthook", "prek"):
            label = f"human commit, default install: vs {name} `true`"
            if name in skipped:
                table.add(Row(label, "<= 1x " + name, "SKIP", note=skipped[name]))
                continue
            ratios = [c.seconds / f.seconds for c, f in zip(runs["case"], runs[name], strict=True)]
            spread = Spread.of(ratios)
            table.add(
                Row(
                    label,
                    "<= 1x " + name,
                    "PASS" if spread.median <= 1.0 else "FAIL",
                    spread,
                    None,
                    median_ms(runs["case"]),
                    {name: median_ms(runs[name])},
                    note="same rounds as the line above",
                )
            )
    finally:  # the other lines run on this repository without a ledger or tool configs
        for p in placed:
            os.unlink(p)
        shutil.rmtree(os.path.join(large.repo, ".git", "gentle-hooks"))


def delegated_section(
    t: Timer, table: Table, b: sc.Bench, a: sc.AgentRepo, counts: Sequence[int]
) -> None:
    """A writer's staged change, spot-checked: the commit gate evaluates it in full."""
    shgate = sc.sh_hooks(b.path("sh-gate-hooks"), ["pre-commit"])
    budget = (lambda f: 8 * f["P"] + f["G"], "<= 8P + G")
    for n in counts:
        sc.stage_delegated(b, a, n)
        base_tree = b.git(a.repo, "rev-parse", f"{a.base}^{{tree}}")
        g = Cmd(
            ("git", "diff", "--raw", "--numstat", "-z", base_tree, a.staged_tree), a.repo, b.env
        )
        case = Cmd((os.path.join(a.hooks, "pre-commit"),), a.repo, {**b.env, **a.env})
        check = subprocess.run(
            list(case.argv),
            cwd=a.repo,
            env=dict(case.env),
            capture_output=True,
            text=True,
            check=False,
        )
        if check.returncode != 0 or "ok: 1 delegated candidate" not in check.stderr:
            raise RuntimeError(
                f"delegated {n}: the gate did not pass after full evaluation: "
                f"exit {check.returncode}: {check.stderr.strip()}"
            )
        row, _ = t.measure(
            f"delegated commit, {n} file(s): pre-commit hook",
            case,
            {"P": t.p(a.repo), "G": g},
            budget[1],
            budget[0],
            note="pending writer work, spot-checked",
        )
        table.add(row)

        def commit(hooks: str) -> Cmd:
            return Cmd(
                ("git", "-c", f"core.hooksPath={hooks}", "commit", "-q", "-m", "bench"),
                a.repo,
                b.env,
                before=lambda: b.git(a.repo, "reset", "-q", "--soft", a.base),
            )

        row, _ = t.measure(
            f"delegated commit, {n} file(s): git commit",
            commit(a.gate_hooks),
            {"S": commit(shgate), "P": t.p(a.repo), "G": g},
            "(c-S) <= 8P + G",
            budget[0],
            minus="S",
        )
        table.add(row)


def push_section(t: Timer, table: Table, b: sc.Bench, p: sc.PushRepo) -> None:
    """Delegated commits pushed to a local bare remote: the push gate evaluates each."""
    shdir = sc.sh_hooks(b.path("sh-hooks"))
    budget = (lambda f: 8 * f["P"] + f["G"], "<= 8P + G")
    url = p.remote
    for n, branch in sorted(p.branches.items()):
        sc.unpush(b, p, n)  # a run stopped midway may have left the branch pushed
        tip = b.git(p.repo, "rev-parse", branch)
        g = Cmd(("git", "diff", "--raw", "--numstat", "-z", p.base, tip), p.repo, b.env)
        stdin = sc.push_stdin(b, p, n)
        case = Cmd(
            (os.path.join(p.hooks, "pre-push"), "origin", url),
            p.repo,
            {**b.env, **p.env},
            stdin=stdin,
        )
        with open(stdin, "rb") as fh:
            check = subprocess.run(
                list(case.argv),
                cwd=p.repo,
                env=dict(case.env),
                stdin=fh,
                capture_output=True,
                text=True,
                check=False,
            )
        if check.returncode != 0 or f"ok: {n} delegated candidate" not in check.stderr:
            raise RuntimeError(
                f"push {n}: the gate did not pass after full evaluation: "
                f"exit {check.returncode}: {check.stderr.strip()}"
            )
        row, _ = t.measure(
            f"push gate, {n} commit(s): pre-push hook",
            case,
            {"P": t.p(p.repo), "G": g},
            budget[1],
            budget[0],
            note="new branch, AI co-author trailers, each spot-checked",
        )
        table.add(row)

        def push(hooks: str, n: int = n, branch: str = branch) -> Cmd:
            return Cmd(
                ("git", "-c", f"core.hooksPath={hooks}", "push", "-q", "origin", branch),
                p.repo,
                b.env,
                before=lambda: sc.unpush(b, p, n),
            )

        row, _ = t.measure(
            f"push gate, {n} commit(s): git push",
            push(p.hooks),
            {"S": push(shdir), "P": t.p(p.repo), "G": g},
            "(c-S) <= 8P + G",
            budget[0],
            minus="S",
            note="to a local bare remote",
        )
        sc.unpush(b, p, n)
        table.add(row)


#: The range gate's floor: the commits' messages in one ``git log``, then each commit's note
#: read on its own (what a CI script reading notes commit by commit pays).
RANGE_FLOOR = (
    'git log --format=%H%x00%B "$1..$2" >/dev/null && '
    'for c in $(git rev-list "$1..$2"); do '
    'git notes --ref=gentle-hooks show "$c" >/dev/null || exit 1; done'
)


def range_section(t: Timer, table: Table, b: sc.Bench) -> None:
    """``gentle-hook gate --range`` over 10, 100 and 1,000 delegated commits with notes (a
    CI job on a pull request, a server receiving a long history), against the floor
    :data:`RANGE_FLOOR`; and the per-commit cost at 1,000 against the cost at 10."""
    path = os.path.join(FIXTURES, "gated-300")
    if not os.path.isdir(path):
        print(f"building fixture {path} ...", flush=True)
        build_gated(path)
    argv = console_script(t.python)
    top = max(GATE_RANGES)
    cases = {}
    for n in GATE_RANGES:
        span = f"gate-base..gate-{n}"
        case = Cmd((*argv, "gate", "--range", span), path, b.env)
        check = subprocess.run(
            list(case.argv), cwd=path, env=dict(case.env), capture_output=True, text=True
        )
        if check.returncode != 0 or f"{n} commit(s), {n} delegated, 0 blocked" not in check.stdout:
            raise RuntimeError(f"gate --range {span}: not every commit judged and passed")
        cases[n] = case
    for n in GATE_RANGES:
        floor = Cmd(("sh", "-c", RANGE_FLOOR, "sh", "gate-base", f"gate-{n}"), path, b.env)
        row, _ = t.measure(
            f"gate --range, {n} delegated commits",
            cases[n],
            {"F": floor},
            "<= 1.5F",
            lambda f: 1.5 * f["F"],
            gate=n == top,
            warmup=1 if n == top else None,
            note="F: git log + one notes show per commit",
        )
        table.add(row)
    small = min(GATE_RANGES)
    row, _ = t.measure(
        f"gate --range, per commit: {top} vs {small}",
        cases[top],
        {"R": cases[small]},
        f"<= 1.5R*{top // small}",
        lambda f: 1.5 * f["R"] * top / small,
        warmup=1,
        note=f"R: the same over {small} commits",
    )
    table.add(row)
    server_human_row(t, table, b, path, top)


#: Commits of a person's push the server gate judges against the range fixture's notes.
SERVER_HUMAN = 10


def server_human_row(t: Timer, table: Table, b: sc.Bench, gated: str, top: int) -> None:
    """The server gate (``pre-receive`` of ``gentle-hook install --server``) on a person's
    push of :data:`SERVER_HUMAN` commits onto ``gate-<top>``, in a bare repository holding the
    range fixture's notes: no commit has a note or a trailer, so each is looked up by its
    tree among every note (one ``git grep`` per notes source), and all pass. Against 8P + G,
    the push gate's budget for as many commits."""
    work, bare = b.path("server-human-work"), b.path("server-human.git")
    for d in (work, bare):
        shutil.rmtree(d, ignore_errors=True)
    b.git(FIXTURES, "clone", "-q", "--no-local", gated, work)
    b.git(work, "checkout", "-q", "-b", "person", f"gate-{top}")
    files = b.git(work, "ls-files", "-z").split("\0")
    for i in range(SERVER_HUMAN):
        with open(os.path.join(work, files[i * 7]), "ab") as fh:
            fh.write(f"# a person's edit {i}\n".encode())
        b.git(work, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-a", "-m", f"person {i}")
    b.git(FIXTURES, "clone", "-q", "--bare", "--no-local", gated, bare)
    b.git(bare, "fetch", "-q", gated, "+refs/notes/gentle-hooks:refs/notes/gentle-hooks")
    b.git(work, "push", "-q", "--no-verify", bare, "person:refs/bench/person")
    b.gentle(bare, "install", "--server")
    old, new = b.git(bare, "rev-parse", f"gate-{top}^{{commit}}", "refs/bench/person").split()
    stdin = b.path("server-human.stdin")
    with open(stdin, "w", encoding="ascii") as fh:
        fh.write(f"{old} {new} refs/heads/main\n")
    case = Cmd((os.path.join(bare, "hooks", "pre-receive"),), bare, b.env, stdin=stdin)
    with open(stdin, "rb") as fh:
        check = subprocess.run(
            list(case.argv), cwd=bare, env=dict(case.env), stdin=fh, capture_output=True
        )
    if check.returncode != 0:
        raise RuntimeError(f"server gate on a person's push: exit {check.returncode}: {check}")
    g = Cmd(("git", "diff", "--raw", "--numstat", "-z", old, new), bare, b.env)
    row, _ = t.measure(
        f"server gate, {SERVER_HUMAN} human commits over {top} notes: pre-receive hook",
        case,
        {"P": t.p(bare), "G": g},
        "<= 8P + G",
        lambda f: 8 * f["P"] + f["G"],
        note="no note or trailer: each commit's tree looked up among the notes",
    )
    table.add(row)


def assess_section(
    t: Timer,
    table: Table,
    b: sc.Bench,
    repo: str,
    ranges: Sequence[tuple[str, str, str]],
    gated: Callable[[str], bool],
    as_json: bool = False,
) -> dict[str, Row]:
    """``gentle-hook assess --committed-only`` over each range, HEAD at its tip (the human
    output a user reads; ``as_json`` adds ``--json``)."""
    argv = [*console_script(t.python), "assess", "--committed-only"]
    out: dict[str, Row] = {}
    for label, base, tip in ranges:
        b.git(repo, "checkout", "-q", "--detach", tip)
        case = Cmd((*argv, "--base-ref", base, *(["--json"] if as_json else [])), repo, b.env)
        g = Cmd(("git", "diff", "--raw", "--numstat", "-z", base, tip), repo, b.env)
        heavy = label.split()[0].isdigit() and int(label.split()[0]) >= 5000
        row, _ = t.measure(
            f"assess {label}" + (" --json" if as_json else ""),
            case,
            {"P": t.p(repo), "G": g},
            "<= 1.3G + 10P",
            lambda f: 1.3 * f["G"] + 10 * f["P"],
            gate=gated(label),
            warmup=1 if heavy else None,
            rss_floors=("G",),
        )
        table.add(row)
        out[label] = row
    return out


def rss_rows(table: Table, rows: Mapping[str, Row], one: str, big: str) -> None:
    """Peak RSS budgets from the assess rows (``ru_maxrss``: the process or a child it
    waited for, whichever peaked higher)."""
    mib = rows[one].rss_mib if one in rows else None
    if mib is not None:
        verdict = "PASS" if mib <= 40 else "FAIL"
        table.add(Row(f"peak RSS: assess {one}", "<= 40 MiB", verdict, rss_mib=mib))
    mib = rows[big].rss_mib if big in rows else None
    git = rows[big].floors_rss.get("G") if big in rows else None
    if mib is not None and git is not None:
        verdict = "PASS" if mib <= 1.5 * git else "FAIL"
        note = f"git diff peak {git:.1f} MiB, ratio {mib / git:.2f}"
        table.add(Row(f"peak RSS: assess {big}", "<= 1.5 x git", verdict, rss_mib=mib, note=note))


def imports_row(table: Table, python: str, entry: str, h: sc.HumanRepo, b: sc.Bench) -> None:
    """``-X importtime`` of the pass path: no pydantic, click or pygit2."""
    proc = subprocess.run(
        [python, "-I", "-X", "importtime", "-c", entry, "hook", "pre-commit"],
        cwd=h.repo,
        env={**b.env, **h.env},
        capture_output=True,
        text=True,
        check=False,
    )
    mods, total = [], 0
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "self [us]" not in line:
            self_us, _, name = line[len("import time:") :].split("|")
            mods.append(name.strip())
            total += int(self_us)
    top = {m.split(".")[0] for m in mods}
    bad = [m for m in HEAVY if m in top]
    costly = [m for m in COSTLY_STDLIB if m in top]
    ok = proc.returncode == 0 and not bad
    table.add(
        Row(
            "pass path imports (-X importtime)",
            "no " + "/".join(HEAVY),
            "PASS" if ok else "FAIL",
            note=f"exit {proc.returncode}; {len(mods)} modules, {total / 1000:.1f} ms self; "
            f"heavy: {bad or 'none'}; costly stdlib: {costly or 'none'}",
        )
    )


NUMSTAT_PROBE = (
    "import json, sys\n"
    "from gentle_hooks.git.repository import Repository\n"
    "r = Repository.open(sys.argv[1])\n"
    "print(json.dumps([[c.path, c.old_path, c.additions, c.deletions]\n"
    "                  for c in r.diff_stats(sys.argv[2], sys.argv[3])]))\n"
)


def numstat_rows(
    table: Table, python: str, b: sc.Bench, repo: str, ranges: Sequence[tuple[str, str, str]]
) -> None:
    """Per-path counts of the git adapter equal ``git diff --numstat`` on every range."""
    for label, base, tip in ranges:
        out = subprocess.run(
            [python, "-I", "-c", NUMSTAT_PROBE, repo, base, tip],
            env=b.env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        ours = {(p, old): (a, d) for p, old, a, d in json.loads(out)}
        raw = subprocess.run(
            ["git", "diff", "--numstat", "-z", base, tip],
            cwd=repo,
            env=b.env,
            capture_output=True,
            check=True,
        ).stdout
        theirs = parse_numstat_z(raw)
        same = ours == theirs
        table.add(
            Row(
                f"numstat per path equals git, {label}",
                "equal",
                "PASS" if same else "FAIL",
                note=f"{len(ours)} paths" + ("" if same else f" vs git {len(theirs)}"),
            )
        )


def parse_numstat_z(raw: bytes) -> dict[tuple[str, str | None], tuple[int | None, int | None]]:
    """``git diff --numstat -z``: ``A\\tD\\tpath\\0`` or ``A\\tD\\t\\0old\\0new\\0``."""
    parts = raw.split(b"\0")
    out: dict[tuple[str, str | None], tuple[int | None, int | None]] = {}
    i = 0
    while i < len(parts) and parts[i]:
        a, d, path = parts[i].split(b"\t", 2)
        old = None
        if not path:
            old, path = parts[i + 1], parts[i + 2]
            i += 2
        i += 1
        count = (None if a == b"-" else int(a), None if d == b"-" else int(d))
        key = (
            path.decode("utf-8", "surrogateescape"),
            None if old is None else old.decode("utf-8", "surrogateescape"),
        )
        out[key] = count
    return out


# -- main -------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="hook and assess latency against their floors")
    ap.add_argument("--repo", help="a real repository as the large one (default: generated)")
    ap.add_argument("--range", action="append", default=[], help="A..B to assess (repeatable)")
    ap.add_argument("--files", type=int, default=30000, help="generated fixture: files")
    ap.add_argument("--history", type=int, default=2000, help="generated fixture: commits")
    ap.add_argument("--small-files", type=int, default=300)
    ap.add_argument("--small-history", type=int, default=50)
    ap.add_argument("--rounds", "--pairs", type=int, default=20, dest="rounds")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--only", action="append", choices=SECTIONS, help="run some sections")
    ap.add_argument("--assess-json", action="store_true", help="time assess with --json")
    args = ap.parse_args(argv)
    if args.rounds < 20:
        print("note: fewer than 20 rounds; the ratios are meant over >= 20", file=sys.stderr)
    sections = set(args.only or SECTIONS)
    started = time.monotonic()
    python = sys.executable
    if sections == {"range"}:  # its own fixture: the large ones are not needed
        b = sc.Bench(FIXTURES, python, sc.base_env(fresh_state()))
        t = Timer(python, b.env, args.rounds, args.warmup)
        print(f"interpreter {python}, load {os.getloadavg()[0]:.2f}", flush=True)
        table = Table()
        range_section(t, table, b)
        fails = table.failures
        print(f"\n{len(table.rows)} lines, {len(fails)} FAIL (load {os.getloadavg()[0]:.2f})")
        return 1 if fails else 0

    pkg, entry, kind = interpreter_facts(python)
    # A regular install compiles bytecode at install time; an editable one compiles on first
    # import unless PYTHONDONTWRITEBYTECODE is set. Compile so both measure the steady state.
    subprocess.run([python, "-m", "compileall", "-q", pkg], check=True)
    if args.repo:
        large_src = os.path.abspath(args.repo)
        wanted = args.range or ["HEAD~1..HEAD"]
        gated = lambda label: True  # noqa: E731
    else:
        large_src = fixture(args.files, args.history)
        wanted = [f"range-{k}-base..range-{k}" for k in RANGES] + args.range
        gated = lambda label: label in ("1000 files", "10000 files")  # noqa: E731
    small_src = fixture(args.small_files, args.small_history)
    key = scenario_key(python, pkg, large_src, small_src)
    root = os.path.join(FIXTURES, f"run-{key}")
    b = sc.Bench(root, python, {})
    t0 = time.monotonic()
    reused = os.path.exists(os.path.join(root, sc.SCENARIOS_FILE))
    if not reused:
        forget_old_runs()
        sc.fresh_dir(root)
    b.env = sc.base_env(root)
    ranges = resolve_ranges(b, large_src, wanted)
    git_version = b.git(root, "--version")
    print(
        f"interpreter {python} ({kind} install of gentle-hooks), {git_version}, "
        f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f}; large: {large_src}; "
        f"rounds {args.rounds} after {args.warmup} warm-up",
        flush=True,
    )
    s = sc.load(b) if reused else sc.prepare(b, large_src, small_src)
    print(
        f"set-up {time.monotonic() - t0:.1f} s ({'reused ' + root if reused else 'built ' + root})",
        flush=True,
    )
    large, small, push, agent, assess_repo = s.large, s.small, s.push, s.agent, s.assess

    t = Timer(python, b.env, args.rounds, args.warmup)
    table = Table()
    if "pass" in sections:
        pass_section(t, table, b, large, small, push)
    if "delegated" in sections:
        delegated_section(t, table, b, agent, (1, 10))
    if "push" in sections:
        push_section(t, table, b, push)
    if "assess" in sections:
        rows = assess_section(t, table, b, assess_repo, ranges, gated, args.assess_json)
        rss_rows(table, rows, ranges[0][0], max(ranges, key=lambda r: int(r[0].split()[0]))[0])
        if not args.repo:  # code as it is: 20% of files hold an unchanged process call
            real = real_assess_repo(b, fixture(args.files, args.history, realistic=True))
            spans = [f"range-{k}-base..range-{k}" for k in RANGES if k in (1000, 10000)]
            real_ranges = [
                (f"{label}, 20% process calls", base, tip)
                for label, base, tip in resolve_ranges(b, real, spans)
            ]
            assess_section(t, table, b, real, real_ranges, lambda label: True, args.assess_json)
    if "range" in sections:
        range_section(t, table, b)
    if "structure" in sections:
        imports_row(table, python, entry, large, b)
        numstat_rows(table, python, b, assess_repo, ranges)
    fails = table.failures
    print(
        f"\n{len(table.rows)} lines, {len(fails)} FAIL; {time.monotonic() - started:.0f} s "
        f"(load {os.getloadavg()[0]:.2f})"
    )
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
