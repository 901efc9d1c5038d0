"""The pass path is structure, not timing (SPEC §2 "Start-up is part of the product").

Each hook a human's ordinary commit runs is started exactly as the installed script starts
it (``python -I -c <install.ENTRY> hook <name>``) in a plain repository, and the modules
it imported are read from ``sys.modules`` at exit: no pydantic, click or pygit2, and
neither the gate nor the recorders (their hooks decide first with the standard library).
The latency itself is measured by ``bench/run.py``, never by a test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.services.install import ENTRY

HEAVY = ("pydantic", "click", "pygit2")
#: The commit gate's pass path promises more (gentle_hooks.hooks.dispatch's docstring).
PRE_COMMIT_AVOIDS = ("subprocess", "dataclasses", "typing", "tomllib", "sqlite3")
PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules))))\n"
    + ENTRY
)


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def plain_repo(tmp_path: Path) -> Path:
    """A repository with one commit and a staged change; gentle-hooks never ran in it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "a.py").write_text("x = 1\n")
    _git(repo, "add", "a.py")
    _git(repo, "commit", "-q", "-m", "init")
    (repo / "a.py").write_text("x = 2\n")
    _git(repo, "add", "a.py")
    (repo / "MSG").write_text("Fix the thing\n\n# Please enter the commit message\n")
    return repo


def _imported(repo: Path, *hook_args: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, "hook", *hook_args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    line = proc.stderr.rsplit("MODULES ", 1)[-1]
    return set(line.split())


@pytest.mark.parametrize(
    "hook_args",
    [
        ("pre-commit",),
        ("prepare-commit-msg", "MSG", "message"),
        ("commit-msg", "MSG"),
        ("post-commit",),
    ],
    ids=lambda a: a[0],
)
def test_a_human_commit_imports_no_heavy_module(plain_repo: Path, hook_args: tuple[str]) -> None:
    modules = _imported(plain_repo, *hook_args)
    tops = {m.split(".")[0] for m in modules}
    assert not tops & set(HEAVY), sorted(tops & set(HEAVY))
    assert "gentle_hooks.hooks.commit" not in modules
    assert "gentle_hooks.hooks.recorders" not in modules
    assert "gentle_hooks.hooks.dispatch" in modules  # the probe really ran the hook


def test_the_commit_gate_pass_path_stays_on_the_lightest_stdlib(plain_repo: Path) -> None:
    modules = _imported(plain_repo, "pre-commit")
    assert not modules & set(PRE_COMMIT_AVOIDS), sorted(modules & set(PRE_COMMIT_AVOIDS))


def test_a_push_that_passes_loads_no_fix_words(plain_repo: Path, tmp_path: Path) -> None:
    """The push gate judges every pushed commit; the words and commands of a block (the
    fixes, their command readers, ``ast`` for ``python -c``) load only when one is
    blocked."""
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "-q", "--bare", str(remote))
    _git(plain_repo, "remote", "add", "origin", str(remote))
    tip = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=plain_repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    proc = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, "hook", "pre-push", "origin", str(remote)],
        cwd=plain_repo,
        input=f"refs/heads/main {tip} refs/heads/main {'0' * 40}\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    modules = set(proc.stderr.rsplit("MODULES ", 1)[-1].split())
    assert "gentle_hooks.hooks.push_gate" in modules  # the gate really ran
    assert "gentle_hooks.services.assess" in modules
    loaded = modules & {"gentle_hooks.report.fixes", "gentle_hooks.hooks.overrides", "ast"}
    assert not loaded, sorted(loaded)


#: What the gates leave out while they judge and pass (imports are most of a delegated
#: commit's or a push's cost): ``typing``, what the notes writer needs only to sign
#: or to retry a write, ``unicodedata`` (the regular expressions of a test runner's
#: failure summaries, one of which names a character, compile only when a receipt's
#: command runs a runner), and ``queue`` with its ``heapq`` (the blob search takes
#: ``SimpleQueue`` from the C module).
GATE_AVOIDS = (
    "typing",
    "shutil",
    "random",
    "gentle_hooks.policy.boilerplate",
    "unicodedata",
    "queue",
    "heapq",
)
#: A push that shares no notes reads none: the note schema (JSON, base64) and the notes
#: writer stay out of the push gate (``gentle_hooks.notes.sharing`` answers for them).
#: Nor does a push whose ledger holds no live writer work load what reads writer content
#: (settling, moves across paths, starts, literals, placement), what folds a writers'
#: spool or records rewrites, or the words of a refused verdict or of a named path.
PUSH_AVOIDS = (
    "json",
    "base64",
    "gentle_hooks.notes.lines",
    "gentle_hooks.notes.sync",
    "gentle_hooks.services.settle",
    "gentle_hooks.services.across",
    "gentle_hooks.services.change_facts",
    "gentle_hooks.policy.delivery",
    "gentle_hooks.policy.starts",
    "gentle_hooks.policy.literals",
    "gentle_hooks.policy.placement",
    "gentle_hooks.policy.shellwords",
    "gentle_hooks.ledger.spool_fold",
    "gentle_hooks.hooks.rewrites",
    "gentle_hooks.values.ruled",
)


