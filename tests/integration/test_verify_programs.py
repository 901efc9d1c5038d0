"""``gentle-hook verify run``: which file each check's program was (SPEC §9; seed 001).

Refuter finding 3 of issue 18: a fake ``pytest`` first on the caller's ``PATH`` (a
wrapper adding ``--ignore-glob``) passed, and the verdict recorded the environment's names
and digest, not the program the check ran.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import user_path, write
from tests.integration.test_verify import BRIEF, Env, make_env


@pytest.fixture
def env(repo: Path, tmp_path: Path) -> Env:
    """:func:`~tests.integration.test_verify.make_env`'s repository."""
    return make_env(repo, tmp_path)


def _fake_pytest(where: Path) -> Path:
    """A ``pytest`` that leaves the failing test out, as the refuter's did."""
    fake = write(
        where / "pytest",
        f'#!/bin/sh\nexec {sys.executable} -m pytest --ignore-glob="*test_bad*" "$@"\n',
    )
    fake.chmod(0o755)
    return fake


def test_each_check_records_the_program_it_started(env: Env) -> None:
    """Per criterion: the name, the file it resolved to on the room's PATH and its digest
    (``python3 -m pytest``: the interpreter; a shell line: ``sh`` too)."""
    out = env.json("verify", "run", "--brief", str(env.brief_path))
    suite = out["verdict"]["criteria"][-1]["observed"]
    names = [p["name"] for p in suite["programs"]]
    assert names == ["sh", "python3"], suite
    python3 = next(p for p in suite["programs"] if p["name"] == "python3")
    real = os.path.realpath(shutil.which("python3", path=user_path()) or "")
    digest = "sha256:" + hashlib.sha256(Path(real).read_bytes()).hexdigest()
    assert (python3["path"], python3["sha256"]) == (real, digest)


def _shared_fake_pytest(where: Path) -> Path:
    """:func:`_fake_pytest` in a directory anyone may write (0777, no sticky bit)."""
    fake = _fake_pytest(where)
    where.chmod(0o777)
    return fake


