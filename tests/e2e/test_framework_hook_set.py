"""The smallest hook set under the pre-commit framework (README "Gating commits and pushes"):
the commit gate and the push gate only: the pre-commit and pre-push hook types installed (the
README's one install line, then the other types uninstalled).

Real ``pre-commit install``, real ``git commit`` and ``git push``; the framework starts are
counted from git's own trace (``GIT_TRACE2_EVENT``: one ``child_start`` of class ``hook``
per hook git runs, each of them the framework's script). An ordinary commit starts the
framework once; an AI change with a missing spot check is still blocked (at commit when the
ledger holds its writer's work, at push when only its message shows an agent), and a human's
commit and push pass.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import INITIAL_FILES, World

#: The hook ids of the smallest set, and the hook types it installs.
MINIMAL_IDS = ("gentle-hooks-commit-gate", "gentle-hooks-push-gate")
MINIMAL_TYPES = ("pre-commit", "pre-push")
#: The hooks a ``git commit`` can run.
COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit")
V2 = "def add(a, b):\n    return a + b  # v2\n"
AI_MESSAGE = "Add a comment\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n"


@pytest.fixture
def minimal(
    tmp_path: Path,
    hook_repo: tuple[Path, str],
    pre_commit_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> World:
    """A clone whose ``.pre-commit-config.yaml`` lists the two gates, installed for their
    two hook types only."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
    w = World(tmp_path, "pre-commit")
    w.ok("init", "-q", "--bare", str(w.remote), cwd=tmp_path)
    w.work.mkdir()
    w.ok("init", "-q")
    for rel, text in INITIAL_FILES.items():
        w.write(rel, text)
    path, sha = hook_repo
    hooks = "".join(f"      - id: {h}\n" for h in MINIMAL_IDS)
    w.write(
        ".pre-commit-config.yaml", f"repos:\n  - repo: {path}\n    rev: {sha}\n    hooks:\n{hooks}"
    )
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "initial")
    w.ok("remote", "add", "origin", str(w.remote))
    w.ok("push", "-q", "-u", "origin", "main")
    w.ok("remote", "set-head", "origin", "main")
    types = [a for t in MINIMAL_TYPES for a in ("-t", t)]
    r = w.run([sys.executable, "-m", "pre_commit", "install", *types])
    assert r.code == 0, r
    return w


def hooks_run(w: World, trace: Path, *args: str) -> tuple[int, str, list[str]]:
    """``git ARGS`` with git's trace: (exit code, what it printed, the hooks it ran)."""
    trace.unlink(missing_ok=True)
    r = w.git(*args, env={"GIT_TRACE2_EVENT": str(trace)})
    ran = []
    for line in trace.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("event") == "child_start" and event.get("child_class") == "hook":
            ran.append(str(event["hook_name"]))
    return r.code, r.out + r.err, ran


def test_the_installed_commit_hooks_are_the_framework_s_pre_commit_only(minimal: World) -> None:
    hooks = minimal.work / ".git" / "hooks"
    present = [h for h in COMMIT_HOOKS if (hooks / h).exists()]
    assert present == ["pre-commit"]
    assert "pre_commit" in (hooks / "pre-commit").read_text(encoding="utf-8")
    assert "pre_commit" in (hooks / "pre-push").read_text(encoding="utf-8")


def test_a_human_commit_starts_the_framework_once_and_passes(
    minimal: World, tmp_path: Path
) -> None:
    w = minimal
    w.write("src/app.py", V2)
    w.ok("add", "-A")
    code, out, ran = hooks_run(w, tmp_path / "trace", "commit", "-q", "-m", "human change")
    assert code == 0, out
    assert ran == ["pre-commit"]
    code, out, ran = hooks_run(w, tmp_path / "trace", "push", "-q", "origin", "main")
    assert code == 0, out
    assert ran == ["pre-push"]


def test_a_writer_change_without_its_spot_check_is_blocked_at_commit(
    minimal: World, tmp_path: Path
) -> None:
    w = minimal
    w.delegate(text=V2)
    w.ok("add", "-A")
    code, out, ran = hooks_run(w, tmp_path / "trace", "commit", "-q", "-m", "writer change")
    assert code == 1, out
    assert "BLOCKED the staged change" in out and ran == ["pre-commit"]
    w.spot_check("--staged")
    code, out, ran = hooks_run(w, tmp_path / "trace", "commit", "-q", "-m", "writer change")
    assert code == 0, out
    assert ran == ["pre-commit"]


def test_an_ai_co_authored_commit_without_its_spot_check_is_blocked_at_push(
    minimal: World, tmp_path: Path
) -> None:
    """Only the message shows an agent: with no commit-msg stage the commit goes through,
    and the push gate (which reads every pushed commit's message) blocks it."""
    w = minimal
    w.write("src/app.py", V2)
    w.ok("add", "-A")
    code, out, ran = hooks_run(w, tmp_path / "trace", "commit", "-q", "-m", AI_MESSAGE)
    assert code == 0, out
    assert ran == ["pre-commit"]
    code, out, ran = hooks_run(w, tmp_path / "trace", "push", "-q", "origin", "main")
    assert code != 0, out
    assert "BLOCKED" in out and "Co-authored-by: Claude <noreply@anthropic.com>" in out
    assert ran == ["pre-push"]
    assert w.remote_ref("refs/heads/main") != w.rev("HEAD")
    w.report("--committed")
    w.spot_check("--committed")
    code, out, _ = hooks_run(w, tmp_path / "trace", "push", "-q", "origin", "main")
    assert code == 0, out
    assert w.remote_ref("refs/heads/main") == w.rev("HEAD")
