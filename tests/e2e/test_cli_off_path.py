"""The CLI run by its path, where ``gentle-hook`` is not on PATH (SPEC §7 "Fix commands").

CI that runs ``/abs/.venv/bin/gentle-hook gate --range A..B`` prints commands for the
writer, who runs them in another clone: they name ``gentle-hook``, after the line that puts
the copy the writer's hooks run on PATH, never CI's own path; a line for here (the fetch of
a note already on the remote) keeps the path that works here. The server's block reaches
a clone whose hooks ``gentle-hook install`` placed, and ``uninstall`` names the framework
by the path its hook runs. Every printed line is pasted into ``sh`` with the same PATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.report.fixes import step_lines
from gentle_hooks.report.worktree_text import PATH_LINE
from tests.conftest import run_git

BIN = Path(sys.executable).parent
SCRIPT = BIN / "gentle-hook"
TRAILER = "Co-authored-by: Claude <noreply@anthropic.com>"


def _off_path(tmp_path: Path) -> dict[str, str]:
    """This environment with no directory holding gentle-hook, pre-commit or prek on PATH,
    and empty framework caches (the PATH line must not find a copy by accident)."""
    tools = ("gentle-hook", "pre-commit", "prek")
    kept = [
        d
        for d in os.environ["PATH"].split(os.pathsep)
        if d and not any(os.path.exists(os.path.join(d, t)) for t in tools)
    ]
    for name in ("pc", "prek"):
        (tmp_path / name).mkdir(exist_ok=True)
    return {
        **os.environ,
        "PATH": os.pathsep.join(kept),
        "PRE_COMMIT_HOME": str(tmp_path / "pc"),
        "PREK_HOME": str(tmp_path / "prek"),
    }


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=120
    )


def _paste(lines: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The lines, as printed, in one ``sh``."""
    return _run(["sh", "-c", "\n".join(lines)], cwd, env)


