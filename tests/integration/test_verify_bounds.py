"""What a clean room's checks reach beyond the tree (services/room_bounds.py): neither the
caller's home nor a configuration above the room's temporary directory changes what runs.

Seed ``001_3bc4c9b08e2f7709.txt`` "Workflow" 4: "Hand over a clean room. Give the verifier
the artifact, the criteria, and the read-only tools. Withhold the implementation context";
"Rules": the verifier "never gets the implementation context". Real git, the real CLI.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import git, write
from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    return make_env(repo, tmp_path)


def _criterion_exit(out: dict[str, object], n: int = 1) -> int:
    verdict = out["verdict"]
    assert isinstance(verdict, dict)
    return int(verdict["criteria"][n]["observed"]["exitCode"])


_HOSTILE = {
    "pytest.ini": '[pytest]\naddopts = -k "not bad"\n',
    "pytest.toml": '[pytest]\naddopts = ["-k", "not bad"]\n',
    ".pytest.toml": '[pytest]\naddopts = ["-k", "not bad"]\n',
}


@pytest.mark.parametrize("name", sorted(_HOSTILE))
@pytest.mark.parametrize("above", [0, 1], ids=["in-tmpdir", "above-tmpdir"])
def test_a_pytest_ini_above_the_rooms_is_refused_before_anything_runs(
    env: Env, tmp_path: Path, above: int, name: str
) -> None:
    """A ``pytest.ini`` (``pytest.toml``, ``.pytest.toml``: pytest >= 9) in ``$TMPDIR`` or
    above it would be read by the room's pytest as the project's (the candidate has none):
    ``-k "not bad"`` there hid a failing test and the suite passed. The run is refused
    (exit 2, one line naming the file); no room, no verdict."""
    write(env.repo / "tests" / "test_bad.py", "def test_bad():\n    assert False\n")
    tmpdir = tmp_path / "outer" / "tmp"
    tmpdir.mkdir(parents=True)
    hostile = (tmpdir if above == 0 else tmpdir.parent) / name
    write(hostile, _HOSTILE[name])
    for verb in ("prepare", "run"):
        proc = env.gh("verify", verb, "--brief", str(env.brief_path), env={"TMPDIR": str(tmpdir)})
        assert (proc.returncode, proc.stdout) == (2, ""), proc.stdout + proc.stderr
        assert proc.stderr.startswith(f"gentle-hook: error: {hostile}: the clean room"), proc.stderr
        assert "point TMPDIR at a directory" in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    assert [p for p in tmpdir.iterdir() if p.name.startswith("gentle-verify-")] == []
    assert env.rows("SELECT count(*) FROM verify_run") == [(0,)]
    hostile.unlink()  # the same run without it: the failing test fails the suite
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    assert out["status"] == "fail", out["outcomes"]


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_the_callers_npmrc_does_not_reach_the_room(env: Env, tmp_path: Path) -> None:
    """``~/.npmrc`` with a ``script-shell`` that exits 0 made ``npm test`` pass whatever the
    package's test script does. Checks run with a fresh, empty ``HOME`` inside the room: the
    caller's ``~/.npmrc`` is never read, and the real test script fails."""
    marker = tmp_path / "hostile-shell-ran"
    shell = write(tmp_path / "fake-shell", f"#!/bin/sh\ntouch {marker}\nexit 0\n", mode=0o755)
    write(Path(os.environ["HOME"]) / ".npmrc", f"script-shell={shell}\n")
    write(
        env.repo / "package.json",
        json.dumps({"name": "x", "version": "1.0.0", "scripts": {"test": "exit 3"}}),
    )
    # the project's own test script, in the base: one the change wrote is never run (C1-own)
    git(env.repo, "add", "package.json")
    git(env.repo, "commit", "-q", "-m", "package.json")
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", "npm test", code=1)
    assert not marker.exists()
    assert _criterion_exit(out) != 0, out["outcomes"]
    assert out["status"] == "fail"


def test_each_run_gets_a_fresh_home_and_tmpdir_inside_the_room(env: Env) -> None:
    """``HOME``, ``TMPDIR`` and the XDG directories a check sees are empty directories under
    the room, made anew for each run (candidate, base, hollow): a file one run leaves there
    is gone for the next, and nothing of the caller's home is there."""
    probe = (
        'python3 -c \'import os, sys; e = os.environ; room = os.path.dirname(e["PWD"]); '
        'names = ("HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"); '
        'assert all(e[n].startswith(room + "/scratch/") for n in names), e; '
        'assert os.listdir(e["HOME"]) == [] and os.listdir(e["TMPDIR"]) == []; '
        'open(os.path.join(e["HOME"], "left"), "w").close(); '
        "import app; sys.exit(app.add(2, 2) != 4)'"
    )
    write(Path(os.environ["HOME"]) / ".npmrc", "color=false\n")
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", probe)
    assert out["status"] == "pass", out["outcomes"]
    assert _criterion_exit(out) == 0


