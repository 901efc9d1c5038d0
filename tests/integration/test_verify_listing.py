"""``verify run`` and ``verify prepare`` print a bounded list of checks (seed 001 "Rules":
"What returns to the caller is a bounded summary plus an artifact reference. Never a
transcript"): at most ``MAX_LISTED`` lines, what did not pass first, the rest counted in one
line naming the file that lists them all; the ``artifactRef`` line always printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.report.verify_report import MAX_LISTED
from tests.integration.test_verify import BRIEF, Env, make_env

MANY = 150


def _adds(a: int, total: int) -> str:
    """A criterion that reads the change (``add`` subtracts on the base tree)."""
    return f"python3 -c 'import app; assert app.add({a}, 1) == {total}'"


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """A delegated, escalated change ready for ``verify run`` (test_verify's ``env``)."""
    return make_env(repo, tmp_path)


def _many(env: Env, failing: int | None = None) -> None:
    criteria = [{"criterion": f"check {n}", "run": _adds(n, n + 1)} for n in range(MANY)]
    if failing is not None:
        criteria[failing] = {"criterion": "the failing one", "run": _adds(1, 3)}
    env.brief({**BRIEF, "successCriteria": criteria})


def test_run_with_150_checks_prints_a_bounded_list_failures_first(env: Env) -> None:
    _many(env, failing=120)
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) <= MAX_LISTED + 8, proc.stdout
    checks = [ln for ln in lines if ln.startswith(("  pass ", "  fail ", "  blocked "))]
    assert len(checks) == MAX_LISTED - 1
    assert checks[0].startswith(f"  fail    criterion: {_adds(1, 3)}  (exit 1")
    assert all(ln.startswith("  pass ") for ln in checks[1:])
    (ref,) = [ln for ln in lines if ln.startswith("artifactRef: ")]
    markdown = ref.split("(and ", 1)[1].rstrip(")")
    total = MANY + 2  # the negative test and the full suite
    more = f"  … and {total - (MAX_LISTED - 1)} more; full list in {markdown}"
    assert more in lines
    assert lines.index(more) == lines.index(checks[-1]) + 1
    listed = Path(markdown).read_text(encoding="utf-8")
    assert all(f"app.add({n}, 1) == {n + 1}" in listed for n in range(MANY) if n != 120)
    assert "app.add(1, 1) == 3" in listed


def test_run_with_few_checks_lists_them_all(env: Env) -> None:
    proc = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert proc.returncode == 0, proc.stderr
    assert not any(ln.startswith("  … and ") for ln in proc.stdout.splitlines())
    assert len([ln for ln in proc.stdout.splitlines() if ln.startswith("  pass ")]) == 3


def test_prepare_with_150_checks_prints_a_bounded_list(env: Env) -> None:
    _many(env)
    proc = env.gh("verify", "prepare", "--brief", str(env.brief_path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) <= MAX_LISTED + 8, proc.stdout
    (brief,) = [ln.split()[1] for ln in lines if ln.startswith("  brief: ")]
    more = f"  … and {MANY + 2 - (MAX_LISTED - 1)} more; full list in {brief}"
    assert more in lines
    text = Path(brief).read_text(encoding="utf-8")
    assert all(f"app.add({n}, 1) == {n + 1}" in text for n in range(MANY))
    assert lines[-1].startswith("run: gentle-hook verify run --brief ")
