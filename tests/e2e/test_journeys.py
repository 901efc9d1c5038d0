"""The journey bench's fast subset (bench/journeys): every block a new user meets on these
journeys is resolved by the commands it printed, run literally, or is a documented refusal.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.journeys.catalog import JOURNEYS
from bench.journeys.results import document, problems
from bench.journeys.runner import run_journeys

FAST = [j.name for j in JOURNEYS if j.fast]


@pytest.mark.parametrize("name", FAST)
def test_journey(tmp_path: Path, name: str) -> None:
    outcomes = run_journeys(tmp_path, only=[name])
    assert [o.status for o in outcomes] == ["ok"], problems(outcomes) or outcomes[0].detail
    doc = document(outcomes)
    assert doc["schema"] == "gentle-hooks.journeys/v1"
    for block in outcomes[0].blocks:
        assert block.cls in ("in_band", "by_design"), block


def test_the_bench_has_thirty_journeys() -> None:
    assert len(JOURNEYS) >= 30


def test_plain_worlds_are_copied_from_one_template_pointing_at_their_own_remote(
    tmp_path: Path,
) -> None:
    # the bench builds the plain project once and copies it per journey (cp -a): each copy
    # must be a world of its own (its own remote, the hooks installed)
    from bench.journeys.agent import Agent
    from bench.journeys.catalog import Ctx, plain
    from bench.journeys.sandbox import Sandbox

    templates = tmp_path / "templates"
    templates.mkdir()
    worlds = []
    for name in ("a", "b"):
        sb = Sandbox(tmp_path / name)
        worlds.append((sb, plain(Ctx(sb, Agent(sb, "true"), None, templates=templates))))
    assert len(list(templates.iterdir())) == 1  # built once
    for sb, w in worlds:
        url = sb.run(w, ["git", "remote", "get-url", "origin"]).out.strip()
        assert url == str(sb.root / "remote.git")
        assert (w / ".git" / "hooks" / "pre-push").exists()
        (w / "README.md").write_text(f"# {sb.root.name}\n")
        assert sb.run(w, ["git", "commit", "-q", "-am", "human"]).exit == 0
        assert sb.run(w, ["git", "push", "-q"]).exit == 0
    heads = {sb.run(w, ["git", "rev-parse", "HEAD"]).out for sb, w in worlds}
    assert len(heads) == 2


def test_parallel_journeys_come_back_in_the_catalog_order(tmp_path: Path) -> None:
    names = ["hook-help", "doctor-plain", "human-commit"]
    outcomes = run_journeys(tmp_path, only=names, jobs=3)
    order = [j.name for j in JOURNEYS if j.name in names]
    assert [o.name for o in outcomes] == order
    assert [o.status for o in outcomes] == ["ok"] * 3, problems(outcomes)


def test_a_journey_whose_tool_is_missing_is_skipped_with_why_in_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no npm on PATH: the npm journeys are skipped, and the table says which and why
    from bench.journeys.results import table

    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    npm = [j.name for j in JOURNEYS if j.needs == "npm"]
    assert npm, "the bench has journeys that need npm"
    outcomes = run_journeys(tmp_path, only=npm)
    assert [(o.status, o.detail) for o in outcomes] == [
        ("skipped", "npm is not installed") for _ in npm
    ]
    rows = table(outcomes).splitlines()
    for name in npm:
        assert f"| {name} | skipped: npm is not installed | " in "\n".join(rows), rows


def test_a_run_with_skipped_journeys_says_so_and_fails_unless_allowed(tmp_path: Path) -> None:
    # a run whose journeys were all skipped verified nothing: the summary line under the
    # table counts them with why, and the exit is 1 unless --allow-skip accepts the skips
    import subprocess
    import sys

    empty = tmp_path / "bin"
    empty.mkdir()
    npm = [j.name for j in JOURNEYS if j.needs == "npm"]
    only = [a for name in npm for a in ("--only", name)]
    script = Path(__file__).resolve().parents[2] / "bench" / "journeys.py"

    def bench(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(script), "-j", "1", *only, *flags],
            env={**os.environ, "PATH": str(empty), "TMPDIR": str(tmp_path)},
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )

    strict = bench()
    line = (
        f"{len(npm)} of {len(npm)} journey(s) SKIPPED, not run: npm is not installed ({len(npm)})"
    )
    assert strict.returncode == 1, strict
    assert line in strict.stdout.splitlines(), strict
    assert "pass --allow-skip to accept" in strict.stdout, strict
    allowed = bench("--allow-skip")
    assert allowed.returncode == 0, allowed
    assert line in allowed.stdout.splitlines(), allowed


def test_the_document_says_how_the_bench_ran(tmp_path: Path) -> None:
    # where the time goes: per journey (seconds), and for the run its wall time, jobs, the
    # shared setup before the first journey and the machine's load
    from bench.journeys.results import Run

    outcomes = run_journeys(tmp_path, only=["hook-help"])
    run = Run(12.34, 2, {"hook_repo": 1.5}, (5.0, 4.0, 3.0), (6.0, 4.5, 3.1))
    summary = document(outcomes, run)["summary"]
    assert isinstance(summary, dict)
    assert summary["wall_seconds"] == 12.3 and summary["jobs"] == 2, summary
    assert summary["setup_seconds"] == {"hook_repo": 1.5}, summary
    assert summary["load_average"] == {"start": [5.0, 4.0, 3.0], "end": [6.0, 4.5, 3.1]}
    assert run.line() == (
        "wall 12.3 s, 2 journey(s) at a time, shared setup: hook_repo 1.5 s, "
        "load average (1 min) 5.00 -> 6.00"
    )
    assert "wall_seconds" not in document(outcomes)["summary"]  # type: ignore[operator]
