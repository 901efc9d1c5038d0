"""Records travel with commits (SPEC §8): notes, the server's pre-receive gate,
``gate --range`` in a clone with no ledger, rewrites, shallow clones, concurrent syncs.

Everything is real: a bare "server" with the installed pre-receive hook, clones pushing to
it with ``git push``, notes shared through the refspecs ``install --share`` adds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import bound_verdict, gh, git, write

G = [sys.executable, "-m", "gentle_hooks"]


def run(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args),
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, (proc.args, proc.stdout, proc.stderr)
    return proc


@pytest.fixture
def server(tmp_path: Path) -> Path:
    """A bare repository with one commit on main and the pre-receive gate installed."""
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    seed = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(seed))
    write(seed / "README.md", "# project\n")
    write(seed / "app.py", "def f():\n    return 1\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "initial")
    git(seed, "push", "-q", str(bare), "main")
    ok(gh(bare, "install", "--server"))
    return bare


def clone(server: Path, name: str) -> Path:
    """A clone with the local hooks and the notes refspecs installed."""
    path = server.parent / name
    git(server.parent, "clone", "-q", str(server), str(path))
    ok(gh(path, "install", "--share", "origin"))
    return path


def delegated_change(repo: Path, content: str, *, spot_check: bool) -> str:
    """A writer's change, optionally spot-checked, committed; returns the commit id."""
    write(repo / "app.py", content)
    ok(gh(repo, "record", "--model", "o4-mini", "--effort", "low"))
    ok(gh(repo, "receipt", "run", "--", sys.executable, "-c", "print('tests ok')"))
    if spot_check:
        ok(gh(repo, "spot-check"))
    git(repo, "add", "-A")
    if spot_check:
        git(repo, "commit", "-q", "-m", "delegated change")
    else:
        git(repo, "commit", "-q", "--no-verify", "-m", "delegated change")
    return git(repo, "rev-parse", "HEAD").strip()


def test_server_accepts_verified_rejects_unverified_and_ci_agrees(server: Path) -> None:
    a = clone(server, "a")
    verified = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    pushed = run(a, "git", "push")
    assert pushed.returncode == 0, pushed.stderr
    assert f"remote: gentle-hooks: ok {verified[:12]} on refs/heads/main" in pushed.stderr
    assert git(server, "rev-parse", "main").strip() == verified

    b = clone(server, "b")
    unverified = delegated_change(b, "def f():\n    return 3\n", spot_check=False)
    rejected = run(b, "git", "push", "--no-verify", "origin", "main")
    assert rejected.returncode == 1
    assert f"remote: gentle-hooks: BLOCKED {unverified[:12]} on refs/heads/main" in rejected.stderr
    assert "remote: gentle-hooks: REJECTED refs/heads/main" in rejected.stderr
    assert "missing: delegated, but it has no gentle-hooks note for its tree" in rejected.stderr
    # the commit is verified in a worktree of its own (the pusher's tree stays as it is)
    worktree = f'"$(git rev-parse --git-common-dir)/gentle-hooks/verify-{unverified[:12]}"'
    assert f"run: gentle-hook spot-check --committed --cwd {worktree}        \n" in rejected.stderr
    # the pusher reads the fix: the server names the CLI, never its own install path
    assert "run: gentle-hook sync push        \n" in rejected.stderr
    assert (
        f"run: git worktree remove --force {worktree}        \nremote: gentle-hooks: REJECTED"
        in (rejected.stderr)
    )
    assert git(server, "rev-parse", "main").strip() == verified

    git(b, "reset", "-q", "--hard", "origin/main")
    write(b / "NOTES.txt", "a human note\n")
    git(b, "add", "-A")
    git(b, "commit", "-q", "-m", "human change")
    human = git(b, "rev-parse", "HEAD").strip()
    assert run(b, "git", "push", "--no-verify", "origin", "main").returncode == 0
    git(b, "push", "-q", "--no-verify", "origin", "main:refs/heads/scratch")
    deletion = run(b, "git", "push", "origin", "--delete", "scratch")
    assert deletion.returncode == 0
    assert (
        "remote: gentle-hooks: refs/heads/scratch: deletion, nothing to assess" in deletion.stderr
    )

    # a third clone with no ledger reaches the same verdicts from notes and trailers
    c = server.parent / "c"
    git(server.parent, "clone", "-q", str(server), str(c))
    git(c, "fetch", "-q", "origin", "refs/notes/*:refs/notes/*")
    base = git(c, "rev-list", "--max-parents=0", "HEAD").strip()
    proc = gh(c, "gate", "--range", f"{base}..HEAD", "--json")
    assert proc.returncode == 0, proc.stderr
    verdicts = {v["commit"]: v for v in json.loads(proc.stdout)["commits"]}
    assert verdicts[verified]["delegated"] and not verdicts[verified]["blocked"]
    assert not verdicts[human]["delegated"]
    assert not (c / ".git" / "gentle-hooks").exists()
    # ... and the unverified commit, judged by CI before the server saw it, is blocked
    git(c, "fetch", "-q", str(b), f"{unverified}:refs/heads/candidate")
    proc = gh(c, "gate", "--range", f"{verified}..candidate")
    assert proc.returncode == 1
    assert f"BLOCKED {unverified[:12]}" in proc.stdout


