"""``install --agent`` / ``uninstall --agent`` edit the user's configuration file in place:
only our entry's text changes, comments are kept where the runtime reads them, a symbolic
link is written through, and uninstall after install gives back the original bytes (SPEC §7
"Hooks"). Real files, the real CLI.

Gemini CLI reads ``settings.json`` as JSON with comments: google-gemini/gemini-cli
``packages/cli/src/config/settings.ts`` (commit 5411f113cafae26161b4969b0237b8e1e024e2c2)
parses it with ``JSON.parse(stripJsonComments(content))``, and its ``docs/hooks/index.md``
shows comments inside the hooks configuration.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import gh

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}

#: A Gemini CLI settings file as a person keeps it: comments, a pinned model, another hook.
GEMINI_JSONC = """{
  // pinned for this repository
  "model": {"name": "gemini-2.5-pro"},
  /* the team's formatter */
  "hooks": {
    "AfterTool": [
      {
        "matcher": "write_file",
        "hooks": [{"name": "fmt", "type": "command", "command": "./fmt.sh"}]
      }
    ]
  }
}
"""

#: A Claude Code settings file in its owner's style: four spaces, an exponent, an escape.
CLAUDE_STYLED = (
    '{\n    "F": 1.0e3,\n    "name": "caf\\u00e9",\n    "permissions": {"allow": []}\n}\n'
)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    out = tmp_path / "home"
    out.mkdir()
    return out


def test_gemini_settings_with_comments_are_merged_checked_and_restored(
    repo: Path, home: Path
) -> None:
    path = repo / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(GEMINI_JSONC)
    env = {**WITH_GH, "HOME": str(home)}
    proc = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("gemini-cli (project): added: AfterTool hook")
    after = path.read_text()
    assert "// pinned for this repository" in after and "/* the team's formatter */" in after
    assert after.count("gentle-hook record --from gemini-cli") == 1
    doctor = gh(repo, "doctor", env=env)
    assert "ok    agent: gemini-cli: recorder wired" in doctor.stdout, doctor.stdout
    again = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert "unchanged" in again.stdout and path.read_text() == after
    gone = gh(repo, "uninstall", "--agent", "gemini-cli", "--scope", "project", env=env)
    assert gone.returncode == 0, gone.stderr
    assert path.read_bytes() == GEMINI_JSONC.encode()


def test_install_changes_only_our_entry_and_uninstall_gives_back_the_bytes(
    repo: Path, home: Path
) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(CLAUDE_STYLED)
    env = {**WITH_GH, "HOME": str(home)}
    assert gh(repo, "install", "--agent", "claude-code", env=env).returncode == 0
    after = path.read_text()
    # untouched values keep their spelling; ours is indented as the file is (four spaces)
    assert after.startswith('{\n    "F": 1.0e3,\n    "name": "caf\\u00e9",\n')
    assert '\n    "hooks": {\n        "PostToolUse": [\n' in after
    assert json.loads(after)["F"] == 1000.0
    assert gh(repo, "uninstall", "--agent", "claude-code", env=env).returncode == 0
    assert path.read_bytes() == CLAUDE_STYLED.encode()


@pytest.mark.parametrize("name", ["claude-code", "gemini-cli", "cursor"])
def test_a_symlinked_user_settings_file_is_written_through_its_link(
    name: str, repo: Path, home: Path, tmp_path: Path
) -> None:
    dotfiles = tmp_path / "dotfiles" / "settings.json"
    dotfiles.parent.mkdir()
    # Cursor's file carries its version: install would add it, uninstall keeps it
    original = '{\n  "version": 1\n}\n' if name == "cursor" else '{\n  "theme": "dark"\n}\n'
    dotfiles.write_text(original)
    folder = {"claude-code": ".claude", "gemini-cli": ".gemini", "cursor": ".cursor"}[name]
    link = home / folder / ("hooks.json" if name == "cursor" else "settings.json")
    link.parent.mkdir(parents=True)
    link.symlink_to(dotfiles)
    env = {**WITH_GH, "HOME": str(home)}
    proc = gh(repo, "install", "--agent", name, "--scope", "user", env=env)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(dotfiles)
    assert f"record --from {name}" in dotfiles.read_text()
    assert f"its target {dotfiles} was edited, the link kept" in proc.stdout
    gone = gh(repo, "uninstall", "--agent", name, "--scope", "user", env=env)
    assert gone.returncode == 0, gone.stderr
    assert link.is_symlink() and dotfiles.read_text() == original
