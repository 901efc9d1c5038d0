"""What Gemini CLI's ``write_file`` and ``replace`` wrote, exactly: a person's unsaved lines in
the file are never the writer's (SPEC §3 "Attribution follows content"; docs/agents/gemini-cli.md).

Real git, ``gentle-hook install --agent gemini-cli``, and the configured hook commands run as
Gemini CLI runs them (every entry of ``.gemini/settings.json`` whose matcher selects the tool,
through a shell, its input on standard input), with the documented inputs: ``BeforeTool``
(``tool_name``, ``tool_input``) and ``AfterTool``, whose ``tool_response`` is ``{llmContent,
returnDisplay, error}`` (``packages/core/src/core/coreToolHookTriggers.ts``), the
``returnDisplay`` of both tools a ``FileDiff`` (``originalContent``, ``newContent``:
``packages/core/src/tools/write-file.ts``, ``edit.ts``).

* ``write_file`` rewrites the file keeping the person's unsaved lines and adding its own: the
  person reverts the agent's function and commits with no block; kept, it blocks;
* ``replace`` deletes a line (an undo that cannot be told from the file alone): the person
  puts it back and commits with no block;
* without the ``FileDiff`` (a release or an input that carries none), the ``BeforeTool``
  snapshot of the file gives where the write started.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents import wiring
from tests.e2e.conftest import World

BIN = str(Path(sys.executable).parent)
ENV = {
    "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
    "GEMINI_CLI": "1",
    "GENTLE_WRITER_MODEL": "gemini-2.5-flash",
    "GENTLE_WRITER_EFFORT": "low",
}
PATH = "src/calc.py"
BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
HUMAN = (
    "\n\ndef human_special_formatter(report_rows):\n"
    "    return format_rows_for_display(report_rows)\n"
)
AGENT = "\n\ndef agent_discount(v):\n    return apply_discount_rules(v, region_table)\n"


def _fire(w: World, event: str, tool: str, data: dict[str, object]) -> list[str]:
    """Run every configured command of ours and others whose group under ``event`` selects
    ``tool`` (Gemini CLI's ``new RegExp(matcher).test(tool)``), as Gemini CLI does; the
    standard error of each (each must exit 0)."""
    doc = json.loads((w.work / ".gemini" / "settings.json").read_text())
    data = {
        "session_id": "g1",
        "transcript_path": "",
        "cwd": str(w.work),
        "hook_event_name": event,
        "timestamp": f"2026-12-06T12:00:0{len(event) % 10}.000Z",
        **data,
    }
    errs = []
    for group in doc.get("hooks", {}).get(event, []):
        if not wiring.covers(group.get("matcher"), tool, "regex"):
            continue
        for hook in group["hooks"]:
            r = subprocess.run(
                ["sh", "-c", hook["command"]],
                cwd=w.work,
                input=json.dumps(data).encode(),
                capture_output=True,
                env={**os.environ, **ENV, "GEMINI_PROJECT_DIR": str(w.work)},
                check=False,
                timeout=120,
            )
            assert r.returncode == 0, r
            errs.append(r.stderr.decode())
    return errs


def _call(w: World, tool: str, args: dict[str, object], new: str, diff: bool = True) -> list[str]:
    """One Gemini CLI call of ``tool`` that leaves :data:`PATH` holding ``new``: its
    ``BeforeTool`` hooks, the write, its ``AfterTool`` hooks (with the ``FileDiff`` when
    ``diff``); the standard error of the ``AfterTool`` ones."""
    file = w.work / PATH
    args = {"file_path": str(file), **args}
    _fire(w, "BeforeTool", tool, {"tool_name": tool, "tool_input": args})
    old = file.read_text()
    file.write_text(new)
    display: dict[str, object] = {
        "fileDiff": "",
        "fileName": "calc.py",
        "filePath": str(file),
        "originalContent": old,
        "newContent": new,
        "diffStat": {},
        "isNewFile": False,
    }
    response: dict[str, object] = {
        "llmContent": f"Successfully overwrote file: {file}.",
        "returnDisplay": display if diff else "",
    }
    return _fire(
        w, "AfterTool", tool, {"tool_name": tool, "tool_input": args, "tool_response": response}
    )


@pytest.fixture
def wired(native: World) -> World:
    """``native`` with :data:`PATH` holding :data:`BASE` and Gemini CLI's recorder wired,
    committed by a human; the person's own lines then added, unsaved."""
    w = native
    w.write(PATH, BASE)
    assert w.gh("install", "--agent", "gemini-cli", env=ENV).code == 0
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base, wire gemini-cli")
    w.write(PATH, BASE + HUMAN)
    return w


def _write_file(w: World, diff: bool = True) -> None:
    new = BASE + HUMAN + AGENT
    said = _call(w, "write_file", {"content": new}, new, diff)
    assert any(s.startswith("recorded: pending mutation #1: ") for s in said), said


@pytest.mark.parametrize("diff", [True, False], ids=["file-diff", "before-tool"])
def test_write_file_keeps_the_persons_unsaved_lines_theirs(wired: World, diff: bool) -> None:
    w = wired
    _write_file(w, diff)
    w.write(PATH, BASE + HUMAN)  # the person takes the agent's function out
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B")


@pytest.mark.parametrize("diff", [True, False], ids=["file-diff", "before-tool"])
def test_write_file_the_agents_function_kept_blocks(wired: World, diff: bool) -> None:
    w = wired
    _write_file(w, diff)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


@pytest.mark.parametrize("diff", [True, False], ids=["file-diff", "before-tool"])
def test_replace_that_deletes_keeps_the_persons_unsaved_lines_theirs(
    wired: World, diff: bool
) -> None:
    w = wired
    mine = BASE + HUMAN
    new = mine.replace("VALUE = 1\n", "", 1)
    args = {"old_string": "VALUE = 1\n", "new_string": "", "instruction": "drop the constant"}
    said = _call(w, "replace", args, new, diff)
    assert any(s.startswith("recorded: pending mutation #1: ") for s in said), said
    w.write(PATH, mine)  # the person puts the line back
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r


def _older_install(w: World) -> None:
    """Our ``BeforeTool`` entry as installs before this change wrote it: under
    ``run_shell_command`` alone."""
    settings = w.work / ".gemini" / "settings.json"
    doc = json.loads(settings.read_text())
    [group] = doc["hooks"]["BeforeTool"]
    group["matcher"] = "run_shell_command"
    settings.write_text(json.dumps(doc, indent=2))


def test_an_older_install_keeps_the_persons_lines_theirs_from_the_file_diff(wired: World) -> None:
    """No ``BeforeTool`` for the writing tools: the ``FileDiff`` of the ``AfterTool`` input
    still gives the file the write started from."""
    w = wired
    _older_install(w)
    _write_file(w, diff=True)
    w.write(PATH, BASE + HUMAN)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r


def test_doctor_says_to_install_again_and_the_install_fixes_it(wired: World) -> None:
    w = wired
    _older_install(w)
    r = w.gh("doctor", env=ENV)
    [line] = [s for s in r.out.splitlines() if "agent: gemini-cli" in s]
    assert line.startswith("FAIL"), r
    assert "its BeforeTool matcher 'run_shell_command' misses write_file, replace" in line, r
    assert line.endswith("install the recorder again; run: gentle-hook install --agent gemini-cli")
    again = w.gh("install", "--agent", "gemini-cli", env=ENV)
    assert again.code == 0, again
    assert "moved out of matcher 'run_shell_command'" in again.err + again.out, again
    fixed = w.gh("doctor", env=ENV)
    assert "ok    agent: gemini-cli: recorder wired" in fixed.out, fixed
    _write_file(w, diff=False)
    w.write(PATH, BASE + HUMAN)
    r = w.git("commit", "-qam", "human: formatter")
    assert r.code == 0, r
