"""Agent runtime decoders (SPEC §7 "Hooks"): each runtime's documented hook input
(tests/fixtures/agents/, sources named there) decodes to its session, tool call, written
paths, model and effort; the safe reader refuses what it must and never hangs."""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.agents import claude_code, codex, copilot, cursor, droid, gemini_cli
from gentle_hooks.agents.event import (
    OUR_EFFORTS,
    SHELL_AFTER,
    SHELL_BEFORE,
    RuntimeEvent,
    derived_call_id,
    given_effort_problem,
    map_effort,
    relative_paths,
    writer_of,
)
from gentle_hooks.agents.patch import (
    PatchResult,
    holds_result,
    patch_paths,
    patch_results,
    shell_patch_paths,
)
from gentle_hooks.agents.payload import (
    MAX_DEPTH,
    json_depth,
    json_lines,
    line_blocks_backwards,
    load_object,
    loads,
    read_file,
    read_stdin,
)
from gentle_hooks.agents.runtimes import DECODED, RUNTIMES, closest_name, runtime
from gentle_hooks.errors import UsageError
from tests.agent_payloads import RUNTIMES as FIXTURE_RUNTIMES
from tests.agent_payloads import materialize

ROOT = Path("/work/tree")


def decoded(name: str, tmp_path: Path, **override: object) -> RuntimeEvent:
    data, _ = materialize(name, ROOT, tmp_path, **override)
    decode = runtime(name).decode
    assert decode is not None
    return decode(data)


def test_every_decoded_runtime_has_a_documented_fixture() -> None:
    assert set(DECODED) == set(FIXTURE_RUNTIMES)


@pytest.mark.parametrize("name", FIXTURE_RUNTIMES)
def test_documented_payload_decodes(name: str, tmp_path: Path) -> None:
    _, filled = materialize(name, ROOT, tmp_path)
    expect = filled["expect"]
    event = decoded(name, tmp_path)
    assert event.source == name
    assert event.writes is True
    assert event.session_id == expect["session_id"]
    assert event.model == expect["model"]
    assert event.effort == expect["effort"]
    assert list(relative_paths(str(ROOT), event.paths, event.cwd)) == expect["paths"]
    if expect["tool_call_id"] == "derived":
        assert event.tool_call_id is not None and event.tool_call_id.startswith("derived:")
    else:
        assert event.tool_call_id == expect["tool_call_id"]


@pytest.mark.parametrize("name", ["gemini-cli", "cursor", "copilot", "windsurf"])
def test_a_derived_call_id_is_stable_and_tells_events_apart(name: str, tmp_path: Path) -> None:
    first = decoded(name, tmp_path).tool_call_id
    assert decoded(name, tmp_path).tool_call_id == first  # the same payload again
    stamp = {
        "gemini-cli": "timestamp",
        "cursor": "generation_id",
        "copilot": "timestamp",
        "windsurf": "execution_id",
    }[name]
    other = decoded(name, tmp_path, **{stamp: "another"}).tool_call_id
    assert other != first


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        ("claude-code", "tool_name", "Bash"),
        ("codex", "tool_name", "Bash"),
        ("gemini-cli", "tool_name", "run_shell_command"),
        ("cursor", "hook_event_name", "afterShellExecution"),
        ("copilot", "toolName", "view"),
        ("windsurf", "agent_action_name", "post_run_command"),
        ("droid", "tool_name", "Execute"),
    ],
)
def test_a_tool_that_writes_no_file_is_not_a_write(
    name: str, field: str, value: str, tmp_path: Path
) -> None:
    assert decoded(name, tmp_path, **{field: value}).writes is False


@pytest.mark.parametrize(
    ("command", "writes"),
    [
        ("view", False),
        (None, False),
        ("create", True),
        ("str_replace", True),
        ("insert", True),
        ("undo_edit", True),
    ],
)
def test_an_editor_tool_writes_only_under_a_writing_sub_command(
    command: str | None, writes: bool, tmp_path: Path
) -> None:
    args = {"path": str(ROOT / "src/app.py")} | ({} if command is None else {"command": command})
    camel = decoded("copilot", tmp_path, toolName="str_replace_editor", toolArgs=json.dumps(args))
    assert camel.writes is writes
    # Copilot's input reaching Claude Code's hook file (a Claude-shaped one it is not told from)
    claude = decoded("claude-code", tmp_path, tool_name="str_replace_editor", tool_input=args)
    assert claude.writes is writes


def test_claude_code_effort_may_be_a_plain_string(tmp_path: Path) -> None:
    assert decoded("claude-code", tmp_path, effort="medium").effort == "medium"
    assert decoded("claude-code", tmp_path, effort={"level": "max"}).effort == "xhigh"
    assert decoded("claude-code", tmp_path, effort={"level": "auto"}).effort == "unknown"
    assert decoded("claude-code", tmp_path, effort=None).effort is None


