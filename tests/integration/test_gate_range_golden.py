"""``gate --range`` and the server gate decide generated histories exactly as recorded.

Each history (:mod:`tests.integration.histories`, deterministic object ids) is judged by
``gentle-hook gate --range base..work`` (text and ``--json``) and, for every fourth, by the
``pre-receive`` gate of a bare copy receiving ``work``; stdout, stderr and the exit code must equal
``tests/fixtures/gate_range/golden.json`` byte for byte. The golden file holds what the
gate printed when judging commit by commit, so a faster judgement is held to the same
decisions and the same words.

When a change of wording is intended, rewrite the file with ``UPDATE_GOLDEN=1`` in the
environment and review its diff: every changed line must be a wording change, never a
decision.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import gh, git
from tests.integration.histories import build

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "gate_range" / "golden.json"
SEEDS = range(60)
#: Read at import: the test's environment is scrubbed of GENTLE_* and GIT_* variables.
REGEN = os.environ.get("UPDATE_GOLDEN") == "1"


#: How the fixes name the CLI when ``gentle-hook`` is not on PATH (report.fixes.program):
#: the test interpreter's own script, whose path differs from machine to machine.
_PROGRAM = os.path.join(os.path.dirname(sys.executable), "gentle-hook")


def _portable(proc: subprocess.CompletedProcess[str]) -> list[object]:
    """Exit code, stdout and stderr, with this machine's CLI path written ``gentle-hook``."""
    return [
        proc.returncode,
        proc.stdout.replace(_PROGRAM, "gentle-hook"),
        proc.stderr.replace(_PROGRAM, "gentle-hook"),
    ]


def observe(tmp: Path, seed: int) -> dict[str, object]:
    """What the range gate and the server gate print for history ``seed``."""
    repo = tmp / f"h{seed}"
    span = build(seed, repo)
    out: dict[str, object] = {}
    for name, extra in (("text", ()), ("json", ("--json",))):
        proc = gh(repo, "gate", "--range", span, *extra)
        out[name] = _portable(proc)
    if seed % 4:
        return out
    bare = tmp / f"h{seed}.git"
    git(tmp, "clone", "-q", "--bare", "--no-local", str(repo), str(bare))
    git(bare, "fetch", "-q", str(repo), "refs/notes/*:refs/notes/*")
    old = git(bare, "rev-parse", "base").strip()
    new = git(bare, "rev-parse", "work").strip()
    git(bare, "update-ref", "refs/heads/work", old)
    proc = subprocess.run(
        [sys.executable, "-m", "gentle_hooks", "hook", "pre-receive"],
        cwd=bare,
        input=f"{old} {new} refs/heads/work\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    out["server"] = _portable(proc)
    return out


@pytest.fixture(scope="module")
def golden() -> dict[str, object]:
    if REGEN or not GOLDEN.exists():
        return {}
    loaded: dict[str, object] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return loaded


def test_histories_are_deterministic(tmp_path: Path) -> None:
    """The same seed builds the same objects (the golden file names commit ids)."""
    a, b = tmp_path / "a", tmp_path / "b"
    build(7, a)
    build(7, b)
    show = ("for-each-ref", "--format=%(refname) %(objectname)")
    assert git(a, *show) == git(b, *show)


def test_gate_matches_golden(tmp_path: Path, golden: dict[str, object]) -> None:
    seen = {str(seed): observe(tmp_path, seed) for seed in SEEDS}
    if REGEN:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(seen, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        pytest.skip("golden file rewritten: review its diff")
    assert golden, f"{GOLDEN} is missing: generate it with UPDATE_GOLDEN=1"
    for seed in SEEDS:
        got, want = seen[str(seed)], golden[str(seed)]
        assert got.keys() == want.keys(), f"history {seed}"  # type: ignore[attr-defined]
        for kind in got:
            assert got[kind] == want[kind], f"history {seed}, {kind}"  # type: ignore[index]
    # the histories exercise every outcome
    texts = "".join(str(v["text"]) for v in seen.values())  # type: ignore[index]
    for needle in ("not delegated", "verified as its plan requires", "BLOCKED", "stale"):
        assert needle in texts
