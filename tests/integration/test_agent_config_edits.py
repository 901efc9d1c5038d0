"""``install --agent`` / ``uninstall --agent`` edit the user's configuration file in place:
only our entry's text changes, comments are kept where the runtime reads them, a symbolic
link is written through, and uninstall after install gives back the original bytes (SPEC §7
"Hooks"). Real files, the real CLI.

Gemini CLI reads ``settings.json`` as JSON with comments: google-gemini/gemini-cli
``packages/cli/src/config/settings.ts`` (commit 5411f113cafae26161b4969b0237b8e1e024e2c2)
parses it with ``JSON.parse(stripJsonComments(content))``, and its ``docs/hooks/index.md``
shows comments inside the hooks configuration.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents.runtimes import runtime
from tests.conftest import gh, trust_codex_hook

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}

#: A Gemini CLI settings file as a person keeps it: comments, a pinned model, another hook.
GEMINI_JSONC = """{
  // pinned for this repository
  "model": {"name": "gemini-2.5-pro"},
  /* the team's formatter */
  "hooks": {
    "AfterTool": [
      {
        "matcher": "write_file",
        "hooks": [{"name": "fmt", "type": "command", "command": "./fmt.sh"}]
      }
    ]
  }
}
"""

#: A Claude Code settings file in its owner's style: four spaces, an exponent, an escape.
CLAUDE_STYLED = (
    '{\n    "F": 1.0e3,\n    "name": "caf\\u00e9",\n    "permissions": {"allow": []}\n}\n'
)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    out = tmp_path / "home"
    out.mkdir()
    return out


def test_gemini_settings_with_comments_are_merged_checked_and_restored(
    repo: Path, home: Path
) -> None:
    path = repo / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(GEMINI_JSONC)
    env = {**WITH_GH, "HOME": str(home)}
    proc = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(
        "gemini-cli (project): added: AfterTool, BeforeTool and AfterAgent hooks"
    )
    after = path.read_text()
    assert "// pinned for this repository" in after and "/* the team's formatter */" in after
    assert after.count("gentle-hook record --from gemini-cli") == 3  # after, before, turn end
    doctor = gh(repo, "doctor", env=env)
    assert "ok    agent: gemini-cli: recorder wired" in doctor.stdout, doctor.stdout
    again = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert "unchanged" in again.stdout and path.read_text() == after
    gone = gh(repo, "uninstall", "--agent", "gemini-cli", "--scope", "project", env=env)
    assert gone.returncode == 0, gone.stderr
    assert path.read_bytes() == GEMINI_JSONC.encode()


def test_install_changes_only_our_entry_and_uninstall_gives_back_the_bytes(
    repo: Path, home: Path
) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(CLAUDE_STYLED)
    env = {**WITH_GH, "HOME": str(home)}
    assert gh(repo, "install", "--agent", "claude-code", env=env).returncode == 0
    after = path.read_text()
    # untouched values keep their spelling; ours is indented as the file is (four spaces)
    assert after.startswith('{\n    "F": 1.0e3,\n    "name": "caf\\u00e9",\n')
    assert '\n    "hooks": {\n        "PostToolUse": [\n' in after
    assert json.loads(after)["F"] == 1000.0
    assert gh(repo, "uninstall", "--agent", "claude-code", env=env).returncode == 0
    assert path.read_bytes() == CLAUDE_STYLED.encode()


@pytest.mark.parametrize("name", ["claude-code", "gemini-cli", "cursor"])
def test_a_symlinked_user_settings_file_is_written_through_its_link(
    name: str, repo: Path, home: Path, tmp_path: Path
) -> None:
    dotfiles = tmp_path / "dotfiles" / "settings.json"
    dotfiles.parent.mkdir()
    # Cursor's file carries its version: install would add it, uninstall keeps it
    original = '{\n  "version": 1\n}\n' if name == "cursor" else '{\n  "theme": "dark"\n}\n'
    dotfiles.write_text(original)
    folder = {"claude-code": ".claude", "gemini-cli": ".gemini", "cursor": ".cursor"}[name]
    link = home / folder / ("hooks.json" if name == "cursor" else "settings.json")
    link.parent.mkdir(parents=True)
    link.symlink_to(dotfiles)
    env = {**WITH_GH, "HOME": str(home)}
    proc = gh(repo, "install", "--agent", name, "--scope", "user", env=env)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(dotfiles)
    assert f"record --from {name}" in dotfiles.read_text()
    assert f"its target {dotfiles} was edited, the link kept" in proc.stdout
    gone = gh(repo, "uninstall", "--agent", name, "--scope", "user", env=env)
    assert gone.returncode == 0, gone.stderr
    assert link.is_symlink() and dotfiles.read_text() == original


def doctor(repo: Path, env: dict[str, str]) -> tuple[int, dict[str, tuple[bool, str]]]:
    proc = gh(repo, "doctor", "--json", env=env)
    checks = json.loads(proc.stdout)["checks"]
    return proc.returncode, {c["name"]: (c["ok"], c["detail"]) for c in checks}


OURS_CLAUDE = {"type": "command", "command": "gentle-hook record --from claude-code"}


@pytest.mark.parametrize(
    ("where", "settings", "switch"),
    [
        # docs/hooks/reference.md ("Disabled hooks configuration"), docs/reference/
        # configuration.md (hooksConfig.enabled, hooksConfig.disabled) of gemini-cli
        ("project", {"hooksConfig": {"disabled": ["gentle-hooks-record"]}}, "hooksConfig.disabled"),
        ("project", {"hooks": {"disabled": ["gentle-hooks-record"]}}, "hooks.disabled"),
        ("user", {"hooksConfig": {"enabled": False}}, "hooksConfig.enabled: false"),
        ("project", {"hooks": {"enabled": False}}, "hooks.enabled: false"),
        ("user", {"tools": {"enableHooks": False}}, "tools.enableHooks: false"),
    ],
)
def test_gemini_switches_that_stop_the_recorder_are_reported(
    where: str, settings: dict[str, object], switch: str, repo: Path, home: Path
) -> None:
    base = repo if where == "project" else home
    path = base / ".gemini" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(settings, indent=2) + "\n")
    env = {**WITH_GH, "HOME": str(home)}
    proc = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert proc.returncode == 0, proc.stderr
    assert f"note: it does not run: disabled by {switch}" in proc.stdout, proc.stdout
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: gemini-cli"]
    assert code == 2 and not ok
    assert "but disabled by " + switch in detail and str(path) in detail


def test_claude_disable_all_hooks_is_reported(repo: Path, home: Path) -> None:
    env = {**WITH_GH, "HOME": str(home)}
    assert gh(repo, "install", "--agent", "claude-code", env=env).returncode == 0
    local = repo / ".claude" / "settings.local.json"
    local.write_text('{"disableAllHooks": true}\n')
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: claude-code"]
    assert code == 2 and not ok
    assert f"but disabled by disableAllHooks: true in {local}" in detail
    local.write_text('{"disableAllHooks": false}\n')  # the local file wins over the others
    assert doctor(repo, env)[1]["agent: claude-code"][0]


@pytest.mark.parametrize("matcher", ["Bash", "Edit|Write"])
def test_a_narrow_matcher_is_reported_and_install_moves_ours(
    matcher: str, repo: Path, home: Path
) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    doc = {"hooks": {"PostToolUse": [{"matcher": matcher, "hooks": [OURS_CLAUDE]}]}}
    path.write_text(json.dumps(doc, indent=2) + "\n")
    env = {**WITH_GH, "HOME": str(home)}
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: claude-code"]
    assert code == 2 and not ok
    assert f"its matcher '{matcher}' misses " in detail and "MultiEdit" in detail
    proc = gh(repo, "install", "--agent", "claude-code", env=env)
    assert proc.stdout.startswith("claude-code (project): updated: "), proc.stdout
    assert f"note: moved out of matcher '{matcher}'" in proc.stdout
    [group] = json.loads(path.read_text())["hooks"]["PostToolUse"]
    assert group == {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": [OURS_CLAUDE]}
    assert doctor(repo, env)[1]["agent: claude-code"][0]


@pytest.mark.parametrize("matcher", ["Edit|Write|Bash", "Write|Bash"])
def test_a_codex_matcher_by_the_apply_patch_aliases_is_wired_and_kept(
    matcher: str, repo: Path, home: Path
) -> None:
    """Codex selects ``apply_patch`` by its matcher aliases ``Write`` and ``Edit`` (openai/codex
    codex-rs/core/src/tools/hook_names.rs @ 40c1a7f59127d1d98cbd43a94e8e9adf82305a66,
    ``HookToolName::apply_patch``): doctor reports such a group wired, install leaves it
    (``Bash`` beside them: a patch run through the shell tool)."""
    path = repo / ".codex" / "hooks.json"
    path.parent.mkdir()
    ours = {"type": "command", "command": "gentle-hook record --from codex"}
    doc = {
        "hooks": {
            "PostToolUse": [{"matcher": matcher, "hooks": [ours]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [ours]}],
            "Stop": [{"hooks": [ours]}],
        }
    }
    text = json.dumps(doc, indent=2) + "\n"
    path.write_text(text)
    env = {**WITH_GH, "HOME": str(home)}
    trust_codex_hook(home / ".codex", path)  # as /hooks records it
    ok, detail = doctor(repo, env)[1]["agent: codex"]
    assert ok, detail
    proc = gh(repo, "install", "--agent", "codex", env=env)
    assert proc.stdout.startswith("codex (project): unchanged: "), proc.stdout
    assert path.read_text() == text


def test_a_codex_entry_that_misses_the_shell_tool_is_reported_and_moved(
    repo: Path, home: Path
) -> None:
    """A group under ``apply_patch`` alone never sees a patch the model runs through the
    shell tool (Codex's input then names ``Bash``: openai/codex
    codex-rs/core/src/tools/hook_names.rs, ``HookToolName::bash``): doctor says it misses
    ``Bash``; install moves ours under ``apply_patch|Bash``."""
    path = repo / ".codex" / "hooks.json"
    path.parent.mkdir()
    ours = {"type": "command", "command": "gentle-hook record --from codex"}
    doc = {"hooks": {"PostToolUse": [{"matcher": "apply_patch", "hooks": [ours]}]}}
    path.write_text(json.dumps(doc, indent=2) + "\n")
    env = {**WITH_GH, "HOME": str(home)}
    trust_codex_hook(home / ".codex", path)
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: codex"]
    assert code == 2 and not ok
    assert "its matcher 'apply_patch' misses Bash" in detail, detail
    proc = gh(repo, "install", "--agent", "codex", env=env)
    assert proc.stdout.startswith("codex (project): updated: "), proc.stdout
    assert "note: moved out of matcher 'apply_patch'" in proc.stdout
    [group] = json.loads(path.read_text())["hooks"]["PostToolUse"]
    assert group == {"matcher": "apply_patch|Bash", "hooks": [ours]}


def test_claude_settings_local_json_counts_and_gets_no_second_copy(repo: Path, home: Path) -> None:
    local = repo / ".claude" / "settings.local.json"
    local.parent.mkdir()
    doc = {
        "hooks": {
            "PostToolUse": [
                {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": [OURS_CLAUDE]}
            ],
            "PreToolUse": [{"matcher": "Bash", "hooks": [OURS_CLAUDE]}],
            "PostToolUseFailure": [{"matcher": "Bash", "hooks": [OURS_CLAUDE]}],
            "Stop": [{"hooks": [OURS_CLAUDE]}],
        }
    }
    local.write_text(json.dumps(doc, indent=2) + "\n")
    env = {**WITH_GH, "HOME": str(home)}
    ok, detail = doctor(repo, env)[1]["agent: claude-code"]
    assert ok and detail.startswith(f"recorder wired: {local} (project)")
    proc = gh(repo, "install", "--agent", "claude-code", env=env)
    assert proc.stdout.startswith("claude-code (project): unchanged: "), proc.stdout
    assert str(local) in proc.stdout.splitlines()[0]
    assert not (repo / ".claude" / "settings.json").exists()
    gone = gh(repo, "uninstall", "--agent", "claude-code", "--scope", "project", env=env)
    assert f"claude-code (project): removed our 4 hooks: {local}" in gone.stdout, gone.stdout
    assert json.loads(local.read_text()) == {}


def test_claude_code_without_the_bash_snapshot_hook_is_reported_and_gains_it(
    repo: Path, home: Path
) -> None:
    """An entry of an earlier install (no Bash in the matcher, no PreToolUse nor
    PostToolUseFailure of Bash): doctor says what a shell command changes is not recorded,
    install adds them."""
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    old = {"matcher": "Write|Edit|MultiEdit|NotebookEdit", "hooks": [OURS_CLAUDE]}
    path.write_text(json.dumps({"hooks": {"PostToolUse": [old]}}, indent=2) + "\n")
    env = {**WITH_GH, "HOME": str(home)}
    ok, detail = doctor(repo, env)[1]["agent: claude-code"]
    assert not ok and "its matcher 'Write|Edit|MultiEdit|NotebookEdit' misses Bash" in detail
    wide = {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": [OURS_CLAUDE]}
    path.write_text(json.dumps({"hooks": {"PostToolUse": [wide]}}, indent=2) + "\n")
    ok, detail = doctor(repo, env)[1]["agent: claude-code"]
    assert not ok and detail.endswith(
        "but not to PreToolUse and PostToolUseFailure: what a shell command changes is not "
        "recorded; install the "
        "recorder again; run: gentle-hook install --agent claude-code"
    ), detail
    proc = gh(repo, "install", "--agent", "claude-code", env=env)
    assert "note: added our PreToolUse hook" in proc.stdout, proc.stdout
    hooks = json.loads(path.read_text())["hooks"]
    assert hooks["PreToolUse"] == [{"matcher": "Bash", "hooks": [OURS_CLAUDE]}]
    assert "note: added our PostToolUseFailure hook" in proc.stdout, proc.stdout
    assert hooks["PostToolUseFailure"] == [{"matcher": "Bash", "hooks": [OURS_CLAUDE]}]
    ok, detail = doctor(repo, env)[1]["agent: claude-code"]
    assert ok and detail.startswith(f"recorder wired: {path} (project)"), detail


def test_copilot_recorder_in_any_hooks_file_counts_and_is_removed_there(
    repo: Path, home: Path
) -> None:
    # github/docs cli-hooks-reference.md: "Hook configuration files are loaded
    # automatically from .github/hooks/*.json"
    team = repo / ".github" / "hooks" / "team.json"
    team.parent.mkdir(parents=True)
    theirs = {"type": "command", "bash": "./audit.sh"}
    ours = {"type": "command", "bash": "gentle-hook record --from copilot"}
    team.write_text(json.dumps({"version": 1, "hooks": {"postToolUse": [theirs, ours]}}, indent=2))
    env = {**WITH_GH, "HOME": str(home)}
    ok, detail = doctor(repo, env)[1]["agent: copilot"]
    # found there, but without preToolUse and postToolUseFailure a bash command's writes are
    # not recorded (said first), and without the subagent events a child's writes record as
    # the parent's
    assert not ok and detail.startswith(
        f"wired in {team} (project), but not to preToolUse and postToolUseFailure: what a "
        "shell command changes "
    ), detail
    proc = gh(repo, "install", "--agent", "copilot", env=env)
    # ours there gains its other events in the same file, said one line each
    assert proc.stdout.startswith(
        "copilot (project): updated: postToolUse, subagentStart, subagentStop, preToolUse, "
        "postToolUseFailure, agentStop and sessionEnd hooks running "
    ), proc.stdout
    assert "note: added our subagentStart hook" in proc.stdout, proc.stdout
    assert "note: added our preToolUse hook" in proc.stdout, proc.stdout
    ok, detail = doctor(repo, env)[1]["agent: copilot"]
    assert ok and detail.startswith(f"recorder wired: {team} (project)"), detail
    assert not (repo / ".github" / "hooks" / "gentle-hooks.json").exists()
    gone = gh(repo, "uninstall", "--agent", "copilot", "--scope", "project", env=env)
    assert f"copilot (project): removed our 7 hooks: {team}" in gone.stdout, gone.stdout
    assert json.loads(team.read_text())["hooks"] == {"postToolUse": [theirs]}


def test_copilot_disable_all_hooks_is_reported(repo: Path, home: Path) -> None:
    # github/docs cli-config-dir-reference.md: disableAllHooks in .github/copilot/settings.json
    # ("Repository takes precedence"); the file is JSON with comments
    env = {**WITH_GH, "HOME": str(home)}
    assert gh(repo, "install", "--agent", "copilot", env=env).returncode == 0
    settings = repo / ".github" / "copilot" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  // the team says\n  "disableAllHooks": true\n}\n')
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: copilot"]
    assert code == 2 and not ok and f"disableAllHooks: true in {settings}" in detail


@pytest.mark.parametrize(
    ("settings", "switch"),
    [
        # google-gemini/gemini-cli docs/reference/configuration.md ("Settings files": the
        # system settings file, GEMINI_CLI_SYSTEM_SETTINGS_PATH; hooksConfig.enabled,
        # hooksConfig.disabled)
        (
            '{\n  // the machine says\n  "hooksConfig": {"enabled": false}\n}\n',
            "hooksConfig.enabled",
        ),
        ('{"hooksConfig": {"disabled": ["gentle-hooks-record"]}}', "hooksConfig.disabled"),
    ],
)
def test_gemini_system_settings_that_stop_the_recorder_are_reported(
    settings: str, switch: str, repo: Path, home: Path, tmp_path: Path
) -> None:
    system = tmp_path / "system-settings.json"
    system.write_text(settings)
    env = {**WITH_GH, "HOME": str(home), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(system)}
    proc = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert proc.returncode == 0, proc.stderr
    assert f"disabled by {switch}" in proc.stdout, proc.stdout
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: gemini-cli"]
    assert code == 2 and not ok
    assert f"but disabled by {switch}" in detail and str(system) in detail


@pytest.mark.parametrize("where", ["project", "user"])
@pytest.mark.parametrize("key", ["hooks", "codex_hooks"])
def test_codex_features_hooks_false_is_reported(
    where: str, key: str, repo: Path, home: Path, tmp_path: Path
) -> None:
    codex_home = tmp_path / "codex-home"
    env = {**WITH_GH, "HOME": str(home), "CODEX_HOME": str(codex_home)}
    assert gh(repo, "install", "--agent", "codex", env=env).returncode == 0
    config = (repo / ".codex" if where == "project" else codex_home) / "config.toml"
    config.parent.mkdir(exist_ok=True)
    # developers.openai.com/codex/hooks: the `hooks` feature key, `codex_hooks` its alias
    config.write_text(f'model = "gpt-5"\n\n[features]\n{key} = false\n')
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: codex"]
    assert code == 2 and not ok
    assert f"but disabled by features.{key}: false in {config}" in detail
    config.write_text(f"[features]\n{key} = true\n")
    trust_codex_hook(codex_home, repo / ".codex" / "hooks.json")  # as /hooks records it
    assert doctor(repo, env)[1]["agent: codex"][0]


@pytest.mark.parametrize(
    ("managed", "switch"),
    [
        ('{"disableAllHooks": true}', "disableAllHooks: true"),
        ('{"allowManagedHooksOnly": true}', "allowManagedHooksOnly: true"),
    ],
)
def test_claude_managed_policy_settings_that_stop_the_recorder_are_reported(
    managed: str,
    switch: str,
    repo: Path,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Claude Code documents no variable for its managed-settings.json path
    # (code.claude.com/docs/en/settings): the path constant is replaced here
    from gentle_hooks.agents.runtimes import runtime
    from gentle_hooks.services import agent_install
    from gentle_hooks.services.agent_doctor import check_runtime

    env = {**WITH_GH, "HOME": str(home)}
    assert gh(repo, "install", "--agent", "claude-code", env=env).returncode == 0
    policy = tmp_path / "managed-settings.json"
    monkeypatch.setitem(agent_install.SYSTEM_SETTINGS, "claude-code-managed", str(policy))
    check = check_runtime(runtime("claude-code"), str(repo), env)
    assert check is not None and check.ok
    policy.write_text(managed)
    check = check_runtime(runtime("claude-code"), str(repo), env)
    assert check is not None and not check.ok
    assert f"but disabled by {switch} in {policy}" in check.detail
    # allowManagedHooksOnly counts only in the managed file
    (repo / ".claude" / "settings.local.json").write_text('{"allowManagedHooksOnly": true}')
    policy.unlink()
    check = check_runtime(runtime("claude-code"), str(repo), env)
    assert check is not None and check.ok


#: Our hook inline in Codex's config.toml (developers.openai.com/codex/hooks, "inline
#: [hooks] in config.toml"; openai/codex codex-rs/hooks/src/engine/discovery.rs reads it).
CODEX_INLINE = """model = "gpt-5"