def test_claude_code_subagent_reports_its_own_model_never_the_parents(tmp_path: Path) -> None:
    # the parent's transcript names claude-sonnet-4-5; the subagent's own file is absent
    child = decoded("claude-code", tmp_path, agent_id="a1b2c3", agent_type="Explore")
    assert (child.agent, child.model, child.effort) == ("a1b2c3", None, "unknown")
    own = tmp_path / "abc123" / "subagents" / "agent-a1b2c3.jsonl"
    own.parent.mkdir(parents=True)
    own.write_text(
        json.dumps({"type": "assistant", "message": {"model": "claude-haiku-4-5"}}) + "\n"
    )
    child = decoded("claude-code", tmp_path, agent_id="a1b2c3", agent_type="Explore")
    assert child.model == "claude-haiku-4-5"


def test_claude_code_skips_synthetic_models_and_reads_the_newest(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        {"type": "assistant", "message": {"model": "claude-opus-4-1"}},
        "not json at all",
        {"type": "assistant", "message": {"model": "<synthetic>"}},
    ]
    path.write_text("".join((json.dumps(x) if isinstance(x, dict) else x) + "\n" for x in lines))
    assert claude_code.model_from_transcript(str(path)) == "claude-opus-4-1"


def test_codex_model_from_the_input_wins_and_none_effort_is_off(tmp_path: Path) -> None:
    event = decoded("codex", tmp_path, model="gpt-5.1-codex")
    assert (event.model, event.effort) == ("gpt-5.1-codex", "low")
    _, filled = materialize("codex", ROOT, tmp_path)
    other = tmp_path / "rollout.jsonl"
    other.write_text(
        json.dumps({"type": "turn_context", "payload": {"model": "o4-mini", "effort": "none"}})
        + "\n"
    )
    payload = dict(filled["payload"], transcript_path=str(other))
    event = codex.decode(json.dumps(payload).encode())
    assert (event.model, event.effort) == ("gpt-5-codex", "off")
    del payload["model"]
    assert codex.decode(json.dumps(payload).encode()).model == "o4-mini"


def test_codex_effort_is_found_before_a_tail_of_many_megabytes(tmp_path: Path) -> None:
    _, filled = materialize("codex", ROOT, tmp_path)
    rollout = tmp_path / "long-rollout.jsonl"
    turn = {"type": "turn_context", "payload": {"model": "gpt-5-codex", "effort": "high"}}
    item = json.dumps({"type": "response_item", "payload": {"text": "x" * 1000}}) + "\n"
    with rollout.open("w") as f:
        f.write(json.dumps(turn) + "\n")
        f.write(item * 6000)  # about 6 MiB after it: more than one read of the tail
    payload = dict(filled["payload"], transcript_path=str(rollout))
    assert codex.decode(json.dumps(payload).encode()).effort == "high"


def test_blocks_read_backwards_are_whole_lines_and_bounded(tmp_path: Path) -> None:
    path = tmp_path / "lines.jsonl"
    lines = [json.dumps({"n": n, "pad": "y" * (n % 7)}) for n in range(200)]
    path.write_text("\n".join(lines) + "\n")
    blocks = list(line_blocks_backwards(str(path), chunk=97, limit=1 << 20))
    seen = [r["n"] for b in reversed(blocks) for r in json_lines(b)]
    assert seen == list(range(200))
    near = list(line_blocks_backwards(str(path), chunk=97, limit=500))
    assert sum(len(b) for b in near) <= 500
    assert [r["n"] for r in json_lines(near[0])][-1] == 199
    assert list(line_blocks_backwards(str(tmp_path))) == []  # a directory: nothing


def test_codex_null_transcript_is_unknown_effort(tmp_path: Path) -> None:
    event = decoded("codex", tmp_path, transcript_path=None)
    assert (event.model, event.effort) == ("gpt-5-codex", None)


