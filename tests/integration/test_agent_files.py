"""The runtimes whose hook is a file of ours (SPEC §7 "Hooks"): Cline's executable
``PostToolUse`` hook file and OpenCode's plugin module. ``install --agent`` writes the file
(never over the user's own), ``uninstall --agent`` removes only ours as written, and
``doctor`` says whether it is wired and can run; real repositories, the real CLI."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents import ownfile, wiring
from gentle_hooks.agents.runtimes import runtime
from tests.conftest import gh

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
WITHOUT_GH = {"PATH": f"/usr/bin{os.pathsep}/bin"}
FILES = ("cline", "opencode", "pi", "kiro", "amp")
COMMAND = "gentle-hook record --from {}"


def project(name: str) -> str:
    w = runtime(name).wiring
    assert w is not None
    return w.project


def doctor(repo: Path, env: dict[str, str]) -> tuple[int, dict[str, tuple[bool, str]]]:
    proc = gh(repo, "doctor", "--json", env=env)
    checks = json.loads(proc.stdout)["checks"]
    return proc.returncode, {c["name"]: (c["ok"], c["detail"]) for c in checks}


def line(name: str, scope: str, what: str, path: Path, command: str | None = None) -> str:
    hooks = wiring.hooks_phrase(runtime(name).wiring)  # type: ignore[arg-type]
    running = command or COMMAND.format(name)
    return f"{name} ({scope}): {what}: {hooks} running '{running}' in {path}"


@pytest.mark.parametrize("name", FILES)
def test_install_writes_our_file_once_and_uninstall_removes_it_and_its_folders(
    name: str, repo: Path
) -> None:
    path = repo / project(name)
    first = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0] == line(name, "project", "added", path)
    assert path.read_text() == ownfile.render(name, COMMAND.format(name))
    executable = bool(path.stat().st_mode & stat.S_IXUSR)
    assert executable is (name == "cline")  # Cline runs the file; OpenCode imports it
    again = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert again.stdout.splitlines()[0] == line(name, "project", "unchanged", path)
    out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert out.stdout == f"{name} (project): removed the file: {path}\n"
    top = repo / project(name).split("/", 1)[0]
    assert not top.exists()  # install created .clinerules/hooks (.opencode/plugins): gone
    nothing = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert nothing.stdout == f"{name} (project): nothing to remove: {path}\n"


def test_uninstall_keeps_the_empty_folders_the_user_made_before_install(repo: Path) -> None:
    """``.claude/`` and ``.kiro/hooks/`` made by the user (empty) survive install and
    uninstall of both runtimes; ``.clinerules/`` and ``.clinerules/hooks/``, which install
    made, are removed (only folders install created are)."""
    (repo / ".claude").mkdir()
    (repo / ".kiro" / "hooks").mkdir(parents=True)
    names = ("claude-code", "kiro", "cline")
    for name in names:
        assert gh(repo, "install", "--agent", name, env=WITH_GH).returncode == 0
    for name in names:
        out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
        assert out.returncode == 0, out.stderr
    assert (repo / ".claude").is_dir() and not any((repo / ".claude").iterdir())
    assert (repo / ".kiro" / "hooks").is_dir() and not any((repo / ".kiro" / "hooks").iterdir())
    assert not (repo / ".clinerules").exists()


@pytest.mark.parametrize("name", FILES)
def test_uninstall_keeps_the_folder_when_it_holds_the_users_files(name: str, repo: Path) -> None:
    path = repo / project(name)
    path.parent.mkdir(parents=True)
    mine = path.parent / "TaskStart"
    mine.write_text("#!/bin/sh\necho '{\"cancel\":false}'\n")
    assert gh(repo, "install", "--agent", name, env=WITH_GH).returncode == 0
    assert gh(repo, "uninstall", "--agent", name).returncode == 0
    assert not path.exists() and mine.read_text().startswith("#!/bin/sh")


@pytest.mark.parametrize("name", FILES)
def test_the_users_own_file_of_that_name_is_never_written(name: str, repo: Path) -> None:
    path = repo / project(name)
    path.parent.mkdir(parents=True)
    theirs = "#!/bin/sh\ninput=$(cat)\necho '{\"cancel\":false}'\n"
    path.write_text(theirs)
    refused = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert refused.returncode == 2, refused
    [said] = refused.stderr.splitlines()
    assert f"{path}: a hook file of yours is there; nothing was changed: " in said
    if name == "cline":  # the line to add, runnable as printed inside their script
        assert said.endswith("printf '%s' \"$input\" | gentle-hook record --from cline >&2"), said
    assert path.read_text() == theirs
    out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert out.stdout == f"{name} (project): nothing to remove: {path}\n"
    assert path.read_text() == theirs


def test_a_cline_hook_of_the_users_that_runs_the_recorder_counts_as_wired(repo: Path) -> None:
    """The line install prints, added to the user's own script, records: it is wired,
    install leaves it, doctor checks it, uninstall leaves it."""
    path = repo / project("cline")
    path.parent.mkdir(parents=True)
    path.write_text(
        "#!/bin/sh\ninput=$(cat)\n"
        "printf '%s' \"$input\" | gentle-hook record --from cline >&2\n"
        "echo '{\"cancel\":false}'\n"
    )
    path.chmod(0o755)
    before = path.read_text()
    out = gh(repo, "install", "--agent", "cline", env=WITH_GH)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:2] == [
        line("cline", "project", "unchanged", path, "gentle-hook record --from cline >&2"),
        "note: your own hook file runs the recorder ('gentle-hook record --from cline >&2'); "
        "it is left as it is",
    ]
    checks = doctor(repo, WITH_GH)[1]
    assert checks["agent: cline"] == (
        True,
        f"recorder wired: {path} (project) -> {os.path.join(BIN, 'gentle-hook')}",
    )
    gone = gh(repo, "uninstall", "--agent", "cline", "--scope", "project")
    assert "left in place (your own hook file: remove the recorder line by hand)" in gone.stdout
    assert path.read_text() == before


@pytest.mark.parametrize("name", FILES)
def test_our_file_edited_since_is_neither_rewritten_nor_removed(name: str, repo: Path) -> None:
    path = repo / project(name)
    assert gh(repo, "install", "--agent", name, env=WITH_GH).returncode == 0
    if name == "kiro":  # JSON: an edit that keeps it JSON and our hook in it
        edited = path.read_text().replace('"timeout": 30', '"timeout": 60')
    else:
        edited = path.read_text() + "\n// mine\n"
    path.write_text(edited)
    refused = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert refused.returncode == 2
    assert "our recorder file was edited since it was installed; nothing was changed" in (
        refused.stderr
    )
    out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert "left in place (edited since it was installed: remove it by hand)" in out.stdout
    assert path.read_text() == edited


@pytest.mark.parametrize("name", FILES)
def test_doctor_reports_our_file_wired_and_reachable(name: str, repo: Path) -> None:
    path = repo / project(name)
    assert gh(repo, "install", "--agent", name, env=WITH_GH).returncode == 0
    code, checks = doctor(repo, WITH_GH)
    assert code == 0
    assert checks[f"agent: {name}"] == (
        True,
        f"recorder wired: {path} (project) -> {os.path.join(BIN, 'gentle-hook')}",
    )
    code, checks = doctor(repo, WITHOUT_GH)  # the gentle-hook it runs is not found
    assert code == 2
    assert checks[f"agent: {name}"] == (
        False,
        f"wired in {path} (project), but 'gentle-hook record --from {name}' cannot run: its "
        # printed runnable from here: the gentle-hook doctor itself ran
        f"gentle-hook is not found; install the recorder again; run: "
        f"{os.path.join(BIN, 'gentle-hook')} install --agent {name}",
    )


def test_doctor_fails_a_cline_hook_that_is_not_executable_and_install_fixes_it(
    repo: Path,
) -> None:
    path = repo / project("cline")
    assert gh(repo, "install", "--agent", "cline", env=WITH_GH).returncode == 0
    path.chmod(0o644)
    code, checks = doctor(repo, WITH_GH)
    assert code == 2
    ok, detail = checks["agent: cline"]
    assert not ok and detail.startswith(
        f"wired in {path} (project), but {path} is not executable: the runtime does not run it"
    )
    fix = detail.rsplit("run: ", 1)[1]
    assert fix == "gentle-hook install --agent cline"
    fixed = subprocess.run(
        fix.split(), cwd=repo, capture_output=True, text=True, env={**os.environ, **WITH_GH}
    )
    assert fixed.returncode == 0, fixed.stderr
    assert "note: it was not executable: it is now" in fixed.stdout
    assert os.access(path, os.X_OK) and doctor(repo, WITH_GH)[1]["agent: cline"][0] is True


@pytest.mark.parametrize(
    ("name", "marker"),
    [
        ("cline", ".clinerules"),
        ("opencode", ".opencode"),
        ("pi", ".pi"),
        ("kiro", ".kiro"),
        ("amp", ".amp"),
    ],
)
def test_doctor_reports_a_runtime_found_but_not_wired(name: str, marker: str, repo: Path) -> None:
    (repo / marker).mkdir()
    code, checks = doctor(repo, WITH_GH)
    assert code == 0
    assert checks[f"agent: {name}"] == (
        True,
        f"found ({repo / marker}) but not wired to record; run: gentle-hook install --agent {name}",
    )


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("cline", ("Documents", "Cline", "Hooks", "PostToolUse")),
        ("opencode", (".config", "opencode", "plugins", "gentle-hooks.js")),
        ("pi", (".pi", "agent", "extensions", "gentle-hooks.ts")),
        # Kiro CLI 3's global hooks folder (kiro.dev/changelog/cli/2-13/, "Global Hooks")
        ("kiro", (".kiro", "hooks", "gentle-hooks.json")),
        # ampcode.com/manual/plugin-api: "~/.config/amp/plugins/ (system)"
        ("amp", (".config", "amp", "plugins", "gentle-hooks.ts")),
    ],
)
def test_user_scope_writes_the_documented_global_file(
    name: str, where: tuple[str, ...], repo: Path, isolated_git: Path
) -> None:
    out = gh(repo, "install", "--agent", name, "--scope", "user", env=WITH_GH)
    assert out.returncode == 0, out.stderr
    path = isolated_git.joinpath(*where)
    assert path.is_file() and ownfile.owned_command(path.read_text(), name) is not None
    assert gh(repo, "uninstall", "--agent", name, "--scope", "user").returncode == 0
    assert not path.exists()


def test_doctor_fails_a_former_pi_extension_and_install_brings_it_current(repo: Path) -> None:
    """Pi's extension of an earlier install hands over tool_result alone: what its bash tool
    changes is not recorded. doctor says so; install rewrites it to the current text."""
    path = repo / project("pi")
    path.parent.mkdir(parents=True)
    path.write_text(ownfile.pi_extension(COMMAND.format("pi"), shell=False))
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: pi"]
    assert code == 2 and not ok
    assert detail == (
        f"wired in {path} (project), but {path} is a former gentle-hooks text with no "
        "tool_call handler: what a shell command changes is not recorded; install the "
        "recorder again; run: gentle-hook install --agent pi"
    )
    again = gh(repo, "install", "--agent", "pi", env=WITH_GH)
    assert again.stdout.splitlines()[:2] == [
        line("pi", "project", "updated", path),
        "note: it was the text of a former gentle-hooks: it is now the current one",
    ]
    assert path.read_text() == ownfile.render("pi", COMMAND.format("pi"))
    assert doctor(repo, WITH_GH)[1]["agent: pi"][0]


@pytest.mark.parametrize("subagents", [True, False], ids=["with-subagents", "first"])
def test_doctor_fails_a_former_opencode_plugin_and_install_brings_it_current(
    subagents: bool, repo: Path
) -> None:
    """OpenCode's plugin of an earlier install hands over tool.execute.after alone: what its
    bash tool changes is not recorded. doctor says so; install rewrites it to the current
    text."""
    path = repo / project("opencode")
    path.parent.mkdir(parents=True)
    command = COMMAND.format("opencode")
    path.write_text(ownfile.opencode_plugin(command, subagents=subagents, shell=False))
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: opencode"]
    assert code == 2 and not ok
    assert detail == (
        f"wired in {path} (project), but {path} is a former gentle-hooks text with no "
        "bash snapshot: what a shell command changes is not recorded; install the "
        "recorder again; run: gentle-hook install --agent opencode"
    )
    again = gh(repo, "install", "--agent", "opencode", env=WITH_GH)
    assert again.stdout.splitlines()[:2] == [
        line("opencode", "project", "updated", path),
        "note: it was the text of a former gentle-hooks: it is now the current one",
    ]
    assert path.read_text() == ownfile.render("opencode", command)
    assert doctor(repo, WITH_GH)[1]["agent: opencode"][0]


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
@pytest.mark.parametrize("name", ["opencode", "pi", "amp"])
def test_our_plugin_module_is_one_node_parses(name: str, tmp_path: Path) -> None:
    module = tmp_path / "gentle-hooks.mjs"  # node reads .js outside a module package as CJS
    module.write_text(ownfile.render(name, f"'/opt/my tools/gentle-hook' record --from {name}"))
    done = subprocess.run(["node", "--check", str(module)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("stdin", "env", "said"),
    [
        ("not json", WITH_GH, "record --from cline: stdin"),
        ("{}", WITHOUT_GH, "gentle-hook"),  # the recorder is not found
    ],
    ids=["bad-input", "no-gentle-hook"],
)
def test_a_cline_hook_whose_recorder_fails_never_blocks_cline(
    stdin: str, env: dict[str, str], said: str, repo: Path
) -> None:
    """Cline blocks the task on a non-zero exit or invalid JSON on standard output: our
    hook file ends with exit 0 and ``{"cancel":false}`` whatever the recorder did, its
    complaint on standard error."""
    assert gh(repo, "install", "--agent", "cline", env=WITH_GH).returncode == 0
    hook = repo / project("cline")
    done = subprocess.run(
        [str(hook)], cwd=repo, input=stdin, capture_output=True, text=True, env=env, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, '{"cancel":false}\n')
    assert said in done.stderr


#: Calls our OpenCode plugin's hooks as OpenCode does (``@opencode-ai/plugin`` ``Hooks``):
#: the next to last argument is the module, the last a JSON list of ``[hook, input,
#: output]``; the plugin's directory is the working directory.
DRIVER = """
import { pathToFileURL } from "node:url"
const [plugin, raw] = process.argv.slice(-2)
const mod = await import(pathToFileURL(plugin).href)
const hooks = await mod.GentleHooksRecorder({ directory: process.cwd(), worktree: process.cwd() })
for (const [name, input, output] of JSON.parse(raw)) await hooks[name](input, output)
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_opencode_plugin_hands_each_session_its_own_model(tmp_path: Path) -> None:
    """A subagent's session (``task``) gets its own ``chat.*`` calls: a call in a session
    the plugin saw no model for carries none (unknown, so small), never the parent's; a
    ``chat.params`` whose model has no ``id`` keeps the one ``chat.message`` named."""
    out = tmp_path / "calls.jsonl"
    module = tmp_path / "gentle-hooks.mjs"
    module.write_text(ownfile.render("opencode", f"cat >> '{out}'; echo >> '{out}'"))
    after = {"title": "", "output": "", "metadata": {}}
    child = {"id": "child", "parentID": "parent", "title": "look (@explore subagent)"}
    calls = [
        [
            "chat.message",
            {"sessionID": "parent", "model": {"providerID": "anthropic", "modelID": "claude-x"}},
            {"message": {}, "parts": []},
        ],
        [
            "chat.params",
            {"sessionID": "parent", "agent": "build", "model": {}, "provider": {}, "message": {}},
            {"temperature": 0, "topP": 1, "options": {"reasoningEffort": "low"}},
        ],
        [
            "tool.execute.before",
            {"tool": "write", "sessionID": "parent", "callID": "c1"},
            {"args": {"filePath": "/w/a.py", "content": "x"}},
        ],
        ["tool.execute.after", {"tool": "write", "sessionID": "parent", "callID": "c1"}, after],
        # the task tool creates the subagent's session with the caller's as its parent
        ["event", {"event": {"type": "session.created", "properties": {"info": child}}}, None],
        ["chat.message", {"sessionID": "child", "agent": "explore"}, {"message": {}, "parts": []}],
        [
            "tool.execute.before",
            {"tool": "edit", "sessionID": "child", "callID": "c2"},
            {"args": {"filePath": "/w/b.py", "oldString": "a", "newString": "b"}},
        ],
        ["tool.execute.after", {"tool": "edit", "sessionID": "child", "callID": "c2"}, after],
    ]
    done = subprocess.run(
        ["node", "--input-type=module", "-e", DRIVER, str(module), json.dumps(calls)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    parent, child = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    assert parent == {
        "hook": "tool.execute.after",
        "tool": "write",
        "sessionID": "parent",
        "callID": "c1",
        "args": {"filePath": "/w/a.py", "content": "x"},
        "model": {"providerID": "anthropic", "modelID": "claude-x", "reasoningEffort": "low"},
        "parentID": None,
        "agent": "build",
        "directory": str(tmp_path),
        "worktree": str(tmp_path),
    }
    assert (child["sessionID"], child["model"], child["args"]["filePath"]) == (
        "child",
        None,
        "/w/b.py",
    )
    assert (child["parentID"], child["agent"]) == ("parent", "explore")


def test_a_former_versions_opencode_plugin_is_rewritten_and_removed(repo: Path) -> None:
    """A plugin file a former gentle-hooks wrote (without the subagent fields) is still
    ours as written: install rewrites it to the current text, saying so, and uninstall of
    such a file removes it."""
    path = repo / project("opencode")
    command = COMMAND.format("opencode")
    former = ownfile.opencode_plugin(command, subagents=False)
    path.parent.mkdir(parents=True)
    path.write_text(former)
    done = gh(repo, "install", "--agent", "opencode", env=WITH_GH)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == line("opencode", "project", "updated", path)
    assert "it was the text of a former gentle-hooks: it is now the current one" in done.stdout
    assert path.read_text() == ownfile.render("opencode", command) != former
    path.write_text(former)
    gone = gh(repo, "uninstall", "--agent", "opencode", "--scope", "project")
    assert gone.returncode == 0, gone.stderr
    assert not path.exists()


def test_kiro_hooks_file_is_the_documented_v1_shape(repo: Path) -> None:
    assert gh(repo, "install", "--agent", "kiro", env=WITH_GH).returncode == 0
    doc = json.loads((repo / project("kiro")).read_text())
    assert doc == {
        "version": "v1",
        "hooks": [
            {
                "name": "gentle-hooks-record",
                "trigger": "PostToolUse",
                "action": {"type": "command", "command": "gentle-hook record --from kiro"},
                "timeout": 30,
                "enabled": True,
            }
        ],
    }


def _old_program(tmp_path: Path) -> str:
    """An older install's ``gentle-hook``, at a path of its own: it answers ``--version``
    and records nothing (it exits 0 on any input), as a former version that ignores the
    bash snapshot does; its absolute path."""
    old = tmp_path / "old-venv" / "bin" / "gentle-hook"
    old.parent.mkdir(parents=True)
    old.write_text("#!/bin/sh\necho 'gentle-hook, version 0.0.9'\nexit 0\n")
    old.chmod(0o755)
    return str(old)


@pytest.mark.parametrize("name", ["opencode", "pi"])
def test_install_over_a_former_text_writes_the_current_gentle_hook(
    name: str, repo: Path, tmp_path: Path
) -> None:
    """A former text (an earlier install's) names that install's gentle-hook: install
    brings the text current and writes the current gentle-hook too, never the old path."""
    path = repo / project(name)
    path.parent.mkdir(parents=True)
    old = f"{_old_program(tmp_path)} record --from {name}"
    path.write_text(ownfile.FORMER[name][-1](old))
    again = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[:3] == [
        line(name, "project", "updated", path),
        f"note: its gentle-hook changed: '{old}' -> '{COMMAND.format(name)}'",
        "note: it was the text of a former gentle-hooks: it is now the current one",
    ]
    assert path.read_text() == ownfile.render(name, COMMAND.format(name))
    assert doctor(repo, WITH_GH)[1][f"agent: {name}"][0]


def test_doctor_fails_a_plugin_that_runs_another_gentle_hook_and_install_retargets_it(
    repo: Path, tmp_path: Path
) -> None:
    """The current text running another install's gentle-hook (one that runs): doctor
    names both and fails; install writes the current one, and doctor is then ok."""
    path = repo / project("opencode")
    path.parent.mkdir(parents=True)
    program = _old_program(tmp_path)
    old = f"{program} record --from opencode"
    path.write_text(ownfile.render("opencode", old))
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: opencode"]
    assert code == 2 and not ok
    assert detail == (
        f"wired in {path} (project), but '{old}' runs {program}, not the current "
        f"gentle-hook ({BIN}/gentle-hook): another install's may not record what this "
        "text hands over; install the recorder again; run: gentle-hook install --agent opencode"
    )
    again = gh(repo, "install", "--agent", "opencode", env=WITH_GH)
    assert again.stdout.splitlines()[:2] == [
        line("opencode", "project", "updated", path),
        f"note: its gentle-hook changed: '{old}' -> '{COMMAND.format('opencode')}'",
    ]
    assert doctor(repo, WITH_GH)[1]["agent: opencode"][0]


@pytest.mark.parametrize("name", ["opencode", "pi"])
def test_doctor_fails_a_hand_edited_former_text(name: str, repo: Path) -> None:
    """A former text edited by hand is no longer ours as written, and still hands over no
    bash snapshot: doctor says so (it said ok)."""
    path = repo / project(name)
    path.parent.mkdir(parents=True)
    former = ownfile.FORMER[name][-1](COMMAND.format(name))
    path.write_text(former + "// my own line\n")
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks[f"agent: {name}"]
    assert code == 2 and not ok, detail
    lacks = ownfile.FORMER_LACKS.get(name, "tool_call handler")
    assert detail.startswith(
        f"wired in {path} (project), but {path} is a gentle-hooks text edited since it was "
        f"installed, with no {lacks}: what a shell command changes is not recorded"
    ), detail
