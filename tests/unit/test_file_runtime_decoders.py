"""Cline's, OpenCode's, Pi's and Amp's inputs, row by row beyond their documented fixture
(tests/fixtures/agents/cline.json, opencode.json, pi.json, amp.json): which calls write, which
paths, which model and effort (SPEC §7 "Hooks"; docs/agents/cline.md, opencode.md, pi.md,
amp.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gentle_hooks.agents import amp, cline, opencode, pi
from gentle_hooks.agents.event import SHELL_AFTER, SHELL_BEFORE, SHELL_END

PATCH = (
    "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n"
    "*** Add File: src/b.py\n+z\n*** End Patch"
)


def cline_input(tool: str, params: dict[str, str], **top: Any) -> bytes:
    post = {"toolName": tool, "parameters": params, "result": "", "success": True}
    post.update(top.pop("post", {}))
    # ts-proto's toJSON leaves a default (false) success out: None here drops the key
    if post["success"] is None:
        del post["success"]
    event = {
        "clineVersion": "3.38.0",
        "hookName": "PostToolUse",
        "timestamp": "1764669153482",
        "taskId": "t1",
        "workspaceRoots": ["/w"],
        "userId": "u",
        "model": {"provider": "anthropic", "slug": "claude-sonnet-4-5"},
        "postToolUse": post,
        **top,
    }
    return json.dumps(event).encode()


@pytest.mark.parametrize(
    ("data", "writes", "paths", "model"),
    [
        (
            cline_input("write_to_file", {"path": "a.py", "content": "x"}),
            True,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        (
            cline_input("new_rule", {"path": ".clinerules/x.md"}),
            True,
            (".clinerules/x.md",),
            "claude-sonnet-4-5",
        ),
        (
            cline_input("editor", {"path": "/w/a.py", "new_text": "y"}),
            True,
            ("/w/a.py",),
            "claude-sonnet-4-5",
        ),
        (
            cline_input("apply_patch", {"input": PATCH}),
            True,
            ("src/a.py", "src/b.py"),
            "claude-sonnet-4-5",
        ),
        (cline_input("read_file", {"path": "a.py"}), False, ("a.py",), "claude-sonnet-4-5"),
        (cline_input("execute_command", {"command": "make"}), False, (), "claude-sonnet-4-5"),
        # a call that failed wrote nothing: it records nothing
        (
            cline_input("write_to_file", {"path": "a.py"}, post={"success": False}),
            False,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        # Cline's input as ts-proto writes a thrown failure: no success key at all
        # (cline/cline apps/vscode/src/core/hooks/hook-factory.ts, "Proto3 by default omits
        # ... default values from toJSON()")
        (
            cline_input("write_to_file", {"path": "a.py"}, post={"success": None}),
            False,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        # success true, but the result is Cline's denial or tool error text
        # (src/core/prompts/responses.ts toolDenied, toolDeniedWithFeedback, toolError)
        (
            cline_input(
                "write_to_file",
                {"path": "a.py"},
                post={"result": "The user denied this operation."},
            ),
            False,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        (
            cline_input(
                "replace_in_file",
                {"path": "a.py"},
                post={
                    "result": "The user denied this operation and provided the following "
                    "feedback:\n<feedback>\nno\n</feedback>"
                },
            ),
            False,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        (
            cline_input(
                "replace_in_file",
                {"path": "a.py"},
                post={"result": "The tool execution failed with the following error:\n<error>"},
            ),
            False,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        # a success whose result merely quotes those words further on still records
        (
            cline_input(
                "write_to_file",
                {"path": "a.py"},
                post={"result": "Saved. Note: The user denied this operation earlier."},
            ),
            True,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
        # Cline's "unknown" slug, and no model at all, name no model
        (
            cline_input(
                "write_to_file", {"path": "a.py"}, model={"provider": "unknown", "slug": "unknown"}
            ),
            True,
            ("a.py",),
            None,
        ),
        (cline_input("write_to_file", {"path": "a.py"}, model=None), True, ("a.py",), None),
        # another hook wired to the same file by hand is not a write
        (
            cline_input("write_to_file", {"path": "a.py"}, hookName="PreToolUse"),
            False,
            ("a.py",),
            "claude-sonnet-4-5",
        ),
    ],
)
def test_cline_rows(data: bytes, writes: bool, paths: tuple[str, ...], model: str | None) -> None:
    event = cline.decode(data)
    records = event.writes and event.failed is None
    assert (records, event.paths, event.model, event.effort) == (writes, paths, model, None)
    assert event.session_id == "t1" and event.cwd == "/w"
    assert event.tool_call_id is not None and event.tool_call_id.startswith("derived:")


def test_cline_tells_two_calls_apart_and_a_replay_is_the_same_call() -> None:
    first = cline.decode(cline_input("write_to_file", {"path": "a.py"}))
    again = cline.decode(cline_input("write_to_file", {"path": "a.py"}))
    later = cline.decode(cline_input("write_to_file", {"path": "a.py"}, timestamp="1764669153999"))
    assert first.tool_call_id == again.tool_call_id != later.tool_call_id


def oc_input(tool: str, args: object, model: object = None) -> bytes:
    return json.dumps(
        {
            "hook": "tool.execute.after",
            "tool": tool,
            "sessionID": "s1",
            "callID": "c1",
            "args": args,
            "model": model,
            "directory": "/w",
            "worktree": "/w",
        }
    ).encode()


@pytest.mark.parametrize(
    ("data", "writes", "paths", "model", "effort"),
    [
        (
            oc_input("write", {"filePath": "/w/a.py", "content": "x"}),
            True,
            ("/w/a.py",),
            None,
            None,
        ),
        (
            oc_input("multiedit", {"filePath": "/w/a.py", "edits": []}),
            True,
            ("/w/a.py",),
            None,
            None,
        ),
        (oc_input("apply_patch", {"patchText": PATCH}), True, ("src/a.py", "src/b.py"), None, None),
        (oc_input("patch", {"patchText": PATCH}), True, ("src/a.py", "src/b.py"), None, None),
        (oc_input("read", {"filePath": "/w/a.py"}), False, ("/w/a.py",), None, None),
        (oc_input("bash", {"command": "make"}), False, (), None, None),
        (
            oc_input("edit", {"filePath": "a.py"}, {"modelID": "gpt-5", "reasoningEffort": "none"}),
            True,
            ("a.py",),
            "gpt-5",
            "off",
        ),
        (
            oc_input(
                "edit", {"filePath": "a.py"}, {"modelID": "gpt-5", "reasoningEffort": "xhigh"}
            ),
            True,
            ("a.py",),
            "gpt-5",
            "xhigh",
        ),
        # a name that is not one of ours is unknown, never guessed
        (
            oc_input("edit", {"filePath": "a.py"}, {"modelID": "o3", "reasoningEffort": "max"}),
            True,
            ("a.py",),
            "o3",
            "unknown",
        ),
        (
            oc_input("edit", {"filePath": "a.py"}, {"providerID": "anthropic"}),
            True,
            ("a.py",),
            None,
            None,
        ),
    ],
)
def test_opencode_rows(
    data: bytes, writes: bool, paths: tuple[str, ...], model: str | None, effort: str | None
) -> None:
    event = opencode.decode(data)
    assert (event.writes, event.paths, event.model, event.effort) == (writes, paths, model, effort)
    assert (event.session_id, event.tool_call_id, event.cwd) == ("s1", "c1", "/w")


def pi_input(tool: str, args: object, **top: Any) -> bytes:
    event = {
        "hook": "tool_result",
        "toolName": tool,
        "toolCallId": "p1",
        "input": args,
        "isError": False,
        "model": {"provider": "anthropic", "id": "claude-opus-4-5"},
        "thinkingLevel": "high",
        "sessionId": "s1",
        "cwd": "/w",
        **top,
    }
    return json.dumps(event).encode()


@pytest.mark.parametrize(
    ("data", "writes", "model", "effort"),
    [
        (pi_input("write", {"path": "a.py", "content": "x"}), True, "claude-opus-4-5", "high"),
        (pi_input("edit", {"path": "a.py"}, thinkingLevel="off"), True, "claude-opus-4-5", "off"),
        # a level Pi may add that is not one of ours is unknown, never guessed
        (
            pi_input("edit", {"path": "a.py"}, thinkingLevel="max"),
            True,
            "claude-opus-4-5",
            "unknown",
        ),
        (pi_input("edit", {"path": "a.py"}, model=None, thinkingLevel=None), True, None, None),
        (pi_input("edit", {"path": "a.py"}, isError=True), False, "claude-opus-4-5", "high"),
        (pi_input("read", {"path": "a.py"}), False, "claude-opus-4-5", "high"),
    ],
)
def test_pi_rows(data: bytes, writes: bool, model: str | None, effort: str | None) -> None:
    event = pi.decode(data)
    assert (event.writes and event.failed is None, event.paths, event.model, event.effort) == (
        writes,
        ("a.py",),
        model,
        effort,
    )
    assert (event.session_id, event.tool_call_id, event.cwd) == ("s1", "p1", "/w")


SED = "sed -i s/a/b/ a.py"


@pytest.mark.parametrize(
    ("data", "shell", "background", "failed"),
    [
        # bash's tool_call: the work tree is kept before the command (docs/agents/pi.md)
        (pi_input("bash", {"command": SED}, hook="tool_call"), SHELL_BEFORE, False, None),
        # its tool_result: what changed since is recorded, the pair shares toolCallId
        (pi_input("bash", {"command": SED}), SHELL_AFTER, False, None),
        # a command that exited non-zero may have written before it ended
        (pi_input("bash", {"command": SED}, isError=True), SHELL_AFTER, False, "failed (isError)"),
        # a command that leaves a process running keeps a window open until agent_end
        (pi_input("bash", {"command": f"({SED}) &"}), SHELL_AFTER, True, None),
        # agent_end: the agent's run ended, the session's windows close
        (
            pi_input("", None, hook="agent_end", toolName=None, toolCallId=None),
            SHELL_END,
            False,
            None,
        ),
        # a tool_call of a writing tool is not a snapshot (only bash's is handed over)
        (pi_input("edit", {"path": "a.py"}, hook="tool_call"), None, False, None),
    ],
    ids=[
        "bash-tool_call",
        "bash-tool_result",
        "bash-failed",
        "bash-background",
        "agent_end",
        "edit-tool_call",
    ],
)
def test_pi_shell_rows(
    data: bytes, shell: str | None, background: bool, failed: str | None
) -> None:
    event = pi.decode(data)
    assert (event.shell, event.background, event.failed) == (shell, background, failed)
    assert event.session_id == "s1"
    if shell in (SHELL_BEFORE, SHELL_AFTER):
        assert (event.writes, event.tool_call_id, event.not_written) == (
            False,
            "p1",
            pi.SHELL_NOT_RECORDED,
        )
    if shell == SHELL_END:
        assert (event.tool, event.tool_call_id, event.writes) == (None, None, False)


def kiro_input(**top: Any) -> bytes:
    event = {
        "hook_event_name": "PostToolUse",
        "cwd": "/w",
        "tool_name": "fs_write",
        "tool_input": {"command": "create", "path": "a.py", "file_text": "x = 1\n"},
        "tool_response": {"success": True},
        **top,
    }
    return json.dumps(event).encode()


def test_kiros_replay_id_holds_the_session_and_the_call_never_the_clock_or_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The event names no tool call and no time: the same event again is one call whenever
    it comes and whatever the file holds by then (a person's edit since is not the
    writer's); the same edit in another session is another."""
    import time

    from gentle_hooks.agents import kiro

    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    cwd = {"cwd": str(tmp_path)}
    monkeypatch.setattr(time, "time", lambda: 1_764_670_000.0)
    first = kiro.decode(kiro_input(**cwd))
    assert first.session_id is None
    assert first.tool_call_id == kiro.decode(kiro_input(**cwd)).tool_call_id
    one = kiro.decode(kiro_input(session_id="s1", **cwd))
    two = kiro.decode(kiro_input(session_id="s2", **cwd))
    assert (one.session_id, two.session_id) == ("s1", "s2")
    assert len({first.tool_call_id, one.tool_call_id, two.tool_call_id}) == 3
    # a day later, after a person edited the file: the same delivery, the same call
    monkeypatch.setattr(time, "time", lambda: 1_764_670_000.0 + 86_400)
    (tmp_path / "a.py").write_text("x = 2  # mine\n", encoding="utf-8")
    assert kiro.decode(kiro_input(**cwd)).tool_call_id == first.tool_call_id