def test_gemini_reads_an_older_whole_json_transcript(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    path.write_text(
        json.dumps({"sessionId": "s", "messages": [{"type": "gemini", "model": "gemini-2.5-pro"}]})
    )
    assert gemini_cli.model_from_transcript(str(path)) == "gemini-2.5-pro"


@pytest.mark.parametrize("placeholder", ["auto", "default", "Auto"])
def test_cursor_auto_names_no_model(placeholder: str, tmp_path: Path) -> None:
    assert decoded("cursor", tmp_path, model=placeholder).model is None


@pytest.mark.parametrize("placeholder", ["Unknown", "unknown", ""])
def test_windsurf_unknown_names_no_model(placeholder: str, tmp_path: Path) -> None:
    assert decoded("windsurf", tmp_path, model_name=placeholder).model is None


def test_windsurf_cwd_is_tool_info_then_top_level(tmp_path: Path) -> None:
    """git-ai-project/git-ai presets/windsurf.rs @ 4faf11e1 (test_windsurf_cwd_from_tool_info,
    test_windsurf_cwd_fallback_to_top_level), as data."""
    info = {"cwd": "/preferred/path", "file_path": "src/main.rs"}
    event = decoded("windsurf", tmp_path, cwd="/fallback/path", tool_info=info)
    assert (event.cwd, event.paths) == ("/preferred/path", ("src/main.rs",))
    event = decoded("windsurf", tmp_path, cwd="/fallback/path", tool_info={"file_path": "a.py"})
    assert event.cwd == "/fallback/path"


def test_windsurf_without_tool_info_names_what_was_unreadable(tmp_path: Path) -> None:
    event = decoded("windsurf", tmp_path, tool_info=None)
    assert event.writes is True and event.paths == ()
    assert event.unreadable is not None and "tool_info" in event.unreadable


def test_droid_model_is_the_session_settings_beside_the_transcript(tmp_path: Path) -> None:
    """git-ai-project/git-ai presets/droid.rs @ a3321952: ``X.jsonl`` -> ``X.settings.json``."""
    transcript = tmp_path / "droid-transcript.jsonl"
    assert droid.settings_path(str(transcript)) == str(tmp_path / "droid-transcript.settings.json")
    assert droid.settings_path("/x/session.json") is None
    (tmp_path / "droid-transcript.settings.json").write_text('{"model": "claude-sonnet-4-5"}')
    assert decoded("droid", tmp_path).model == "claude-sonnet-4-5"
    (tmp_path / "droid-transcript.settings.json").write_text("not json")
    assert decoded("droid", tmp_path).model is None


def test_droid_apply_patch_envelope_names_its_files(tmp_path: Path) -> None:
    """git-ai-project/git-ai presets/droid.rs @ a3321952, test_droid_apply_patch_from_patch_field
    and test_droid_apply_patch_extracts_paths, as data."""
    envelope = "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** End Patch\n"
    event = decoded("droid", tmp_path, tool_name="ApplyPatch", tool_input={"patch": envelope})
    assert (event.writes, event.paths) == (True, ("src/lib.rs",))
    event = decoded("droid", tmp_path, tool_name="ApplyPatch", tool_input=envelope)
    assert event.paths == ("src/lib.rs",)


def test_cursor_cwd_is_the_workspace_root_holding_the_file(tmp_path: Path) -> None:
    roots = ["/elsewhere", str(ROOT)]
    assert decoded("cursor", tmp_path, workspace_roots=roots).cwd == str(ROOT)
    assert cursor.workspace_for(None, roots) == "/elsewhere"
    assert cursor.workspace_for("/x/y", []) is None


def test_copilot_reads_both_payload_shapes(tmp_path: Path) -> None:
    camel = decoded("copilot", tmp_path)
    pascal = copilot.decode(
        json.dumps(
            {
                "hook_event_name": "PostToolUse",
                "session_id": camel.session_id,
                "timestamp": "2026-01-07T08:05:00Z",
                "cwd": str(ROOT),
                "tool_name": "create",
                "tool_input": {"path": str(ROOT / "new.py"), "file_text": "x = 1\n"},
                "tool_result": {"result_type": "success", "text_result_for_llm": "ok"},
            }
        ).encode()
    )
    assert (pascal.session_id, pascal.paths, pascal.writes) == (
        camel.session_id,
        (str(ROOT / "new.py"),),
        True,
    )
    patched = decoded(
        "copilot",
        tmp_path,
        toolName="apply_patch",
        toolArgs="*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n",
    )
    assert patched.paths == ("a.txt",)


# -- the shared rules --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "table", "expected"),
    [
        ("HIGH", claude_code.EFFORTS, "high"),
        ("xhigh", claude_code.EFFORTS, "xhigh"),
        ("max", claude_code.EFFORTS, "xhigh"),
        ("ultracode", claude_code.EFFORTS, "xhigh"),
        ("auto", claude_code.EFFORTS, "unknown"),
        ("none", codex.EFFORTS, "off"),
        ("minimal", codex.EFFORTS, "minimal"),
        ("  ", codex.EFFORTS, None),
        (None, codex.EFFORTS, None),
    ],
)
def test_map_effort(name: str | None, table: dict[str, str], expected: str | None) -> None:
    assert map_effort(name, table) == expected


def _event(model: str | None, effort: str | None) -> RuntimeEvent:
    return RuntimeEvent("x", None, None, None, (), True, None, model, effort)


@pytest.mark.parametrize(
    ("flags", "env", "event", "expected"),
    [
        ((None, None), {}, (None, None), ("unknown", "unknown")),
        ((None, None), {}, ("gpt-5", "high"), ("gpt-5", "high")),
        ((None, None), {"GENTLE_WRITER_MODEL": "o4-mini"}, ("gpt-5", "high"), ("o4-mini", "high")),
        (("m", "low"), {"GENTLE_WRITER_EFFORT": "high"}, ("gpt-5", "high"), ("m", "low")),
        ((None, None), {}, ("gpt-5", "loud"), ("gpt-5", "unknown")),
    ],
)
def test_writer_of_flags_then_environment_then_runtime(
    flags: tuple[str | None, str | None],
    env: dict[str, str],
    event: tuple[str | None, str | None],
    expected: tuple[str, str],
) -> None:
    assert writer_of(_event(*event), flags[0], flags[1], env) == expected