def test_no_run_reads_bytecode_another_run_compiled(env: Env) -> None:
    """Refuter 18r item 3: every run of a check (candidate, base, hollow) shared one
    ``PYTHONPYCACHEPREFIX`` at the same ``tree/`` path, and a source of the same size and
    mtime second reads as unchanged, so the base tree's run imported the candidate's
    ``a + b``: the negative test "fails the same way on the base tree" though by hand it
    exits 0 there. No run writes bytecode now, so the base run sees the base's code and
    the negative test counts (C2)."""
    write(env.repo / "src" / "app.py", "def add(a, b):\n    return a + b\n")  # same size
    negative = "python3 -c 'import app; assert app.add(2, 3) == -1'"
    env.brief({**BRIEF, "negativeTests": [{"criterion": "subtraction gone", "run": negative}]})
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    (neg,) = [o for o in out["outcomes"] if o["kind"] == "negative"]
    assert (neg["result"], neg["row"]) == ("pass", "C2"), neg
    assert out["status"] == "pass", out["outcomes"]


#: A check that records every bytecode file of the room's own sources it finds when it
#: starts (in the room, or where the room's Python cache prefix mirrors the room) to the
#: file ``MARKER`` names, and how many the room's Python cache prefix holds of other sources
#: to ``KEPT``; it passes when ``app.add`` adds.
_BYTECODE_PROBE = """\
import os, sys
room = os.path.dirname(os.environ["PWD"])
prefix = sys.pycache_prefix or ""
assert prefix.startswith(room + "/scratch/"), prefix
cache = os.environ["PYTEST_ADDOPTS"]
assert cache.startswith("-o cache_dir=" + room + "/scratch/"), cache
mirrors = [os.path.join(prefix, r.lstrip("/")) for r in {room, os.path.realpath(room)}]
def pycs(top, skip=""):
    return [os.path.join(d, f) for d, _, fs in os.walk(top)
            if not (skip and (d + "/").startswith(skip + "/")) for f in fs if f.endswith(".pyc")]
# what this run's own start compiled (the room's sitecustomize) is no earlier run's
own = {getattr(m, "__cached__", None) for m in list(sys.modules.values())}
left = [f for f in pycs(room, skip=prefix) + [f for m in mirrors for f in pycs(m)] if f not in own]
if left:
    open(MARKER, "a").write(repr(left))
open(KEPT, "a").write(repr(len(pycs(prefix))) + "\\n")
import app
sys.exit(app.add(2, 2) != 4)
"""


def test_no_run_leaves_bytecode_for_the_next(env: Env, tmp_path: Path) -> None:
    """Refuter 18r item 3, whatever the clock: after a run imports the tree's code, no
    bytecode of it is left where another run at the same ``tree/`` path would read it (in
    the room, or where the room's bytecode cache mirrors the room), and pytest's cache is
    the run's own. What was compiled from sources outside the room (the standard library)
    is kept for the next run: a later run starts with it there."""
    marker, kept = tmp_path / "bytecode-left-for-the-next-run", tmp_path / "kept"
    script = tmp_path / "probe.py"
    script.write_text(_BYTECODE_PROBE, encoding="utf-8")
    # run as -c code: a check's words name no absolute path (a file of another tree)
    probe = f'python3 -c \'MARKER, KEPT = "{marker}", "{kept}"; exec(open("{script}").read())\''
    out = env.json("verify", "run", "--brief", str(env.brief_path), "--check", probe)
    assert out["status"] == "pass", out["outcomes"]
    assert not marker.exists(), marker.read_text()
    # the probe ran on the candidate and on the base; each found the bytecode the runs
    # before it compiled from the standard library
    counts = [int(n) for n in kept.read_text().split()]
    assert len(counts) >= 2 and min(counts) > 0, counts


def test_a_checks_parent_process_shows_nothing_of_the_caller(env: Env, tmp_path: Path) -> None:
    """Refuter 18r item 4: a check read the caller's environment and work tree through its
    parent process (``grep -a SECRET_WRITER_SESSION /proc/$PPID/environ`` exited 0;
    ``/proc/$PPID/cwd/.git/gentle-hooks/ledger.sqlite3`` was there to read). Checks run
    under a launcher whose environment is the room's and whose directory is the room's
    tree: ``/proc/$PPID`` shows only those, for a command run as an argv (its parent is
    the launcher) as for a shell line. (Other processes of the same user stay readable:
    README "What the room does not bound".)"""
    marker = tmp_path / "parent-leaked"
    code = (
        "import os, sys, app; pp = os.getppid(); "
        'env = open(f"/proc/{pp}/environ", "rb").read(); '
        'cwd = os.readlink(f"/proc/{pp}/cwd"); '
        'leaks = [x for x in (b"SECRET_WRITER_SESSION" in env and "environ", '
        'cwd != os.environ["PWD"] and cwd) if x]; '
        f'leaks and open("{marker}", "a").write(repr(leaks)); '
        "sys.exit(app.add(2, 2) != 4)"
    )
    criterion = {"criterion": "add(2, 2) is 4", "run": ["python3", "-c", code]}
    env.brief({**BRIEF, "successCriteria": [criterion]})
    out = env.json(
        "verify", "run", "--brief", str(env.brief_path), env={"SECRET_WRITER_SESSION": "s3cr3t"}
    )
    assert out["status"] == "pass", out["outcomes"]
    assert not marker.exists(), marker.read_text()


