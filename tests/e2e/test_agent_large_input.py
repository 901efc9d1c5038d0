"""A post-tool hook input larger than the recorder holds whole still records the writer.

Claude Code's ``Write`` input carries the written file twice (``tool_input.content`` and
``tool_response.content``), so a file of a few megabytes makes an input over
:data:`gentle_hooks.agents.payload.STDIN_LIMIT`. The recorder must still record the path with
its model (the file's text is read from the work tree, not the input), in bounded memory, so
a human-shell commit of that file is gated.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gentle_hooks.agents.payload import STDIN_LIMIT
from tests.agent_payloads import materialize
from tests.e2e.conftest import PREFIX, World
from tests.e2e.test_agent_runtimes import PATH

#: Runs ``argv`` with standard input from a file and prints the peak resident set size
#: (KiB on Linux) of the children it waited for: the recorder alone.
PEAK_RSS = """
import resource, subprocess, sys
with open(sys.argv[1], "rb") as fh:
    r = subprocess.run(sys.argv[2:], stdin=fh, capture_output=True)
sys.stderr.buffer.write(r.stderr)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_rss(cwd: Path, stdin: Path, *args: str) -> tuple[int, int, str]:
    """(exit code, peak resident set size in bytes, stderr) of ``gentle-hook record ARGS``
    run in ``cwd`` with standard input from ``stdin``."""
    argv = [sys.executable, "-c", PEAK_RSS, str(stdin), sys.executable, "-m", "gentle_hooks"]
    proc = subprocess.run(
        [*argv, "record", *args], cwd=cwd, capture_output=True, check=False, timeout=120
    )
    code, peak_kib = (int(x) for x in proc.stdout.split())
    return code, peak_kib * 1024, proc.stderr.decode()


def generated_module(size: int) -> str:
    """Python source of about ``size`` bytes, as a code generator writes it."""
    line = 'VALUE_{:07d} = "generated \\\\ \\"quoted\\" text"  # row {:07d}\n'
    rows = size // len(line.format(0, 0))
    return "".join(line.format(i, i) for i in range(rows))


def test_a_nine_megabyte_write_input_records_its_writer_and_gates(
    native: World, tmp_path: Path
) -> None:
    w = native
    assert w.gh("install", "--agent", "claude-code", env=PATH).code == 0
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "wire claude-code")
    content = generated_module(4_000_000)
    (w.work / "src").mkdir(exist_ok=True)
    (w.work / "src" / "gen.py").write_text(content, encoding="utf-8")
    data, _ = materialize("claude-code", w.work, tmp_path / "runtime")
    event = json.loads(data)
    target = str(w.work / "src" / "gen.py")
    event["tool_input"] = {"file_path": target, "content": content}
    event["tool_response"] = {"type": "create", "filePath": target, "content": content}
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(event), encoding="utf-8")
    size = payload.stat().st_size
    assert size > STDIN_LIMIT  # the case: larger than the input held whole

    code, peak, said = peak_rss(w.work, payload, "--from", "claude-code")
    assert code == 0, said
    assert said.startswith("recorded: pending mutation #1: "), said
    # the same file recorded by hand, in a repository of its own: what recording its content
    # costs, whatever the hook input
    plain = tmp_path / "plain"
    subprocess.run(["git", "init", "-q", str(plain)], check=True)
    subprocess.run(
        ["git", "-C", str(plain), "commit", "-q", "--allow-empty", "-m", "i"], check=True
    )
    (plain / "gen.py").write_text(content, encoding="utf-8")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    code, by_hand, said = peak_rss(plain, empty, "--model", "m", "--effort", "high", "gen.py")
    assert code == 0, said
    # bounded: reading the input adds the 8 MiB held before it is known to be large and the
    # kept text, never a parse of the whole input (several times its size)
    assert peak - by_hand < 24 * 1024 * 1024, (peak, by_hand, size)

    status = w.gh("status", "--json")
    [pending] = json.loads(status.out)["records"]["pending_mutations"]
    assert (pending["model"], pending["effort"], pending["paths"]) == (
        "claude-sonnet-4-5",
        "high",
        ["src/gen.py"],
    )
    assert pending["tool_call_id"] == "toolu_01ABC123"

    w.ok("add", "src/gen.py")
    blocked = w.git("commit", "-m", "add generated module")  # a human shell: no CLAUDECODE
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        f"{PREFIX}BLOCKED the staged change: delegated (writer content "
        "(claude-sonnet-4-5/high) in src/gen.py)"
    )


def test_a_large_codex_patch_still_names_the_file_it_adds(native: World, tmp_path: Path) -> None:
    # Codex names the written paths only in the apply_patch envelope's headers, inside one
    # long string: they are kept when the rest of the string is left out
    w = native
    content = generated_module(8_600_000)
    (w.work / "src").mkdir(exist_ok=True)
    (w.work / "src" / "gen.py").write_text(content, encoding="utf-8")
    data, filled = materialize("codex", w.work, tmp_path / "runtime")
    event = json.loads(data)
    body = "".join(f"+{line}\n" for line in content.splitlines())
    event["tool_input"] = {
        "command": f"*** Begin Patch\n*** Add File: src/gen.py\n{body}*** End Patch\n"
    }
    payload = json.dumps(event).encode()
    assert len(payload) > STDIN_LIMIT
    done = w.gh("record", "--from", "codex", input=payload)
    assert done.code == 0, done
    assert done.err.startswith("recorded: pending mutation #1: "), done
    [pending] = json.loads(w.gh("status", "--json").out)["records"]["pending_mutations"]
    expect = filled["expect"]
    assert (pending["model"], pending["paths"], pending["tool_call_id"]) == (
        expect["model"],
        ["src/gen.py"],
        expect["tool_call_id"],
    )