@pytest.mark.parametrize(
    ("flag", "env"), [("loud", {}), (None, {"GENTLE_WRITER_EFFORT": "extreme"})]
)
def test_writer_of_records_a_given_effort_that_is_not_a_level_as_unknown(
    flag: str | None, env: dict[str, str]
) -> None:
    assert writer_of(_event("gpt-5", "high"), None, flag, env) == ("gpt-5", "unknown")
    assert given_effort_problem(flag, env) is not None


def test_writer_of_takes_a_given_effort_through_the_runtimes_names() -> None:
    table = {**OUR_EFFORTS, "max": "xhigh"}
    env = {"GENTLE_WRITER_EFFORT": "Max"}
    assert writer_of(_event("m", None), None, None, env, table) == ("m", "xhigh")
    assert given_effort_problem(None, env, table) is None
    assert given_effort_problem(None, env) == ("GENTLE_WRITER_EFFORT", "Max")
    assert given_effort_problem("unknown", {}) is None


def test_derived_call_id_is_canonical() -> None:
    assert derived_call_id("a", {"x": 1, "y": 2}) == derived_call_id("a", {"y": 2, "x": 1})
    assert derived_call_id("a", 1) != derived_call_id("a", 2)


# -- apply_patch headers (ported as data: openai/codex codex-rs/apply-patch/
# apply_patch_tool_instructions.md @ f6fda4c0393bf9d80758a52ef4f83dfac4cf4fd5) ------------

PATCH_ROWS = [
    ("*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** End Patch", ("hello.txt",)),
    (
        "*** Begin Patch\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n"
        '-print("Hi")\n+print("Hello, world!")\n*** Delete File: obsolete.txt\n*** End Patch',
        ("src/app.py", "src/main.py", "obsolete.txt"),
    ),
    ("no envelope here", ()),
    ("*** Update File: a\n*** Update File: a\n", ("a",)),
]


@pytest.mark.parametrize(("text", "expected"), PATCH_ROWS)
def test_patch_paths(text: str, expected: tuple[str, ...]) -> None:
    assert patch_paths(text) == expected


@given(st.lists(st.text(alphabet="abc/._ -", min_size=1, max_size=12), max_size=6))
def test_patch_paths_round_trip(names: list[str]) -> None:
    kept = [n.strip() for n in names if n.strip()]
    body = "".join(f"*** Update File: {n}\n@@\n-x\n+y\n" for n in kept)
    assert patch_paths(f"*** Begin Patch\n{body}*** End Patch\n") == tuple(dict.fromkeys(kept))


# -- apply_patch through the shell (openai/codex codex-rs/apply-patch/src/invocation.rs,
# maybe_parse_apply_patch and its extract_apply_patch_from_bash query, as data) -----------

_ENV = "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Move to: b.py\n*** End Patch\n"

SHELL_ROWS = [
    (f"apply_patch <<'EOF'\n{_ENV}EOF\n", ("a.py", "b.py")),
    (f'applypatch <<"EOF"\n{_ENV}EOF', ("a.py", "b.py")),
    (f"apply_patch <<EOF\n{_ENV}EOF\n\n", ("a.py", "b.py")),
    (f"cd pkg && apply_patch <<'EOF'\n{_ENV}EOF\n", ("pkg/a.py", "pkg/b.py")),
    (f"cd 'my dir' && apply_patch <<'EOF'\n{_ENV}EOF\n", ("my dir/a.py", "my dir/b.py")),
    (["apply_patch", _ENV], ("a.py", "b.py")),
    (["/bin/bash", "-lc", f"apply_patch <<'EOF'\n{_ENV}EOF"], ("a.py", "b.py")),
    (f"bash -lc \"cd pkg && apply_patch <<'EOF'\n{_ENV}EOF\"", ("pkg/a.py", "pkg/b.py")),
    (f"apply_patch '{_ENV}'", ("a.py", "b.py")),
    # not an invocation Codex applies
    (f"apply_patch <<'EOF'\n{_ENV}EOF\necho done\n", None),
    (f"echo hi; apply_patch <<'EOF'\n{_ENV}EOF\n", None),
    (f"cd a || apply_patch <<'EOF'\n{_ENV}EOF\n", None),
    (f"apply_patch <<'EOF'\n{_ENV}", None),  # the heredoc never ends
    (_ENV, None),
    ("git status", None),
    (["python", "-c", "print(1)"], None),
    ("apply_patch 'unclosed", None),
    (7, None),
]


@pytest.mark.parametrize(("command", "expected"), SHELL_ROWS)
def test_shell_patch_paths(command: object, expected: tuple[str, ...] | None) -> None:
    assert shell_patch_paths(command) == expected


