"""Shared fixtures: isolated git identity and config, real repositories in ``tmp_path``.

Every test runs with its own HOME, a global git config of its own, no system config, and
none of the variables a surrounding hook or CI job could leak (``GIT_DIR``...). Repositories
are built with the real ``git`` CLI; nothing about git is mocked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LEAKY = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_COMMON_DIR",
    "GIT_PREFIX", "GIT_NAMESPACE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_EDITOR",
    "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT",
)


@pytest.fixture(autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Isolate HOME, global/system git config, identity and default branch."""
    home = tmp_path_factory.mktemp("home")
    gitconfig = home / ".gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Test User\n\temail = test@example.com\n"
        "[init]\n\tdefaultBranch = main\n"
        "[protocol \"file\"]\n\tallow = always\n"
        "[advice]\n\tdetachedHead = false\n"
        "[commit]\n\tgpgSign = false\n"
    )
    for name in list(os.environ):
        if name in LEAKY or name.startswith("GENTLE_"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    return home


def git(cwd: Path | str, *args: str, input: bytes | None = None, env: dict[str, str] | None = None
        ) -> str:
    """Run git in ``cwd``; return stdout (surrogateescape-decoded); fail the test on error."""
    proc = subprocess.run(
        ["git", *args], cwd=cwd, input=input, capture_output=True,
        env={**os.environ, **(env or {})},
    )
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def gh(cwd: Path | str, *args: str, env: dict[str, str] | None = None,
       input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI (``python -m gentle_hooks``) in ``cwd``; never raises."""
    return subprocess.run(
        [sys.executable, "-m", "gentle_hooks", *args], cwd=cwd, capture_output=True, text=True,
        env={**os.environ, **(env or {})}, input=input,
    )


def write(path: Path, content: str | bytes, mode: int | None = None) -> Path:
    """Write a file (creating parents); optionally chmod it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    if mode is not None:
        path.chmod(mode)
    return path


def commit_all(repo: Path, message: str = "change") -> str:
    """Stage everything and commit; return the new commit id."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository on ``main`` with one commit holding ``README.md`` and ``src/app.py``."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "README.md", "# demo\n")
    write(root / "src" / "app.py", "def main():\n    return 1\n")
    commit_all(root, "initial")
    return root
