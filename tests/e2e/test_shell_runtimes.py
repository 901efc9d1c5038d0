"""What an agent's shell command writes is the writer's under every runtime whose documented
hooks bracket its shell tool (Codex CLI's ``PreToolUse``/``PostToolUse`` of ``Bash``, Gemini
CLI's ``BeforeTool``/``AfterTool`` of ``run_shell_command``, Cursor's
``beforeShellExecution``/``afterShellExecution``; the inputs are built from each runtime's
documentation, tests/fixtures/agents/shell.json naming the sources).

End to end with real git and the real CLI: ``install --agent`` wires both hooks, the
configured commands run with the runtime's before input, a real shell command (``sed -i``, a
heredoc) edits the work tree, the after input records it, the person's commit is blocked with
the fix printed, the printed commands run as printed, and the commit passes
(SPEC §3 "Attribution follows content", §7 "Hooks")."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents import wiring
from gentle_hooks.agents.runtimes import runtime
from gentle_hooks.values.frozen import replace
from tests.agent_payloads import SHELL_RUNTIMES, shell_inputs
from tests.e2e.conftest import CHECK, PREFIX, World

BIN = str(Path(sys.executable).parent)
PATH = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
BASE = "VALUE = 1\n\n\ndef main():\n    return VALUE\n"
SED = "sed -i 's/return VALUE/return apply_discount_rules(VALUE, region_table)/' src/calc.py"
#: A generator that appends a new function each run.
GEN = (
    'n=$(grep -c "^def" src/calc.py)\n'
    'printf "\\n\\ndef gen_$n():\\n    return $n\\n" >> src/calc.py\n'
)
HEREDOC = (
    "cat > src/gen.py <<'EOF'\n"
    "def generated_discount_table(region_rows):\n"
    "    return build_regional_discounts(region_rows)\n"
    "EOF"
)


def _configured(w: World, name: str, event: str) -> str:
    """The one command of ours the runtime's project file holds under ``event`` (our plugin
    file: the recorder command it runs for every event)."""
    rt = runtime(name)
    assert rt.wiring is not None
    text = (w.work / rt.wiring.project).read_text()
    if text.startswith("// gentle-hooks recorder"):  # our plugin (OpenCode): the command it runs
        [line] = [ln for ln in text.splitlines() if ln.startswith("const COMMAND = ")]
        return str(json.loads(line.removeprefix("const COMMAND = ")))
    doc = json.loads(text)
    [w_event] = [x for x in wiring.events(rt.wiring) if x.event == event]
    [command] = wiring.commands(doc, replace(rt, wiring=w_event))
    return command


def _hook(w: World, command: str, data: bytes) -> subprocess.CompletedProcess[bytes]:
    """Run a configured hook command as the runtime does: through a shell, in the work
    tree, its input on standard input."""
    return subprocess.run(
        ["sh", "-c", command],
        cwd=w.work,
        input=data,
        capture_output=True,
        env={**os.environ, **PATH},
        check=False,
        timeout=120,
    )


def _printed(said: list[str], key: str) -> str:
    line = next(s for s in said if s.startswith(f"{PREFIX}  {key}: "))
    return line.split(f"{key}: ", 1)[1].split("  (")[0]


@pytest.mark.parametrize("command", [SED, HEREDOC], ids=["sed-i", "heredoc"])
@pytest.mark.parametrize("name", SHELL_RUNTIMES)
def test_a_shell_command_is_blocked_then_the_printed_fix_passes(
    name: str, command: str, native: World
) -> None:
    w = native
    w.write("src/calc.py", BASE)
    installed = w.gh("install", "--agent", name, env=PATH)
    assert installed.code == 0, installed
    w.ok("add", "-A")
    w.ok("commit", "-qm", f"human: base, wire {name}")

    rt = runtime(name)
    assert rt.wiring is not None and rt.wiring.shell_event is not None
    before, after, _ = shell_inputs(name, w.work, command)
    pre = _hook(w, _configured(w, name, rt.wiring.shell_event), before)
    assert pre.returncode == 0, pre
    assert pre.stderr.decode().startswith("nothing recorded: kept the work tree before "), pre
    subprocess.run(["sh", "-c", command], cwd=w.work, check=True)
    post = _hook(w, _configured(w, name, rt.wiring.shell_after or rt.wiring.event), after)
    assert post.returncode == 0, post
    assert post.stderr.decode().startswith("recorded: pending mutation #1: "), post

    w.ok("add", "-A")
    blocked = w.git("commit", "-m", "human: tidy")
    assert blocked.code == 1, blocked
    assert blocked.said[0].startswith(f"{PREFIX}BLOCKED the staged change: delegated"), blocked
    prefix = _printed(blocked.said, "prefix")
    fix = _printed(blocked.said, "run")
    assert fix == "gentle-hook spot-check --staged"
    report = w.run(["sh", "-c", f"{prefix} {shlex.join(CHECK)}"], env=PATH)
    assert report.code == 0, report
    spot = w.run(["sh", "-c", fix], env=PATH)
    assert spot.code == 0, spot
    passed = w.git("commit", "-m", "human: tidy")
    assert passed.code == 0, passed


@pytest.mark.parametrize("name", SHELL_RUNTIMES)
def test_without_the_before_hook_nothing_is_recorded_and_the_line_says_why(
    name: str, native: World
) -> None:
    w = native
    w.write("src/calc.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    _, after, _ = shell_inputs(name, w.work, SED)
    subprocess.run(["sh", "-c", SED], cwd=w.work, check=True)
    r = w.gh("record", "--from", name, input=after, env=PATH)
    assert r.code == 0, r
    assert r.err.startswith("nothing recorded: the "), r
    assert "no snapshot of the work tree from before it was kept" in r.err, r


@pytest.mark.parametrize(
    "response",
    [
        "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n",
        # unified exec (openai/codex codex-rs/core/src/tools/handlers/unified_exec.rs,
        # format_response): its success is always true, this header line is the exit code
        "Chunk ID: 9c8d7e\nWall time: 0.1000 seconds\nProcess exited with code 1\n"
        "Original token count: 0\nOutput:\n",
    ],
    ids=["freeform", "unified-exec"],
)
def test_a_codex_command_that_failed_after_writing_records_what_it_changed(
    native: World, response: str
) -> None:
    """Codex's PostToolUse fires after a non-zero exit too (``Exit code: 1``, or unified
    exec's ``Process exited with code 1``, heads the output the model reads): ``sed -i ...
    && false`` wrote before it failed, so what changed is the writer's, with a note saying
    so; the commit is blocked."""
    w = native
    w.write("src/calc.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    command = f"{SED} && false"
    before, after, _ = shell_inputs("codex", w.work, command)
    doc = json.loads(after)
    doc["tool_response"] = response
    assert w.gh("record", "--from", "codex", input=before, env=PATH).code == 0
    subprocess.run(["sh", "-c", command], cwd=w.work, check=False)
    r = w.gh("record", "--from", "codex", input=json.dumps(doc).encode(), env=PATH)
    assert r.code == 0 and r.err.startswith("recorded: pending mutation #1: "), r
    assert "says exit code 1), but changed 1 file(s) before it ended" in r.err, r
    blocked = w.git("commit", "-qam", "human: tidy")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


@pytest.mark.parametrize("name", ["gemini-cli", "cursor"])
def test_the_same_command_run_twice_records_twice_and_a_replay_once(
    name: str, native: World
) -> None:
    """Gemini CLI's and Cursor's inputs name no call id: the same command (``sh gen.sh``,
    appending a function each run) run again in the session is another call, told apart by
    its snapshot's nonce, so the second run records too, and its lines block once the first
    run's are committed; a replay of the same post-tool input, with no snapshot left,
    records nothing again."""
    w = native
    w.write("src/calc.py", BASE)
    w.write("gen.sh", GEN)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    before, after, _ = shell_inputs(name, w.work, "sh gen.sh")
    for n in (1, 2):
        assert w.gh("record", "--from", name, input=before, env=PATH).code == 0
        subprocess.run(["sh", "gen.sh"], cwd=w.work, check=True)
        r = w.gh("record", "--from", name, input=after, env=PATH)
        assert r.code == 0 and r.err.startswith(f"recorded: pending mutation #{n}: "), r
    ledger = w.gh("status").out
    replay = w.gh("record", "--from", name, input=after, env=PATH)
    assert replay.code == 0 and replay.err.startswith("nothing recorded: "), replay
    assert "pending mutation #3" not in w.gh("status").out
    # it says what happened (a replay of a call already read), never to install again,
    # and changes nothing: replayed again, the same line, the same ledger
    assert "was read already" in replay.err and "replay" in replay.err, replay
    assert "install the recorder again" not in replay.err, replay
    again = w.gh("record", "--from", name, input=after, env=PATH)
    assert (again.code, again.err) == (replay.code, replay.err), again
    assert w.gh("status").out == ledger
    blocked = w.git("commit", "-qam", "human: tidy")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def _cursor_above(w: World, command: str) -> list[str]:
    """Cursor opened on the folder above the repository (``workspace_roots`` names it): its
    shell hook pair around ``command`` run there; what each hook said."""
    before, after, _ = shell_inputs("cursor", w.base, command)
    said = []
    for data, run in ((before, False), (after, True)):
        if run:
            subprocess.run(["sh", "-c", command], cwd=w.base, check=True)
        r = subprocess.run(
            [os.path.join(BIN, "gentle-hook"), "record", "--from", "cursor"],
            cwd=w.base,
            input=data,
            capture_output=True,
            env={**os.environ, **PATH},
            check=False,
        )
        assert r.returncode == 0, r
        said.append(r.stderr.decode())
    return said


def test_a_cursor_workspace_above_the_repository_records_in_the_repository_named(
    native: World,
) -> None:
    """Cursor opened on the folder above the repository, the command ``cd work && sed -i
    ...``: the repository its command names is kept and the write recorded there, the commit
    blocked (issue 17, h17h: Cursor's shell events name their command's directories too)."""
    w = native
    w.write("src/calc.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    said = _cursor_above(w, f"cd {w.work.name} && {SED}")
    assert "kept the work tree before the shell call of Cursor" in said[0], said
    assert said[1].startswith("recorded: pending mutation #1"), said
    blocked = w.git("commit", "-qam", "human: discount")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def test_a_cursor_workspace_above_the_repository_says_why_nothing_is_recorded(
    native: World,
) -> None:
    """Cursor opened on the folder above the repository, a command that names no repository
    (``echo notes > scratch.txt``): no snapshot can be kept, and both lines say the folder is
    in no git work tree, never that the recorder should be installed again."""
    said = _cursor_above(native, "echo notes > scratch.txt")
    assert said[0].startswith(f"nothing recorded: {native.base} is not in a git work tree, "), said
    assert "what a command changes in a repository below it is not recorded" in said[1], said
    assert "install the recorder again" not in said[1], said


def test_a_write_is_recorded_beside_thousands_of_untracked_paths(native: World) -> None:
    """An agent's unignored ``.venv`` (2448 untracked files, past the hashed bound) does not
    hide a ``sed -i`` the next shell call makes: it is recorded and the commit blocked."""
    w = native
    w.write("src/calc.py", BASE)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base")
    for n in range(2448):
        d = w.work / ".venv" / "lib" / f"pkg{n // 100}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"m{n}.py").write_text(f"X = {n}\n")
    before, after, _ = shell_inputs("codex", w.work, SED)
    pre = w.gh("record", "--from", "codex", input=before, env=PATH)
    assert pre.code == 0 and "kept the work tree before" in pre.err, pre
    subprocess.run(["sh", "-c", SED], cwd=w.work, check=True)
    r = w.gh("record", "--from", "codex", input=after, env=PATH)
    assert r.code == 0 and r.err.startswith("recorded: pending mutation #1: "), r
    assert ".venv" not in r.err, r
    w.ok("add", "src/calc.py")
    blocked = w.git("commit", "-m", "human: tidy")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked


def test_a_claude_code_bash_call_exiting_non_zero_is_recorded_from_its_failure_hook(
    native: World,
) -> None:
    """Refuter r17o H3: Claude Code sends ``PostToolUseFailure`` (``error``: ``Command exited
    with non-zero status code 1``, code.claude.com/docs/en/hooks, "PostToolUseFailure
    input") instead of ``PostToolUse`` when a ``Bash`` command exits non-zero; ``install
    --agent claude-code`` wires it, so ``sed -i ... && false`` is recorded from the command
    it configured, the note says it failed, and the person's commit is blocked."""
    w = native
    w.write("src/calc.py", BASE)
    installed = w.gh("install", "--agent", "claude-code", env=PATH)
    assert installed.code == 0, installed
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: base, wire claude-code")
    command = f"{SED} && false"
    common = {"session_id": "s1", "transcript_path": "", "cwd": str(w.work)}
    call = {"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_f1"}
    pre = {**common, "permission_mode": "default", "hook_event_name": "PreToolUse", **call}
    r = _hook(w, _configured(w, "claude-code", "PreToolUse"), json.dumps(pre).encode())
    assert r.returncode == 0 and b"kept the work tree before" in r.stderr, r
    assert subprocess.run(["sh", "-c", command], cwd=w.work, check=False).returncode == 1
    failure = {
        **common,
        "permission_mode": "default",
        "hook_event_name": "PostToolUseFailure",
        **call,
        "error": "Command exited with non-zero status code 1",
        "is_interrupt": False,
    }
    hook = _configured(w, "claude-code", "PostToolUseFailure")
    r = _hook(w, hook, json.dumps(failure).encode())
    said = r.stderr.decode()
    assert r.returncode == 0 and said.startswith("recorded: pending mutation #1: "), r
    assert "failed (Command exited with non-zero status code 1), but changed 1 file(s)" in said
    blocked = w.git("commit", "-qam", "human: tidy")
    assert blocked.code == 1 and "BLOCKED the staged change" in blocked.said[0], blocked
