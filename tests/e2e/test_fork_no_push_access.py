"""A pull request from a fork whose writer cannot push to the base repository (issue 14,
refuter r14n): the documented CI recipes read the fork's notes, and a block's printed
lines, pasted as printed, get the writer (and the job) out.

The world: a bare base repository whose ``pre-receive`` refuses ``refs/notes/*`` (the
writer has no push access there), a bare fork of it, the writer's clone (``origin`` the
fork, ``upstream`` the base, ``install --share origin``: its push sends the notes to the
fork), and CI's clone of the base running docs/ci.md's recipe commands with the
environment GitHub Actions or GitLab CI gives a fork's pull request. Nothing about git is
mocked.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import CHECK, World
from tests.integration.test_ci_recipes import github_commands, gitlab_commands, recipe

V2 = "def add(a, b):\n    return a + b  # v2\n"
#: The base's pre-receive: no notes from anyone (the writer has no push access).
REFUSE_NOTES = (
    "#!/bin/sh\n"
    "while read old new ref; do\n"
    '  case "$ref" in refs/notes/*) echo "no push access to $ref" >&2; exit 1;; esac\n'
    "done\n"
)
HEAD_NOTES = "refs/notes/remotes/pull-request-head/gentle-hooks"


def _fork(w: World) -> Path:
    """The base refusing notes, the fork, the writer's clone sharing with the fork; the
    fork's path."""
    hook = w.remote / "hooks" / "pre-receive"
    hook.write_text(REFUSE_NOTES, encoding="utf-8")
    hook.chmod(0o755)
    fork = w.base / "fork.git"
    w.ok("clone", "-q", "--bare", str(w.remote), str(fork), cwd=w.base)
    w.ok("remote", "set-url", "origin", str(fork))
    w.ok("remote", "add", "upstream", str(w.remote))
    assert w.gh("install", "--share", "origin").code == 0
    return fork


def _pushed(w: World, fork: Path, *refs: str) -> str:
    """The writer's commit, pushed with its notes to the fork (its ordinary push; ``refs``:
    a push without the hooks, of ``main`` and these refs); the fixture's edge proved: the
    note is on the fork, the base refuses it from the writer and has none."""
    commit = w.rev("HEAD")
    w.ok("push", "-q", *(("--no-verify", "origin", "main", *refs) if refs else ("origin", "main")))
    assert w.git("notes", "--ref=gentle-hooks", "show", commit, cwd=fork).code == 0
    refused = w.git("push", "upstream", "refs/notes/gentle-hooks")
    assert refused.code != 0 and "no push access" in refused.err, refused
    assert w.remote_ref("refs/notes/gentle-hooks") is None
    return commit


def _ci(w: World, fork: Path) -> Path:
    """CI's full clone of the base, the pull request's commits fetched from the fork."""
    ci = w.base / "ci"
    w.ok("clone", "-q", str(w.remote), str(ci), cwd=w.base)
    w.ok("fetch", "-q", str(fork), "+main:refs/remotes/pr/head", cwd=ci)
    return ci


def _github(w: World, fork: Path, head: str) -> dict[str, str]:
    """What GitHub Actions gives a ``pull_request`` run from ``fork`` (``file://``
    servers: git reaches them for real), and the recipe's step variables."""
    event = w.base / "event.json"
    repo = {"base": f"file://{w.remote}", "head": f"file://{fork}"}
    pull = {side: {"repo": {"clone_url": url}} for side, url in repo.items()}
    event.write_text(json.dumps({"pull_request": pull}), encoding="utf-8")
    return {
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_SERVER_URL": f"file://{w.base.parent}",
        "GITHUB_REPOSITORY": f"{w.base.name}/{w.remote.stem}",
        "HEAD_REPO": f"file://{fork}",
        "BASE": w.rev("upstream/main"),
        "HEAD": head,
    }


def _gitlab(w: World, fork: Path, head: str) -> dict[str, str]:
    """What GitLab CI gives a merge request pipeline from ``fork``."""
    return {
        "GITLAB_CI": "true",
        "CI_MERGE_REQUEST_PROJECT_URL": f"file://{w.remote.with_suffix('')}",
        "CI_MERGE_REQUEST_SOURCE_PROJECT_URL": f"file://{fork.with_suffix('')}",
        "CI_MERGE_REQUEST_DIFF_BASE_SHA": w.rev("upstream/main"),
        "CI_COMMIT_SHA": head,
    }


def _verified(w: World) -> tuple[Path, str]:
    fork = _fork(w)
    w.delegate(text=V2)
    w.ok("add", "-A")
    w.spot_check("--staged")
    w.ok("commit", "-q", "-m", "writer: verified")
    w.ok("fetch", "-q", "upstream")
    return fork, _pushed(w, fork)


def test_a_verified_fork_writer_without_push_access_passes_both_recipes(native: World) -> None:
    w = native
    fork, head = _verified(w)
    ci = _ci(w, fork)
    judged = recipe(ci, github_commands()[0], _github(w, fork, head))
    assert judged.returncode == 0, judged
    w.ok("update-ref", "-d", HEAD_NOTES, cwd=ci)  # GitLab's job starts from its own clone
    judged = recipe(ci, gitlab_commands(), _gitlab(w, fork, head))
    assert judged.returncode == 0, judged