def test_depth_one_clone_cannot_assess_a_longer_range(server: Path, tmp_path: Path) -> None:
    a = clone(server, "a")
    delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    write(a / "x.txt", "x\n")
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "more")
    ok(run(a, "git", "push"))
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{server}", str(shallow))
    proc = gh(shallow, "gate", "--range", "HEAD~2..HEAD")
    assert proc.returncode == 2
    assert "cannot assess" in proc.stderr and "fetch" in proc.stderr
    # a range that reaches the shallow boundary is not judged either
    git(shallow, "fetch", "-q", "--depth", "2")
    proc = gh(shallow, "gate", "--range", "HEAD~1..HEAD")
    assert proc.returncode in (0, 2)
    proc = gh(shallow, "gate", "--range", f"{git(shallow, 'rev-parse', 'HEAD~1').strip()}..HEAD")
    assert "Traceback" not in proc.stderr


def test_rebase_keeps_records_where_trees_are_unchanged(server: Path) -> None:
    a = clone(server, "a")
    git(a, "checkout", "-q", "-b", "topic")
    first = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    write(a / "other.py", "y = 1\n")
    ok(gh(a, "record", "--model", "o4-mini", "--effort", "low"))
    ok(gh(a, "receipt", "run", "--", sys.executable, "-c", "print('ok')"))
    ok(gh(a, "spot-check"))
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "second delegated change")
    # main moves: a human commit touching another file
    git(a, "checkout", "-q", "main")
    write(a / "NOTES.txt", "moved\n")
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "main moves")
    git(a, "checkout", "-q", "topic")
    proc = run(a, "git", "rebase", "main")
    assert proc.returncode == 0, proc.stderr
    rebased = git(a, "rev-parse", "HEAD~1").strip()
    assert rebased != first
    # the rebased commits have new trees (main's NOTES.txt): their old records are stale
    assert "changed their tree" in proc.stderr
    gate = gh(a, "gate", "--range", "main..topic")
    assert gate.returncode == 1
    assert "stale" in gate.stdout
    # rewording a stale commit keeps its tree: nothing changed its tree now, and it stays stale
    # (let through the commit gate on purpose: the post-rewrite line is what is looked at)
    reason = {"GENTLE_HOOKS_SKIP": "reword only"}
    proc = run(a, "git", "commit", "--amend", "-q", "-m", "second, reworded", env=reason)
    assert proc.returncode == 0, proc.stderr
    assert "changed their tree" not in proc.stderr
    gate = gh(a, "gate", "--range", "main..topic")
    assert gate.returncode == 1
    assert "stale" in gate.stdout
    # a rebase that keeps the trees (onto the same base) keeps the verification
    git(a, "checkout", "-q", "-b", "keep", first)
    proc = run(a, "git", "commit", "--amend", "-q", "-m", "reworded, same tree")
    assert proc.returncode == 0, proc.stderr
    gate = gh(a, "gate", "--range", "origin/main..keep")
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert "verified as its plan requires" in gate.stdout


