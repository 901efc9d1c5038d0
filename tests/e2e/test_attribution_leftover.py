"""Issue 17 (refuter r17q): a process a shell call leaves behind, seen in ``/proc`` rather
than in the command's words (SPEC §7 "Hooks"; docs/agents/claude-code.md, "A command that
runs in the background"; :mod:`gentle_hooks.services.agent_leftover`).

Real git, Claude Code's documented ``Bash`` inputs, and a real process left running by a
form the command-text reader does not read (a process substitution, a script piped to
``bash``, ``flock ... sh -c``, ``find -exec sh -c``), released by a flag file once the
post-tool hook returned (as :mod:`tests.e2e.test_attribution_background` does): its write is
recorded at the session's next hook event. A person's own long-running process in the work
tree, started before the call, opens no window.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (
    BASE,
    GROUPS,
    HUMAN,
    OTHER,
    PATH,
    SED,
    _claude,
    _hook,
    _next_call,
    _release,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _gated(flag: Path) -> str:
    """A write that waits for ``flag`` (at most 60 s: it must end by itself)."""
    return (
        f"i=0; while [ ! -e '{flag}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; "
        f"{SED}; touch '{flag}.done'"
    )


def _forms(flag: Path) -> dict[str, str]:
    gated = _gated(flag)
    amp = f"({gated}) >/dev/null 2>&1 &"
    return {
        "procsub": f": <(exec >/dev/null 2>&1; {gated})",
        "pipe-to-bash": f"echo {shlex.quote(amp)} | bash",
        "flock": f"flock {flag}.lock sh -c {shlex.quote(amp)}",
        "find-exec": f"find . -maxdepth 0 -exec sh -c {shlex.quote(amp)} \\;",
    }


def _run(command: str, cwd: Path) -> None:
    """Run ``command`` with bash to its end, in a session of its own (killed at teardown)."""
    proc = subprocess.Popen(["bash", "-c", command], cwd=cwd, start_new_session=True)
    GROUPS.append(proc.pid)
    assert proc.wait() == 0


@pytest.fixture
def based(native: World) -> World:
    native.write(PATH, BASE)
    native.write(OTHER, "OTHER = 2\n")
    native.ok("add", "--", PATH, OTHER)
    native.ok("commit", "-qm", "human: base")
    return native


@pytest.mark.parametrize("form", ["procsub", "pipe-to-bash", "flock", "find-exec"])
def test_a_process_left_behind_opens_a_window(based: World, tmp_path: Path, form: str) -> None:
    w = based
    flag = tmp_path / "go"
    command = _forms(flag)[form]
    _hook(w, _claude(w, "PreToolUse", command, "toolu_bg"))
    _run(command, w.work)
    said = _hook(w, _claude(w, "PostToolUse", command, "toolu_bg"))
    assert "seen in /proc" in said and "its window stays open" in said, said
    _release(flag)
    before, _ = _next_call(w)
    assert "recorded: pending mutation #1" in before, before
    assert "left a process running" in before, before
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "human: tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.said[0], r


def test_a_persons_process_started_before_the_call_opens_no_window(
    based: World, tmp_path: Path
) -> None:
    """A person's long-running process in the work tree (a watcher), started before the call:
    the call is a foreground one, and the person's edit after it stays theirs."""
    w = based
    person = subprocess.Popen(
        ["sh", "-c", f"exec 3<{PATH}; sleep 60"], cwd=w.work, start_new_session=True
    )
    GROUPS.append(person.pid)
    time.sleep(0.1)  # started well before the call's snapshot (a clock tick is 10 ms)
    command = SED
    _hook(w, _claude(w, "PreToolUse", command, "toolu_fg"))
    _run(command, w.work)
    said = _hook(w, _claude(w, "PostToolUse", command, "toolu_fg"))
    assert "recorded: pending mutation #1" in said, said
    assert "window" not in said and "/proc" not in said, said
    w.write(OTHER, "OTHER = 2\n" + HUMAN)
    before, after = _next_call(w)
    assert "recorded: pending mutation" not in before + after, (before, after)
    w.ok("add", "--", OTHER)
    r = w.git("commit", "-qm", "human: formatter")
    assert r.code == 0, r
    assert person.poll() is None
