"""The CI recipes of ``docs/ci.md`` run as printed (SPEC §8): the commands of the GitHub
Actions and GitLab CI jobs, in a fresh full clone of a bare remote with the server gate,
judge a verified pull request 0 and a forged one 1 (refuted by re-run).

The install step is the one command not run: the package under test is already installed
(its ``gentle-hook`` is put on PATH).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import git
from tests.e2e.test_server_gate import _forge
from tests.integration import test_notes_gate as base
from tests.integration.test_notes_gate import clone, delegated_change, ok, run

server = base.server  # the bare server fixture

DOC = Path(__file__).resolve().parents[2] / "docs" / "ci.md"
NOTES = "refs/notes/gentle-hooks"


def _yaml_after(heading: str) -> dict[str, object]:
    """The first ```yaml block after ``heading`` in docs/ci.md, parsed."""
    text = DOC.read_text(encoding="utf-8")
    part = text[text.index(f"\n{heading}\n") :]
    block = re.search(r"```yaml\n(.*?)```", part, re.S)
    assert block is not None, heading
    loaded: dict[str, object] = yaml.safe_load(block.group(1))
    return loaded


def github_commands() -> tuple[list[str], list[str]]:
    """The GitHub job's run commands and the variables its steps read."""
    job = _yaml_after("## GitHub Actions")["jobs"]["gentle-hooks"]  # type: ignore[index]
    assert job["name"] == "gentle-hooks"  # one stable check name
    steps = job["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    assert steps[0]["with"]["fetch-depth"] == 0  # full history
    commands = [s["run"] for s in steps if "run" in s]
    names = [k for s in steps for k in s.get("env", {})]
    return commands, names


def gitlab_commands() -> list[str]:
    job = _yaml_after("## GitLab CI")["gentle-hooks"]  # type: ignore[index]
    assert job["variables"]["GIT_DEPTH"] == "0"  # full history
    return list(job["script"])


def recipe(ci: Path, commands: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the recipe's commands in order as the job's shell would (``bash -e``; stop at
    the first failure); the last command run (the gate, unless one before it failed)."""
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    proc = subprocess.run(["true"], check=False, capture_output=True, text=True)
    for command in commands:
        if command.startswith("pip install"):
            continue  # installed already
        proc = subprocess.run(
            ["bash", "-ec", command],
            cwd=ci,
            env={**os.environ, **env, "PATH": path},
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            print(command, proc.stdout, proc.stderr)
            return proc
    return proc


def _run_recipe(ci: Path, commands: list[str], env: dict[str, str]) -> int:
    """:func:`recipe`'s last exit code."""
    return recipe(ci, commands, env).returncode


@pytest.fixture
def pull_requests(server: Path) -> tuple[str, str, str]:
    """(base, a verified topic, a forged topic) pushed to the server."""
    a = clone(server, "a")
    base_sha = git(a, "rev-parse", "HEAD").strip()
    git(a, "switch", "-q", "-c", "topic")
    verified = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push", "-u", "origin", "topic"))
    b = clone(server, "b")
    git(b, "switch", "-q", "-c", "forged")
    (b / "app.py").write_text("def f():\n    return 3\n", encoding="utf-8")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", "-m", "forged")
    forged = git(b, "rev-parse", "HEAD").strip()
    _forge(b, forged)
    ok(run(b, "git", "push", "--no-verify", "origin", "forged", NOTES))
    return base_sha, verified, forged


def test_the_github_actions_recipe_runs_as_printed(
    server: Path, tmp_path: Path, pull_requests: tuple[str, str, str]
) -> None:
    base_sha, verified, forged = pull_requests
    commands, names = github_commands()
    assert names == ["HEAD_REPO", "BASE", "HEAD"]
    ci = tmp_path / "gh-ci"
    git(tmp_path, "clone", "-q", str(server), str(ci))
    same = {"HEAD_REPO": str(server)}  # a pull request from a branch of the base itself
    assert _run_recipe(ci, commands, {**same, "BASE": base_sha, "HEAD": verified}) == 0
    assert _run_recipe(ci, commands, {**same, "BASE": base_sha, "HEAD": forged}) == 1


def test_the_gitlab_ci_recipe_runs_as_printed(
    server: Path, tmp_path: Path, pull_requests: tuple[str, str, str]
) -> None:
    base_sha, verified, forged = pull_requests
    commands = gitlab_commands()
    ci = tmp_path / "gl-ci"
    git(tmp_path, "clone", "-q", str(server), str(ci))
    same = {"CI_MERGE_REQUEST_SOURCE_PROJECT_URL": str(server.with_suffix(""))}
    good = {**same, "CI_MERGE_REQUEST_DIFF_BASE_SHA": base_sha, "CI_COMMIT_SHA": verified}
    assert _run_recipe(ci, commands, good) == 0
    bad = {**same, "CI_MERGE_REQUEST_DIFF_BASE_SHA": base_sha, "CI_COMMIT_SHA": forged}
    assert _run_recipe(ci, commands, bad) == 1


@pytest.fixture
def fork_pull_requests(server: Path, tmp_path: Path) -> tuple[Path, str, str, str]:
    """(a fork of the server, base, a verified topic, a forged topic): both topics and
    their notes pushed to the fork only, as a writer without push access to the base
    does (``install --share origin``, origin the fork); the base has no note of either."""
    fork = tmp_path / "fork.git"
    git(tmp_path, "clone", "-q", "--bare", str(server), str(fork))
    a = clone(fork, "fork-a")
    base_sha = git(a, "rev-parse", "HEAD").strip()
    git(a, "switch", "-q", "-c", "topic")
    verified = delegated_change(a, "def f():\n    return 2\n", spot_check=True)
    ok(run(a, "git", "push", "-u", "origin", "topic"))  # the notes go with it, to the fork
    b = clone(fork, "fork-b")
    git(b, "switch", "-q", "-c", "forged")
    (b / "app.py").write_text("def f():\n    return 3\n", encoding="utf-8")
    git(b, "add", "-A")
    git(b, "commit", "-q", "--no-verify", "-m", "forged")
    forged = git(b, "rev-parse", "HEAD").strip()
    _forge(b, forged)
    ok(run(b, "git", "push", "--no-verify", "origin", "forged", NOTES))
    for commit in (verified, forged):  # the fixture's edge: the notes are on the fork only
        assert run(fork, "git", "notes", "--ref", NOTES, "show", commit).returncode == 0
        assert run(server, "git", "notes", "--ref", NOTES, "show", commit).returncode != 0
    return fork, base_sha, verified, forged


def _ci_clone(server: Path, fork: Path, name: str) -> Path:
    """CI's full clone of the base, the pull requests' commits fetched from the fork."""
    ci = server.parent / name
    git(server.parent, "clone", "-q", str(server), str(ci))
    git(ci, "fetch", "-q", str(fork), "+refs/heads/*:refs/remotes/pr/*")
    return ci


def test_the_github_actions_recipe_judges_a_pull_request_from_a_fork(
    server: Path, fork_pull_requests: tuple[Path, str, str, str]
) -> None:
    fork, base_sha, verified, forged = fork_pull_requests
    commands, _ = github_commands()
    ci = _ci_clone(server, fork, "gh-fork-ci")
    pr = {"HEAD_REPO": f"file://{fork}", "BASE": base_sha}
    assert _run_recipe(ci, commands, {**pr, "HEAD": verified}) == 0  # the fork's notes read
    assert _run_recipe(ci, commands, {**pr, "HEAD": forged}) == 1  # refuted by re-run


def test_the_gitlab_ci_recipe_judges_a_merge_request_from_a_fork(
    server: Path, fork_pull_requests: tuple[Path, str, str, str]
) -> None:
    fork, base_sha, verified, forged = fork_pull_requests
    commands = gitlab_commands()
    ci = _ci_clone(server, fork, "gl-fork-ci")
    mr = {
        "GITLAB_CI": "true",
        "CI_MERGE_REQUEST_PROJECT_URL": f"file://{server.with_suffix('')}",
        "CI_MERGE_REQUEST_SOURCE_PROJECT_URL": f"file://{fork.with_suffix('')}",
        "CI_MERGE_REQUEST_DIFF_BASE_SHA": base_sha,
    }
    assert _run_recipe(ci, commands, {**mr, "CI_COMMIT_SHA": verified}) == 0
    assert _run_recipe(ci, commands, {**mr, "CI_COMMIT_SHA": forged}) == 1