#: Codex's tool_response, as its tools fill it (openai/codex codex-rs/core/src/tools/mod.rs:
#: format_exec_output_for_model_structured and ..._freeform; the apply_patch tool's text).
CODEX_RESPONSES = [
    ("Success. Updated the following files:\nM a.py\n", None),
    ("Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok", None),
    (
        "Exit code: 1\nWall time: 0.2 seconds\nOutput:\nno",
        "failed (tool_response says exit code 1)",
    ),
    (
        "Execution outcome: failed\nShell exit code: 127\n",
        "failed (tool_response says exit code 127)",
    ),
    ('{"output": "ok", "metadata": {"exit_code": 0, "duration_seconds": 0.1}}', None),
    (
        '{"output": "no", "metadata": {"exit_code": 3, "duration_seconds": 0.1}}',
        "failed (tool_response.metadata.exit_code is 3)",
    ),
    ({"metadata": {"shell_exit_code": 1}}, "failed (tool_response.metadata.shell_exit_code is 1)"),
    ({"exit_code": 2}, "failed (tool_response.exit_code is 2)"),
    ({"exit_code": True}, None),
    ({"success": False}, "failed (tool_response.success is false)"),
    ({"error": "sandbox denied"}, "failed (tool_response.error)"),
    ({"error": ""}, None),
    ("{not json", None),
    (None, None),
    (["Exit code: 1"], None),
    # unified exec's header (codex-rs/core/src/tools/handlers/unified_exec.rs @ 010d3e62,
    # format_response: success is always true, the exit code is this line)
    (
        "Chunk ID: 9c8d7e\nWall time: 0.2140 seconds\nProcess exited with code 2\nOutput:\nno",
        "failed (tool_response says exit code 2)",
    ),
    ("Chunk ID: 9c8d7e\nWall time: 0.2 seconds\nProcess exited with code 0\nOutput:\n", None),
    # what the command printed quotes an exit line: not the call's exit status
    ("Wall time: 0.2 seconds\nProcess exited with code 0\nOutput:\nExit code: 1\n", None),
    ("Wall time: 0.2 seconds\nOutput:\nProcess exited with code 3\n", None),
]


@pytest.mark.parametrize(("response", "expected"), CODEX_RESPONSES)
def test_codex_failure(response: object, expected: str | None) -> None:
    assert codex.failure(response) == expected


# -- the safe reader -----------------------------------------------------------------------


def _nested(depth: int) -> object:
    value: object = 0
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


@given(
    st.recursive(
        st.none() | st.integers() | st.text(), lambda c: st.lists(c) | st.dictionaries(st.text(), c)
    )
)
def test_json_depth_matches_the_nesting(value: object) -> None:
    def depth(v: object) -> int:
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    assert json_depth(json.dumps(value).encode()) == depth(value)


def test_deep_json_is_refused_before_parsing() -> None:
    assert isinstance(loads(json.dumps(_nested(MAX_DEPTH)).encode(), "x"), (list, dict))
    with pytest.raises(UsageError, match=f"deeper than {MAX_DEPTH}"):
        loads(b"[" * 100_000 + b"]" * 100_000, "record --from x: stdin")


def test_brackets_inside_strings_do_not_count() -> None:
    assert json_depth(json.dumps({"a": '[[[[{{{{\\"]]'}).encode()) == 1


@given(st.binary(max_size=200))
def test_any_bytes_give_an_object_or_one_usage_error(data: bytes) -> None:
    try:
        assert isinstance(load_object(data, "stdin"), dict)
    except UsageError as exc:
        assert "\n" not in exc.message


@pytest.mark.parametrize("name", FIXTURE_RUNTIMES)
@given(data=st.binary(max_size=120))
def test_decoders_never_raise_anything_but_usage_error(name: str, data: bytes) -> None:
    decode = runtime(name).decode
    assert decode is not None
    with contextlib.suppress(UsageError):
        decode(data)


@pytest.mark.parametrize("name", FIXTURE_RUNTIMES)
@given(
    value=st.dictionaries(
        st.sampled_from(
            [
                "tool_name",
                "toolName",
                "tool_input",
                "toolArgs",
                "file_path",
                "cwd",
                "session_id",
                "transcript_path",
                "model",
                "effort",
                "workspace_roots",
                "edits",
            ]
        ),
        st.none() | st.integers() | st.text(max_size=5) | st.lists(st.text(max_size=3), max_size=2),
    )
)
def test_decoders_accept_any_object_shape(name: str, value: dict[str, object]) -> None:
    decode = runtime(name).decode
    assert decode is not None
    event = decode(json.dumps(value).encode())
    assert event.source == name


def test_read_file_refuses_a_fifo_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    assert read_file(str(fifo)) is None
    assert claude_code.model_from_transcript(str(fifo)) is None
    assert time.monotonic() - start < 2


def test_read_file_refuses_directories_and_missing_files(tmp_path: Path) -> None:
    assert read_file(str(tmp_path)) is None
    assert read_file(str(tmp_path / "missing")) is None


