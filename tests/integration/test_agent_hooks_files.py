"""Where a runtime reads our hook from, and whether it will run it: Droid's standalone
``.factory/hooks.json``, which hides the hooks of its settings files (SPEC §7 "Hooks"), on
real repositories with the real CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import gh, trust_codex_hook

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
RECORD = "gentle-hook record --from droid"

#: A user's own ``.factory/hooks.json``, in the standalone shape of docs.factory.ai/harness/hooks
#: ("Structure": "Hook files are keyed by event name. Each event contains matcher groups, and
#: each group contains" its hooks; quoted verbatim by dyoshikawa/rulesync PR #2680: "Standalone
#: hooks.json files are keyed directly by event name").
THEIRS = (
    "{\n"
    '  "PreToolUse": [\n'
    "    {\n"
    '      "matcher": "Execute",\n'
    '      "hooks": [{ "type": "command", "command": "\\"$FACTORY_PROJECT_DIR\\"/guard.sh" }]\n'
    "    }\n"
    "  ]\n"
    "}\n"
)


def doctor(repo: Path, name: str = "droid", env: dict[str, str] = WITH_GH) -> tuple[bool, str]:
    proc = gh(repo, "doctor", "--json", env=env)
    [check] = [c for c in json.loads(proc.stdout)["checks"] if c["name"] == f"agent: {name}"]
    return check["ok"], check["detail"]


def run_fix(repo: Path, detail: str) -> subprocess.CompletedProcess[str]:
    """The command doctor printed at the end of ``detail``, run exactly as printed."""
    found = re.search(r"; run: (.+)$", detail)
    assert found, detail
    return subprocess.run(
        found.group(1),
        shell=True,
        cwd=repo,
        env={**os.environ, **WITH_GH},
        capture_output=True,
        text=True,
        check=False,
    )


def test_droid_install_merges_into_an_existing_hooks_json_in_its_bare_shape(repo: Path) -> None:
    hooks = repo / ".factory" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(THEIRS)
    out = gh(repo, "install", "--agent", "droid", env=WITH_GH)
    assert out.returncode == 0, out.stderr
    assert f"in {hooks}" in out.stdout.splitlines()[0]
    assert not (repo / ".factory" / "settings.json").exists()
    doc = json.loads(hooks.read_text())
    assert "hooks" not in doc  # keyed by event name, as the file was
    assert doc["PreToolUse"][0] == json.loads(THEIRS)["PreToolUse"][0]
    assert doc["PostToolUse"] == [
        {
            "matcher": "Create|Edit|MultiEdit|Write|ApplyPatch",
            "hooks": [{"type": "command", "command": RECORD}],
        }
    ]
    ok, detail = doctor(repo)
    assert ok and detail.startswith(f"recorder wired: {hooks} (project)"), detail
    again = gh(repo, "install", "--agent", "droid", env=WITH_GH)
    assert again.stdout.startswith("droid (project): unchanged:"), again.stdout
    gone = gh(repo, "uninstall", "--agent", "droid", "--scope", "project")
    assert gone.returncode == 0, gone.stderr
    assert hooks.read_text() == THEIRS


def test_droid_entry_in_settings_json_shadowed_by_hooks_json_fails_doctor(repo: Path) -> None:
    assert gh(repo, "install", "--agent", "droid", env=WITH_GH).returncode == 0
    settings = repo / ".factory" / "settings.json"
    assert RECORD in settings.read_text()
    ok, _ = doctor(repo)
    assert ok  # no hooks.json: Droid reads the settings file's hooks
    hooks = repo / ".factory" / "hooks.json"
    hooks.write_text(THEIRS)
    ok, detail = doctor(repo)
    assert not ok
    assert detail.startswith(f"wired in {settings} (project), but {hooks} exists"), detail
    # the printed fix wires the file Droid reads
    fixed = run_fix(repo, detail)
    assert fixed.returncode == 0, fixed.stderr
    assert RECORD in hooks.read_text()
    ok, detail = doctor(repo)
    assert ok and detail.startswith(f"recorder wired: {hooks} (project)"), detail
    gone = gh(repo, "uninstall", "--agent", "droid", "--scope", "project")
    assert gone.returncode == 0, gone.stderr
    assert hooks.read_text() == THEIRS
    assert RECORD not in settings.read_text()


def test_droid_hooks_json_wrapped_in_a_hooks_key_is_edited_as_it_is(repo: Path) -> None:
    hooks = repo / ".factory" / "hooks.json"
    hooks.parent.mkdir()
    wrapped = json.dumps({"hooks": json.loads(THEIRS)}, indent=2) + "\n"
    hooks.write_text(wrapped)
    assert gh(repo, "install", "--agent", "droid", env=WITH_GH).returncode == 0
    doc = json.loads(hooks.read_text())
    assert set(doc) == {"hooks"} and "PostToolUse" in doc["hooks"]
    assert gh(repo, "uninstall", "--agent", "droid", "--scope", "project").returncode == 0
    assert hooks.read_text() == wrapped


#: Another tool's PostToolUse hook, already first in the project's ``.codex/hooks.json``
#: (developers.openai.com/codex/hooks, "Config shape"): ours is appended as group 1.
CODEX_THEIRS = {
    "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "n"}]}]}
}


def test_codex_hook_not_yet_trusted_in_hooks_fails_doctor(repo: Path, tmp_path: Path) -> None:
    codex_home = tmp_path / "codex-home"
    env = {**WITH_GH, "CODEX_HOME": str(codex_home)}
    hooks = repo / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps(CODEX_THEIRS))
    assert gh(repo, "install", "--agent", "codex", env=env).returncode == 0
    ok, detail = doctor(repo, "codex", env)
    assert not ok
    assert detail.startswith(f"wired, but Codex does not run it: {hooks}: not trusted"), detail
    assert detail.endswith("start codex here, open /hooks and trust it")
    # the user's own hook trusted (group 0) says nothing of ours (group 1)
    trust_codex_hook(codex_home, hooks, group=0)
    assert not doctor(repo, "codex", env)[0]
    trust_codex_hook(codex_home, hooks, group=1)
    ok, detail = doctor(repo, "codex", env)
    assert ok and detail.startswith(f"recorder wired: {hooks} (project)"), detail


def test_codex_hook_switched_off_in_hooks_fails_doctor(repo: Path, tmp_path: Path) -> None:
    codex_home = tmp_path / "codex-home"
    env = {**WITH_GH, "CODEX_HOME": str(codex_home)}
    assert gh(repo, "install", "--agent", "codex", env=env).returncode == 0
    trust_codex_hook(codex_home, repo / ".codex" / "hooks.json", enabled=False)
    ok, detail = doctor(repo, "codex", env)
    assert not ok and "hooks.json: switched off in /hooks" in detail, detail


@pytest.mark.parametrize(
    "command",
    [
        "timeout 10 gentle-hook record --from claude-code",
        "uvx --from gentle-hooks gentle-hook record --from claude-code",
        "pipx run --spec gentle-hooks gentle-hook record --from claude-code",
    ],
)
def test_a_wrapped_recorder_is_ours_and_never_doubled(
    command: str, repo: Path, tmp_path: Path
) -> None:
    """A Claude Code entry (code.claude.com/docs/en/hooks, "Configuration": event, matcher
    group, ``{"type": "command", "command": ...}``) whose command runs ours through a
    wrapper: doctor finds it wired, install leaves it and adds no second entry."""
    tools = tmp_path / "tools"  # the runners, as stubs on PATH
    tools.mkdir()
    for name in ("uvx", "pipx"):
        (tools / name).write_text("#!/bin/sh\nexit 0\n")
        (tools / name).chmod(0o755)
    env = {"PATH": f"{tools}{os.pathsep}{WITH_GH['PATH']}"}
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    group = {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": []}
    group["hooks"] = [{"type": "command", "command": command}]
    shell = {"matcher": "Bash", "hooks": group["hooks"]}
    text = (
        json.dumps(
            {
                "hooks": {
                    "PostToolUse": [group],
                    "PreToolUse": [shell],
                    "PostToolUseFailure": [shell],
                    "Stop": [{"hooks": shell["hooks"]}],
                }
            },
            indent=2,
        )
        + "\n"
    )
    path.write_text(text)
    ok, detail = doctor(repo, "claude-code", env)
    assert ok and detail.startswith(f"recorder wired: {path} (project)"), detail
    out = gh(repo, "install", "--agent", "claude-code", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(
        "claude-code (project): unchanged: PostToolUse, PreToolUse, PostToolUseFailure and "
        f"Stop hooks running '{command}'"
    )
    assert path.read_text() == text


def test_cursor_install_says_it_added_the_version_and_uninstall_keeps_only_that(
    repo: Path,
) -> None:
    """A ``.cursor/hooks.json`` without ``version`` (Cursor's hooks docs,
    cursor.com/docs/agent/hooks, declare ``"version": 1`` in every example): install adds it
    and says so; uninstall removes our entries and keeps it, as docs/agents/cursor.md says."""
    path = repo / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text('{"hooks":{"afterFileEdit":[{"command":"fmt"}]}}')
    out = gh(repo, "install", "--agent", "cursor", env=WITH_GH)
    assert out.returncode == 0, out.stderr
    assert 'note: added "version": 1, which the file lacked (uninstall keeps it)' in (
        out.stdout.splitlines()
    ), out.stdout
    assert gh(repo, "uninstall", "--agent", "cursor", "--scope", "project").returncode == 0
    assert json.loads(path.read_text()) == {
        "version": 1,
        "hooks": {"afterFileEdit": [{"command": "fmt"}]},
    }
    again = gh(repo, "install", "--agent", "cursor", env=WITH_GH)  # version there: nothing said
    assert "version" not in again.stdout, again.stdout


def test_codex_trust_is_checked_for_each_of_our_hooks(repo: Path, tmp_path: Path) -> None:
    """Our PostToolUse hook trusted, our PreToolUse one (the shell's snapshot) not: Codex
    skips the PreToolUse hook, so doctor fails naming it; trusted too, doctor passes
    (refuter finding, issue 17)."""
    codex_home = tmp_path / "codex-home"
    env = {**WITH_GH, "CODEX_HOME": str(codex_home)}
    hooks = repo / ".codex" / "hooks.json"
    assert gh(repo, "install", "--agent", "codex", env=env).returncode == 0
    trust_codex_hook(codex_home, hooks, events=("post_tool_use", "stop"))
    ok, detail = doctor(repo, "codex", env)
    assert not ok, detail
    assert detail.startswith(f"wired, but Codex does not run it: {hooks}: not trusted "), detail
    assert "(its PreToolUse hook)" in detail and "PostToolUse" not in detail, detail
    trust_codex_hook(codex_home, hooks, events=("pre_tool_use",))
    ok, detail = doctor(repo, "codex", env)
    assert ok and detail.startswith(f"recorder wired: {hooks} (project)"), detail