def _delegated(root: Path) -> None:
    """A repository: a human commit, then a delegated one without a note (hooks off)."""
    run_git(root.parent, "init", "-q", "-b", "main", str(root))
    (root / "app.py").write_text("X = 1\n", encoding="utf-8")
    run_git(root, "add", "-A")
    run_git(root, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "human")
    (root / "app.py").write_text("X = 2\n", encoding="utf-8")
    run_git(root, "add", "-A")
    message = f"agent\n\n{TRAILER}\n"
    run_git(root, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", message)


def _commands(text: str) -> list[str]:
    """The ``run:``/``prefix:`` commands of a block, in order (a server's ``remote:
    gentle-hooks:`` prefix and git's padding off)."""
    out = []
    for line in text.splitlines():
        body = line.removeprefix("remote:").strip().removeprefix("gentle-hooks:").strip()
        for label in ("run: ", "prefix: "):
            if body.startswith(label):
                out.append(body.removeprefix(label))
    return out


@pytest.mark.parametrize("how", ["absolute", "relative"])
def test_ci_by_path_addresses_the_writer_with_gentle_hook_and_the_path_line(
    tmp_path: Path, how: str
) -> None:
    repo = tmp_path / "repo"
    _delegated(repo)
    off = _off_path(tmp_path)
    cli = str(SCRIPT) if how == "absolute" else os.path.relpath(SCRIPT, repo)
    r = _run([cli, "gate", "--range", "HEAD~1..HEAD"], repo, off)
    assert r.returncode == 1, (r.stdout, r.stderr)
    commands = _commands(r.stdout)
    # here: the fetch of a note already on the remote runs with the path that works here
    here = f"{SCRIPT} sync fetch"
    assert here in commands, r.stdout
    # the writer's: gentle-hook, once the PATH line ran; CI's path nowhere else
    writer = [c for c in commands if c != here]
    assert not [c for c in writer if str(SCRIPT) in c], r.stdout
    assert commands[0] == PATH_LINE, r.stdout
    named = [c for c in writer if c.startswith("gentle-hook ")]
    assert "gentle-hook sync push" in named and len(named) >= 3, r.stdout
    # the writer's clone, with the hooks gentle-hook install placed and the CLI off PATH:
    # the PATH line, then the printed gentle-hook line, run as printed
    clone = tmp_path / "writer"
    run_git(tmp_path, "clone", "-q", str(repo), str(clone))
    installed = _run([str(SCRIPT), "install"], clone, off)
    assert installed.returncode == 0, installed.stderr
    assert _paste(["gentle-hook sync push"], clone, off).returncode == 127  # off PATH
    pasted = _paste([PATH_LINE, "gentle-hook sync push"], clone, off)
    assert pasted.returncode == 0, (pasted.stdout, pasted.stderr)


def test_gate_json_fixes_carry_the_path_line_the_text_prints(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _delegated(repo)
    on = _run(
        [sys.executable, "-m", "gentle_hooks", "gate", "--range", "HEAD~1..HEAD", "--json"],
        repo,
        dict(os.environ),
    )
    doc = json.loads(on.stdout)["commits"][0]
    assert doc["fixes"][0] == "gentle-hook sync fetch", doc
    assert doc["path_line"] == PATH_LINE
    text = _run(
        [sys.executable, "-m", "gentle_hooks", "gate", "--range", "HEAD~1..HEAD"],
        repo,
        dict(os.environ),
    )
    # the JSON carries the text's whole way out, in its order (one source): the note
    # fetched, else shared from the clone that verified it, else verified in a worktree
    # of the commit and shared; not the fetch alone, which loops when it was never pushed
    assert _commands(text.stdout) == [doc["path_line"], *doc["fixes"]], (text.stdout, doc)
    shown = step_lines([(step["label"], step["text"]) for step in doc["steps"]])
    lines = text.stdout.splitlines()
    at = lines.index(shown[0])
    assert lines[at : at + len(shown)] == shown, (text.stdout, doc)
    assert "gentle-hook sync push" in doc["fixes"], doc
    assert any("spot-check --committed --cwd" in f for f in doc["fixes"]), doc
    # by path, off PATH: the fix for here keeps that path, and needs no PATH line
    off = _run(
        [str(SCRIPT), "gate", "--range", "HEAD~1..HEAD", "--json"], repo, _off_path(tmp_path)
    )
    doc = json.loads(off.stdout)["commits"][0]
    assert doc["fixes"][0] == f"{SCRIPT} sync fetch", doc
    # the writer's lines (another clone) name gentle-hook: the PATH line, as the text
    assert doc["path_line"] == PATH_LINE, doc
    assert _paste([doc["fixes"][0]], repo, _off_path(tmp_path)).returncode != 127


def test_a_server_block_reaches_a_plain_install_off_path(tmp_path: Path) -> None:
    off = _off_path(tmp_path)
    server = tmp_path / "server.git"
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    assert _run([str(SCRIPT), "install", "--server"], server, off).returncode == 0
    clone = tmp_path / "writer"
    run_git(tmp_path, "clone", "-q", str(server), str(clone))
    (clone / "app.py").write_text("X = 1\n", encoding="utf-8")
    run_git(clone, "add", "-A")
    run_git(clone, "commit", "-q", "-m", "human")
    run_git(clone, "push", "-q", "origin", "main")
    assert _run([str(SCRIPT), "install"], clone, off).returncode == 0
    (clone / "app.py").write_text("X = 2\n", encoding="utf-8")
    run_git(clone, "add", "-A")
    message = f"agent\n\n{TRAILER}\n"
    run_git(clone, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", message)
    pushed = _run(["git", "push", "--no-verify", "origin", "main"], clone, off)
    assert pushed.returncode != 0 and "REJECTED refs/heads/main" in pushed.stderr, pushed.stderr
    commands = _commands(pushed.stderr)
    assert commands and commands[0] == PATH_LINE, pushed.stderr
    assert "gentle-hook sync push" in commands, pushed.stderr
    pasted = _paste([PATH_LINE, "gentle-hook sync push"], clone, off)
    assert pasted.returncode == 0, (pasted.stdout, pasted.stderr)


@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_uninstall_names_the_framework_by_the_path_its_hook_runs(tmp_path: Path, tool: str) -> None:
    repo = tmp_path / "repo"
    run_git(tmp_path, "init", "-q", "-b", "main", str(repo))
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: gentle-hooks-pre-commit\n    name: gate\n"
        "    entry: 'true'\n    language: system\n",
        encoding="utf-8",
    )
    off = _off_path(tmp_path)
    placed = _run([str(BIN / tool), "install", "-t", "pre-commit", "-t", "pre-push"], repo, off)
    assert placed.returncode == 0, placed.stderr
    r = _run([str(SCRIPT), "uninstall"], repo, off)
    assert r.returncode == 0, r.stderr
    assert f"still gated: {tool}'s hooks here run the gate" in r.stdout, r.stdout
    (command,) = [c for c in _commands(r.stdout) if " uninstall " in c]
    assert command.endswith(" uninstall -t pre-commit -t pre-push"), command
    pasted = _paste([command], repo, off)
    assert pasted.returncode == 0, (pasted.stdout, pasted.stderr)
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    assert not (repo / ".git" / "hooks" / "pre-push").exists()


def test_the_path_line_puts_gentle_hook_alone_on_path(tmp_path: Path) -> None:
    # pasted before the user's own lines, the PATH line makes gentle-hook reachable and
    # nothing else: the python3 of the copy's environment (a venv, pre-commit's py_env)
    # does not shadow the user's, whose `python3 -m pytest` follows it
    repo = tmp_path / "repo"
    _delegated(repo)
    off = _off_path(tmp_path)
    installed = _run([str(SCRIPT), "install"], repo, off)
    assert installed.returncode == 0, installed.stderr
    before = _paste(["command -v python3"], repo, off)
    assert (BIN / "python3").exists()
    pasted = _paste([PATH_LINE, "command -v python3", "gentle-hook --version"], repo, off)
    assert pasted.returncode == 0, (pasted.stdout, pasted.stderr)
    found, version = pasted.stdout.splitlines()
    assert found == before.stdout.strip(), pasted.stdout
    assert found != str(BIN / "python3")
    assert version.startswith("gentle-hook, version "), pasted.stdout
    links = repo / ".git" / "gentle-hooks" / "bin"
    assert [p.name for p in links.iterdir()] == ["gentle-hook"]
    assert (links / "gentle-hook").resolve() == SCRIPT.resolve()