def test_read_file_reads_a_bounded_head_or_tail(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"a" * 10 + b"b" * 10)
    assert read_file(str(path), limit=5) == b"aaaaa"
    assert read_file(str(path), tail=True, limit=5) == b"bbbbb"


def test_read_stdin_refuses_a_terminal() -> None:
    import pty

    main, child = pty.openpty()
    try:
        with os.fdopen(child, "rb", buffering=0) as fh, pytest.raises(UsageError, match="terminal"):
            read_stdin("record --from x", fh)
    finally:
        os.close(main)


def test_read_stdin_reads_a_pipe_to_its_end() -> None:
    r, w = os.pipe()

    def feed() -> None:
        with os.fdopen(w, "wb") as out:
            out.write(b'{"a": ')
            out.flush()
            time.sleep(0.05)
            out.write(b"1}")

    t = threading.Thread(target=feed)
    t.start()
    with os.fdopen(r, "rb", buffering=0) as fh:
        assert read_stdin("x", fh) == b'{"a": 1}'
    t.join()


def test_read_stdin_gives_up_on_a_pipe_left_open(monkeypatch: pytest.MonkeyPatch) -> None:
    from gentle_hooks.agents import payload

    monkeypatch.setattr(payload, "STDIN_SECONDS", 0.2)
    r, w = os.pipe()
    try:
        with os.fdopen(r, "rb", buffering=0) as fh, pytest.raises(UsageError, match="stayed open"):
            read_stdin("record --from x", fh)
    finally:
        os.close(w)


def test_runtime_table_is_consistent() -> None:
    assert len({r.name for r in RUNTIMES}) == len(RUNTIMES)
    for r in RUNTIMES:
        assert (r.decode is None) == (r.wiring is None) == bool(r.route)
        assert r.doc == f"docs/agents/{r.name}.md"
        assert (Path(__file__).parents[2] / r.doc).is_file(), r.doc


def test_claude_code_user_settings_follow_its_config_dir(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    assert claude_code.settings_files(None, env) == [str(tmp_path / "cfg" / "settings.json")]
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "settings.json").write_text('{"effortLevel": "max"}')
    assert claude_code.settings_writer(None, env) == (None, "xhigh")
    del env["CLAUDE_CONFIG_DIR"]
    assert claude_code.settings_files(None, env) == [
        str(tmp_path / "home" / ".claude" / "settings.json")
    ]


@pytest.mark.parametrize("name", ["copilot", "gemini-cli", "cursor", "windsurf"])
def test_a_runtime_without_a_subagent_marker_says_what_is_and_is_not_recorded(name: str) -> None:
    """Runtimes whose documented post-tool input names no subagent say so on their page,
    with the source and what a subagent's write is recorded with."""
    page = (Path(__file__).parents[2] / "docs" / "agents" / f"{name}.md").read_text()
    section = " ".join(page.split("\n## Subagents\n", 1)[1].split("\n## ", 1)[0].split())
    assert "carries no subagent marker" in section
    assert "What is recorded:" in section and "What is not:" in section
    assert re.search(r"at commit [0-9a-f]{40}", section)


#: Codex names the subagent a hook fires in: optional ``agent_id`` (the child thread id) and
#: ``agent_type`` in every hook input inside a thread-spawned subagent, absent for the root
#: agent (openai/codex pull request #22882, merged 2026-05-21, "Add subagent identity to hook
#: inputs"). A rollout's ``session_meta`` names the thread it records (payload ``id``).
CHILD = "019c4b43-aaaa-7af3-be4c-5576369bf1ba"


