"""What OpenCode's ``bash`` tool changes is the writer's, as every runtime's shell tool is
(SPEC §3 "Attribution follows content", §7 "Hooks"; docs/agents/opencode.md).

End to end with real git, the real CLI and the plugin ``install --agent opencode`` writes,
run under node as OpenCode runs it (``@opencode-ai/plugin`` ``Hooks``, anomalyco/opencode
``packages/plugin/src/index.ts`` @ 0149423929ff586f412ecb4a09573c2e06627222:
``tool.execute.before`` gets ``tool``, ``sessionID``, ``callID`` and ``output.args`` before
the tool runs, ``tool.execute.after`` the same input after it; the ``event`` hook gets
``session.idle`` with ``properties.sessionID`` when the session's prompt is done,
``packages/sdk/js/src/gen/types.gen.ts`` @ 00078e84e684386196bc4a48aefc91c80900cc4b,
``EventSessionIdle``): the plugin keeps the work tree before a ``bash`` call and records what
the command changed after it. A person's edit outside the call stays the person's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents import ownfile
from tests.e2e.background_write import held_in_background, release
from tests.e2e.conftest import PREFIX, World

pytestmark = pytest.mark.skipif(not shutil.which("node"), reason="no node")

BIN = str(Path(sys.executable).parent)
PATH = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"

#: Drives the plugin as OpenCode does around one ``bash`` call: the session's
#: ``chat.message`` and ``chat.params``, ``tool.execute.before``, the command run by a shell
#: in its ``workdir`` (else the directory), ``tool.execute.after``, then the ``session.idle``
#: event (each hook the plugin returned). A null command hands over ``session.idle`` alone.
DRIVER = """
import path from "node:path"
import { pathToFileURL } from "node:url"
import { execSync } from "node:child_process"
const [plugin, raw] = process.argv.slice(-2)
const call = JSON.parse(raw)
const mod = await import(pathToFileURL(plugin).href)
const hooks = await mod.GentleHooksRecorder({ directory: call.cwd, worktree: call.cwd })
const sessionID = "ses_oc1"
if (call.command !== null) {
  const model = { providerID: "anthropic", modelID: "claude-opus-4-5" }
  await hooks["chat.message"]({ sessionID, agent: "build", model }, { message: {}, parts: [] })
  await hooks["chat.params"](
    { sessionID, agent: "build", model: { id: "claude-opus-4-5" }, provider: {}, message: {} },
    { temperature: 0, topP: 1, options: { reasoningEffort: "medium" } },
  )
  const input = { tool: "bash", sessionID, callID: call.id }
  const args = { command: call.command, description: "runs it" }
  if (call.workdir) args.workdir = call.workdir
  const blocked = await hooks["tool.execute.before"](input, { args })
  if (blocked !== undefined) throw new Error("the plugin returned a value from before")
  const cwd = call.workdir ? path.resolve(call.cwd, call.workdir) : call.cwd
  try { execSync(call.command, { cwd, shell: "/bin/sh", stdio: "ignore" }) } catch {}
  await hooks["tool.execute.after"](input, { title: "", output: "", metadata: {} })
}
if (!call.open) await hooks.event?.({ event: { type: "session.idle", properties: { sessionID } } })
"""


def _bash_call(
    w: World,
    scratch: Path,
    command: str | None,
    call_id: str = "call_bash1",
    *,
    open_session: bool = False,
    workdir: str | None = None,
) -> None:
    """Run OpenCode's side of one ``bash`` call of ``command`` through our plugin, the
    session idle after it unless ``open_session`` (a None ``command``: idle alone)."""
    scratch.mkdir(parents=True, exist_ok=True)
    module = scratch / "gentle-hooks.mjs"  # node reads .js outside a module package as CJS
    module.write_bytes((w.work / ".opencode" / "plugins" / "gentle-hooks.js").read_bytes())
    call = {"cwd": str(w.work), "id": call_id, "command": command, "workdir": workdir}
    call["open"] = open_session
    subprocess.run(
        ["node", "--input-type=module", "-e", DRIVER, str(module), json.dumps(call)],
        cwd=w.work,
        env={**os.environ, **PATH},
        check=True,
        capture_output=True,
        timeout=120,
    )


def _pending(w: World) -> list[tuple[object, ...]]:
    """The tool call ids of the pending mutations ([] when nothing made the ledger yet)."""
    if not (w.work / ".git" / "gentle-hooks" / "ledger.sqlite3").exists():
        return []
    return w.ledger("SELECT tool_call_id FROM pending_mutation ORDER BY id")


def _wired(w: World) -> None:
    w.write("src/calc.py", BASE)
    w.write("src/other.py", BASE)
    assert w.gh("install", "--agent", "opencode", env=PATH).code == 0
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base, wire opencode")


def test_a_bash_command_of_opencode_is_recorded_and_blocks_the_commit(
    native: World, tmp_path: Path
) -> None:
    w = native
    _wired(w)
    _bash_call(w, tmp_path / "oc", SED)
    assert w.ledger(
        "SELECT source, model || '/' || effort, tool_call_id FROM pending_mutation"
    ) == [("opencode", "claude-opus-4-5/medium", "call_bash1")]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "human: tidy")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (writer content "
        "(claude-opus-4-5/medium) in src/calc.py)"
    )


def test_a_bash_command_in_its_workdir_is_recorded(native: World, tmp_path: Path) -> None:
    """``workdir`` (relative to the directory) is where the command runs, as ``cd DIR &&``."""
    w = native
    _wired(w)
    _bash_call(w, tmp_path / "oc", SED.replace("src/calc.py", "calc.py"), workdir="src")
    assert _pending(w) == [("call_bash1",)]
    w.ok("add", "-A")
    assert w.git("commit", "-m", "human: tidy").code == 1


def test_a_bash_command_that_changes_nothing_records_nothing(native: World, tmp_path: Path) -> None:
    w = native
    _wired(w)
    _bash_call(w, tmp_path / "oc", "ls src")
    assert _pending(w) == []
    w.write("src/calc.py", BASE.replace("return VALUE", "return VALUE + 1"))
    w.person_commits("-am", "human: bump")


def test_a_persons_edit_between_bash_calls_stays_theirs(native: World, tmp_path: Path) -> None:
    w = native
    _wired(w)
    _bash_call(w, tmp_path / "oc", "ls src", "call_ls")
    w.write("src/other.py", BASE.replace("return VALUE", "return VALUE + 1"))
    _bash_call(w, tmp_path / "oc", SED, "call_sed")
    assert _pending(w) == [("call_sed",)]
    w.ok("add", "src/other.py")
    w.person_commits("-m", "human: bump")
    w.ok("add", "src/calc.py")
    assert w.git("commit", "-m", "human: tidy").code == 1


def test_a_background_bash_write_before_session_idle_is_recorded_there(
    native: World, tmp_path: Path
) -> None:
    """``( ... ) &``: the call's tool.execute.after comes before its process wrote; its
    window stays open until session.idle, which records the write as the call's."""
    w = native
    _wired(w)
    flag = tmp_path / "go"
    command = held_in_background(flag, SED)
    _bash_call(w, tmp_path / "oc", command, "call_bg", open_session=True)
    release(flag)
    _bash_call(w, tmp_path / "oc", None)
    assert _pending(w) == [("call_bg@bg1",)]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "human: tidy")
    assert blocked.code == 1, blocked