def _gentle(repo: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args], cwd=repo, check=True, capture_output=True
    )


def _verified(repo: Path, flag: str) -> None:
    """A receipt and an agreeing spot check for the ``flag`` candidate."""
    check = "python3 -c 'import ast; ast.parse(open(\"a.py\").read())'"
    _gentle(repo, "receipt", "add", flag, f"{check}: exit 0", "--exit-code", "0")
    _gentle(repo, "spot-check", flag)


def test_the_gates_that_pass_import_no_typing_nor_signing(plain_repo: Path, tmp_path: Path) -> None:
    """A pushed commit with an AI co-author trailer, and a change staged under an agent
    runtime, each verified: both gates judge in full and pass without
    :data:`GATE_AVOIDS`, the push gate without :data:`PUSH_AVOIDS` either."""
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "-q", "--bare", str(remote))
    _git(plain_repo, "remote", "add", "origin", str(remote))
    _git(plain_repo, "commit", "-q", "-m", "ai\n\nCo-authored-by: Claude <noreply@anthropic.com>")
    _verified(plain_repo, "--committed")
    tip = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=plain_repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    push = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, "hook", "pre-push", "origin", str(remote)],
        cwd=plain_repo,
        input=f"refs/heads/main {tip} refs/heads/main {'0' * 40}\n",
        capture_output=True,
        text=True,
        check=False,
    )
    (plain_repo / "a.py").write_text("x = 3\n")
    _git(plain_repo, "add", "a.py")
    _verified(plain_repo, "--staged")
    commit = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, "hook", "pre-commit"],
        cwd=plain_repo,
        env={**os.environ, "CLAUDECODE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    for proc, gate, avoids in (
        (push, "push_gate", GATE_AVOIDS + PUSH_AVOIDS),
        (commit, "commit", GATE_AVOIDS),
    ):
        assert proc.returncode == 0, proc.stderr
        assert "ok: 1 delegated candidate(s) verified" in proc.stderr  # judged in full
        modules = set(proc.stderr.rsplit("MODULES ", 1)[-1].split())
        assert f"gentle_hooks.hooks.{gate}" in modules
        assert not modules & set(avoids), (gate, sorted(modules & set(avoids)))


#: What the commit gate leaves out while it judges a writer's recorded work and passes, with
#: no agent runtime in the environment (the decision's JSON line is for agents): ``json``
#: (the ledger's lists of plain strings read without it), and what the gate asks only of
#: a candidate that carries no live writer work (expired work, re-applied content).
RECORDED_AVOIDS = (
    *GATE_AVOIDS,
    "json",
    "gentle_hooks.services.expiry",
    "gentle_hooks.services.reapplied",
)


def test_a_recorded_writers_commit_that_passes_reads_no_json(plain_repo: Path) -> None:
    """Pending writer work (``gentle-hook record``), a receipt and an agreeing spot check:
    the commit gate judges it in full and passes without :data:`RECORDED_AVOIDS`."""
    _gentle(plain_repo, "record", "--model", "o4-mini", "--effort", "low", "--paths=a.py")
    _verified(plain_repo, "--staged")
    modules = _imported(plain_repo, "pre-commit")
    assert "gentle_hooks.hooks.commit" in modules
    assert not modules & set(RECORDED_AVOIDS), sorted(modules & set(RECORDED_AVOIDS))


def test_a_hook_collects_cycles_rarely_but_still_does(plain_repo: Path) -> None:
    """Every hook raises the young generation's threshold to ``GC_THRESHOLD`` (the cyclic
    collector's passes over a gate's imports cost it ~3%) and leaves the collector on."""
    from gentle_hooks.hooks.dispatch import GC_THRESHOLD

    probe = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: sys.stderr.write(f'GC {gc.isenabled()} {gc.get_threshold()}'))\n"
        + ENTRY
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-c", probe, "hook", "pre-commit"],
        cwd=plain_repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    enabled, threshold = proc.stderr.rsplit("GC ", 1)[-1].split(" ", 1)
    assert enabled == "True"
    assert threshold.startswith(f"({GC_THRESHOLD}, ")


def test_the_exit_skips_collecting_what_the_run_made(plain_repo: Path) -> None:
    """A command ends with every object it made frozen (:func:`gentle_hooks.main.entry`):
    the interpreter's collections at exit skip them."""
    probe = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: sys.stderr.write(f'FROZEN {gc.get_freeze_count()}'))\n" + ENTRY
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-c", probe, "hook", "pre-commit"],
        cwd=plain_repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stderr.rsplit("FROZEN ", 1)[-1]) > 1_000
