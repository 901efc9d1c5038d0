"""What Pi's ``bash`` tool changes is the writer's, as every runtime's shell tool is (SPEC §3
"Attribution follows content", §7 "Hooks"; docs/agents/pi.md).

End to end with real git, the real CLI and the extension ``install --agent pi`` writes, run
under node as Pi runs it (badlogic/pi-mono ``packages/coding-agent/docs/extensions.md`` @
045aad539ba0f59297768dc242d68a0b8d76961c: the default export gets the ``ExtensionAPI``; a
``tool_call`` handler gets ``toolName``, ``toolCallId``, ``input`` before the tool runs, a
``tool_result`` one the same and ``isError`` after it; ``agent_end`` ends the agent's run):
the extension keeps the work tree before the call and records what the command changed
after it. A person's edit outside the call stays the person's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.background_write import held_in_background, release
from tests.e2e.conftest import PREFIX, World

pytestmark = pytest.mark.skipif(not shutil.which("node"), reason="no node")

BIN = str(Path(sys.executable).parent)
PATH = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"
MODEL = {"provider": "anthropic", "id": "claude-opus-4-5"}

#: Drives the extension as Pi does around one ``bash`` call: ``tool_call``, the command run
#: by a shell in the work tree, ``tool_result``, then ``agent_end`` (each handler the
#: extension registered).
DRIVER = """
import { pathToFileURL } from "node:url"
import { execSync } from "node:child_process"
const [extension, raw] = process.argv.slice(-2)
const call = JSON.parse(raw)
const mod = await import(pathToFileURL(extension).href)
const handlers = {}
mod.default({ on: (name, fn) => { handlers[name] = fn }, getThinkingLevel: () => "medium" })
const ctx = { cwd: call.cwd, model: call.model, sessionManager: { getSessionId: () => "pi-s1" } }
const event = { toolName: "bash", toolCallId: call.id, input: { command: call.command } }
const blocked = await handlers["tool_call"]?.(event, ctx)
if (blocked !== undefined) throw new Error("the extension returned a value from tool_call")
let isError = false
try { execSync(call.command, { cwd: call.cwd, shell: "/bin/sh", stdio: "ignore" }) }
catch { isError = true }
await handlers["tool_result"]({ ...event, content: [], details: {}, isError }, ctx)
if (!call.open) await handlers["agent_end"]?.({ messages: [] }, ctx)
"""
#: Pi's end of the agent's run alone (``agent_end``), for a run left open by :data:`DRIVER`.
END = """
import { pathToFileURL } from "node:url"
const [extension, raw] = process.argv.slice(-2)
const call = JSON.parse(raw)
const mod = await import(pathToFileURL(extension).href)
const handlers = {}
mod.default({ on: (name, fn) => { handlers[name] = fn }, getThinkingLevel: () => "medium" })
const ctx = { cwd: call.cwd, model: call.model, sessionManager: { getSessionId: () => "pi-s1" } }
await handlers["agent_end"]?.({ messages: [] }, ctx)
"""


def _bash_call(
    w: World,
    scratch: Path,
    command: str,
    call_id: str = "toolu_bash1",
    *,
    open_run: bool = False,
    driver: str = DRIVER,
) -> None:
    """Run Pi's side of one ``bash`` call of ``command`` through our extension, the agent's
    run ended after it unless ``open_run`` (``driver``: :data:`END` ends it alone)."""
    scratch.mkdir(parents=True, exist_ok=True)
    module = scratch / "gentle-hooks.mjs"  # node reads .ts as neither module kind
    module.write_bytes((w.work / ".pi" / "extensions" / "gentle-hooks.ts").read_bytes())
    call = {"cwd": str(w.work), "model": MODEL, "id": call_id, "command": command}
    call["open"] = open_run
    subprocess.run(
        ["node", "--input-type=module", "-e", driver, str(module), json.dumps(call)],
        cwd=w.work,
        env={**os.environ, **PATH},
        check=True,
        capture_output=True,
        timeout=120,
    )


def _wired(w: World) -> None:
    w.write("src/calc.py", BASE)
    assert w.gh("install", "--agent", "pi", env=PATH).code == 0
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base, wire pi")


def test_a_bash_command_of_pi_is_recorded_and_blocks_the_commit(
    native: World, tmp_path: Path
) -> None:
    w = native
    _wired(w)
    _bash_call(w, tmp_path / "pi", SED)
    assert w.ledger(
        "SELECT source, model || '/' || effort, tool_call_id FROM pending_mutation"
    ) == [("pi", "claude-opus-4-5/medium", "toolu_bash1")]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "human: tidy")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (writer content "
        "(claude-opus-4-5/medium) in src/calc.py)"
    )


def test_a_persons_edit_after_a_bash_call_that_wrote_nothing_stays_theirs(
    native: World, tmp_path: Path
) -> None:
    w = native
    _wired(w)
    _bash_call(w, tmp_path / "pi", "ls src")
    w.write("src/calc.py", BASE.replace("return VALUE", "return VALUE + 1"))
    w.ok("add", "-A")
    passed = w.git("commit", "-m", "human: bump")
    assert passed.code == 0, passed


def test_a_background_bash_write_before_agent_end_is_recorded_there(
    native: World, tmp_path: Path
) -> None:
    """``( ... ) &``: the call's tool_result comes before its process wrote; its window stays
    open until agent_end, which records the write as the call's."""
    w = native
    _wired(w)
    flag = tmp_path / "go"
    command = held_in_background(flag, SED)
    _bash_call(w, tmp_path / "pi", command, "toolu_bg", open_run=True)
    release(flag)
    _bash_call(w, tmp_path / "pi", command, "toolu_bg", driver=END)
    assert w.ledger("SELECT tool_call_id FROM pending_mutation") == [("toolu_bg@bg1",)]
    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "human: tidy")
    assert blocked.code == 1, blocked