CUSTOM = {"kind": "agent-definition", "model": "openai/gpt-5.5", "reasoningEffort": "high"}


def amp_input(tool: str, args: object, **top: Any) -> bytes:
    event = {
        "hook": "tool.result",
        "tool": tool,
        "toolUseID": "toolu_1",
        "input": args,
        "status": "done",
        "threadID": "T-1",
        "files": ["/w/a.py"],
        "agent": CUSTOM,
        "cwd": "/w",
        **top,
    }
    return json.dumps({k: v for k, v in event.items() if v != "-"}).encode()


@pytest.mark.parametrize(
    ("data", "writes", "paths", "model", "effort", "failed"),
    [
        # the helper's files are the paths, whatever the tool's input names
        (amp_input("edit_file", {"path": "b.py"}), True, ("/w/a.py",), "gpt-5.5", "high", None),
        # a sed -i through Bash: the helper names the file, so it is a write
        (
            amp_input("Bash", {"cmd": "sed -i s/x/y/ a.py"}),
            True,
            ("/w/a.py",),
            "gpt-5.5",
            "high",
            None,
        ),
        # the helper said the tool modifies no file (the plugin does not call us then)
        (amp_input("Read", {"path": "a.py"}, files=None), False, (), "gpt-5.5", "high", None),
        # no helper in that Amp: the tool's name and input decide
        (
            amp_input("create_file", {"path": "a.py"}, files="-"),
            True,
            ("a.py",),
            "gpt-5.5",
            "high",
            None,
        ),
        (amp_input("Read", {"path": "a.py"}, files="-"), False, ("a.py",), "gpt-5.5", "high", None),
        # a built-in mode names no model; its pinned effort still counts
        (
            amp_input(
                "edit_file",
                {},
                agent={"kind": "builtin-agent", "mode": "smart", "reasoningEffort": "none"},
            ),
            True,
            ("/w/a.py",),
            None,
            "off",
            None,
        ),
        # "max" is not one of our levels: unknown, never guessed
        (
            amp_input("edit_file", {}, agent={**CUSTOM, "reasoningEffort": "max"}),
            True,
            ("/w/a.py",),
            "gpt-5.5",
            "unknown",
            None,
        ),
        (amp_input("edit_file", {}, agent=None), True, ("/w/a.py",), None, None, None),
        (
            amp_input("edit_file", {}, status="error"),
            True,
            ("/w/a.py",),
            "gpt-5.5",
            "high",
            "failed (status is error)",
        ),
    ],
)
def test_amp_rows(
    data: bytes,
    writes: bool,
    paths: tuple[str, ...],
    model: str | None,
    effort: str | None,
    failed: str | None,
) -> None:
    event = amp.decode(data)
    assert (event.writes, event.paths, event.model, event.effort, event.failed) == (
        writes,
        paths,
        model,
        effort,
        failed,
    )
    assert (event.session_id, event.tool_call_id, event.cwd) == ("T-1", "toolu_1", "/w")
