"""lefthook and husky call the gate: the snippets of docs/lefthook.md and
docs/husky.md, installed with the real hook managers from their npm packages, block a
delegated commit and an agent's merge until the printed fix runs, and block an unverified push.

The npm packages are installed once per session (``npm install`` from the registry); without
``npm`` on the machine these tests are skipped and say so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.journeys.catalog import doc_blocks
from tests.e2e.conftest import CHECK, PREFIX, Run

BIN = str(Path(sys.executable).parent)
VERSIONS = ("lefthook@2.2.1", "husky@9.1.7")


@pytest.fixture(scope="session")
def node_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the lefthook and husky snippets are not run")
    where = tmp_path_factory.mktemp("npm")
    proc = subprocess.run(
        [npm, "install", "--save-exact", "--no-audit", "--no-fund", *VERSIONS],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return where / "node_modules"


class Repo:
    """A clone with a bare remote, ``gentle-hook`` on PATH, no hooks of ours installed."""

    def __init__(self, base: Path) -> None:
        self.work = base / "work"
        self.remote = base / "remote.git"
        self.env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}

    def run(self, *argv: str, env: dict[str, str] | None = None) -> Run:
        proc = subprocess.run(
            list(argv),
            cwd=self.work,
            env={**self.env, **(env or {})},
            capture_output=True,
            check=False,
            timeout=300,
        )
        return Run(proc)

    def ok(self, *argv: str) -> str:
        r = self.run(*argv)
        assert r.code == 0, r
        return r.out


@pytest.fixture
def clone(tmp_path: Path) -> Iterator[Repo]:
    r = Repo(tmp_path)
    subprocess.run(["git", "init", "-q", "--bare", str(r.remote)], check=True)
    r.work.mkdir()
    r.ok("git", "init", "-q")
    (r.work / ".gitignore").write_text("__pycache__/\nnode_modules/\n")
    (r.work / "src").mkdir()
    (r.work / "src" / "app.py").write_text("def add(a, b):\n    return a + b\n")
    yield r


def delegated_commit_is_blocked_then_passes(r: Repo) -> None:
    (r.work / "src" / "app.py").write_text("def add(a, b):\n    return a + b  # ai\n")
    assert r.run("gentle-hook", "record", "--model", "o4-mini", "--effort", "low").code == 0
    r.ok("git", "add", "-A")
    blocked = r.run("git", "commit", "-m", "writer: comment")
    assert blocked.code == 1, blocked
    said = [s for s in blocked.lines if s.startswith(PREFIX)]
    assert said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (writer content (o4-mini/low) in src/app.py)"
    )
    assert f"{PREFIX}  run: gentle-hook spot-check --staged" in said
    assert r.run("gentle-hook", "receipt", "run", "--staged", "--", *CHECK).code == 0
    assert r.run("sh", "-c", "gentle-hook spot-check --staged").code == 0
    passed = r.run("git", "commit", "-m", "writer: comment")
    assert passed.code == 0, passed


def delegated_merge_is_blocked_then_concluded(r: Repo) -> None:
    """An agent's merge is judged by the manager's pre-merge-commit hook (git runs no
    pre-commit for a merge): blocked, then concluded with the printed fix."""
    r.ok("git", "switch", "-q", "-c", "topic")
    (r.work / "src" / "notes.py").write_text("NOTES = 1\n")
    r.ok("git", "add", "src/notes.py")
    r.ok("git", "commit", "-q", "-m", "topic: notes")
    r.ok("git", "switch", "-q", "main")
    (r.work / "README.md").write_text("# demo, main\n")
    r.ok("git", "add", "README.md")
    r.ok("git", "commit", "-q", "-m", "main: readme")
    agent = {"CLAUDECODE": "1"}
    blocked = r.run("git", "merge", "--no-ff", "--no-edit", "topic", env=agent)
    assert blocked.code == 1, blocked
    said = [s for s in blocked.lines if s.startswith(PREFIX)]
    assert said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (claude-code (CLAUDECODE is set "
        "in the hook's environment))"
    ), blocked
    assert f"{PREFIX}  run: gentle-hook spot-check --staged" in said
    assert r.ok("git", "rev-parse", "-q", "--verify", "MERGE_HEAD").strip() == (
        r.ok("git", "rev-parse", "topic").strip()
    )
    assert r.run("gentle-hook", "receipt", "run", "--staged", "--", *CHECK).code == 0
    assert r.run("sh", "-c", "gentle-hook spot-check --staged").code == 0
    passed = r.run("git", "commit", "--no-edit", env=agent)
    assert passed.code == 0, passed
    assert len(r.ok("git", "rev-list", "--parents", "-n", "1", "HEAD").split()) == 3


#: How the decision object's line starts (docs/lefthook.md, docs/husky.md, README).
DECISION_LINE = '{"schema":"gentle-hooks.decision/v1"'


def json_decision_is_one_line_among_the_managers(r: Repo, manager_line: str) -> None:
    """With GENTLE_HOOKS_FORMAT=json a blocked commit's stderr holds the manager's lines
    (``manager_line`` among them) and our object, whole, on the line the docs name."""
    (r.work / "src" / "app.py").write_text("def add(a, b):\n    return a + b  # ai again\n")
    assert r.run("gentle-hook", "record", "--model", "o4-mini", "--effort", "low").code == 0
    r.ok("git", "add", "-A")
    blocked = r.run("git", "commit", "-m", "writer: json", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert blocked.code == 1, blocked
    assert manager_line in blocked.err, blocked  # the manager's own words: not one object
    [line] = [x for x in blocked.err.splitlines() if x.startswith(DECISION_LINE)]
    decision = json.loads(line)
    assert (decision["hook"], decision["decision"]) == ("pre-commit", "blocked")
    [cand] = decision["candidates"]
    assert cand["delegated_by"] == "writer content (o4-mini/low) in src/app.py"
    root = Path(__file__).resolve().parents[2]
    for doc in ("README.md", "docs/lefthook.md", "docs/husky.md"):  # they tell agents so
        assert f"`{DECISION_LINE}`" in (root / doc).read_text(), doc


def unverified_push_is_blocked(r: Repo) -> None:
    (r.work / "src" / "app.py").write_text("def add(a, b):\n    return b + a  # ai, hurried\n")
    assert r.run("gentle-hook", "record", "--model", "o4-mini", "--effort", "low").code == 0
    r.ok("git", "add", "-A")
    r.ok("git", "commit", "-q", "--no-verify", "-m", "writer: hurried")
    push = r.run("git", "push", "origin", "main")
    assert push.code != 0, push
    assert any(
        s.startswith(f"{PREFIX}BLOCKED commit ") and "on refs/heads/main" in s for s in push.lines
    ), push


def first_push(r: Repo) -> None:
    r.ok("git", "add", "-A")
    r.ok("git", "commit", "-q", "-m", "initial")
    r.ok("git", "remote", "add", "origin", str(r.remote))
    r.ok("git", "push", "-q", "-u", "origin", "main")
    r.ok("git", "remote", "set-head", "origin", "main")


def test_lefthook_snippet(node_modules: Path, clone: Repo) -> None:
    [(name, config)] = doc_blocks("lefthook.md").items()
    assert name == "lefthook.yml"
    (clone.work / "lefthook.yml").write_text(config)
    first_push(clone)
    installed = clone.run(str(node_modules / ".bin" / "lefthook"), "install")
    assert installed.code == 0, installed
    for hook in (
        "pre-commit",
        "pre-merge-commit",
        "commit-msg",
        "pre-push",
        "post-commit",
        "post-rewrite",
    ):
        assert (clone.work / ".git" / "hooks" / hook).is_file(), hook
    delegated_commit_is_blocked_then_passes(clone)
    delegated_merge_is_blocked_then_concluded(clone)
    json_decision_is_one_line_among_the_managers(clone, "gentle-hooks commit gate")
    unverified_push_is_blocked(clone)


def test_husky_snippets(node_modules: Path, clone: Repo) -> None:
    scripts = doc_blocks("husky.md")
    assert sorted(scripts) == sorted(
        f".husky/{h}"
        for h in (
            "pre-commit",
            "pre-merge-commit",
            "commit-msg",
            "pre-push",
            "prepare-commit-msg",
            "post-commit",
            "post-rewrite",
        )
    )
    for rel, body in scripts.items():
        (clone.work / rel).parent.mkdir(exist_ok=True)
        (clone.work / rel).write_text(body)
    installed = clone.run(str(node_modules / ".bin" / "husky"))
    assert installed.code == 0, installed
    assert clone.ok("git", "config", "core.hooksPath").strip() == ".husky/_"
    first_push(clone)
    delegated_commit_is_blocked_then_passes(clone)
    delegated_merge_is_blocked_then_concluded(clone)
    json_decision_is_one_line_among_the_managers(clone, "husky - pre-commit script failed")
    unverified_push_is_blocked(clone)
