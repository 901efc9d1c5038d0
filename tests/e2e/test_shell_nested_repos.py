"""A shell command run from the outer repository that writes into a submodule or a nested
repository (``sed -i ... sub/lib.py``, ``cd sub && ...``) is recorded in that repository, for
its own hooks to gate, as an ``Edit``/``Write`` of the same file is (README "A written path
belongs to the innermost repository"; SPEC §3 "Attribution follows content", §7 "Hooks").
Issue 17, refuter r17s.

The runtimes' documented shell hook pairs: Claude Code's ``PreToolUse``/``PostToolUse`` of
``Bash`` (:mod:`tests.e2e.claude_bash`), and Codex's, Gemini CLI's (``BeforeTool``/``AfterTool``
of ``run_shell_command``), Cursor's and Copilot's (tests/fixtures/agents/shell.json names the
sources). Real git, a real submodule, the real ``gentle-hook record`` run in the outer work
tree, as a runtime starts it in its project:

* a write in the submodule through each runtime: recorded in the submodule's ledger, none in
  the outer one's, the submodule's commit blocked, and the recorder says where it recorded;
* a write in a nested repository (untracked, or ignored by the outer one) through Gemini CLI:
  the same;
* a person's edit in the submodule before a call that writes another file there stays the
  person's (their commit passes with no trailer), the call's file is blocked;
* one command writing the outer work tree and the submodule: each recorded in its own;
* a replayed post-tool input of a submodule write records nothing again;
* a command that names no path in the submodule: nothing is recorded there, and the outer
  repository's line does not say "git status shows the same" when git status shows the
  submodule changed (it names it, and says what is not seen).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.agent_payloads import SHELL_RUNTIMES, shell_inputs
from tests.e2e.claude_bash import bash_input
from tests.e2e.conftest import World

MODEL = {"GENTLE_WRITER_MODEL": "claude-sonnet-4-5", "GENTLE_WRITER_EFFORT": "low"}
LIB = "L = 1\n"
HUMAN = "\n\ndef human_lib_formatter(rows):\n    return format_lib_rows(rows)\n"
SED_SUB = "sed -i 's/L = 1/L = 3/' sub/lib.py"
CD_SUB = "cd sub && sed -i 's/L = 1/L = 3/' lib.py"
SAME = "(git status shows the same)"


def _ledger(common: Path) -> list[tuple[object, ...]]:
    """``(tool_call_id, paths)`` of each pending mutation in the ledger of the repository
    whose git common directory is ``common`` (none when it has no ledger)."""
    db = common / "gentle-hooks" / "ledger.sqlite3"
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        return list(conn.execute("SELECT tool_call_id, paths FROM pending_mutation"))
    finally:
        conn.close()


def _common(w: World, where: Path) -> Path:
    out = w.ok("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=where)
    return Path(out.strip())


@pytest.fixture
def sub(native: World) -> Path:
    """``native``'s work tree with a submodule ``sub`` (``lib.py``: ``L = 1``), committed,
    gentle-hooks installed in it too."""
    w = native
    lib = w.base / "lib-src"
    lib.mkdir()
    w.ok("init", "-q", cwd=lib)
    w.write("lib.py", LIB, cwd=lib)
    w.ok("add", "-A", cwd=lib)
    w.ok("commit", "-qm", "human: lib", cwd=lib)
    w.ok("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "sub")
    w.ok("commit", "-qm", "human: sub")
    inner = w.work / "sub"
    assert (inner / ".git").is_file()
    r = w.gh("install", cwd=inner)
    assert r.code == 0, r
    return inner


def _record(w: World, name: str, data: bytes) -> str:
    """``record --from name`` run in the outer work tree; its stderr."""
    r = w.gh("record", "--from", name, input=data, env=MODEL)
    assert r.code == 0, r
    return r.err


def _shell(w: World, name: str, command: str, call: str = "toolu_M2") -> tuple[str, str]:
    """Runtime ``name``'s shell call of ``command`` from the outer work tree: its pre-tool
    hook, the command run there, its post-tool hook; what each hook said."""
    if name == "claude-code":
        pre = bash_input("PreToolUse", command, w.work, call)
        post = bash_input("PostToolUse", command, w.work, call)
    else:
        pre, post, _ = shell_inputs(name, w.work, command)
    before = _record(w, name, pre)
    subprocess.run(["sh", "-c", command], cwd=w.work, check=True)
    return before, _record(w, name, post)


def _blocked(w: World, where: Path, *paths: str) -> None:
    w.ok("add", "--", *paths, cwd=where)
    r = w.git("commit", "-qm", "lib 3", cwd=where)
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r


def _passes(w: World, where: Path, *paths: str) -> None:
    w.ok("add", "--", *paths, cwd=where)
    r = w.git("commit", "-qm", "human: lib formatter", cwd=where)
    assert r.code == 0, r
    assert "Gentle-Writer" not in w.ok("log", "-1", "--format=%B", cwd=where)


@pytest.mark.parametrize("command", [SED_SUB, CD_SUB], ids=["path", "cd"])
@pytest.mark.parametrize("name", ["claude-code", *SHELL_RUNTIMES])
def test_a_shell_write_in_a_submodule_is_recorded_there(
    native: World, sub: Path, name: str, command: str
) -> None:
    w = native
    before, after = _shell(w, name, command)
    assert "kept the work tree before" in before, before
    assert f"in the repository {sub}" in before, before
    assert "recorded: pending mutation #1" in after, after
    assert f"recorded in the repository {sub}" in after, after
    assert SAME not in after, after
    [(_, paths)] = _ledger(_common(w, sub))
    assert json.loads(str(paths)) == ["lib.py"]
    assert _ledger(_common(w, w.work)) == []
    assert (sub / "lib.py").read_text(encoding="utf-8") == "L = 3\n"
    _blocked(w, sub, "lib.py")


@pytest.mark.parametrize("ignored", [False, True], ids=["untracked", "ignored"])
def test_a_gemini_shell_write_in_a_nested_repository_is_recorded_there(
    native: World, ignored: bool
) -> None:
    w = native
    if ignored:
        w.write(".gitignore", "nested/\n")
        w.ok("add", ".gitignore")
        w.ok("commit", "-qm", "human: ignore nested")
    nested = w.work / "nested"
    nested.mkdir()
    w.ok("init", "-q", cwd=nested)
    w.write("n.py", "N = 1\n", cwd=nested)
    w.ok("add", "-A", cwd=nested)
    w.ok("commit", "-qm", "human: n", cwd=nested)
    assert w.gh("install", cwd=nested).code == 0
    _, after = _shell(w, "gemini-cli", "sed -i 's/N = 1/N = 2/' nested/n.py")
    assert "recorded: pending mutation #1" in after, after
    assert f"recorded in the repository {nested}" in after, after
    [(_, paths)] = _ledger(nested / ".git")
    assert json.loads(str(paths)) == ["n.py"]
    assert _ledger(_common(w, w.work)) == []
    _blocked(w, nested, "n.py")


def test_a_persons_edit_in_the_submodule_before_the_call_stays_theirs(
    native: World, sub: Path
) -> None:
    w = native
    w.write("lib.py", LIB + HUMAN, cwd=sub)  # the person's unsaved edit, before the call
    _, after = _shell(w, "claude-code", "printf 'G = 1\\n' > sub/gen.py")
    assert "recorded: pending mutation #1" in after, after
    [(_, paths)] = _ledger(_common(w, sub))
    assert json.loads(str(paths)) == ["gen.py"]
    _passes(w, sub, "lib.py")
    _blocked(w, sub, "gen.py")


BUMP = "sed -i 's/L = 1/L = 3/' sub/lib.py\n"


@pytest.mark.parametrize("command", ["git status --short", "sh tools/bump.sh"])
def test_a_command_naming_no_submodule_path_says_the_submodule_changed(
    native: World, sub: Path, command: str
) -> None:
    w = native
    w.write("tools/bump.sh", BUMP)  # a script that writes into the submodule by itself
    w.ok("add", "--", "tools/bump.sh")
    w.ok("commit", "-qm", "human: bump script")
    person = command.startswith("git")
    if person:
        w.write("lib.py", LIB + HUMAN, cwd=sub)  # the person's edit, before the call
    _, after = _shell(w, "claude-code", command)
    assert "recorded: pending mutation" not in after, after
    assert SAME not in after, after
    assert "git status shows changes in the submodule(s) sub" in after, after
    assert "what changes in one the command does not name (a script" in after, after
    assert _ledger(_common(w, sub)) == []
    if person:
        _passes(w, sub, "lib.py")


def test_one_command_writing_both_repositories_records_in_each(native: World, sub: Path) -> None:
    """``sed -i`` of a file of the outer work tree and of the submodule in one call: each
    write is recorded in its own repository's ledger, and both commits are blocked."""
    w = native
    command = f"sed -i 's/return a + b/return a - b/' src/app.py && {SED_SUB}"
    _, after = _shell(w, "claude-code", command)
    assert "recorded: pending mutation #1" in after, after
    assert f"recorded in the repository {sub}" in after, after
    [(_, inner)] = _ledger(_common(w, sub))
    [(_, outer)] = _ledger(_common(w, w.work))
    assert (json.loads(str(inner)), json.loads(str(outer))) == (["lib.py"], ["src/app.py"])
    _blocked(w, sub, "lib.py")
    _blocked(w, w.work, "src/app.py")


def test_a_replayed_post_tool_input_records_the_submodule_write_once(
    native: World, sub: Path
) -> None:
    w = native
    _shell(w, "claude-code", SED_SUB)
    again = _record(w, "claude-code", bash_input("PostToolUse", SED_SUB, w.work, "toolu_M2"))
    assert "recorded: pending mutation" not in again, again
    assert "was read already" in again, again
    assert len(_ledger(_common(w, sub))) == 1
