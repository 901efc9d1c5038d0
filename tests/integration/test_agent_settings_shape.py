"""A Claude Code settings file whose ``hooks`` is not of the documented shape (an unknown
event name, a group whose ``hooks`` is not a list): doctor and install warn, naming it
(SPEC §7 "Hooks"; refuter r17z)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import gh

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
OURS = {"type": "command", "command": "gentle-hook record --from claude-code"}
WRITES = {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": [OURS]}
SNAPSHOT = {"matcher": "Bash", "hooks": [OURS]}  # the work tree before each Bash call


@pytest.mark.parametrize(
    ("extra", "fault"),
    [
        ({"PostToolUze": [{"hooks": []}]}, "hooks.PostToolUze is not a hook event it documents"),
        ({"Notification": [{"hooks": "notify"}]}, "hooks.Notification[0].hooks is not a list"),
        (
            {"Notification": [{"matcher": 3, "hooks": []}]},
            "hooks.Notification[0].matcher is not a string",
        ),
        ({"Notification": {"hooks": []}}, "hooks.Notification is not a list"),
    ],
)
def test_a_settings_file_not_of_the_documented_shape_is_warned_about(
    extra: dict[str, object], fault: str, repo: Path
) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PostToolUse": [WRITES],
                    "PreToolUse": [SNAPSHOT],
                    "PostToolUseFailure": [SNAPSHOT],
                    "Stop": [{"hooks": SNAPSHOT["hooks"]}],
                    **extra,
                }
            }
        )
    )
    warning = (
        f"warning: {path} does not match the shape Claude Code documents "
        f"(docs/agents/claude-code.md): {fault}; Claude Code may reject the file or skip "
        "those hooks"
    )
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: claude-code"]
    assert check["detail"].startswith(f"recorder wired: {path} (project)")
    assert check["detail"].endswith(f"; {warning}")

    proc = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert f"note: {warning}" in proc.stdout.splitlines()


def test_a_settings_file_of_the_documented_shape_gets_no_warning(repo: Path) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    stop = {"hooks": [{"type": "command", "command": "notify"}]}
    others = {
        "$schema": "https://json.schemastore.org/claude-code-settings.json",
        "permissions": {"allow": ["Bash(npm run test)"]},
        "env": {"FOO": "bar"},
        "model": "claude-sonnet-4-5",
        "effortLevel": "high",
        "disableAllHooks": False,
    }
    path.write_text(
        json.dumps(
            {
                **others,
                "hooks": {
                    "PostToolUse": [WRITES],
                    "PreToolUse": [SNAPSHOT],
                    "PostToolUseFailure": [SNAPSHOT],
                    "Stop": [stop, {"hooks": SNAPSHOT["hooks"]}],
                },
            }
        )
    )
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: claude-code"]
    assert "warning" not in check["detail"]
    assert "warning" not in gh(repo, "install", "--agent", "claude-code", env=WITH_GH).stdout


def test_a_settings_file_starting_with_a_byte_order_mark_is_refused_naming_it(
    repo: Path,
) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    before = b'\xef\xbb\xbf{"hooks": {}}'
    path.write_bytes(before)
    said = (
        f"{path}: not JSON: line 1 column 1: a UTF-8 byte-order mark (U+FEFF) before the "
        "JSON; save the file without it"
    )
    proc = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 2
    assert proc.stderr == f"gentle-hook: error: {said}; nothing was changed\n"
    assert path.read_bytes() == before
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: claude-code"]
    assert (check["ok"], check["detail"]) == (False, said)


@pytest.mark.parametrize(
    ("settings", "warning"),
    [
        (
            {"disableAllHooks": "true", "effortLevel": "turbo"},
            'disableAllHooks is "true", not a boolean; effortLevel is "turbo", not one of low, '
            "medium, high, xhigh (docs/agents/claude-code.md); Claude Code may reject the file "
            "or ignore those settings",
        ),
        (
            {"allowManagedHooksOnly": 1},
            "allowManagedHooksOnly is a JSON number, not a boolean (docs/agents/claude-code.md); "
            "Claude Code may reject the file or ignore those settings",
        ),
    ],
)
def test_a_setting_gentle_hooks_reads_of_another_shape_is_warned_about(
    settings: dict[str, object], warning: str, repo: Path
) -> None:
    """disableAllHooks, allowManagedHooksOnly and effortLevel are read (doctor, the
    recorder): a value Claude Code does not document is named, never a failure."""
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            {
                **settings,
                "hooks": {
                    "PostToolUse": [WRITES],
                    "PreToolUse": [SNAPSHOT],
                    "PostToolUseFailure": [SNAPSHOT],
                    "Stop": [{"hooks": SNAPSHOT["hooks"]}],
                },
            }
        )
    )
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: claude-code"]
    assert check["ok"] is True
    assert check["detail"].endswith(f"; warning: {path}: {warning}")
    proc = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert f"note: warning: {path}: {warning}" in proc.stdout.splitlines()


def test_top_level_settings_claude_code_does_not_document_are_warned_about(repo: Path) -> None:
    """A misspelt key sets nothing: doctor and install name it (the first five), and still
    pass; the file is left as it is."""
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    odd = ["disableAllhooks", "efortLevel", "a\nb", "k4", "k5", "k6", "k7"]
    before = json.dumps({"model": "opus", **dict.fromkeys(odd, True)})
    path.write_text(before)
    warning = (
        f"{path} has top-level settings Claude Code does not document "
        "(docs/agents/claude-code.md): disableAllhooks, efortLevel, a\\x0ab, k4, k5 and 2 "
        "more; a misspelt name sets nothing"
    )
    proc = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert f"note: warning: {warning}" in proc.stdout.splitlines()
    doc = json.loads(path.read_text())
    assert {k: doc[k] for k in odd} == dict.fromkeys(odd, True)
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: claude-code"]
    assert check["ok"] is True
    assert check["detail"].endswith(f"; warning: {warning}")


def test_a_null_hooks_is_refused_by_install_and_named_by_doctor(repo: Path) -> None:
    """``"hooks": null`` (refuter r17p): install refuses in one line, changing nothing (it
    does not guess what the null meant), and doctor names it; neither is a traceback."""
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    before = b'{"model": "claude-sonnet-4-5", "hooks": null}\n'
    path.write_bytes(before)
    proc = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 2
    assert proc.stderr == (
        f'gentle-hook: error: {path}: "hooks" is not a JSON object (it is null: make it {{}} '
        "or remove it); nothing was changed\n"
    )
    assert path.read_bytes() == before
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    assert "Traceback" not in proc.stderr, proc.stderr
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: claude-code"]
    assert "hooks is null, not an object" in check["detail"], check