def test_a_background_bash_write_a_person_committed_is_recorded_at_session_idle(
    native: World, tmp_path: Path
) -> None:
    """The process writes and a person commits it (``git commit --no-verify -a``: no commit
    gate moves the window, tests/e2e/test_attribution_open_window_gates.py has the gate's
    rows) before session.idle: session.idle records the write in that commit as the call's,
    so the commit is delegated and its push is blocked (refuter r17v finding 1: nothing was
    attributed, the push passed)."""
    w = native
    _wired(w)
    flag = tmp_path / "go"
    command = held_in_background(flag, SED)
    _bash_call(w, tmp_path / "oc", command, "call_bg", open_session=True)
    release(flag)
    assert w.git("commit", "--no-verify", "-qam", "human: tidy").code == 0
    commit = w.rev("HEAD")
    _bash_call(w, tmp_path / "oc", None)
    assert _pending(w) == [("call_bg@bg1",)]
    entries = w.ledger("SELECT path, blob FROM writer_entry")
    assert entries == [("src/calc.py", w.rev(f"{commit}:src/calc.py"))], entries
    push = w.git("push", "-q", "origin", "main")
    assert push.code == 1 and f"BLOCKED commit {commit[:12]}" in push.err, push


@pytest.mark.parametrize("subagents", [True, False], ids=["with-subagents", "first"])
def test_a_former_plugin_records_nothing_of_a_bash_call_and_says_why(
    subagents: bool, native: World, tmp_path: Path
) -> None:
    """A plugin an earlier install wrote hands over tool.execute.after alone: the call finds
    no snapshot, records nothing, and the recorder never fails OpenCode's call (doctor
    fails such a file: tests/integration/test_agent_files.py)."""
    w = native
    _wired(w)
    plugin = w.work / ".opencode" / "plugins" / "gentle-hooks.js"
    command = ownfile.owned_command(plugin.read_text(), "opencode")
    assert command is not None
    plugin.write_text(ownfile.opencode_plugin(command, subagents=subagents, shell=False))
    _bash_call(w, tmp_path / "oc", SED)
    assert _pending(w) == []
    record = w.gh("record", "--from", "opencode", input=_after(w, SED), env=PATH)
    assert record.code == 0, record
    assert "the bash call of OpenCode ran a shell command" in record.err, record


def _after(w: World, command: str) -> bytes:
    """The tool.execute.after object a former plugin hands over for a bash call."""
    return json.dumps(
        {
            "hook": "tool.execute.after",
            "tool": "bash",
            "sessionID": "ses_oc1",
            "callID": "call_bash2",
            "args": {"command": command, "description": "runs it"},
            "model": None,
            "directory": str(w.work),
            "worktree": str(w.work),
        }
    ).encode()