@pytest.mark.parametrize("notes", [True, False], ids=["notes-on-fork", "no-notes-pushed"])
def test_an_unverified_fork_commit_pasted_as_printed_in_the_writer_s_clone_passes(
    native: World, notes: bool
) -> None:
    """The block's lines before any way (the CLI on PATH) and its last way (verify the
    commit in a worktree of its own, share the note), pasted in one shell in the writer's
    clone; the job run again passes. The way shares with the fork, never the base the
    writer cannot push to. ``notes``: the writer's records reached the fork (a spot check
    is missing), else its push sent the branch alone (no note reached the job)."""
    w = native
    fork = _fork(w)
    w.unverified(V2)
    w.ok("fetch", "-q", "upstream")
    if notes:
        head = _pushed(w, fork, "refs/notes/gentle-hooks")
    else:
        head = w.rev("HEAD")
        w.ok("push", "-q", "--no-verify", "origin", "main")
    ci = _ci(w, fork)
    env = _github(w, fork, head)
    blocked = recipe(ci, github_commands()[0], env)
    assert blocked.returncode == 1, blocked
    first: list[str] = []
    last: list[str] = []
    into = first
    for line in blocked.stdout.splitlines():
        words = line.strip()
        if words.startswith(("here,", "otherwise,")):
            last = []
            into = last
        elif words.startswith(("run: ", "prefix: ")):
            label, cmd = words.split(": ", 1)
            into.append(f"{cmd} {shlex.join(CHECK)}" if label == "prefix" else cmd)
    pasted = [*first, *last]
    to_fork = f"gentle-hook sync push {shlex.quote(f'file://{fork}')}"
    assert to_fork in pasted, blocked.stdout
    assert str(w.remote) not in "\n".join(pasted), blocked.stdout  # never the base
    done = w.run(["sh", "-c", "\n".join(["set -e", *pasted])])
    assert done.code == 0, done
    passed = recipe(ci, github_commands()[0], env)
    assert passed.returncode == 0, passed


def test_a_job_that_fetches_the_base_s_notes_only_prints_the_fetch_it_needs(
    native: World,
) -> None:
    """A job fetching the base's notes alone (docs/ci.md's recipes before issue 14): the
    block says, where it ran, how to fetch the fork's notes; its lines, run there as
    printed, and the gate again, pass. The writer's share names the fork."""
    w = native
    fork, head = _verified(w)
    ci = _ci(w, fork)
    w.git("fetch", "-q", "origin", "+refs/notes/gentle-hooks:refs/notes/gentle-hooks", cwd=ci)
    env = _gitlab(w, fork, head)
    gate = ["gate", "--range", f"{env['CI_MERGE_REQUEST_DIFF_BASE_SHA']}..{head}"]
    blocked = w.gh(*gate, cwd=ci, env=env)
    assert blocked.code == 1, blocked
    said = [line.strip() for line in blocked.out.splitlines()]
    start = next(i for i, line in enumerate(said) if line.startswith("here,"))
    assert f"file://{fork}" in said[start], said
    here = []
    for line in said[start + 1 :]:
        if not line.startswith("run: "):
            break
        here.append(line.removeprefix("run: "))
    spec = f"+refs/notes/gentle-hooks:{HEAD_NOTES}"
    fetch = f"git fetch -q {shlex.quote(f'file://{fork}')} {shlex.quote(spec)}"
    assert here == ["gentle-hook sync fetch", fetch], said
    assert f"run: gentle-hook sync push {shlex.quote(f'file://{fork}')}" in said, said
    assert "or: gentle-hook sync push" in said, said
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    for cmd in here:
        done = w.run(["sh", "-c", cmd], cwd=ci, env={"PATH": path})
        assert done.code == 0, (cmd, done)
    assert w.gh(*gate, cwd=ci, env=env).code == 0


def test_a_bad_event_file_or_head_url_is_one_line_and_exit_2(native: World) -> None:
    w = native
    head = w.rev("HEAD")
    bad = w.base / "event.json"
    for text in (
        "{not json",
        '["a list"]',
        '{"pull_request": {"head": {"repo": {"clone_url": 7}}}}',
    ):
        bad.write_text(text, encoding="utf-8")
        env = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": str(bad)}
        r = w.gh("gate", "--range", head, env=env)
        assert r.code == 2 and r.out == "", (text, r)
        assert r.err.count("\n") == 1 and "GITHUB_EVENT_PATH" in r.err, (text, r)
        assert "Traceback" not in r.err, r
    gone = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_PATH": str(w.base / "missing.json")}
    r = w.gh("gate", "--range", head, env=gone)
    assert r.code == 2 and r.err.count("\n") == 1 and "cannot be read" in r.err, r
    r = w.gh("gate", "--range", head, "--head-url", "upstream")
    assert r.code == 2 and r.err.count("\n") == 1 and "--head-url 'upstream'" in r.err, r
