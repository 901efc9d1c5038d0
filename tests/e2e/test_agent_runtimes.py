"""Every agent runtime end to end: ``install --agent`` wires the hook,
the runtime's documented payload drives the record through the very command the
configuration holds, the commit is blocked with the fix printed, the printed commands run as
printed, and the commit passes. Then the gate's decision as one JSON object for agents.

Hooks are the native ones (``gentle-hook install``); git and the CLI are real.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents import ownfile, wiring
from gentle_hooks.agents.runtimes import runtime
from tests.agent_payloads import RUNTIMES, apply_writes, materialize
from tests.e2e.conftest import CHECK, PREFIX, World

BIN = str(Path(sys.executable).parent)
PATH = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}


#: Drives OpenCode's side of our plugin as the runtime calls it (the hook arguments of
#: ``@opencode-ai/plugin``'s ``Hooks``): the module (the next to last argument) is imported
#: with the plugin context, then ``chat.params``, ``tool.execute.before`` and
#: ``tool.execute.after`` are called for one tool call described by the last argument (JSON).
OPENCODE_DRIVER = """
import { pathToFileURL } from "node:url"
const [plugin, raw] = process.argv.slice(-2)
const call = JSON.parse(raw)
const mod = await import(pathToFileURL(plugin).href)
const hooks = await mod.GentleHooksRecorder({ directory: call.directory, worktree: call.worktree })
await hooks["chat.params"](
  { sessionID: call.sessionID, agent: "build", model: { id: call.model.modelID },
    provider: { info: { id: call.model.providerID } }, message: {} },
  { temperature: 0, topP: 1, options: { reasoningEffort: call.model.reasoningEffort } },
)
const head = { tool: call.tool, sessionID: call.sessionID, callID: call.callID }
await hooks["tool.execute.before"]({ ...head }, { args: call.args })
await hooks["tool.execute.after"]({ ...head }, { title: "", output: "", metadata: {} })
"""


#: Drives Pi's side of our extension as Pi does (``docs/extensions.md``: the default export
#: gets the ``ExtensionAPI``, a ``tool_result`` handler gets the event and the context).
PI_DRIVER = """
import { pathToFileURL } from "node:url"
const [extension, raw] = process.argv.slice(-2)
const call = JSON.parse(raw)
const mod = await import(pathToFileURL(extension).href)
const handlers = {}
mod.default({
  on: (name, fn) => { handlers[name] = fn },
  getThinkingLevel: () => call.thinkingLevel,
})
const ctx = {
  cwd: call.cwd, model: { provider: call.model.provider, id: call.model.id },
  sessionManager: { getSessionId: () => call.sessionId },
}
await handlers["tool_result"](
  { toolName: call.toolName, toolCallId: call.toolCallId, input: call.input,
    content: [], details: {}, isError: call.isError },
  ctx,
)
"""
#: Drives Amp's side of our plugin as Amp does (ampcode.com/manual/plugin-api: the default
#: export gets the ``PluginAPI``, whose ``helpers.filesModifiedByToolCall`` gives file URIs and
#: ``filePathFromURI`` their paths; a ``tool.result`` handler gets the ``ToolResultEvent`` and
#: a context whose ``thread.agent()`` resolves to the thread's agent).
AMP_DRIVER = """
import { pathToFileURL, fileURLToPath } from "node:url"
const [plugin, raw] = process.argv.slice(-2)
const call = JSON.parse(raw)
const mod = await import(pathToFileURL(plugin).href)
const handlers = {}
mod.default({
  on: (name, fn) => { handlers[name] = fn },
  helpers: {
    filesModifiedByToolCall: (event) =>
      event.toolUseID === call.toolUseID ? call.files.map((p) => pathToFileURL(p)) : null,
    filePathFromURI: (uri) => fileURLToPath(uri.toString()),
  },
})
const thread = { id: call.threadID, agent: async () => ({ definition: call.agent }) }
const result = await handlers["tool.result"](
  { toolUseID: call.toolUseID, tool: call.tool, input: call.input, status: call.status,
    thread: { id: call.threadID } },
  { thread },
)
if (result !== undefined) throw new Error("the plugin changed the tool's result")
"""
#: The node driver of each runtime whose hook is a module of ours.
DRIVERS = {"opencode": OPENCODE_DRIVER, "pi": PI_DRIVER, "amp": AMP_DRIVER}


def run_hook(w: World, name: str, scratch: Path) -> subprocess.CompletedProcess[bytes]:
    """Run the hook the runtime's configuration holds, as the runtime does: a hook command
    through a shell, Cline's hook file itself, OpenCode's plugin through its hooks; in the
    work tree, its payload on standard input, after the tool wrote."""
    rt = runtime(name)
    assert rt.wiring is not None
    data, filled = materialize(name, w.work, scratch)
    apply_writes(filled, w.work)
    hook = w.work / rt.wiring.project
    if name in DRIVERS:
        # node imports .js as CommonJS outside a "type": "module" package, and no .ts
        scratch.mkdir(parents=True, exist_ok=True)
        module = scratch / "gentle-hooks.mjs"
        module.write_bytes(hook.read_bytes())
        argv = ["node", "--input-type=module", "-e", DRIVERS[name], str(module), data.decode()]
    elif name == "kiro":  # a hooks file of ours: Kiro runs the command it names
        command = ownfile.owned_command(hook.read_text(), name)
        assert command is not None
        argv = ["sh", "-c", command]
    elif rt.wiring.shape == "file":
        argv = [str(hook)]
    else:
        doc = json.loads(hook.read_text())
        [command] = wiring.commands(doc, rt)
        argv = ["sh", "-c", command]
    return subprocess.run(
        argv,
        cwd=w.work,
        input=data,
        capture_output=True,
        env={**os.environ, **PATH},
        check=False,
        timeout=120,
    )


def printed(said: list[str], key: str) -> str:
    """The command after ``key:`` on a block line, without its trailing remark."""
    line = next(s for s in said if s.startswith(f"{PREFIX}  {key}: "))
    return line.split(f"{key}: ", 1)[1].split("  (")[0]


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            n,
            marks=pytest.mark.skipif(n in DRIVERS and not shutil.which("node"), reason="no node"),
        )
        for n in RUNTIMES
    ],
)
def test_edit_blocked_printed_fix_passes(name: str, native: World, tmp_path: Path) -> None:
    w = native
    installed = w.gh("install", "--agent", name, env=PATH)
    assert installed.code == 0, installed
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", f"wire {name}")  # the configuration itself, by the human

    hook = run_hook(w, name, tmp_path / "runtime")
    assert hook.returncode == 0, hook.stderr
    if name == "cline":  # the last JSON line of standard output is what Cline reads
        assert hook.stdout == b'{"cancel":false}\n'
    if name not in DRIVERS:  # our modules discard the recorder's output (a TUI is on screen)
        assert hook.stderr.decode().startswith("recorded: pending mutation #1: ")
    _, filled = materialize(name, w.work, tmp_path / "runtime")
    expect = filled["expect"]
    profile = f"{expect['model'] or 'unknown'}/{expect['effort'] or 'unknown'}"
    assert w.ledger("SELECT source, model || '/' || effort FROM pending_mutation") == [
        (name, profile)
    ]

    w.ok("add", "-A")
    blocked = w.git("commit", "-m", f"{name}: comment")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (writer content ({profile}) in src/app.py)"
    )
    prefix = printed(blocked.said, "prefix")
    # git ran the hook at the top: the prefix runs the writer's command there
    assert prefix == f"gentle-hook receipt run --cwd {w.work} --staged --"
    fix = printed(blocked.said, "run")
    assert fix == "gentle-hook spot-check --staged"
    # the writer's report (its test command after the printed prefix), then the fix as printed
    report = w.run(["sh", "-c", f"{prefix} {shlex.join(CHECK)}"], env=PATH)
    assert report.code == 0, report
    spot = w.run(["sh", "-c", fix], env=PATH)
    assert spot.code == 0, spot
    passed = w.git("commit", "-m", f"{name}: comment")
    assert passed.code == 0, passed
    assert w.ledger("SELECT count(*) FROM commit_record") == [(1,)]


def blocked_commit(w: World, tmp_path: Path, env: dict[str, str]) -> tuple[int, str]:
    assert w.gh("install", "--agent", "claude-code", env=PATH).code == 0
    assert run_hook(w, "claude-code", tmp_path / "runtime").returncode == 0
    w.ok("add", "-A")
    r = w.git("commit", "-m", "claude: comment", env=env)
    return r.code, r.err


def test_json_format_prints_the_decision_as_one_object(native: World, tmp_path: Path) -> None:
    top = native.work
    code, err = blocked_commit(native, tmp_path, {"GENTLE_HOOKS_FORMAT": "json"})
    assert code == 1
    [line] = [x for x in err.splitlines() if x.strip()]
    decision = json.loads(line)
    assert decision["schema"] == "gentle-hooks.decision/v1"
    assert (decision["hook"], decision["decision"], decision["exit_code"]) == (
        "pre-commit",
        "blocked",
        1,
    )
    assert "GENTLE_HOOKS_SKIP" in decision["override"]
    [cand] = decision["candidates"]
    assert cand["label"] == "the staged change"
    assert cand["delegated_by"] == "writer content (claude-sonnet-4-5/high) in src/app.py"
    assert (cand["blocked"], cand["risk"], cand["projection"]) == (True, "medium", "staged")
    assert cand["missing"] == [
        {
            "what": "spot-check",
            "why": "no spot check for this candidate (required in every tier; plan risk medium)",
            "run": ["gentle-hook spot-check --staged"],
            "report_prefix": f"gentle-hook receipt run --cwd {top} --staged --",
            # the same, labelled and in order, as the human lines print them
            "steps": [
                {
                    "label": "do",
                    "text": "the writer reports the command that tests this change: that "
                    "command, after the words on the prefix line (declare "
                    f"verification.commands to have it named here); it runs in {top}, the "
                    "repository top (another directory after --cwd runs it there) (no report "
                    "that counts is recorded for this candidate yet)",
                },
                {"label": "prefix", "text": f"gentle-hook receipt run --cwd {top} --staged --"},
                {"label": "run", "text": "gentle-hook spot-check --staged"},
            ],
        }
    ]
    assert decision["lines"][0].startswith("BLOCKED the staged change")


def test_an_agent_runtime_gets_the_lines_and_the_object_last(native: World, tmp_path: Path) -> None:
    code, err = blocked_commit(native, tmp_path, {"CLAUDECODE": "1"})
    assert code == 1
    lines = err.splitlines()
    said = [x[len(PREFIX) :] for x in lines if x.startswith(PREFIX)]
    decision = json.loads(lines[-1])
    assert decision["lines"] == said
    assert decision["decision"] == "blocked"


def test_text_format_prints_no_object_even_for_an_agent(native: World, tmp_path: Path) -> None:
    code, err = blocked_commit(native, tmp_path, {"CLAUDECODE": "1", "GENTLE_HOOKS_FORMAT": "text"})
    assert code == 1
    assert all(x.startswith(PREFIX) for x in err.splitlines() if x.strip())


def test_an_unknown_format_prints_text_and_says_so(native: World, tmp_path: Path) -> None:
    code, err = blocked_commit(native, tmp_path, {"GENTLE_HOOKS_FORMAT": "yaml"})
    assert code == 1
    assert err.splitlines()[0] == (
        f"{PREFIX}GENTLE_HOOKS_FORMAT='yaml' is not json or text: printing text"
    )


def test_a_let_through_block_is_reported_as_such(native: World, tmp_path: Path) -> None:
    code, err = blocked_commit(
        native,
        tmp_path,
        {"GENTLE_HOOKS_FORMAT": "json", "GENTLE_HOOKS_SKIP": "verified by hand"},
    )
    assert code == 0
    # the decision is the one line: the post-commit recorder stays quiet in JSON mode
    [line] = [x for x in err.splitlines() if x.strip()]
    decision = json.loads(line)
    assert (decision["decision"], decision["let_through"], decision["override"]) == (
        "let-through",
        "GENTLE_HOOKS_SKIP",
        None,
    )


@pytest.mark.parametrize(
    "env",
    [{"GENTLE_HOOKS_FORMAT": "json"}, {"CLAUDECODE": "1"}],
    ids=["json", "runtime-detected"],
)
def test_a_passing_delegated_commit_ends_with_the_decision_object(
    env: dict[str, str], native: World, tmp_path: Path
) -> None:
    """The post-commit recorder runs after the gate printed its object: in JSON mode every
    line is JSON, and with a runtime detected the object stays the last line an agent
    parses."""
    w = native
    blocked_commit(w, tmp_path, {})
    prefix = printed(w.git("commit", "-m", "claude: comment").said, "prefix")
    assert w.run(["sh", "-c", f"{prefix} {shlex.join(CHECK)}"], env=PATH).code == 0
    assert w.run(["sh", "-c", "gentle-hook spot-check --staged"], env=PATH).code == 0
    passed = w.git("commit", "-m", "claude: comment", env=env)
    assert passed.code == 0, passed
    assert w.ledger("SELECT count(*) FROM commit_record") == [(1,)]
    lines = [x for x in passed.err.splitlines() if x.strip()]
    decision = json.loads(lines[-1])
    assert (decision["hook"], decision["decision"]) == ("pre-commit", "allowed")
    if "GENTLE_HOOKS_FORMAT" in env:
        assert lines == [lines[-1]]
    else:
        assert all(x.startswith(PREFIX) for x in lines[:-1])


def test_a_human_commit_prints_only_its_allowed_object_in_json_format(native: World) -> None:
    """With json every gate says its decision, also pre-commit's for a person's commit no
    gate judges (decided by the installed hook's sh fast path): stderr is the ``allowed``
    object alone, the line Python prints then (an agent tells "allowed" from "the gate did
    not run"; refuter r17l for pushes, and issue 17's finding that the two paths differed)."""
    native.write("README.md", "# demo, by hand\n")
    native.ok("add", "-A")
    r = native.git("commit", "-q", "-m", "human", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert r.code == 0 and len(r.err.splitlines()) == 1, r
    obj = json.loads(r.err)
    assert (obj["hook"], obj["decision"], obj["candidates"]) == ("pre-commit", "allowed", []), r


#: What aider puts in the environment of its own commits with the trailer off
#: (``attribute-author``, ``attribute-committer``; docs/agents/aider.md). ``(aider)`` on the
#: committer alone is aider's commit of a person's own dirty files: tests/e2e/test_aider_commits.py.
AIDER = {"GIT_AUTHOR_NAME": "Test Author (aider)", "GIT_COMMITTER_NAME": "Test Author (aider)"}


def test_an_aider_commit_meets_the_commit_gate(native: World) -> None:
    w = native
    w.write("src/app.py", "def add(a, b):\n    return a + b  # by aider\n")
    w.ok("add", "-A")
    # aider commits with git-commit-verify: true, its name marker in the environment
    blocked = w.git("commit", "-m", "feat: comment", env=AIDER)
    assert blocked.code == 1, blocked
    assert blocked.said[0].startswith(f"{PREFIX}BLOCKED the staged change"), blocked
    assert "GIT_AUTHOR_NAME 'Test Author (aider)'" in blocked.err, blocked
    # the same change committed by the person passes
    assert w.git("commit", "-q", "-m", "feat: comment").code == 0


@pytest.mark.parametrize("broken", ["ledger", "config"])
def test_a_gate_that_fails_closed_prints_its_decision_as_one_object(
    broken: str, native: World, tmp_path: Path
) -> None:
    """A ledger that is not a database, or a configuration file with an unknown key: the
    commit gate cannot judge and fails closed; with GENTLE_HOOKS_FORMAT=json standard error
    is exactly one JSON object, ``decision: error``, its reason inside and a runnable way
    out. For the ledger that way out names the repair: ``doctor --fix`` moves it aside,
    kept; what it held stays in quarantine (the gate closed) until a person runs the
    printed discard, and the gate judges again."""
    w = native
    assert w.gh("install", "--agent", "claude-code", env=PATH).code == 0
    assert run_hook(w, "claude-code", tmp_path / "runtime").returncode == 0
    ledger = w.work / ".git" / "gentle-hooks" / "ledger.sqlite3"
    if broken == "ledger":
        ledger.write_bytes(b"not a database" * 64)
    else:
        (w.work / ".gentle-hooks.toml").write_text("bogus = 1\n")
    w.ok("add", "-A")
    r = w.git("commit", "-m", "claude: comment", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert r.code != 0, r
    decision = json.loads(r.err)  # the whole of standard error: one object
    assert decision["schema"] == "gentle-hooks.decision/v1"
    assert (decision["hook"], decision["decision"], decision["fail_closed"]) == (
        "pre-commit",
        "error",
        True,
    )
    assert decision["reason"].startswith("gentle-hook: error: ")
    assert decision["candidates"] == [] and decision["exit_code"] in (2, 3)
    [way_out] = decision["run"]
    assert way_out.split()[-1] == "doctor"
    if broken != "ledger":
        return
    shown = subprocess.run(shlex.split(way_out), cwd=w.work, capture_output=True, text=True)
    assert shown.returncode == 2
    [store] = [ln for ln in shown.stdout.splitlines() if "store:" in ln]
    repair = store.rsplit("run: ", 1)[1]
    assert repair.split()[-2:] == ["doctor", "--fix"], store
    fixed = subprocess.run(shlex.split(repair), cwd=w.work, capture_output=True, text=True)
    assert "moved the damaged ledger aside" in fixed.stdout, fixed.stdout
    moved = ledger.parent.glob("ledger.sqlite3.salvaged-*")
    [kept] = [p for p in moved if not p.name.endswith(("-wal", "-shm"))]
    assert kept.read_bytes() == b"not a database" * 64
    # nothing of it could be read: what it held stays in quarantine, the gate closed, until
    # a person runs the printed discard
    held = w.git("commit", "-m", "claude: comment", env={"GENTLE_HOOKS_FORMAT": "json"})
    closed = json.loads(held.err)
    assert closed["decision"] == "error" and "held in quarantine" in closed["reason"], held
    shown = subprocess.run(shlex.split(way_out), cwd=w.work, capture_output=True, text=True)
    [quarantine] = [ln for ln in shown.stdout.splitlines() if "quarantine:" in ln]
    discard = quarantine.rsplit("run: ", 1)[1]
    assert " doctor --discard 1 --reason " in discard, quarantine
    assert closed["run"] == [discard], closed  # the command its line names
    subprocess.run(shlex.split(discard), cwd=w.work, capture_output=True, text=True)
    again = w.git("commit", "-m", "claude: comment", env={"GENTLE_HOOKS_FORMAT": "json"})
    assert again.code in (0, 1), again  # judged again: never the fail-closed error
    assert '"decision":"error"' not in again.err
