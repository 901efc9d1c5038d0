"""Our hook entry in each runtime's configuration (SPEC §7 "Hooks"): the documented shape,
merged into what is there, idempotent, and removed alone."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.agents import wiring
from gentle_hooks.agents.runtimes import RUNTIMES, record_command, runtime

#: The runtimes wired by an entry in a configuration document (not by a file of ours).
WIRED = tuple(r.name for r in RUNTIMES if r.wiring is not None and r.wiring.shape != "file")

#: Each runtime's documented example, with our command in it: the shape ``add`` must write
#: into an empty file. Sources: Claude Code settings "hooks" (code.claude.com/docs/en/hooks,
#: "Structure"); Codex hooks.json (developers.openai.com/codex/hooks, "Configuration
#: structure": event -> matcher group -> handlers); Gemini CLI settings.json
#: (google-gemini/gemini-cli docs/hooks/index.md "Configuration schema"); Cursor
#: hooks.json (pcomans/caruso reference/cursor_hooks.md "Configuration file"); Copilot
#: (github/docs content/copilot/reference/hooks-reference.md "Command hooks").
DOCUMENTED: dict[str, dict[str, Any]] = {
    "claude-code": {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
                    "hooks": [
                        {"type": "command", "command": "gentle-hook record --from claude-code"}
                    ],
                }
            ],
            # the work tree before each Bash call ("PreToolUse input", matcher Bash)
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "gentle-hook record --from claude-code"}
                    ],
                }
            ],
            # a Bash call exiting non-zero ("PostToolUseFailure input", matcher Bash)
            "PostToolUseFailure": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "gentle-hook record --from claude-code"}
                    ],
                }
            ],
            # the end of the agent's turn closes a background call's window ("Stop input";
            # Stop takes no matcher: code.claude.com/docs/en/hooks)
            "Stop": [
                {
                    "hooks": [
                        {"type": "command", "command": "gentle-hook record --from claude-code"}
                    ],
                }
            ],
        }
    },
    # the work tree before each Bash call: openai/codex codex-rs/hooks/schema/generated/
    # pre-tool-use.command.input.schema.json @ 3be4afd3 (tool_name Bash, tool_use_id)
    "codex": {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "apply_patch|Bash",
                    "hooks": [{"type": "command", "command": "gentle-hook record --from codex"}],
                }
            ],
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "gentle-hook record --from codex"}],
                }
            ],
            # codex-rs/hooks/schema/generated/stop.command.input.schema.json: the turn's end
            "Stop": [
                {"hooks": [{"type": "command", "command": "gentle-hook record --from codex"}]}
            ],
        }
    },
    # google-gemini/gemini-cli docs/hooks/reference.md @ 06c0d810, "Tool hooks": BeforeTool
    # and AfterTool, a matcher naming the tool (run_shell_command its example); BeforeTool of
    # the writing tools keeps the files they name before they write
    "gemini-cli": {
        "hooks": {
            event: [
                {
                    "matcher": matcher,
                    "hooks": [
                        {
                            "name": "gentle-hooks-record",
                            "type": "command",
                            "command": "gentle-hook record --from gemini-cli",
                        }
                    ],
                }
            ]
            for event, matcher in (
                ("AfterTool", "write_file|replace|run_shell_command"),
                ("BeforeTool", "write_file|replace|run_shell_command"),
            )
        }
        # the end of the agent's turn closes a background call's window ("AfterAgent")
        | {
            "AfterAgent": [
                {
                    "hooks": [
                        {
                            "name": "gentle-hooks-record",
                            "type": "command",
                            "command": "gentle-hook record --from gemini-cli",
                        }
                    ]
                }
            ]
        }
    },
    # Cursor's subagentStart/subagentStop: the events git-ai-project/git-ai
    # src/mdm/agents/cursor.rs (CURSOR_HOOK_EVENTS) wires, in the same flat shape;
    # beforeShellExecution/afterShellExecution: cursor.com/docs/agent/hooks (as copied in
    # pcomans/caruso reference/cursor_hooks.md @ 0d41427e, "Configuration file")
    "cursor": {
        "version": 1,
        "hooks": {
            event: [{"command": "gentle-hook record --from cursor"}]
            for event in (
                "afterFileEdit",
                "subagentStart",
                "subagentStop",
                "beforeShellExecution",
                "afterShellExecution",
                "stop",
            )
        },
    },
    # hooks-reference.md "Hook events": subagentStart, subagentStop, preToolUse (bash snapshot),
    # postToolUseFailure, agentStop, sessionEnd; the command guarded: a command preToolUse
    # hook that exits non-zero denies the tool call ("preToolUse / PreToolUse")
    "copilot": {
        "version": 1,
        "hooks": {
            event: [
                {
                    "type": "command",
                    "timeoutSec": 30,
                    "bash": "command -v gentle-hook >/dev/null 2>&1 && "
                    "gentle-hook record --from copilot || true",
                }
            ]
            for event in (
                "postToolUse",
                "subagentStart",
                "subagentStop",
                "preToolUse",
                "postToolUseFailure",
                "agentStop",
                "sessionEnd",
            )
        },
    },
    # docs.factory.ai/reference/hooks-reference, "Configuration" (Claude Code's shape); the
    # subagent's run bracketed by PreToolUse of its Task tool and SubagentStop
    "droid": {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Create|Edit|MultiEdit|Write|ApplyPatch",
                    "hooks": [{"type": "command", "command": "gentle-hook record --from droid"}],
                }
            ],
            "PreToolUse": [
                {
                    "matcher": "Task",
                    "hooks": [{"type": "command", "command": "gentle-hook record --from droid"}],
                }
            ],
            "SubagentStop": [
                {"hooks": [{"type": "command", "command": "gentle-hook record --from droid"}]}
            ],
        }
    },
    # docs.augmentcode.com/cli/hooks, "Structure" (a regex matcher over tool names, such as
    # its "str-replace-editor|save-file"; hooks of type "command")
    "augment": {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "save-file|str-replace-editor|apply_patch|write|edit",
                    "hooks": [{"type": "command", "command": "gentle-hook record --from augment"}],
                }
            ]
        }
    },
    # docs.windsurf.com/windsurf/cascade/hooks, "Basic structure"
    "windsurf": {
        "hooks": {
            "post_write_code": [
                {"show_output": False, "command": "gentle-hook record --from windsurf"}
            ]
        }
    },
}

#: A user's configuration with other hooks and settings, per runtime.
THEIRS: dict[str, dict[str, Any]] = {
    "claude-code": {
        "model": "opus",
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
                    "hooks": [{"type": "command", "command": "npx prettier --write"}],
                }
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
        },
    },
    "codex": {
        "hooks": {
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "log"}]}]
        }
    },
    "gemini-cli": {
        "ui": {"theme": "dark"},
        "hooks": {
            "BeforeTool": [
                {"matcher": "read_file", "hooks": [{"type": "command", "command": "./audit.sh"}]}
            ]
        },
    },
    "cursor": {"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}]}},
    "copilot": {"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}},
    "droid": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}},
    # docs.augmentcode.com/cli/hooks, "Structure": its PreToolUse example
    "augment": {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "launch-process",
                    "hooks": [
                        {
                            "type": "command",
                            "command": "/etc/augment/hooks/validate-command.sh",
                            "timeout": 5000,
                        }
                    ],
                }
            ]
        }
    },
    "windsurf": {"hooks": {"pre_run_command": [{"command": "./guard.sh", "show_output": True}]}},
}


@pytest.mark.parametrize("name", WIRED)
def test_an_empty_file_gets_the_documented_shape(name: str) -> None:
    doc, what, _ = wiring.add({}, runtime(name), record_command(name))
    assert (doc, what) == (DOCUMENTED[name], "added")


@pytest.mark.parametrize("name", WIRED)
def test_merge_keeps_everything_else_and_is_idempotent(name: str) -> None:
    rt = runtime(name)
    theirs = copy.deepcopy(THEIRS[name])
    doc, what, _ = wiring.add(theirs, rt, record_command(name))
    assert what == "added"
    assert theirs == THEIRS[name]  # the input is never changed
    assert rt.wiring is not None
    assert wiring.commands(doc, rt) == [record_command(name, guarded=rt.wiring.guarded)]
    again, what, _ = wiring.add(doc, rt, record_command(name))
    assert (again, what) == (doc, "unchanged")
    removed, count = wiring.remove(doc, rt)
    assert rt.wiring is not None
    assert (removed, count) == (THEIRS[name], 1 + len(rt.wiring.also_events))


def test_claude_code_joins_the_group_with_its_matcher() -> None:
    rt = runtime("claude-code")
    doc, _, _ = wiring.add(THEIRS["claude-code"], rt, record_command("claude-code"))
    post = doc["hooks"]["PostToolUse"]
    assert len(post) == 1
    assert [h["command"] for h in post[0]["hooks"]] == [
        "npx prettier --write",
        "gentle-hook record --from claude-code",
    ]


def test_a_moved_gentle_hook_is_updated_in_place_and_a_duplicate_dropped() -> None:
    rt = runtime("cursor")
    doc = {
        "version": 1,
        "hooks": {
            "afterFileEdit": [
                {"command": "/old/venv/bin/gentle-hook record --from cursor"},
                {"command": "./format.sh"},
                {"command": "gentle-hook record --from cursor"},
            ]
        },
    }
    new, what, _ = wiring.add(doc, rt, "/new/bin/gentle-hook record --from cursor")
    assert what == "updated"
    assert new["hooks"]["afterFileEdit"] == [
        {"command": "/new/bin/gentle-hook record --from cursor"},
        {"command": "./format.sh"},
    ]


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("gentle-hook record --from cursor", True),
        ("'/a b/gentle-hook' record --from cursor", True),
        ("/v/bin/gentle-hook --quiet record --from cursor", True),
        ("GENTLE_WRITER_EFFORT=medium gentle-hook record --from cursor", True),
        ("env A=1 B=2 /v/bin/gentle-hook record --effort high --from cursor", True),
        ("gentle-hook record --from=cursor --model m", True),
        ("A=1 other record --from cursor", False),
        ("gentle-hook doctor --from cursor", False),
        ("gentle-hook record --from codex", False),
        ("other record --from cursor", False),
        ("echo gentle-hook record --from cursor", False),
        ("gentle-hook record --from 'unterminated", False),
        # the hooks guide's project-relative form (code.claude.com/docs/en/hooks,
        # "$CLAUDE_PROJECT_DIR"): one cd to a variable or a plain path, then ours
        ('cd "$CLAUDE_PROJECT_DIR" && gentle-hook record --from cursor', True),
        ("cd ${CLAUDE_PROJECT_DIR} && A=1 gentle-hook record --from cursor", True),
        ("cd /srv/app && gentle-hook record --from cursor", True),
        ("cd $(evil) && gentle-hook record --from cursor", False),
        ("cd x && rm -rf y && gentle-hook record --from cursor", False),
        ("rm -rf y && gentle-hook record --from cursor", False),
        ("gentle-hook record --from cursor && evil", False),
        ("gentle-hook record --from cursor | tee log", False),
        ("cd x; gentle-hook record --from cursor", False),
        # wrappers before ours (coreutils timeout/env/nice; uvx and uv tool run,
        # docs.astral.sh/uv "uvx"; pipx run, pipx.pypa.io)
        ("timeout 10 gentle-hook record --from cursor", True),
        ("timeout -k 5 --signal=TERM 10s /v/bin/gentle-hook record --from cursor", True),
        ("env -u PYTHONPATH A=1 gentle-hook record --from cursor", True),
        ("nice -n 5 nohup gentle-hook record --from cursor", True),
        ("uvx gentle-hook record --from cursor", True),
        ("uvx --from gentle-hooks gentle-hook record --from cursor", True),
        ("uvx --python=3.12 --with x gentle-hooks record --from cursor", True),
        ("uv tool run --from gentle-hooks gentle-hook record --from cursor", True),
        ("pipx run --spec gentle-hooks gentle-hook record --from cursor", True),
        ("timeout 10 uvx gentle-hook record --from cursor", True),
        ("timeout 10 other record --from cursor", False),
        ("uvx other record --from cursor", False),
        ("uv run gentle-hook record --from cursor", False),
        ("timeout 10 gentle-hook record --from cursor; evil", False),
        (None, False),
    ],
)
def test_is_ours(command: object, ours: bool) -> None:
    assert wiring.is_ours(command, "cursor") is ours


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"hooks": []}, '"hooks" is not a JSON object'),
        ({"hooks": {"PostToolUse": {}}}, "is not a JSON array"),
        # r17p: a null is refused with a one-line hint, never a traceback
        (
            {"hooks": None},
            r'"hooks" is not a JSON object \(it is null: make it \{\} or remove it\)',
        ),
        ({"hooks": {"PostToolUse": None}}, r"not a JSON array \(it is null: make it \[\] or"),
    ],
)
def test_a_misshapen_document_is_refused(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(wiring.ShapeError, match=message):
        wiring.add(doc, runtime("claude-code"), record_command("claude-code"))


def test_remove_touches_nothing_when_ours_is_absent() -> None:
    for name in WIRED:
        assert wiring.remove(THEIRS[name], runtime(name)) == (THEIRS[name], 0)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize("name", WIRED)
@given(
    other=st.dictionaries(
        st.text(min_size=1, max_size=6).filter(lambda k: k not in ("hooks", "version")),
        _json,
        max_size=4,
    )
)
def test_add_then_remove_restores_any_document(name: str, other: dict[str, Any]) -> None:
    rt = runtime(name)
    doc = json.loads(json.dumps(other))
    added, _, _ = wiring.add(doc, rt, record_command(name))
    restored, count = wiring.remove(added, rt)
    assert rt.wiring is not None
    assert count == 1 + len(rt.wiring.also_events)
    expected = dict(doc)
    if rt.wiring is not None and rt.wiring.version is not None:
        expected = {"version": rt.wiring.version, **expected}
    assert restored == expected


def _gemini_doc(ours: dict[str, str]) -> dict[str, Any]:
    """Gemini CLI settings holding ``ours`` under every event an install wires."""
    return {
        "hooks": {
            "AfterTool": [
                {"matcher": "write_file|replace|run_shell_command", "hooks": [dict(ours)]}
            ],
            "BeforeTool": [
                {"matcher": "write_file|replace|run_shell_command", "hooks": [dict(ours)]}
            ],
            "AfterAgent": [{"hooks": [dict(ours)]}],
        }
    }


@pytest.mark.parametrize(
    ("theirs", "program", "kept"),
    [
        (  # the user's prefix, as the Gemini CLI page suggests: recognised, never doubled
            "GENTLE_WRITER_EFFORT=medium gentle-hook record --from gemini-cli",
            "gentle-hook",
            "GENTLE_WRITER_EFFORT=medium gentle-hook record --from gemini-cli",
        ),
        (  # a moved gentle-hook: only its program word changes, the prefix and flags stay
            "GENTLE_WRITER_EFFORT=medium '/old dir/gentle-hook' record --from gemini-cli --model m",
            "/new/bin/gentle-hook",
            "GENTLE_WRITER_EFFORT=medium /new/bin/gentle-hook record --from gemini-cli --model m",
        ),
    ],
)
def test_a_users_own_form_of_our_entry_is_kept(theirs: str, program: str, kept: str) -> None:
    rt = runtime("gemini-cli")
    doc = _gemini_doc({"name": "gentle-hooks-record", "type": "command", "command": theirs})
    new, what, changes = wiring.add(doc, rt, record_command("gemini-cli", program))
    assert wiring.commands(new, rt) == [kept]
    if kept == theirs:
        assert (new, what, changes) == (doc, "unchanged", ())
    else:
        assert what == "updated"
        assert f"its gentle-hook changed: '{theirs}' -> '{kept}'" in changes


def test_gemini_entry_is_recognised_by_its_name() -> None:
    rt = runtime("gemini-cli")
    ours = {"name": "gentle-hooks-record", "type": "command", "command": "sh -c 'my wrapper'"}
    doc = _gemini_doc(ours)
    new, what, _ = wiring.add(doc, rt, record_command("gemini-cli"))
    assert (new, what) == (doc, "unchanged")
    assert wiring.remove(doc, rt) == ({}, 3)


def test_an_older_gemini_install_gains_the_shell_tool_and_its_before_hook() -> None:
    """An install that wired only write_file|replace: its entry moves under a matcher
    naming run_shell_command too, and ours is added under BeforeTool (said)."""
    rt = runtime("gemini-cli")
    ours = {
        "name": "gentle-hooks-record",
        "type": "command",
        "command": "gentle-hook record --from gemini-cli",
    }
    doc = {"hooks": {"AfterTool": [{"matcher": "write_file|replace", "hooks": [ours]}]}}
    new, what, changes = wiring.add(doc, rt, record_command("gemini-cli"))
    assert what == "updated"
    assert new == _gemini_doc(ours), new
    assert "added our BeforeTool hook" in changes, changes


def test_an_install_before_the_writing_tools_had_a_before_hook_moves_ours_under_them() -> None:
    """Our BeforeTool entry under run_shell_command alone (installs before write_file and
    replace were kept before they write): moved under the full matcher, and said."""
    rt = runtime("gemini-cli")
    ours = {
        "name": "gentle-hooks-record",
        "type": "command",
        "command": "gentle-hook record --from gemini-cli",
    }
    doc = _gemini_doc(ours)
    doc["hooks"]["BeforeTool"][0]["matcher"] = "run_shell_command"
    new, what, changes = wiring.add(doc, rt, record_command("gemini-cli"))
    assert what == "updated"
    assert new == _gemini_doc(ours), new
    assert changes == (
        "moved out of matcher 'run_shell_command', which misses write_file, replace, into "
        "'write_file|replace|run_shell_command'",
    ), changes


def test_a_second_entry_of_ours_is_removed_and_said() -> None:
    rt = runtime("claude-code")
    first = "GENTLE_WRITER_EFFORT=high gentle-hook record --from claude-code"
    second = "gentle-hook record --from claude-code"
    doc = {
        "hooks": {
            "PostToolUse": [
                {"matcher": "Write", "hooks": [{"type": "command", "command": first}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": second}]},
            ]
        }
    }
    new, what, changes = wiring.add(doc, rt, record_command("claude-code"))
    assert what == "updated"
    assert changes == (
        "moved out of matcher 'Write', which misses Edit, MultiEdit, NotebookEdit, Bash, into "
        "'Write|Edit|MultiEdit|NotebookEdit|Bash'",
        f"removed a second entry of ours running '{second}'",
        "added our PreToolUse hook",
        "added our PostToolUseFailure hook",
        "added our Stop hook",
    )
    assert wiring.commands(new, rt) == [first]
    assert new["hooks"] == {
        "PostToolUse": [
            {
                "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
                "hooks": [{"type": "command", "command": first}],
            }
        ],
        # the events that lacked ours run the kept entry's command, the user's prefix too
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": first}],
            }
        ],
        "PostToolUseFailure": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": first}],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": first}]}],
    }


def test_program_of_skips_the_environment_prefix() -> None:
    # env run with A=1 in its environment runs gentle-hook: a pass-through wrapper
    assert wiring.program_of("A=1 env B=2 '/a b/gentle-hook' record --from x") == "/a b/gentle-hook"
    assert wiring.program_of("env B=2 '/a b/gentle-hook' record --from x") == "/a b/gentle-hook"
    assert wiring.program_of("A=1 gentle-hook record --from x") == "gentle-hook"
    assert wiring.program_of("other record") is None
    assert wiring.program_of("timeout 10 /v/gentle-hook record --from x") == "/v/gentle-hook"


def test_a_package_runner_is_the_program_and_its_tool_name_is_never_retargeted() -> None:
    command = "uvx --from gentle-hooks gentle-hook record --from x"
    assert wiring.program_of(command) is None  # not a gentle-hook the shell resolves
    assert wiring.program_words(command) == (None, "uvx")
    assert wiring.retarget(command, "/new/gentle-hook") == command
    timed = "timeout 10 gentle-hook record --from x"
    assert (
        wiring.retarget(timed, "/new/gentle-hook") == "timeout 10 /new/gentle-hook record --from x"
    )


@pytest.mark.parametrize(
    ("name", "matcher", "missed"),
    [
        ("claude-code", "Bash", ("Write", "Edit", "MultiEdit", "NotebookEdit")),
        ("claude-code", "Edit|Write", ("MultiEdit", "NotebookEdit", "Bash")),
        ("claude-code", "Edit|Write|MultiEdit|NotebookEdit", ("Bash",)),
        ("claude-code", "Edit|Write|MultiEdit|NotebookEdit|Bash", ()),
        ("claude-code", ".*Edit|Write|Bash", ()),  # a regular expression over the whole name
        ("claude-code", "*", ()),
        ("claude-code", "", ()),
        ("claude-code", None, ()),
        # Gemini CLI: RegExp.test, unanchored
        ("gemini-cli", "write_.*", ("replace", "run_shell_command")),
        ("gemini-cli", "file|replace|shell", ()),
        ("gemini-cli", "([", ("write_file", "replace", "run_shell_command")),  # a literal
        # Bash: Codex's name for its shell tools, which may run an apply_patch envelope
        ("codex", "apply_patch|Bash", ()),
        ("codex", "apply_patch", ("Bash",)),
        ("codex", "Bash", ("apply_patch",)),
        # Codex selects apply_patch by its matcher aliases Write and Edit too (openai/codex
        # codex-rs/core/src/tools/hook_names.rs @ 40c1a7f59127d1d98cbd43a94e8e9adf82305a66)
        ("codex", "Edit|Write|Bash", ()),
        ("codex", "Edit|Write", ("Bash",)),
        ("codex", "Write", ("Bash",)),
        ("codex", "Ed.*|Bash", ()),
        ("codex", "MultiEdit", ("apply_patch", "Bash")),
    ],
)
def test_a_matcher_misses_the_writing_tools_it_does_not_select(
    name: str, matcher: str | None, missed: tuple[str, ...]
) -> None:
    w = runtime(name).wiring
    assert w is not None
    assert wiring.misses(matcher, w) == missed


def test_our_entry_under_a_narrow_matcher_is_moved_under_ours() -> None:
    rt = runtime("claude-code")
    theirs = {"type": "command", "command": "audit"}
    ours = {"type": "command", "command": "gentle-hook record --from claude-code"}
    doc = {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [theirs, ours]}]}}
    new, what, changes = wiring.add(doc, rt, record_command("claude-code"))
    assert what == "updated"
    assert new == {
        "hooks": {
            "PostToolUse": [
                {"matcher": "Bash", "hooks": [theirs]},
                {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": [ours]},
            ],
            "PreToolUse": [{"matcher": "Bash", "hooks": [ours]}],
            "PostToolUseFailure": [{"matcher": "Bash", "hooks": [ours]}],
            "Stop": [{"hooks": [ours]}],
        }
    }
    assert changes == (
        "moved out of matcher 'Bash', which misses Write, Edit, MultiEdit, NotebookEdit, "
        "into 'Write|Edit|MultiEdit|NotebookEdit|Bash'",
        "added our PreToolUse hook",
        "added our PostToolUseFailure hook",
        "added our Stop hook",
    )


@pytest.mark.parametrize("name", ["copilot", "cursor"])
def test_subagent_events_are_added_to_an_older_install_and_removed_alone(name: str) -> None:
    """An install that wired only the write event gains ours under subagentStart and
    subagentStop (said, one line each); the user's own subagent hooks stay, and uninstall
    removes our three entries only."""
    rt = runtime(name)
    assert rt.wiring is not None
    key = rt.wiring.command_key
    ours = {**dict(rt.wiring.entry), key: record_command(name)}  # as an older install wrote it
    theirs = {key: "./notify.sh"}
    older = {
        "version": 1,
        "hooks": {rt.wiring.event: [dict(ours)], "subagentStart": [dict(theirs)]},
    }
    doc, what, changes = wiring.add(older, rt, record_command(name))
    assert what == "updated"
    now = record_command(name, guarded=rt.wiring.guarded)  # Copilot's: guarded
    guarded = (
        (
            "its command now exits 0 where gentle-hook is missing (the tool call is never "
            f"denied): '{ours[key]}' -> '{now}'",
        )
        if rt.wiring.guarded
        else ()
    )
    shell = tuple(f"added our {e} hook" for e in rt.wiring.also_events[2:])  # Cursor's shell
    added = ("added our subagentStart hook", "added our subagentStop hook", *shell)
    assert changes == (*guarded, *added)
    assert [e[key] for e in doc["hooks"]["subagentStart"]] == ["./notify.sh", now]
    assert [e[key] for e in doc["hooks"]["subagentStop"]] == [now]
    assert wiring.add(doc, rt, record_command(name))[1] == "unchanged"
    removed, count = wiring.remove(doc, rt)
    assert count == 3 + len(shell)
    assert removed == {"version": 1, "hooks": {"subagentStart": [theirs]}}


def test_a_subagent_event_list_of_another_shape_changes_nothing() -> None:
    rt = runtime("cursor")
    with pytest.raises(wiring.ShapeError, match="subagentStop"):
        wiring.add({"version": 1, "hooks": {"subagentStop": {}}}, rt, record_command("cursor"))
