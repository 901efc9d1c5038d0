"""A runtime's untracked project configuration and the repository's other worktrees
(SPEC §7 "Hooks"): ``doctor`` in a worktree without it says so with the command that wires
it there; ``install --agent`` says the file it wrote is not shared."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.conftest import gh, run_git

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}


def _checks(where: Path) -> dict[str, dict[str, object]]:
    proc = gh(where, "doctor", "--json", env=WITH_GH)
    return {c["name"]: c for c in json.loads(proc.stdout)["checks"]}


def test_doctor_in_another_worktree_names_the_untracked_agent_config(
    repo: Path, tmp_path: Path
) -> None:
    assert gh(repo, "install", "--agent", "claude-code", env=WITH_GH).returncode == 0
    other = tmp_path / "other"
    run_git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    assert not (other / ".claude" / "settings.json").exists()
    line = _checks(other)["agent: claude-code"]
    detail = str(line["detail"])
    assert "its project configuration .claude/settings.json is in the worktree" in detail
    assert "but not in this one" in detail
    text = gh(other, "doctor", env=WITH_GH).stdout
    assert "gentle-hook install --agent claude-code" in text, text
    # the printed command wires it there, and says the file is not shared
    proc = gh(other, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    notes = [x for x in proc.stdout.splitlines() if "is not tracked by git" in x]
    assert len(notes) == 1 and ".claude/settings.json" in notes[0], proc.stdout
    assert "recorder wired" in str(_checks(other)["agent: claude-code"]["detail"])


def test_install_in_a_single_worktree_prints_no_worktree_note(repo: Path) -> None:
    proc = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 0 and "is not tracked by git" not in proc.stdout, proc.stdout