[[hooks.PostToolUse]]
matcher = "apply_patch|Bash"

[[hooks.PostToolUse.hooks]]
type = "command"
command = "gentle-hook record --from codex"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "gentle-hook record --from codex"

[[hooks.Stop]]

[[hooks.Stop.hooks]]
type = "command"
command = "gentle-hook record --from codex"
"""


@pytest.mark.parametrize("where", ["project", "user"])
def test_codex_inline_hook_in_config_toml_counts_and_gets_no_second_copy(
    where: str, repo: Path, home: Path, tmp_path: Path
) -> None:
    codex_home = tmp_path / "codex-home"
    env = {**WITH_GH, "HOME": str(home), "CODEX_HOME": str(codex_home)}
    config = (repo / ".codex" if where == "project" else codex_home) / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(CODEX_INLINE)
    trust_codex_hook(codex_home, config)  # as /hooks records it
    written = config.read_text()
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: codex"]
    assert code == 0 and ok and f"recorder wired: {config} ({where})" in detail
    scope = ("--scope", "user") if where == "user" else ()
    proc = gh(repo, "install", "--agent", "codex", *scope, env=env)
    assert proc.returncode == 0, proc.stderr
    assert f"codex ({where}): unchanged:" in proc.stdout and str(config) in proc.stdout
    assert not (config.parent / "hooks.json").exists()
    assert config.read_text() == written
    gone = gh(repo, "uninstall", "--agent", "codex", *scope, env=env)
    assert gone.returncode == 0, gone.stderr
    assert f"left in place (TOML: remove it by hand): {config}" in gone.stdout
    assert config.read_text() == written


def test_a_claude_entry_run_from_the_project_dir_is_ours(repo: Path, home: Path) -> None:
    # code.claude.com/docs/en/hooks: commands reach project scripts via "$CLAUDE_PROJECT_DIR"
    command = 'cd "$CLAUDE_PROJECT_DIR" && gentle-hook record --from claude-code'
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    doc = {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
                    "hooks": [{"type": "command", "command": command}],
                }
            ],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}],
            "PostToolUseFailure": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": command}]}],
        }
    }
    path.write_text(json.dumps(doc, indent=2) + "\n")
    before = path.read_text()
    env = {**WITH_GH, "HOME": str(home)}
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: claude-code"]
    assert code == 0 and ok and f"recorder wired: {path} (project)" in detail
    proc = gh(repo, "install", "--agent", "claude-code", env=env)
    assert proc.returncode == 0, proc.stderr
    assert (
        f"unchanged: PostToolUse, PreToolUse, PostToolUseFailure and Stop hooks running "
        f"'{command}'" in proc.stdout
    )
    assert path.read_text() == before
    gone = gh(repo, "uninstall", "--agent", "claude-code", env=env)
    assert gone.returncode == 0 and "removed" in gone.stdout
    assert "record --from" not in path.read_text()


@pytest.mark.parametrize("blank", ["", "\n", "  \n\n"])
@pytest.mark.parametrize("name", ["claude-code", "gemini-cli", "cursor", "codex"])
def test_an_empty_file_comes_back_byte_for_byte(name: str, blank: str, repo: Path) -> None:
    rt = runtime(name)
    assert rt.wiring is not None
    path = repo / rt.wiring.project
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(blank.encode())
    assert gh(repo, "install", "--agent", name).returncode == 0
    assert json.loads(path.read_text())["hooks"]  # JSON the runtime reads, with our hook
    out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert out.returncode == 0, out.stderr
    count = 1 + len(rt.wiring.also_events)
    said = "removed our hook" if count == 1 else f"removed our {count} hooks"
    assert out.stdout == f"{name} (project): {said}: {path}\n"
    assert path.read_bytes() == blank.encode()


@pytest.mark.parametrize("name", ["claude-code", "gemini-cli", "cursor", "codex"])
def test_a_file_install_created_is_removed_by_uninstall(name: str, repo: Path) -> None:
    rt = runtime(name)
    assert rt.wiring is not None
    path = repo / rt.wiring.project
    assert gh(repo, "install", "--agent", name).returncode == 0 and path.exists()
    out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert out.stdout == f"{name} (project): removed the file (install created it): {path}\n"
    assert not path.exists() and not path.parent.exists()  # its directory too, left empty


def test_a_user_scope_install_prints_no_project_note(repo: Path, isolated_git: Path) -> None:
    proc = gh(repo, "install", "--agent", "gemini-cli", "--scope", "user")
    assert proc.returncode == 0, proc.stderr
    assert "project hook" not in proc.stdout
    project = gh(repo, "install", "--agent", "gemini-cli")
    assert "note: Gemini CLI warns before it first runs a new project hook" in project.stdout


#: A Gemini CLI settings file holding our AfterTool hook (wired by an install of before the
#: BeforeTool one) and an empty BeforeTool list of the user's.
GEMINI_AFTER_ONLY = """{
  "hooks": {
    "BeforeTool": [],
    "AfterTool": [
      {
        "matcher": "write_file|replace|run_shell_command",
        "hooks": [
          {
            "name": "gentle-hooks-record",
            "type": "command",
            "command": "gentle-hook record --from gemini-cli"
          }
        ]
      }
    ]
  }
}
"""


def test_an_empty_list_install_filled_beside_ours_comes_back_on_uninstall(
    repo: Path, home: Path
) -> None:
    """Install adds our BeforeTool hook into the user's empty ``"BeforeTool": []`` of a file
    that held our AfterTool one already ("updated"): uninstall removes both of ours and
    gives the empty list back, every byte of it as it was (refuter finding, issue 17)."""
    path = repo / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(GEMINI_AFTER_ONLY)
    env = {**WITH_GH, "HOME": str(home)}
    proc = gh(repo, "install", "--agent", "gemini-cli", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "updated" in proc.stdout and "added our BeforeTool hook" in proc.stdout
    assert json.loads(path.read_text())["hooks"]["BeforeTool"]  # ours went into it
    gone = gh(repo, "uninstall", "--agent", "gemini-cli", "--scope", "project", env=env)
    assert gone.returncode == 0, gone.stderr
    assert json.loads(path.read_text()) == {"hooks": {"BeforeTool": []}}
    # a second round from the user's own file: the same bytes back
    mine = '{\n  "hooks": {\n    "BeforeTool": []\n  }\n}\n'
    path.write_text(mine)
    assert gh(repo, "install", "--agent", "gemini-cli", env=env).returncode == 0
    assert gh(repo, "uninstall", "--agent", "gemini-cli", env=env).returncode == 0
    assert path.read_text() == mine


def test_codex_inline_hook_lacking_its_pretooluse_is_said_by_hand_not_install_again(
    repo: Path, home: Path, tmp_path: Path
) -> None:
    """Our PostToolUse hook inline in config.toml, PreToolUse absent: doctor fails, and
    neither doctor nor install points at the other (install never rewrites TOML, so an
    "install again" fix would loop): both print the block to add by hand; once it is added
    as printed (and trusted, both events), doctor passes (refuter finding, issue 17)."""
    codex_home = tmp_path / "codex-home"
    env = {**WITH_GH, "HOME": str(home), "CODEX_HOME": str(codex_home)}
    config = repo / ".codex" / "config.toml"
    config.parent.mkdir()
    post_only = CODEX_INLINE.split("\n[[hooks.PreToolUse]]")[0]
    config.write_text(post_only)
    trust_codex_hook(codex_home, config)
    code, checks = doctor(repo, env)
    ok, detail = checks["agent: codex"]
    assert code == 2 and not ok, detail
    assert "not to PreToolUse" in detail and "install the recorder again" not in detail
    assert f"install does not rewrite TOML: add to {config} by hand: " in detail
    assert "; run: " not in detail  # no install command to loop on
    proc = gh(repo, "install", "--agent", "codex", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "unchanged" in proc.stdout and "not to PreToolUse" in proc.stdout, proc.stdout
    assert f"add it to {config} by hand" in proc.stdout and config.read_text() == post_only
    # the block as printed, one line per " / "-separated part
    printed = detail.split(" by hand: ", 1)[1]
    config.write_text(post_only + "\n" + printed.replace(" / ", "\n") + "\n")
    code, checks = doctor(repo, env)
    assert code == 0 and checks["agent: codex"][0], checks["agent: codex"]
