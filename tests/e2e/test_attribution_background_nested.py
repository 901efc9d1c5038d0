"""A background shell call that writes into another repository than the session's keeps its
window there: a submodule or a nested repository its command names, or the repository below
a session opened above it (SPEC §3 "Attribution follows content", §7 "Hooks";
docs/agents/claude-code.md, "A command that runs in the background"). Issue 17, refuter r17u
(HIGH): ``(sleep 1; printf "L = 3\\n" > libs/bglib3.py) &`` from the repository's top said
"its window stays open", but no window file was kept in the submodule, and the commit of the
process's write there passed; from above the repository the call was not even taken for a
background one.

Claude Code's documented ``PreToolUse``/``PostToolUse`` of ``Bash`` and ``Stop``
(:mod:`tests.e2e.claude_bash`, tests/e2e/test_attribution_background.py), Codex's
(``codex-rs/hooks/schema/generated/``: tests/e2e/test_attribution_parent_cwd.py,
:func:`tests.agent_payloads.codex_stop`) and Gemini CLI's (``BeforeTool``/``AfterTool`` of
``run_shell_command``, ``AfterAgent``), each hook run in the session's directory as the
runtime starts it. Real git, a real submodule, a real process left running that waits for a
flag the test makes once the post-tool hook returned (so it always writes after it):

* written into the submodule, a nested repository, or (the session above) the repository:
  its window is kept in that repository, the write is recorded in that repository's ledger
  at the session's next hook event, none in the outer one's, and the commit there is
  blocked;
* the process still runs at ``Stop`` (its directory is the session's: ``/proc``), with a
  grace: written within it, the submodule's commit gate settles the window and blocks;
  a person's edit in the submodule after the grace stays theirs (the commit passes, no
  trailer, the window closed).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.agent_payloads import codex_stop
from tests.e2e.claude_bash import bash_input
from tests.e2e.conftest import World
from tests.e2e.test_attribution_background import (  # noqa: F401 (_groups: autouse teardown)
    _groups,
    _release,
    _start,
)
from tests.e2e.test_attribution_parent_cwd import _codex_bash
from tests.e2e.test_shell_nested_repos import HUMAN, LIB, _common, _ledger
from tests.e2e.test_shell_nested_repos import sub as sub  # the fixture

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc tells (Linux)")

MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
RUNTIMES = ["claude-code", "codex"]
WINDOWS = Path("gentle-hooks") / "shell" / "windows"
#: The grace the Stop hook is given (seconds).
GRACE = 2


def _input(runtime: str, event: str, command: str, cwd: Path, call: str) -> bytes:
    if runtime == "gemini-cli":
        return _gemini("BeforeTool" if event == "PreToolUse" else "AfterTool", command, cwd)
    build = bash_input if runtime == "claude-code" else _codex_bash
    return build(event, command, cwd, call)


def _gemini(event: str, command: str, cwd: Path) -> bytes:
    """Gemini CLI's ``BeforeTool``/``AfterTool`` of ``run_shell_command``, or its
    ``AfterAgent`` (google-gemini/gemini-cli ``docs/hooks/reference.md``, as
    tests/e2e/test_attribution_background.py drives them)."""
    data: dict[str, object] = {
        "session_id": "g1",
        "transcript_path": "",
        "cwd": str(cwd),
        "hook_event_name": event,
        "timestamp": f"2026-01-01T00:00:0{len(event)}Z",
    }
    if event == "AfterAgent":
        data |= {"prompt": "tidy up", "prompt_response": "done", "stop_hook_active": False}
        return json.dumps(data).encode()
    data |= {"tool_name": "run_shell_command", "tool_input": {"command": command}}
    if event == "AfterTool":
        data["tool_response"] = {"llmContent": "", "returnDisplay": ""}
    return json.dumps(data).encode()


def _stop_input(runtime: str, cwd: Path) -> bytes:
    if runtime == "gemini-cli":
        return _gemini("AfterAgent", "", cwd)
    if runtime == "codex":
        return json.dumps(codex_stop(None, cwd)).encode()
    stop = {
        "session_id": "s1",
        "transcript_path": "",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    return json.dumps(stop).encode()


def _hook(w: World, runtime: str, data: bytes, cwd: Path, **env: str) -> str:
    r = w.gh("record", "--from", runtime, input=data, env={**MODEL, **env}, cwd=cwd)
    assert r.code == 0, r
    return r.err


def _background(w: World, runtime: str, cwd: Path, target: str, flag: Path) -> str:
    """The session's Bash call (``toolu_bg``), run in ``cwd``, of ``( gated write of L = 3
    into target ) &``: its PreToolUse, the command, its PostToolUse; what that said."""
    gated = f"while [ ! -e '{flag}' ]; do sleep 0.05; done"
    command = f"( {gated}; printf 'L = 3\\n' > {target}; touch '{flag}.done' ) >/dev/null 2>&1 &"
    _hook(w, runtime, _input(runtime, "PreToolUse", command, cwd, "toolu_bg"), cwd)
    _start(command, cwd, wait=True)
    time.sleep(0.1)  # the post-tool event comes after the call returned
    return _hook(w, runtime, _input(runtime, "PostToolUse", command, cwd, "toolu_bg"), cwd)


def _next(w: World, runtime: str, cwd: Path, call: str = "toolu_2") -> str:
    """A later ``ls`` call of the session: what its PreToolUse and PostToolUse said."""
    before = _hook(w, runtime, _input(runtime, "PreToolUse", "ls", cwd, call), cwd)
    return before + _hook(w, runtime, _input(runtime, "PostToolUse", "ls", cwd, call), cwd)


def _nested(w: World) -> Path:
    """An untracked nested repository ``inner`` of the work tree (``lib.py``: ``L = 1``),
    gentle-hooks installed in it."""
    inner = w.work / "inner"
    inner.mkdir()
    w.ok("init", "-q", cwd=inner)
    w.write("lib.py", LIB, cwd=inner)
    w.ok("add", "-A", cwd=inner)
    w.ok("commit", "-qm", "human: lib", cwd=inner)
    assert w.gh("install", cwd=inner).code == 0
    return inner


@pytest.mark.parametrize("where", ["submodule", "nested", "above"])
@pytest.mark.parametrize("runtime", [*RUNTIMES, "gemini-cli"])
def test_a_background_write_into_another_repository_is_recorded_there(
    native: World, tmp_path: Path, request: pytest.FixtureRequest, runtime: str, where: str
) -> None:
    w = native
    flag = tmp_path / "go"
    if where == "submodule":
        repo, cwd = request.getfixturevalue("sub"), w.work
    elif where == "nested":
        repo, cwd = _nested(w), w.work
    else:
        w.write("lib.py", LIB)
        w.ok("add", "--", "lib.py")
        w.ok("commit", "-qm", "human: lib")
        repo, cwd = w.work, w.base
    target = os.path.relpath(repo / "lib.py", cwd)
    said = _background(w, runtime, cwd, target, flag)
    assert "its window stays open" in said, said
    assert list((_common(w, repo) / WINDOWS).glob("*.json")), said
    # the session's later events find that repository through the session's links file
    links = Path(os.environ["XDG_STATE_HOME"]) / "gentle-hooks" / "windows"
    if where != "above":
        links = _common(w, w.work) / WINDOWS
    assert len(list(links.glob("*.links"))) == 1
    _release(flag)
    said = _next(w, runtime, cwd)
    assert "recorded: pending mutation #1" in said, said
    [(call, paths)] = _ledger(_common(w, repo))
    assert (str(call).endswith("@bg1"), json.loads(str(paths))) == (True, ["lib.py"])
    if repo != w.work:
        assert _ledger(_common(w, w.work)) == []
    said = _hook(w, runtime, _stop_input(runtime, cwd), cwd)
    windows = 1 if where == "above" else 2  # one in each repository the call's compare kept
    assert f"ended: {windows} background call window(s) closed; what changes" in said, said
    assert not list((_common(w, repo) / WINDOWS).glob("*.json"))
    assert not list(links.glob("*.links"))  # no window left there: the link dropped
    w.ok("add", "--", "lib.py", cwd=repo)
    r = w.git("commit", "-qm", "lib 3", cwd=repo)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_write_within_the_grace_is_settled_by_the_submodules_commit_gate(
    native: World, sub: Path, tmp_path: Path, runtime: str
) -> None:
    w = native
    flag = tmp_path / "go"
    _background(w, runtime, w.work, "sub/lib.py", flag)
    said = _hook(w, runtime, _stop_input(runtime, w.work), w.work, **_grace())
    assert "ended: 2 background call window(s) kept open past it; " in said, said
    assert f"its window stays open past the end of the turn for {GRACE} s" in said, said
    assert "what changes from now on is not recorded" not in said, said
    _release(flag)  # the process writes after the Stop, within the grace
    w.ok("add", "--", "lib.py", cwd=sub)
    r = w.git("commit", "-qm", "lib 3", cwd=sub)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_persons_edit_in_the_submodule_after_the_grace_stays_theirs(
    native: World, sub: Path, tmp_path: Path, runtime: str
) -> None:
    w = native
    _background(w, runtime, w.work, "sub/lib.py", tmp_path / "go")
    said = _hook(w, runtime, _stop_input(runtime, w.work), w.work, **_grace())
    assert "ended: 2 background call window(s) kept open past it; " in said, said
    time.sleep(GRACE + 0.5)
    w.write("lib.py", LIB + HUMAN, cwd=sub)  # the process still runs
    said = _next(w, runtime, w.work)
    assert "recorded: pending mutation" not in said, said
    assert not list((_common(w, sub) / WINDOWS).glob("*.json"))  # closed: its grace is over
    assert _ledger(_common(w, sub)) == []
    w.ok("add", "--", "lib.py", cwd=sub)
    r = w.git("commit", "-qm", "human: lib formatter", cwd=sub)
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=sub)


def _grace() -> dict[str, str]:
    return {"GENTLE_HOOKS_BACKGROUND_GRACE": str(GRACE)}