def test_a_negative_test_that_fails_on_the_base_too_does_not_count(env: Env) -> None:
    """Refuter of issue 18, item 5: ``grep -q zzzz_never new.txt`` on a file the change adds
    exits 1 on the candidate and 2 on the base (no file): it fails on every tree, so it is
    no evidence (C2-base), though the two statuses differ."""
    write(env.repo / "new.txt", "hello\n")
    negative = "grep -q zzzz_never new.txt"
    env.brief({**BRIEF, "negativeTests": [{"criterion": "never", "run": negative}]})
    out = env.json("verify", "run", "--brief", str(env.brief_path), code=1)
    (neg,) = [o for o in out["outcomes"] if o["kind"] == "negative"]
    assert (neg["result"], neg["row"]) == ("fail", "C2-base"), neg
    assert out["status"] == "fail", out["outcomes"]


def test_a_run_failing_on_the_change_and_on_every_tree_names_both(env: Env) -> None:
    """A brief with a criterion the change fails (``add`` is still there: it passes with
    the change emptied) and one that fails on every tree (row C4-nothing-failed): the run
    names the change's failing check to fix and says the other fails on every tree, and so
    does the block that follows (``status``), before the change is fixed."""
    gone = "python3 -c 'import app; assert not hasattr(app, \"add\")'"
    env.brief(
        {
            **BRIEF,
            "successCriteria": [
                {"criterion": "a file exists", "run": "test -e nonexistent"},
                {"criterion": "add is gone", "run": gone},
            ],
        }
    )
    ran = env.gh("verify", "run", "--brief", str(env.brief_path))
    assert ran.returncode == 1, ran.stderr
    assert (
        f"note: the change fails `{gone}`: fix the change; and `test -e nonexistent` fails on "
        "every tree (the base and the change emptied too)"
    ) in ran.stdout, ran.stdout
    verdict = ran.stdout.splitlines()[-1].rsplit(" ", 1)[-1]
    assert env.gh("verdict", "add", verdict).returncode == 1  # recorded, not accepted
    status = env.gh("status")
    said = status.stdout + status.stderr
    assert (
        f"the last verify run failed on the change: `{gone}` failed on it (fix the change); "
        "and `test -e nonexistent` fails on every tree"
    ) in said, said


def test_a_criterion_failing_otherwise_on_the_change_observes_it(env: Env) -> None:
    """``from app import mul; assert mul(7, 1) == 7`` exits 1 on the base and with the change
    emptied (ImportError: no ``mul``) and 1 on the change (AssertionError: its ``mul`` is
    wrong). The exit statuses are the same, the failures are not: the criterion observed
    the change, and the change fails it (row C5, evidence), not the brief (rule R2: this
    fail stands until the same checks pass)."""
    write(
        env.repo / "src" / "app.py",
        "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b + 1\n",
    )
    check = 'python3 -c "from app import mul; assert mul(7, 1) == 7"'
    env.brief({**BRIEF, "successCriteria": [{"criterion": "mul multiplies", "run": check}]})
    ran = env.gh("verify", "run", "--brief", str(env.brief_path), "--json")
    assert ran.returncode == 1, ran.stderr
    out = json.loads(ran.stdout)
    (crit,) = [o for o in out["outcomes"] if o["kind"] == "criterion"]
    assert (crit["result"], crit["row"]) == ("fail", "C5"), crit
    text = env.gh("verify", "run", "--brief", str(env.brief_path)).stdout
    assert "fails on every tree" not in text and "brief is at fault" not in text, text


@pytest.mark.parametrize("staged", [False, True])
def test_a_check_that_failed_on_an_earlier_candidate_is_carried_forward(
    env: Env, staged: bool
) -> None:
    """Rule R2: a failed ``verify run --check CMD``, then a comment line added to the change,
    ``record``, ``git add -A`` and ``verify run`` with the brief alone: the new candidate is
    another, but the same delegated change. The check that failed is re-run (it still fails
    here), with a line naming the earlier run, so the verdict is not a pass."""
    flags = ["--staged"] if staged else []
    check = "python3 -c 'import app; assert app.add(2, 3) == 6'"
    first = env.gh("verify", "run", *flags, "--brief", str(env.brief_path), "--check", check)
    assert first.returncode == 1, first.stdout + first.stderr
    with (env.repo / "src" / "app.py").open("a") as fh:
        fh.write("# reviewed\n")
    assert env.gh("record", "--model", "o4-mini", "--effort", "low").returncode == 0
    git(env.repo, "add", "-A")
    again = env.gh("verify", "run", *flags, "--brief", str(env.brief_path))
    assert again.returncode == 1, again.stdout + again.stderr
    assert "failed on an earlier candidate of this change" in again.stdout, again.stdout
    assert check in again.stdout, again.stdout
