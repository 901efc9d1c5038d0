"""The before-hook of each runtime's shell tool (SPEC §7 "Hooks"; docs/agents/codex.md,
gemini-cli.md, cursor.md, copilot.md), and Claude Code's ``PostToolUseFailure`` of ``Bash``
(docs/agents/claude-code.md: a command exiting non-zero is recorded from it): an earlier
install that wired only the after-hook is reported by ``doctor`` ("not to <event>: what a
shell command changes is not recorded"), ``install`` adds ours under that event (said),
``doctor`` is satisfied, and ``uninstall`` removes ours only, leaving the user's own hook
under that event. Real files, the real CLI."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.agents.runtimes import record_command
from tests.conftest import gh, trust_codex_hook

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}


def _ours(name: str) -> dict[str, str]:
    entry = {"type": "command", "command": f"gentle-hook record --from {name}"}
    if name == "gemini-cli":
        return {"name": "gentle-hooks-record", **entry}
    if name == "cursor":
        return {"command": entry["command"]}
    if name == "copilot":
        return {"type": "command", "timeoutSec": 30, "bash": entry["command"]}
    return entry


#: (runtime, its project file, an earlier install's file (the after-hook only) with the
#: user's own hook under the before event, the before event, its list once installed)
CASES: list[tuple[str, str, dict[str, Any], str, object]] = [
    (  # refuter r17o H3: Claude Code sends PostToolUseFailure for a Bash call exiting non-zero
        "claude-code",
        ".claude/settings.json",
        {
            "hooks": {
                "PostToolUse": [
                    {
                        "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
                        "hooks": [_ours("claude-code")],
                    }
                ],
                "PreToolUse": [{"matcher": "Bash", "hooks": [_ours("claude-code")]}],
                "PostToolUseFailure": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": "./notify.sh"}]}
                ],
            }
        },
        "PostToolUseFailure",
        [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./notify.sh"}, _ours("claude-code")],
            }
        ],
    ),
    (
        "codex",
        ".codex/hooks.json",
        {
            "hooks": {
                "PostToolUse": [{"matcher": "apply_patch|Bash", "hooks": [_ours("codex")]}],
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
                ],
            }
        },
        "PreToolUse",
        [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./guard.sh"}, _ours("codex")],
            }
        ],
    ),
    (
        "gemini-cli",
        ".gemini/settings.json",
        {
            "hooks": {
                "AfterTool": [
                    {
                        "matcher": "write_file|replace|run_shell_command",
                        "hooks": [_ours("gemini-cli")],
                    }
                ],
                "BeforeTool": [
                    {
                        "matcher": "run_shell_command",
                        "hooks": [{"type": "command", "command": "./guard.sh"}],
                    }
                ],
            }
        },
        "BeforeTool",
        [  # ours goes in a group of its own: the user's matcher misses write_file, replace
            {
                "matcher": "run_shell_command",
                "hooks": [{"type": "command", "command": "./guard.sh"}],
            },
            {"matcher": "write_file|replace|run_shell_command", "hooks": [_ours("gemini-cli")]},
        ],
    ),
    (
        "cursor",
        ".cursor/hooks.json",
        {
            "version": 1,
            "hooks": {
                **{
                    e: [_ours("cursor")]
                    for e in (
                        "afterFileEdit",
                        "subagentStart",
                        "subagentStop",
                        "afterShellExecution",
                    )
                },
                "beforeShellExecution": [{"command": "./guard.sh"}],
            },
        },
        "beforeShellExecution",
        [{"command": "./guard.sh"}, _ours("cursor")],
    ),
    (
        "copilot",
        ".github/hooks/gentle-hooks.json",
        {
            "version": 1,
            "hooks": {
                **{
                    e: [_ours("copilot")]
                    for e in (
                        "postToolUse",
                        "subagentStart",
                        "subagentStop",
                        "postToolUseFailure",
                        "agentStop",
                        "sessionEnd",
                    )
                },
                "preToolUse": [{"type": "command", "bash": "./guard.sh"}],
            },
        },
        "preToolUse",
        # the command guarded: a command preToolUse hook that exits non-zero denies the call
        [
            {"type": "command", "bash": "./guard.sh"},
            {**_ours("copilot"), "bash": record_command("copilot", guarded=True)},
        ],
    ),
]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    out = tmp_path / "home"
    out.mkdir()
    return out


def _doctor(repo: Path, env: dict[str, str], name: str) -> tuple[bool, str]:
    proc = gh(repo, "doctor", "--json", env=env)
    checks = {c["name"]: (c["ok"], c["detail"]) for c in json.loads(proc.stdout)["checks"]}
    ok, detail = checks[f"agent: {name}"]
    return bool(ok), str(detail)


@pytest.mark.parametrize(
    ("name", "rel", "older", "event", "entry"), CASES, ids=[c[0] for c in CASES]
)
def test_a_missing_before_hook_is_named_added_and_removed_alone(
    repo: Path,
    home: Path,
    name: str,
    rel: str,
    older: dict[str, Any],
    event: str,
    entry: object,
) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(older, indent=2) + "\n")
    env = {**WITH_GH, "HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    if name == "codex":
        trust_codex_hook(home / ".codex", path)
    ok, detail = _doctor(repo, env, name)
    assert (
        not ok
        and (
            f"but not to {event}: what a shell command changes is not recorded; install the "
            f"recorder again; run: gentle-hook install --agent {name}"
        )
        in detail
    ), detail
    proc = gh(repo, "install", "--agent", name, env=env)
    assert proc.returncode == 0, proc
    assert f"note: added our {event} hook" in proc.stdout, proc.stdout
    hooks = json.loads(path.read_text())["hooks"]
    assert hooks[event] == entry, hooks[event]  # the user's own stays first
    if name == "codex":  # Codex runs the hook just added once it is trusted in /hooks
        [(g, h)] = [
            (g, h)
            for g, x in enumerate(hooks[event])
            for h, y in enumerate(x["hooks"])
            if "record --from" in json.dumps(y)
        ]
        trust_codex_hook(home / ".codex", path, group=g, handler=h, events=("pre_tool_use",))
    ok, detail = _doctor(repo, env, name)
    assert ok, detail
    gone = gh(repo, "uninstall", "--agent", name, env=env)
    assert gone.returncode == 0, gone
    left = json.loads(path.read_text())
    assert left["hooks"] == {event: older["hooks"][event]}, left