def test_a_program_in_a_directory_others_may_write_is_refused(env: Env, tmp_path: Path) -> None:
    """The fake ``pytest`` in a 0777 directory, first on PATH: refused in one line, exit
    2, nothing recorded; with ``--allow-shared-programs`` it runs and the verdict names
    that file and its digest."""
    write(env.repo / "tests" / "test_bad.py", "def test_bad():\n    assert False\n")
    fake = _shared_fake_pytest(tmp_path / "bin")
    env.brief({**BRIEF, "fullSuite": "pytest -q tests"})
    path = {"PATH": f"{fake.parent}{os.pathsep}{Path(sys.executable).parent}:/usr/bin:/bin"}
    proc = env.gh("verify", "run", "--brief", str(env.brief_path), env=path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith(
        "gentle-hook: error: `pytest` of `pytest -q tests` resolves to "
        f"{os.path.realpath(fake)}, on a path others may change "
        f"({os.path.realpath(fake.parent)} may be written by its group or others)"
    ), proc.stderr
    assert proc.stderr.count("\n") == 1 and "--allow-shared-programs" in proc.stderr
    assert not list((env.repo / ".agents").glob("**/*.json"))
    args = ("verify", "run", "--brief", str(env.brief_path), "--allow-shared-programs")
    out = env.json(*args, env=path, code=1)
    # the fake prints a pass, but no pytest session of it was observed (issue 18)
    assert (out["status"], out["outcomes"][-1]["row"]) == ("blocked", "C1-suite-unrun")
    seen = out["verdict"]["criteria"][-1]["observed"]["programs"]
    digest = "sha256:" + hashlib.sha256(fake.read_bytes()).hexdigest()
    assert {"name": "pytest", "path": os.path.realpath(fake), "sha256": digest} in seen
    # the verdict and the run say the flag let it run (h18h finding 4)
    said = f"allowed by --allow-shared-programs: {os.path.realpath(fake)}"
    assert said in out["verdict"]["criteria"][-1]["evidence"], out["verdict"]["criteria"][-1]
    assert said in out["verdict"]["summary"], out["verdict"]["summary"]
    assert (
        f"--allow-shared-programs: {os.path.realpath(fake)} ran from a shared directory"
        in (out["notes"])
    ), out["notes"]


def test_a_program_in_a_worktree_is_refused_even_when_allowed(env: Env) -> None:
    """A ``pytest`` in a directory outside the repository that links to a file in it (the
    room drops a ``PATH`` entry that is in the repository, not a link to a file there):
    the program resolves into the repository, and no flag lets it run."""
    fake = _fake_pytest(env.repo / "bin")
    link = env.tmp.parent / "linked-bin"
    link.mkdir()
    (link / "pytest").symlink_to(fake)
    env.brief({**BRIEF, "fullSuite": "pytest -q tests"})
    path = {"PATH": f"{link}{os.pathsep}{Path(sys.executable).parent}:/usr/bin:/bin"}
    args = ("verify", "run", "--brief", str(env.brief_path), "--allow-shared-programs")
    proc = env.gh(*args, env=path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "inside your repository or the room" in proc.stderr, proc.stderr


def test_the_running_interpreters_venv_under_tmp_is_trusted(env: Env, tmp_path: Path) -> None:
    """h18h finding 4 (issue 18): gentle-hook run from a virtualenv under the temporary
    directory (a clone there) runs that virtualenv's ``pytest`` without
    ``--allow-shared-programs``, and the verdict says nothing of the flag; once others of
    its group may write the virtualenv's ``bin`` it is refused again."""
    import site
    import subprocess

    venv = tmp_path / "clone" / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # this test's packages (gentle_hooks and what it needs, pytest) on the new one's path
    paths = [str(Path.cwd()), *site.getsitepackages()]
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    write(Path(purelib) / "outer.pth", "\n".join(paths) + "\n")
    shim = write(venv / "bin" / "pytest", f'#!/bin/sh\nexec {python} -m pytest "$@"\n')
    shim.chmod(0o755)
    env.brief({**BRIEF, "fullSuite": "pytest -q tests"})
    run_env = {
        **os.environ,
        "TMPDIR": str(env.tmp),
        "PYTHONPATH": "src",
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
    }
    args = [str(python), "-m", "gentle_hooks", "verify", "run", "--brief", str(env.brief_path)]
    proc = subprocess.run(
        [*args, "--json"], cwd=env.repo, env=run_env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    seen = out["verdict"]["criteria"][-1]["observed"]["programs"]
    assert {"name": "pytest", "path": str(shim), "sha256": _digest(shim)} in seen, seen
    assert "--allow-shared-programs" not in json.dumps(out)
    (venv / "bin").chmod(0o775)
    refused = subprocess.run(args, cwd=env.repo, env=run_env, capture_output=True, text=True)
    assert refused.returncode == 2 and "--allow-shared-programs" in refused.stderr, refused.stderr


def _digest(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def test_status_and_the_note_show_a_run_allowed_shared_programs(env: Env, tmp_path: Path) -> None:
    """Refuter r18y: ``status`` did not say that the verifier run behind a verdict was let
    start a program from a temporary directory (``--allow-shared-programs``). The verdict's
    ``observed.sharedPrograms`` names it; ``status`` shows it on the verdict's line and in
    ``--json``; the note line written at commit carries it in the verdict."""
    from tests.conftest import git

    assert env.gh("install").returncode == 0
    fake = _shared_fake_pytest(tmp_path / "bin")
    real = os.path.realpath(fake)
    env.brief({**BRIEF, "fullSuite": "pytest -q tests"})
    path = {"PATH": f"{fake.parent}{os.pathsep}{Path(sys.executable).parent}:/usr/bin:/bin"}
    args = ("verify", "run", "--brief", str(env.brief_path), "--allow-shared-programs")
    out = env.json(*args, env=path)
    suite = out["verdict"]["criteria"][-1]["observed"]
    assert suite["sharedPrograms"] == [real]
    assert [c["observed"].get("sharedPrograms") for c in out["verdict"]["criteria"][:-1]] == [
        None
    ] * (len(out["verdict"]["criteria"]) - 1)
    added = env.gh("verdict", "add", out["json_path"])
    assert added.returncode == 0, added.stdout + added.stderr
    said = (
        f"ran with --allow-shared-programs, programs from a temporary or shared directory: {real}"
    )
    text = env.gh("status")
    (line,) = [x for x in text.stdout.splitlines() if x.strip().startswith("verdict #")]
    assert f"; {said}  (artifact " in line, line
    (verdict,) = env.json("status")["records"]["verdicts"]
    assert verdict["shared_programs"] == [real]
    git(env.repo, "add", "-A")
    git(env.repo, "commit", "-q", "--no-verify", "-m", "writer: add")
    note = git(env.repo, "notes", "--ref=refs/notes/gentle-hooks", "show", "HEAD")
    (noted,) = [x for x in map(json.loads, note.splitlines()) if x["kind"] == "verdict"]
    assert noted["verdict"]["criteria"][-1]["observed"]["sharedPrograms"] == [real]
    committed = env.gh("status", "--committed")
    assert said in committed.stdout, committed.stdout


def test_a_path_the_line_sets_is_where_its_program_is_looked_up(env: Env, tmp_path: Path) -> None:
    """Refuter r18a (issue 18): ``PATH=/usr/bin:/bin grep ...`` runs the system's grep,
    whatever the caller's PATH holds first; the verdict named the caller's. It names the
    file the line's own ``PATH`` resolves to."""
    fake = write(tmp_path / "tools" / "grep", '#!/bin/sh\nexec /usr/bin/grep "$@"\n')
    fake.chmod(0o755)
    run = "PATH=/usr/bin:/bin grep -q def app.py"
    env.brief({**BRIEF, "successCriteria": [{"criterion": "add is defined", "run": run}]})
    path = {"PATH": f"{fake.parent}{os.pathsep}{Path(sys.executable).parent}:/usr/bin:/bin"}
    # the criterion passes with the change's files emptied too (C4-nothing): a verdict all
    # the same, not a pass
    out = env.json("verify", "run", "--brief", str(env.brief_path), env=path, code=1)
    first = out["verdict"]["criteria"][0]["observed"]
    assert first["command"] == run
    grep = next(p for p in first["programs"] if p["name"] == "grep")
    assert grep["path"] == os.path.realpath(shutil.which("grep", path="/usr/bin:/bin") or "")