def test_concurrent_records_from_two_clones_are_both_kept(server: Path) -> None:
    a = clone(server, "a")
    commit = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push"))
    b = clone(server, "b")
    git(b, "fetch", "-q")
    # both clones add a record to the same commit, in the same state of the notes
    ok(gh(a, "review", "decline", "--committed"))
    # a hand-written verdict: stored and noted, not accepted (verification.require_observed)
    hand = gh(
        b,
        "verdict",
        "add",
        "--committed",
        "-",
        input=json.dumps(
            bound_verdict(
                b,
                {
                    "briefId": "b-1",
                    "status": "pass",
                    "criteria": [
                        {
                            "criterion": "f returns 2",
                            "evidence": "ran python -c 'import app' -> 2",
                        }
                    ],
                    "negativeTestsRun": 1,
                    "fullSuiteRun": True,
                    "artifactMutating": True,
                    "summary": "checked f",
                },
                "--committed",
            )
        ),
    )
    assert hand.returncode == 1 and "not accepted" in hand.stdout, hand.stdout + hand.stderr
    # b did not make the commit: its verdict is noted on it, and both sync both ways
    ok(gh(a, "sync", "push"))
    ok(gh(b, "sync", "push"))
    ok(gh(a, "sync", "fetch"))
    ok(gh(b, "sync", "fetch"))
    for repo in (a, b):
        note = git(repo, "notes", "--ref=refs/notes/gentle-hooks", "show", commit)
        kinds = {json.loads(x)["kind"] for x in note.splitlines()}
        assert {"candidate", "writer", "receipt", "spot_check", "review", "verdict"} <= kinds
    # order independence: merging either way gives the same note
    na = git(a, "notes", "--ref=refs/notes/gentle-hooks", "show", commit)
    nb = git(b, "notes", "--ref=refs/notes/gentle-hooks", "show", commit)
    assert set(na.splitlines()) == set(nb.splitlines())


def test_a_stale_notes_lock_is_named_with_the_command_that_clears_it(server: Path) -> None:
    """A crashed git leaves ``refs/notes/gentle-hooks.lock``: the note write names that file
    and git's own advice as a command; pasted, it clears the lock and the note is written."""
    a = clone(server, "a")
    lock = a / ".git" / "refs" / "notes" / "gentle-hooks.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.touch()
    commit = delegated_change(a, "def f():\n    return 4\n", spot_check=True)
    refused = gh(a, "sync", "push")
    assert refused.returncode == 2
    (line,) = refused.stderr.strip().splitlines()
    assert f"is locked by {lock}" in line and "moved while writing" not in line
    fix = line.split("remove it: ", 1)[1]
    assert fix == f"rm -f {lock}"
    ok(run(a, "sh", "-c", fix))
    ok(gh(a, "sync", "push"))
    assert git(a, "notes", "--ref", "gentle-hooks", "show", commit).strip()


def test_sync_defaults_to_the_remote_the_branch_pushes_to(server: Path) -> None:
    # a fork's clone has no origin (`clone -o upstream`): every way out ends `sync push`
    path = server.parent / "fork"
    git(server.parent, "clone", "-q", "-o", "upstream", str(server), str(path))
    ok(gh(path, "install", "--share", "upstream"))
    commit = delegated_change(path, "def f():\n    return 2\n", spot_check=True)
    pushed = ok(gh(path, "sync", "push"))
    assert "pushed refs/notes/gentle-hooks to upstream" in pushed.stdout, pushed.stdout
    assert git(server, "notes", "--ref=refs/notes/gentle-hooks", "show", commit)
    assert "upstream" in ok(gh(path, "sync", "fetch")).stdout
    # two remotes: the one the branch pushes to, not the first
    git(path, "remote", "add", "aaa", str(server))
    git(path, "config", "branch.main.pushRemote", "upstream")
    assert "to upstream" in ok(gh(path, "sync", "push")).stdout


def test_a_forks_server_block_says_where_the_notes_go_and_its_sync_push_gets_there(
    server: Path,
) -> None:
    # the server cannot know the remote's name in the pusher's clone (`clone -o upstream`)
    path = server.parent / "fork"
    git(server.parent, "clone", "-q", "-o", "upstream", str(server), str(path))
    ok(gh(path, "install", "--share", "upstream"))
    commit = delegated_change(path, "def f():\n    return 3\n", spot_check=False)
    served = run(path, "git", "push", "--no-verify", "upstream", "main")
    assert served.returncode == 1, served.stderr
    said = [line.split("gentle-hooks:   ", 1)[-1].rstrip() for line in served.stderr.splitlines()]
    at = said.index("run: gentle-hook sync push")
    assert said[at - 1].startswith("share the notes with the remote you pushed to: "), said
    # the writer verifies it, then pastes the line as printed: the notes reach upstream
    ok(gh(path, "receipt", "run", "--committed", "--", sys.executable, "-c", "print('ok')"))
    ok(gh(path, "spot-check", "--committed"))
    assert "to upstream" in ok(run(path, "sh", "-c", "gentle-hook sync push")).stdout
    assert git(server, "notes", "--ref=refs/notes/gentle-hooks", "show", commit)
    ok(run(path, "git", "push", "--no-verify", "upstream", "main"))
