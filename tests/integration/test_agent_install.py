"""``gentle-hook install --agent NAME [--scope project|user]``, ``uninstall --agent NAME`` and
``doctor``'s agent checks, on real repositories with the real CLI (SPEC §7 "Hooks")."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from gentle_hooks.agents import wiring
from gentle_hooks.agents.runtimes import RUNTIMES, record_command, runtime
from tests.conftest import gh, trust_codex_hook

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
WITHOUT_GH = {"PATH": f"/usr/bin{os.pathsep}/bin"}
#: The runtimes wired by an entry in their configuration file (a hook that is a file of ours:
#: tests/integration/test_agent_files.py).
WIRED = [r for r in RUNTIMES if r.wiring is not None and r.wiring.shape != "file"]
EVENT = {r.name: wiring.hooks_phrase(r.wiring) for r in WIRED if r.wiring is not None}
#: What uninstall says it removed: one entry per event ours goes under.
REMOVED = {
    r.name: "removed our hook"
    if not r.wiring.also_events
    else f"removed our {1 + len(r.wiring.also_events)} hooks"
    for r in WIRED
    if r.wiring is not None
}
PROJECT = {r.name: r.wiring.project for r in WIRED if r.wiring is not None}
NOTES = {r.name: r.wiring.notes + r.wiring.project_notes for r in WIRED if r.wiring is not None}

#: Another tool's hook, already in each runtime's project file.
THEIRS = {
    "claude-code": {
        "hooks": {
            "PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "audit"}]}]
        }
    },
    # (not under Stop, which ours joins: the group of the same matcher, as Claude Code's)
    "codex": {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "notify"}]}]}},
    "gemini-cli": {"general": {"vimMode": True}},
    "cursor": {"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh"}]}},
    "droid": {
        "model": "sonnet",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]},
    },
    "windsurf": {"hooks": {"pre_run_command": [{"command": "./guard.sh", "show_output": True}]}},
    "augment": {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "launch-process",
                    "hooks": [{"type": "command", "command": "./validate.sh", "timeout": 5000}],
                }
            ]
        }
    },
    "copilot": None,  # our own file: .github/hooks/gentle-hooks.json
}


def install_line(name: str, scope: str, what: str, path: Path, program: str = "gentle-hook") -> str:
    guarded = runtime(name).wiring.guarded  # type: ignore[union-attr]
    return (
        f"{name} ({scope}): {what}: {EVENT[name]} running "
        f"'{record_command(name, program, guarded)}' in {path}"
    )


@pytest.mark.parametrize(
    # an entry naming a script of ours (Augment): tests/integration/test_augment_script.py
    "name",
    [r.name for r in WIRED if r.wiring is not None and r.wiring.script is None],
)
def test_project_install_merges_is_idempotent_and_uninstall_removes_only_ours(
    name: str, repo: Path
) -> None:
    path = repo / PROJECT[name]
    theirs = THEIRS[name]
    if theirs is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(theirs, indent=4))
    first = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert first.returncode == 0, first.stderr
    notes = [f"note: {n}" for n in NOTES[name]]
    assert first.stdout.splitlines() == [install_line(name, "project", "added", path), *notes]
    doc = json.loads(path.read_text())
    for key, value in (theirs or {}).items():
        if key != "hooks":
            assert doc[key] == value
    for event, groups in (theirs or {}).get("hooks", {}).items():
        assert doc["hooks"][event][: len(groups)] == groups  # ours may follow under the event
    again = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert again.stdout.splitlines()[0] == install_line(name, "project", "unchanged", path)
    assert json.loads(path.read_text()) == doc
    out = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert out.returncode == 0, out.stderr
    if theirs is None:
        assert out.stdout == f"{name} (project): removed the file: {path}\n"
        assert not path.exists()
    else:
        assert out.stdout == f"{name} (project): {REMOVED[name]}: {path}\n"
        assert json.loads(path.read_text()) == theirs
    nothing = gh(repo, "uninstall", "--agent", name, "--scope", "project")
    assert nothing.stdout == f"{name} (project): nothing to remove: {path}\n"


def test_project_install_without_gentle_hook_on_path_says_so(repo: Path) -> None:
    proc = gh(repo, "install", "--agent", "cursor", env=WITHOUT_GH)
    assert proc.returncode == 0, proc.stderr
    program = os.path.join(BIN, "gentle-hook")
    assert (
        f"note: gentle-hook is not on PATH here: the hook runs {program}, a path of this "
        "machine; put gentle-hook on PATH and install again before you commit the file"
    ) in proc.stdout.splitlines()
    hooks = json.loads((repo / ".cursor" / "hooks.json").read_text())["hooks"]
    assert hooks["afterFileEdit"] == [{"command": f"{program} record --from cursor"}]


def test_user_scope_pins_the_gentle_hook_it_was_installed_from(
    repo: Path, isolated_git: Path
) -> None:
    home = isolated_git
    proc = gh(repo, "install", "--agent", "claude-code", "--scope", "user", env=WITHOUT_GH)
    assert proc.returncode == 0, proc.stderr
    path = home / ".claude" / "settings.json"
    program = os.path.join(BIN, "gentle-hook")
    assert proc.stdout.splitlines() == [install_line("claude-code", "user", "added", path, program)]
    hook = json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"][0]
    assert hook == {"type": "command", "command": f"{program} record --from claude-code"}
    # uninstall without --scope looks in both scopes
    out = gh(repo, "uninstall", "--agent", "claude-code")
    assert out.stdout.splitlines() == [
        f"claude-code (project): nothing to remove: {repo / '.claude' / 'settings.json'}",
        f"claude-code (user): removed the file (install created it): {path}",
    ]
    assert not path.exists()


@pytest.mark.parametrize(
    ("name", "variable", "rel"),
    [
        ("codex", "CODEX_HOME", "hooks.json"),
        ("copilot", "COPILOT_HOME", "hooks/gentle-hooks.json"),
        # google-gemini/gemini-cli docs/reference/configuration.md ("GEMINI_CLI_HOME": the
        # CLI creates its .gemini folder inside it)
        ("gemini-cli", "GEMINI_CLI_HOME", ".gemini/settings.json"),
        # CLAUDE_CONFIG_DIR replaces ~/.claude, settings.json included (docs/agents/
        # claude-code.md names the sources)
        ("claude-code", "CLAUDE_CONFIG_DIR", "settings.json"),
    ],
)
def test_user_scope_honours_the_runtimes_home_variable(
    name: str, variable: str, rel: str, repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    home = tmp_path / variable.lower()
    proc = gh(
        repo, "install", "--agent", name, "--scope", "user", env={**WITH_GH, variable: str(home)}
    )
    assert proc.returncode == 0, proc.stderr
    assert (home / rel).is_file()
    assert not (isolated_git / f".{name.split('-')[0]}").exists()
    if name == "codex":  # trusted in /hooks, which records it in $CODEX_HOME/config.toml
        trust_codex_hook(home, home / rel)
    code, checks = doctor(repo, {**WITH_GH, variable: str(home)})
    ok, detail = checks[f"agent: {name}"]
    assert code == 0 and ok and f"recorder wired: {home / rel} (user)" in detail


def test_doctor_finds_claude_code_in_its_config_dir(repo: Path, tmp_path: Path) -> None:
    """Claude Code used with CLAUDE_CONFIG_DIR (no ~/.claude) is found there."""
    config = tmp_path / "claude-config"
    config.mkdir()
    env = {**WITH_GH, "CLAUDE_CONFIG_DIR": str(config)}
    _, checks = doctor(repo, env)
    ok, detail = checks["agent: claude-code"]
    assert ok and detail.startswith(f"found ({config}) but not wired to record"), detail


def test_user_scope_works_outside_a_repository(tmp_path: Path, isolated_git: Path) -> None:
    proc = gh(tmp_path, "install", "--agent", "gemini-cli", "--scope", "user", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert (isolated_git / ".gemini" / "settings.json").is_file()
    project = gh(tmp_path, "install", "--agent", "gemini-cli", env=WITH_GH)
    assert project.returncode == 2
    assert "not a git repository" in project.stderr


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("claude-code", "// settings\n{}"),  # no source here says Claude Code reads comments
        ("gemini-cli", "[1]"),
        ("gemini-cli", '{"hooks": []}'),
        ("gemini-cli", '{"a": 1,}'),  # Gemini CLI's JSON.parse refuses trailing commas
    ],
)
def test_a_file_it_cannot_merge_is_left_untouched(name: str, content: str, repo: Path) -> None:
    path = repo / PROJECT[name]
    path.parent.mkdir()
    path.write_text(content)
    proc = gh(repo, "install", "--agent", name, env=WITH_GH)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "nothing was changed" in proc.stderr
    assert path.read_text() == content


def test_aider_gets_its_documented_route_and_nothing_is_written(repo: Path) -> None:
    before = sorted(p.name for p in repo.iterdir())
    proc = gh(repo, "install", "--agent", "aider")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "aider: nothing installed: aider has no hook point (docs/agents/aider.md)"
    assert any("git-commit-verify: true" in line for line in lines)
    assert sorted(p.name for p in repo.iterdir()) == before


def test_agent_excludes_the_git_hook_options(repo: Path) -> None:
    proc = gh(repo, "install", "--agent", "codex", "-t", "pre-commit")
    assert proc.returncode == 2
    assert "--agent installs only the agent's hook" in proc.stderr


# -- doctor ----------------------------------------------------------------------------------


def doctor(repo: Path, env: dict[str, str]) -> tuple[int, dict[str, tuple[bool, str]]]:
    proc = gh(repo, "doctor", "--json", env=env)
    checks = json.loads(proc.stdout)["checks"]
    return proc.returncode, {c["name"]: (c["ok"], c["detail"]) for c in checks}


def test_doctor_reports_wired_and_reachable(repo: Path, isolated_git: Path) -> None:
    assert gh(repo, "install", "--agent", "codex", env=WITH_GH).returncode == 0
    trust_codex_hook(isolated_git / ".codex", repo / ".codex" / "hooks.json")  # in /hooks
    code, checks = doctor(repo, WITH_GH)
    assert code == 0
    assert checks["agent: codex"] == (
        True,
        f"recorder wired: {repo / '.codex' / 'hooks.json'} (project) -> "
        f"{os.path.join(BIN, 'gentle-hook')}",
    )
    assert "agent: cursor" not in checks  # not used here: not reported


def test_doctor_finds_augment_and_its_recorder(repo: Path) -> None:
    """``.augment/`` says Augment is used here: doctor reports it unwired (with the command
    that wires it), then wired and reachable."""
    (repo / ".augment").mkdir()
    _, checks = doctor(repo, WITH_GH)
    assert checks["agent: augment"] == (
        True,
        f"found ({repo / '.augment'}) but not wired to record; run: gentle-hook install "
        "--agent augment",
    )
    assert gh(repo, "install", "--agent", "augment", env=WITH_GH).returncode == 0
    code, checks = doctor(repo, WITH_GH)
    assert code == 0
    assert checks["agent: augment"] == (
        True,
        f"recorder wired: {repo / '.augment' / 'settings.json'} (project) -> "
        f"{os.path.join(BIN, 'gentle-hook')}",
    )


def test_doctor_fails_a_recorder_whose_gentle_hook_is_gone(repo: Path) -> None:
    path = repo / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "hooks": {
                    "afterFileEdit": [{"command": "/gone/bin/gentle-hook record --from cursor"}]
                },
            }
        )
    )
    code, checks = doctor(repo, WITH_GH)
    assert code == 2
    assert checks["agent: cursor"] == (
        False,
        f"wired in {path} (project), but '/gone/bin/gentle-hook record --from cursor' cannot "
        "run: its gentle-hook is not found; install the recorder again; run: gentle-hook "
        "install --agent cursor",
    )
    # a name PATH does not resolve fails the same way
    assert gh(repo, "install", "--agent", "cursor", env=WITH_GH).returncode == 0
    assert doctor(repo, WITH_GH)[1]["agent: cursor"][0] is True
    assert doctor(repo, WITHOUT_GH)[1]["agent: cursor"][0] is False


def test_doctor_reports_a_runtime_found_but_not_wired(repo: Path, isolated_git: Path) -> None:
    (isolated_git / ".gemini").mkdir()
    code, checks = doctor(repo, WITH_GH)
    assert code == 0
    assert checks["agent: gemini-cli"] == (
        True,
        f"found ({isolated_git / '.gemini'}) but not wired to record; run: gentle-hook install "
        "--agent gemini-cli",
    )


def test_doctor_fails_a_configuration_it_cannot_read(repo: Path) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{not json")
    code, checks = doctor(repo, WITH_GH)
    assert code == 2
    ok, detail = checks["agent: claude-code"]
    assert not ok and detail.startswith(f"{path}: not JSON: line 1 column 2")


@pytest.mark.parametrize(("conf", "verdict"), [("", "skip"), ("git-commit-verify: true\n", "run")])
def test_doctor_says_whether_aiders_commits_meet_the_gate(
    conf: str, verdict: str, repo: Path
) -> None:
    (repo / ".aider.conf.yml").write_text(conf)
    _, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: aider"]
    assert ok and f"its commits {verdict} the commit gate" in detail


def test_doctor_reads_aiders_home_file_and_names_where_each_choice_comes_from(
    repo: Path, isolated_git: Path
) -> None:
    home = isolated_git / ".aider.conf.yml"
    home.write_text("git-commit-verify: true\n")
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: aider"]
    assert code == 0 and ok
    assert f"its commits run the commit gate (git-commit-verify: true, {home})" in detail
    assert (
        "its edits are marked as aider's: a Co-authored-by trailer "
        "(attribute-co-authored-by: true, aider's default)"
    ) in detail
    env = {**WITH_GH, "AIDER_GIT_COMMIT_VERIFY": "false"}
    _, checks = doctor(repo, env)
    assert (
        "its commits skip the commit gate (aider commits with --no-verify; git-commit-verify: "
        "false, AIDER_GIT_COMMIT_VERIFY in the environment): set it to true where it is set"
    ) in checks["agent: aider"][1]


def test_doctor_fails_aider_with_every_attribution_off(repo: Path) -> None:
    (repo / ".aider.conf.yml").write_text(
        "attribute-co-authored-by: false\nattribute-author: false\nattribute-committer: false\n"
    )
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: aider"]
    assert code == 2 and not ok
    assert "its edits carry no mark of aider" in detail
    assert f"put 'attribute-co-authored-by: true' in {repo / '.aider.conf.yml'}" in detail


def test_doctor_fails_aider_that_does_not_commit_and_says_what_is_covered(repo: Path) -> None:
    """``auto-commits: false``: aider leaves its edits uncommitted and nothing records them,
    so the commit a person makes of them passes as the person's; doctor says so and fails,
    naming what stays covered (the commits aider makes itself)."""
    conf = repo / ".aider.conf.yml"
    conf.write_text("git-commit-verify: true\nauto-commits: false\n")
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: aider"]
    assert code == 2 and not ok
    assert (
        f"not covered: aider does not commit (auto-commits: false, {conf}), so its edits stay "
        "in the work tree unrecorded and the commit you make of them is taken for a person's, "
        "unmarked; covered: only the commits aider makes itself (its /commit command); record "
        "its edits by hand (docs/agents/aider.md, 'Or record by hand'), or remove "
        "'auto-commits: false' from where it is set"
    ) in detail
    conf.write_text("git-commit-verify: true\n")
    code, checks = doctor(repo, WITH_GH)
    assert code == 0 and checks["agent: aider"][0]


def test_doctor_names_aiders_committer_mark_as_what_it_is(repo: Path) -> None:
    """aider/repo.py GitRepo.commit (Aider-AI/aider 5dc9490b, 0.86.3.dev): "(aider)" goes on
    the committer of every commit aider makes, a person's dirty files included; doctor says
    the gates read it as who ran git commit."""
    (repo / ".aider.conf.yml").write_text("git-commit-verify: true\n")
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: aider"]
    assert code == 0 and ok
    assert (
        "'(aider)' on the committer name (attribute-committer: unset, aider's default) is "
        "aider's mark of every commit it runs, your own dirty files it commits before editing "
        "included: the gates read it as who ran git commit, not as aider's work"
    ) in detail
    # the committer mark is not counted among the marks of aider's edits
    assert (
        "its edits are marked as aider's: a Co-authored-by trailer (attribute-co-authored-by: "
        "true, aider's default); "
    ) in detail


def test_doctor_fails_aider_whose_edits_carry_only_the_committer_mark(repo: Path) -> None:
    """Trailer off and ``attribute-author: false``: aider's edits carry "(aider)" on the
    committer alone, as a person's dirty commit does; the gates read them as the person's."""
    conf = repo / ".aider.conf.yml"
    conf.write_text("attribute-co-authored-by: false\nattribute-author: false\n")
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: aider"]
    assert code == 2 and not ok
    assert (
        "its edits carry only '(aider)' on the committer name (attribute-committer: unset, "
        "aider's default; "
    ) in detail
    assert "the gates read it as a person's commit and take aider's edits for yours" in detail
    assert f"put 'attribute-co-authored-by: true' in {conf}" in detail


def test_the_documented_env_prefix_stays_wired_and_is_never_doubled(repo: Path) -> None:
    assert gh(repo, "install", "--agent", "gemini-cli", env=WITH_GH).returncode == 0
    path = repo / ".gemini" / "settings.json"
    doc = json.loads(path.read_text())
    prefixed = "GENTLE_WRITER_EFFORT=medium gentle-hook record --from gemini-cli"
    doc["hooks"]["AfterTool"][0]["hooks"][0]["command"] = prefixed  # as the page suggests
    path.write_text(json.dumps(doc, indent=2))
    ok, detail = doctor(repo, WITH_GH)[1]["agent: gemini-cli"]
    assert ok and detail.startswith(f"recorder wired: {path} (project) -> ")
    again = gh(repo, "install", "--agent", "gemini-cli", env=WITH_GH)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0] == (
        f"gemini-cli (project): unchanged: AfterTool, BeforeTool and AfterAgent hooks running "
        f"'{prefixed}' in {path}"
    )
    hooks = json.loads(path.read_text())["hooks"]["AfterTool"][0]["hooks"]
    assert [h["command"] for h in hooks] == [prefixed]


def test_codex_install_keeps_the_users_env_prefix_on_the_hooks_it_adds(repo: Path) -> None:
    """An entry of ours the user wrote with an environment prefix (``FOO=1 gentle-hook
    record --from codex``) stays byte-identical, and the PreToolUse and Stop entries install
    adds run it as written: the prefix is never dropped there."""
    path = repo / ".codex" / "hooks.json"
    path.parent.mkdir()
    theirs = "FOO=1 gentle-hook record --from codex"
    entry = {"type": "command", "command": theirs}
    text = json.dumps(
        {"hooks": {"PostToolUse": [{"matcher": "apply_patch|Bash", "hooks": [entry]}]}}
    )
    path.write_text(text)
    proc = gh(repo, "install", "--agent", "codex", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:3] == [
        f"codex (project): updated: PostToolUse, PreToolUse and Stop hooks running '{theirs}' "
        f"in {path}",
        "note: added our PreToolUse hook",
        "note: added our Stop hook",
    ]
    hooks = json.loads(path.read_text())["hooks"]
    assert hooks["PostToolUse"] == [{"matcher": "apply_patch|Bash", "hooks": [entry]}]
    assert hooks["PreToolUse"] == [{"matcher": "Bash", "hooks": [entry]}]
    assert hooks["Stop"] == [{"hooks": [entry]}]
    again = gh(repo, "install", "--agent", "codex", env=WITH_GH)
    assert again.stdout.splitlines()[0].startswith("codex (project): unchanged: ")


def test_a_reinstall_keeps_the_users_flags_and_says_what_changed(
    repo: Path, isolated_git: Path
) -> None:
    path = isolated_git / ".claude" / "settings.json"
    path.parent.mkdir()
    theirs = "/old/bin/gentle-hook record --from claude-code --effort high"
    matcher = "Write|Edit|MultiEdit|NotebookEdit|Bash"
    group = {"matcher": matcher, "hooks": [{"type": "command", "command": theirs}]}
    shell = {"matcher": "Bash", "hooks": [{"type": "command", "command": theirs}]}
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PostToolUse": [group],
                    "PreToolUse": [shell],
                    "PostToolUseFailure": [shell],
                    "Stop": [{"hooks": shell["hooks"]}],
                }
            }
        )
    )
    proc = gh(repo, "install", "--agent", "claude-code", "--scope", "user", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    now = "gentle-hook record --from claude-code --effort high"
    assert proc.stdout.splitlines() == [
        "claude-code (user): updated: PostToolUse, PreToolUse, PostToolUseFailure and Stop hooks "
        f"running '{now}' in {path}",
        f"note: its gentle-hook changed: '{theirs}' -> '{now}'",
        f"note: its gentle-hook changed: '{theirs}' -> '{now}'",
        f"note: its gentle-hook changed: '{theirs}' -> '{now}'",
        f"note: its gentle-hook changed: '{theirs}' -> '{now}'",
    ]
    hooks = json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"]
    assert hooks == [{"type": "command", "command": now}]


def test_doctors_printed_fix_fixes_a_project_entry_gentle_hook_is_not_found_for(
    repo: Path,
) -> None:
    import re
    import subprocess

    assert gh(repo, "install", "--agent", "claude-code", env=WITH_GH).returncode == 0
    code, checks = doctor(repo, WITHOUT_GH)
    ok, detail = checks["agent: claude-code"]
    assert (code, ok) == (2, False)
    found = re.search(r"; run: (.+)$", detail)
    assert found, detail
    fix = found.group(1)
    # the printed fix runs exactly as printed, with the same PATH, and fixes the entry
    proc = subprocess.run(
        fix,
        shell=True,
        cwd=repo,
        env={**os.environ, **WITHOUT_GH},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "updated" in proc.stdout
    assert doctor(repo, WITHOUT_GH)[1]["agent: claude-code"][0] is True
    # once gentle-hook is on PATH again, a reinstall goes back to the plain name
    back = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert back.returncode == 0, back.stderr
    hooks = json.loads((repo / ".claude" / "settings.json").read_text())["hooks"]
    assert hooks["PostToolUse"][0]["hooks"][0]["command"] == "gentle-hook record --from claude-code"


def test_doctor_outside_a_repository_with_no_user_runtime_says_it_needs_one(
    tmp_path: Path, isolated_git: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    proc = gh(plain, "doctor", env=WITH_GH)
    assert proc.returncode == 2
    assert proc.stdout.splitlines()[0].endswith(
        "the gate's checks need a repository: only the user-scope agent recorders are "
        "checked here (none found)"
    )


def test_doctor_outside_a_repository_still_reports_user_runtimes(
    tmp_path: Path, isolated_git: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert gh(plain, "install", "--agent", "codex", "--scope", "user", env=WITH_GH).returncode == 0
    trust_codex_hook(isolated_git / ".codex", isolated_git / ".codex" / "hooks.json")
    (isolated_git / ".gemini").mkdir()
    proc = gh(plain, "doctor", "--json", env=WITH_GH)
    assert proc.returncode == 2  # the repository check fails
    checks = {c["name"]: (c["ok"], c["detail"]) for c in json.loads(proc.stdout)["checks"]}
    assert checks["repository"][0] is False
    assert checks["repository"][1].endswith(
        "the gate's checks need a repository: only the user-scope agent recorders are "
        "checked here (codex, gemini-cli)"
    )
    ok, detail = checks["agent: codex"]
    assert ok and detail.startswith(
        f"recorder wired: {isolated_git / '.codex' / 'hooks.json'} (user) -> "
    )
    ok, detail = checks["agent: gemini-cli"]
    assert ok and "--scope user" in detail


def _claude_entry(repo: Path, command: str) -> Path:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    group = {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": []}
    group["hooks"] = [{"type": "command", "command": command}]
    shell = {"matcher": "Bash", "hooks": group["hooks"]}
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PostToolUse": [group],
                    "PreToolUse": [shell],
                    "PostToolUseFailure": [shell],
                    "Stop": [{"hooks": shell["hooks"]}],
                }
            },
            indent=2,
        )
    )
    return path


def _stub(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ('"$CLAUDE_PROJECT_DIR"/.venv/bin/gentle-hook record --from claude-code', "repo"),
        ("~/.local/bin/gentle-hook record --from claude-code", "home"),
        ('cd "$CLAUDE_PROJECT_DIR" && .venv/bin/gentle-hook record --from claude-code', "repo"),
        ("${HOME}/.local/bin/gentle-hook record --from claude-code", "home"),
    ],
)
def test_a_recorder_spelled_the_users_way_is_reachable_and_never_rewritten(
    command: str, program: str, repo: Path, isolated_git: Path
) -> None:
    where = repo / ".venv" / "bin" if program == "repo" else isolated_git / ".local" / "bin"
    stub = _stub(where / "gentle-hook")
    path = _claude_entry(repo, command)
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    proc = gh(sub, "doctor", "--json", env={**WITH_GH, "HOME": str(isolated_git)})
    checks = {c["name"]: (c["ok"], c["detail"]) for c in json.loads(proc.stdout)["checks"]}
    ok, detail = checks["agent: claude-code"]
    assert ok, detail
    assert detail == f"recorder wired: {path} (project) -> {stub}"
    again = gh(
        repo, "install", "--agent", "claude-code", env={**WITH_GH, "HOME": str(isolated_git)}
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0].startswith("claude-code (project): unchanged: ")
    hooks = json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"]
    assert [h["command"] for h in hooks] == [command]


def test_a_recorder_only_the_runtime_resolves_is_not_checked_and_not_failed(
    repo: Path,
) -> None:
    command = '"$SOME_RUNTIME_DIR"/bin/gentle-hook record --from claude-code'
    path = _claude_entry(repo, command)
    env = WITH_GH  # SOME_RUNTIME_DIR is set by no one here
    checks = doctor(repo, env)[1]
    ok, detail = checks["agent: claude-code"]
    assert ok, detail
    assert detail == (
        f"recorder wired: {path} (project) -> '\"$SOME_RUNTIME_DIR\"/bin/gentle-hook' not "
        "checked (it names what only the runtime resolves)"
    )
    again = gh(repo, "install", "--agent", "claude-code", env=env)
    assert again.stdout.splitlines()[0].startswith("claude-code (project): unchanged: ")
    assert json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == (
        command
    )
    # a relative path with no cd before it depends on the agent's working directory
    _claude_entry(repo, ".venv/bin/gentle-hook record --from claude-code")
    ok, detail = doctor(repo, env)[1]["agent: claude-code"]
    assert ok and "not checked (a relative path from the agent's working directory)" in detail


def test_a_recorder_resolved_to_a_missing_program_fails_and_is_retargeted(repo: Path) -> None:
    command = '"$CLAUDE_PROJECT_DIR"/.venv/bin/gentle-hook record --from claude-code'
    path = _claude_entry(repo, command)
    code, checks = doctor(repo, WITH_GH)
    assert code == 2 and checks["agent: claude-code"][0] is False
    again = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert again.returncode == 0, again.stderr
    assert json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == (
        "gentle-hook record --from claude-code"
    )


@pytest.mark.parametrize(
    "entry",
    [
        {"type": "command", "command": "gentle-hook record --from copilot"},
        {"type": "command", "exec": "gentle-hook", "args": ["record", "--from", "copilot"]},
    ],
)
def test_copilots_command_and_exec_forms_are_ours(entry: dict[str, object], repo: Path) -> None:
    team = repo / ".github" / "hooks" / "team.json"
    team.parent.mkdir(parents=True)
    theirs = {"type": "command", "bash": "./audit.sh"}
    team.write_text(json.dumps({"version": 1, "hooks": {"postToolUse": [theirs, entry]}}))
    ok, detail = doctor(repo, WITH_GH)[1]["agent: copilot"]
    assert not ok and detail.startswith(f"wired in {team} (project), but not to "), detail
    again = gh(repo, "install", "--agent", "copilot", env=WITH_GH)
    assert again.returncode == 0, again.stderr
    ok, detail = doctor(repo, WITH_GH)[1]["agent: copilot"]
    assert ok and detail.startswith(f"recorder wired: {team} (project) -> "), detail
    # ours stays where it is, guarded when a shell runs it (exec runs none: kept as written);
    # its other events join it in the same file
    assert again.stdout.splitlines()[0].startswith("copilot (project): updated: "), again.stdout
    assert not (repo / ".github" / "hooks" / "gentle-hooks.json").exists()
    now = dict(entry)
    if "command" in now:
        now["command"] = f"command -v gentle-hook >/dev/null 2>&1 && {entry['command']} || true"
    assert json.loads(team.read_text())["hooks"]["postToolUse"] == [theirs, now]
    third = gh(repo, "install", "--agent", "copilot", env=WITH_GH)
    assert third.stdout.splitlines()[0].startswith("copilot (project): unchanged: "), third.stdout
    gone = gh(repo, "uninstall", "--agent", "copilot", env=WITH_GH)
    assert gone.returncode == 0, gone.stderr
    assert json.loads(team.read_text())["hooks"] == {"postToolUse": [theirs]}


@pytest.mark.parametrize(
    ("instructions", "name"),
    [
        ("CLAUDE.md", "claude-code"),
        ("GEMINI.md", "gemini-cli"),
        ("AGENTS.md", "codex"),
        (".github/copilot-instructions.md", "copilot"),
    ],
)
def test_doctor_finds_a_runtime_by_its_instructions_file(
    instructions: str, name: str, repo: Path, isolated_git: Path
) -> None:
    assert f"agent: {name}" not in doctor(repo, WITH_GH)[1]
    path = repo / instructions
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# how to work here\n")
    ok, detail = doctor(repo, WITH_GH)[1][f"agent: {name}"]
    assert ok and detail == (
        f"found ({path}) but not wired to record; run: gentle-hook install --agent {name}"
    )


@pytest.mark.parametrize(
    ("script", "why"),
    [
        ("#!/nonexistent/python\n", "cannot be started"),
        ("#!/bin/sh\nexit 127\n", "--version' exits 127"),
    ],
)
def test_doctor_fails_a_recorder_whose_gentle_hook_cannot_run(
    script: str, why: str, repo: Path, tmp_path: Path
) -> None:
    shim = tmp_path / "shim"
    shim.mkdir()
    program = shim / "gentle-hook"
    program.write_text(script)
    program.chmod(0o755)
    path = repo / ".cursor" / "hooks.json"
    path.parent.mkdir()
    hooks = {"afterFileEdit": [{"command": f"{program} record --from cursor"}]}
    path.write_text(json.dumps({"version": 1, "hooks": hooks}))
    code, checks = doctor(repo, WITH_GH)
    assert code == 2
    ok, line = checks["agent: cursor"]
    assert ok is False
    assert f"'{program} record --from cursor' cannot run: '{program}" in line, line
    assert why in line and "\n" not in line, line


@pytest.mark.parametrize("name", ["settings.json", "settings.local.json"])
def test_doctor_finds_copilot_by_its_repository_settings_file(name: str, repo: Path) -> None:
    settings = repo / ".github" / "copilot" / name
    settings.parent.mkdir(parents=True)
    settings.write_text('{"model": "gpt-5"}\n')
    code, checks = doctor(repo, WITH_GH)
    assert code == 0
    assert checks["agent: copilot"] == (
        True,
        f"found ({settings}) but not wired to record; run: gentle-hook install --agent copilot",
    )


def test_a_broken_gentle_hook_first_on_path_is_passed_over_by_doctors_fix_and_install(
    repo: Path, tmp_path: Path
) -> None:
    """A ``gentle-hook`` first on PATH that cannot run: doctor's printed fix names the
    working one by its absolute path, and install rewrites the bare word to it."""
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "gentle-hook").write_text("#!/bin/sh\nexit 127\n")
    (shim / "gentle-hook").chmod(0o755)
    env = {"PATH": f"{shim}{os.pathsep}{WITH_GH['PATH']}"}
    working = os.path.join(os.path.dirname(sys.executable), "gentle-hook")
    path = repo / ".cursor" / "hooks.json"
    path.parent.mkdir()
    hooks = {"afterFileEdit": [{"command": "gentle-hook record --from cursor"}]}
    path.write_text(json.dumps({"version": 1, "hooks": hooks}))
    code, checks = doctor(repo, env)
    ok, line = checks["agent: cursor"]
    assert (code, ok) == (2, False)
    assert line.endswith(f"; run: {shlex.quote(working)} install --agent cursor"), line
    done = gh(repo, "install", "--agent", "cursor", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("cursor (project): updated: "), done.stdout
    [entry] = json.loads(path.read_text())["hooks"]["afterFileEdit"]
    assert entry["command"] == f"{shlex.quote(working)} record --from cursor"
    assert "the gentle-hook on PATH cannot run" in done.stdout, done.stdout
    assert doctor(repo, env)[1]["agent: cursor"][0] is True


def test_a_hung_gentle_hook_is_run_once_within_the_budget_and_fails_the_checks(
    repo: Path, tmp_path: Path, isolated_git: Path
) -> None:
    """A ``gentle-hook`` that never answers ``--version``, wired for three runtimes: it is
    run once (the answer is shared), the wait is bounded, and every check fails (nothing
    says the hooks can record), where it was reported "not checked" and passed."""
    import time

    from gentle_hooks.agents.runtimes import runtime
    from gentle_hooks.services.agent_doctor import check_runtime
    from gentle_hooks.services.agent_reach import Versions

    shim = tmp_path / "shim"
    shim.mkdir()
    count = tmp_path / "runs"
    # its own child keeps the pipe open: the whole session must be killed
    (shim / "gentle-hook").write_text(f"#!/bin/sh\necho run >> '{count}'\nsleep 60\necho\n")
    (shim / "gentle-hook").chmod(0o755)
    env = {"PATH": f"{shim}{os.pathsep}{WITH_GH['PATH']}", "HOME": str(isolated_git)}
    for name in ("cursor", "claude-code", "gemini-cli"):
        assert gh(repo, "install", "--agent", name, env=WITH_GH).returncode == 0
    names = ("cursor", "claude-code", "gemini-cli")
    run = Versions(limit=1.0, budget=5.0)
    started = time.monotonic()
    checks = [check_runtime(runtime(n), str(repo), env, run) for n in names]
    assert time.monotonic() - started < 4.0
    assert count.read_text() == "run\n"
    for name, check in zip(names, checks, strict=True):
        assert check is not None and check.ok is False, (name, check)
        assert "' was not confirmed to run: '" in check.detail, check.detail
        assert "--version' took over 1s; install the recorder again" in check.detail
        assert check.fix is not None and check.fix.words[:3] == ("install", "--agent", name)


def test_a_spent_budget_leaves_the_next_program_unanswered_without_running_it(
    tmp_path: Path,
) -> None:
    from gentle_hooks.services.agent_reach import Versions

    count = tmp_path / "runs"
    program = tmp_path / "gentle-hook"
    program.write_text(f"#!/bin/sh\necho run >> '{count}'\n")
    program.chmod(0o755)
    run = Versions(budget=0.0)
    got = run.check(str(program), None, {"PATH": "/usr/bin:/bin"})
    assert (got.status, got.why) == ("unanswered", "not run: the time for these checks was spent")
    assert not count.exists()


@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_doctor_fails_a_recorder_whose_cd_fails_and_its_printed_fix_drops_the_cd(
    where: str, repo: Path, tmp_path: Path
) -> None:
    import re
    import subprocess

    # Claude Code runs a hook command in the session's directory (code.claude.com/docs/en/
    # hooks: "$CLAUDE_PROJECT_DIR" exists so a command works "regardless of Claude's current
    # directory"): the project's, the work tree root; a cd there into no directory fails
    target = "sub" if where == "relative" else str(tmp_path / "gone")
    full = repo / "sub" if where == "relative" else tmp_path / "gone"
    command = f"cd {target} && gentle-hook record --from claude-code"
    path = _claude_entry(repo, command)
    code, checks = doctor(repo, WITH_GH)
    ok, detail = checks["agent: claude-code"]
    assert (code, ok) == (2, False), detail
    start = f" (from {repo}, where Claude Code starts its hooks)" if where == "relative" else ""
    assert detail == (
        f"wired in {path} (project), but '{command}' cannot run: 'cd {target}' fails: "
        f"{full} does not exist{start}; install the recorder again; "
        "run: gentle-hook install --agent claude-code"
    )
    found = re.search(r"; run: (.+)$", detail)
    assert found, detail
    proc = subprocess.run(
        found.group(1),
        shell=True,
        cwd=repo,
        env={**os.environ, **WITH_GH},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert (
        f"note: its cd, which fails, was dropped: '{command}' -> "
        "'gentle-hook record --from claude-code'" in proc.stdout
    ), proc.stdout
    hooks = json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"]
    assert [h["command"] for h in hooks] == ["gentle-hook record --from claude-code"]
    assert doctor(repo, WITH_GH)[1]["agent: claude-code"][0] is True


def test_a_recorder_whose_cd_succeeds_is_reachable_and_kept(repo: Path) -> None:
    (repo / "sub").mkdir()
    command = "cd sub && gentle-hook record --from claude-code"
    path = _claude_entry(repo, command)
    ok, detail = doctor(repo, WITH_GH)[1]["agent: claude-code"]
    assert ok, detail
    assert detail == f"recorder wired: {path} (project) -> {BIN}/gentle-hook"
    again = gh(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert again.stdout.splitlines()[0].startswith("claude-code (project): unchanged: ")
    assert json.loads(path.read_text())["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == (
        command
    )


def test_doctor_fails_an_unguarded_copilot_command_and_install_guards_it(repo: Path) -> None:
    """A command preToolUse hook that exits non-zero denies Copilot's tool call (github/docs
    hooks-reference.md @ 05da5bc3, "preToolUse / PreToolUse"): every event wired, but
    unguarded, fails doctor until install puts the guard around it."""
    rt = runtime("copilot")
    assert rt.wiring is not None
    path = repo / rt.wiring.project
    path.parent.mkdir(parents=True)
    bare = {"type": "command", "timeoutSec": 30, "bash": "gentle-hook record --from copilot"}
    events = [w.event for w in wiring.events(rt.wiring)]
    path.write_text(json.dumps({"version": 1, "hooks": {e: [dict(bare)] for e in events}}))
    ok, detail = doctor(repo, WITH_GH)[1]["agent: copilot"]
    assert (
        not ok
        and (
            "but its postToolUse command has no guard (where gentle-hook is missing it exits "
            "non-zero: GitHub Copilot (CLI and cloud agent) denies the call); install the "
            "recorder again"
        )
        in detail
    ), detail
    fixed = gh(repo, "install", "--agent", "copilot", env=WITH_GH)
    assert fixed.returncode == 0, fixed.stderr
    hooks = json.loads(path.read_text())["hooks"]
    assert {e: h[0]["bash"] for e, h in hooks.items()} == {
        e: record_command("copilot", guarded=True) for e in events
    }
    ok, detail = doctor(repo, WITH_GH)[1]["agent: copilot"]
    assert ok, detail