def _rollout(path: Path, thread: str, model: str, effort: str) -> Path:
    lines = [
        {"type": "session_meta", "payload": {"id": thread, "cwd": str(ROOT)}},
        {"type": "turn_context", "payload": {"model": model, "effort": effort}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


#: Codex agent roles (openai/codex codex-rs/core/src/agent/role.rs @
#: 001f15e971d47ab5e484ced35ba820332934c9ee, ``built_in::configs``: ``default``, "Default
#: agent.", and ``worker`` load no role layer, the
#: child runs on the parent's configuration; ``apply_role_to_config`` layers a role's file over
#: it) and where roles are declared (codex-rs/core/src/config/agent_roles.rs @
#: 13730471d804ca158c0f987f8b3307a26d22572b, ``load_agent_roles``: ``[agents.<name>]`` with
#: ``config_file`` in a layer's config.toml, or ``agents/*.toml`` naming itself with ``name``).
ROLE_FILE = (
    'name = "reviewer"\ndescription = "Reviews a change"\n'
    'developer_instructions = "Review."\nmodel = "gpt-5.1-codex-mini"\n'
    'model_reasoning_effort = "medium"\n'
)


def test_a_codex_subagent_whose_role_sets_a_model_reports_that_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "codex-home"
    (home / "agents").mkdir(parents=True)
    (home / "agents" / "reviewer.toml").write_text(ROLE_FILE)
    monkeypatch.setenv("CODEX_HOME", str(home))
    child = _rollout(tmp_path / "child.jsonl", CHILD, "gpt-5.1-codex-mini", "medium")
    event = decoded(
        "codex",
        tmp_path,
        agent_id=CHILD,
        agent_type="reviewer",
        model="gpt-5.1-codex-mini",
        transcript_path=str(child),
    )
    assert (event.model, event.effort, event.agent) == ("gpt-5.1-codex-mini", "medium", CHILD)
    assert event.notes == ()
    # declared in config.toml with a config_file (relative to the folder) works the same
    os.remove(home / "agents" / "reviewer.toml")
    (home / "roles").mkdir()
    (home / "roles" / "r.toml").write_text(ROLE_FILE.replace("medium", "high"))
    (home / "config.toml").write_text('[agents.reviewer]\nconfig_file = "roles/r.toml"\n')
    event = decoded("codex", tmp_path, agent_id=CHILD, agent_type="reviewer")
    assert (event.model, event.effort) == ("gpt-5.1-codex-mini", "high")


@pytest.mark.parametrize("role", ["default", "worker", "explorer", "reviewer"])
def test_a_codex_subagent_inheriting_the_parent_configuration_is_unknown(
    role: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child rollout's turn_context repeats the parent's model and effort: not the
    child's own, so unknown, with the note saying why."""
    home = tmp_path / "codex-home"
    (home / "agents").mkdir(parents=True)
    # a role file without a model: the child keeps the parent's
    (home / "agents" / "reviewer.toml").write_text(
        ROLE_FILE.replace('model = "gpt-5.1-codex-mini"\n', "")
    )
    monkeypatch.setenv("CODEX_HOME", str(home))
    child = _rollout(tmp_path / "child.jsonl", CHILD, "gpt-5-codex", "high")
    event = decoded(
        "codex",
        tmp_path,
        agent_id=CHILD,
        agent_type=role,
        model="gpt-5-codex",
        transcript_path=str(child),
    )
    assert (event.model, event.effort, event.agent) == (None, "unknown", CHILD)
    assert len(event.notes) == 1
    assert f"subagent '{role}' of Codex" in event.notes[0]
    assert "model is recorded as unknown" in event.notes[0]


def test_a_codex_subagent_without_its_own_rollout_is_unknown_so_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    _, filled = materialize("codex", ROOT, tmp_path)
    parent = _rollout(tmp_path / "parent.jsonl", filled["payload"]["session_id"], "gpt-5", "high")
    for transcript in (str(parent), None, str(tmp_path / "missing.jsonl")):
        event = decoded(
            "codex",
            tmp_path,
            agent_id=CHILD,
            agent_type="worker",
            model="gpt-5",
            transcript_path=transcript,
        )
        # the input's model and the parent's rollout may be the session's: never the child's
        assert (event.model, event.effort, event.agent) == (None, "unknown", CHILD)
    root = decoded("codex", tmp_path, transcript_path=str(parent))
    assert (root.model, root.effort, root.agent) == ("gpt-5-codex", "high", None)


#: Subagent start/stop inputs (tests/fixtures/agents/subagents.json, sources named there).
SUBAGENT_ROWS = json.loads(
    (Path(__file__).parent.parent / "fixtures" / "agents" / "subagents.json").read_text(
        encoding="utf-8"
    )
)["rows"]


@pytest.mark.parametrize("row", SUBAGENT_ROWS, ids=lambda r: f"{r['runtime']}-{r['expect']}")
def test_a_documented_subagent_event_decodes_as_its_start_or_stop(row: dict[str, Any]) -> None:
    data = json.dumps(row["payload"]).replace("@ROOT@", str(ROOT)).encode()
    decode = runtime(row["runtime"]).decode
    assert decode is not None
    event = decode(data)
    expect = row["expect"]
    assert (event.lifecycle, event.session_id, event.agent) == (
        expect["lifecycle"],
        expect["session_id"],
        expect["agent"],
    )
    # nothing to record; the parent's model (Cursor's composer "model") is never the child's
    assert (event.writes, event.paths, event.model, event.tool_call_id) == (False, (), None, None)
    assert event.cwd == str(ROOT)


@pytest.mark.parametrize("name", ["copilot", "cursor"])
def test_a_file_write_is_never_a_subagent_event(name: str, tmp_path: Path) -> None:
    assert decoded(name, tmp_path).lifecycle is None


@pytest.mark.parametrize(
    ("payload", "lifecycle"),
    [
        ({"sessionId": "s", "agentName": "a"}, "subagent-start"),
        ({"sessionId": "s", "agentName": "a", "agentId": "1"}, "subagent-stop"),
        ({"sessionId": "s", "agentName": "a", "response": "r"}, "subagent-stop"),
        ({"sessionId": "s", "agentName": "a", "toolName": "edit"}, None),
        ({"sessionId": "s", "stopReason": "end_turn"}, None),  # agentStop: not a subagent
        ({"hookEventName": "SubagentStart", "sessionId": "s"}, "subagent-start"),
        ({"hook_event_name": "PostToolUse", "session_id": "s", "agent_name": "a"}, None),
    ],
)
def test_copilot_subagent_events_are_told_by_name_then_by_fields(
    payload: dict[str, object], lifecycle: str | None
) -> None:
    assert copilot.subagent_lifecycle(payload) == lifecycle


def test_random_bytes_are_named_not_utf8_before_their_depth() -> None:
    """Bytes that are not UTF-8 say so, even when they hold many ``[`` (they once read as
    JSON nested too deep)."""
    from gentle_hooks.agents.payload import loads
    from gentle_hooks.errors import UsageError

    with pytest.raises(UsageError, match=r"is not the hook's JSON \(not UTF-8"):
        loads(b"[" * 100 + b"\xff\xfe", "record --from x: stdin")
    with pytest.raises(UsageError, match="nests JSON deeper than"):
        loads(b"[" * 100, "record --from x: stdin")


def test_claude_code_model_is_found_before_a_tail_of_many_megabytes(tmp_path: Path) -> None:
    """A Write of a large file puts its content in the transcript after the assistant line
    that names the model (the tool_use, then the tool result repeating it): the model is
    still found, the file read backwards in blocks (code.claude.com/docs/en/hooks,
    ``transcript_path``)."""
    path = tmp_path / "long-session.jsonl"
    content = "z" * (2_700_000)
    assistant = {"type": "assistant", "message": {"model": "claude-opus-4-5", "content": []}}
    result = {"type": "user", "toolUseResult": {"content": content, "originalFile": content}}
    with path.open("w") as f:
        f.write(json.dumps(assistant) + "\n")
        f.write(json.dumps(result) + "\n")  # one line of about 5.4 MB after it
    assert path.stat().st_size > 5_000_000
    assert claude_code.model_from_transcript(str(path)) == "claude-opus-4-5"
    # the line naming the model may itself be larger than a block
    big = {"type": "assistant", "message": {"model": "claude-sonnet-4-5", "x": content * 2}}
    path.write_text(json.dumps(big) + "\n")
    assert claude_code.model_from_transcript(str(path)) == "claude-sonnet-4-5"


def test_patch_results_say_what_each_named_file_holds_once_applied() -> None:
    """The envelope of codex-rs/apply-patch/apply_patch_tool_instructions.md: an added file's
    lines, a hunk's context and added lines (a blank line at its edge not required), a
    deleted file and the source of a move absent, the destination present."""
    envelope = (
        "*** Begin Patch\n*** Add File: n.py\n+a = 1\n+b = 2\n*** Delete File: d.py\n"
        "*** Update File: u.py\n@@ def f\n ctx\n-old\n+new\n\n@@\n-x\n+y\n"
        "*** Update File: m.py\n*** Move to: sub/m2.py\n@@\n-p\n+q\n*** End of File\n"
        "*** End Patch\n"
    )
    results = patch_results(envelope)
    assert results == {
        "n.py": PatchResult(True, (("a = 1", "b = 2"),)),
        "d.py": PatchResult(False),
        "u.py": PatchResult(True, (("ctx", "new"), ("y",))),
        "m.py": PatchResult(False),
        "sub/m2.py": PatchResult(True, (("q",),)),
    }
    assert list(patch_results(envelope, "pkg")) == [f"pkg/{p}" for p in results]
    u = results["u.py"]
    assert holds_result(b"top\nctx\nnew\nmid\ny\n", u)
    assert not holds_result(b"top\nctx\nold\nmid\nx\n", u)  # never reached
    assert not holds_result(b"y\nctx\nnew\n", u)  # out of order
    assert not holds_result(None, u) and holds_result(None, results["d.py"])
    assert not holds_result(b"still here\n", results["d.py"])


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("claude", "claude-code"),
        ("copilot-cli", "copilot"),
        ("GEMINI", "gemini-cli"),
        ("codx", "codex"),
        ("co", None),
        ("zzzz", None),
        ("", None),
    ],
)
def test_closest_runtime_name(typed: str, meant: str | None) -> None:
    assert closest_name(typed, DECODED) == meant


@pytest.mark.parametrize(
    ("event", "tool", "shell"),
    [
        ("PreToolUse", "Bash", SHELL_BEFORE),  # the work tree is kept before the command
        ("PostToolUse", "Bash", SHELL_AFTER),  # what it changed since is the writer's
        ("PreToolUse", "Write", None),  # another tool's pre-tool event records nothing
        ("PostToolUse", "Read", None),
    ],
)
def test_a_claude_code_bash_call_is_a_snapshot_event(
    event: str, tool: str, shell: str | None, tmp_path: Path
) -> None:
    got = decoded("claude-code", tmp_path, hook_event_name=event, tool_name=tool)
    assert (got.shell, got.hook_event) == (shell, event)
