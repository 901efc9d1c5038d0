"""Auggie's hooks page says an entry's ``command`` is the "Path to the shell script to execute
(must be a .sh file)": ``install --agent augment`` writes ``.augment/hooks/gentle-hooks.sh``
(executable) and names it by its absolute path; ``uninstall`` removes both; ``doctor`` checks
the script (docs/agents/augment.md; issue 17)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from tests.agent_payloads import apply_writes, materialize
from tests.conftest import gh, git, paste

BIN = str(Path(sys.executable).parent)
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}
THEIRS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "launch-process",
                "hooks": [{"type": "command", "command": "/etc/augment/hooks/v.sh"}],
            }
        ]
    }
}
SCRIPT = (
    "#!/bin/sh\n"
    "# gentle-hooks recorder for augment: gentle-hook record --from augment\n"
    "# Written by 'gentle-hook install --agent augment'; 'gentle-hook uninstall --agent\n"
    "# augment' removes it. Auggie hands this hook its input on standard input\n"
    "# (docs/agents/augment.md).\n"
    "exec gentle-hook record --from augment >&2\n"
)


FIX = "; run: gentle-hook install --agent augment"


def _check(repo: Path) -> tuple[bool, str]:
    proc = gh(repo, "doctor", "--json", env=WITH_GH)
    check = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}["agent: augment"]
    return check["ok"], check["detail"]


def test_install_writes_the_script_names_it_and_uninstall_removes_both(
    repo: Path, tmp_path: Path
) -> None:
    settings = repo / ".augment" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(THEIRS, indent=2))
    before = settings.read_bytes()
    script = repo / ".augment" / "hooks" / "gentle-hooks.sh"
    proc = gh(repo, "install", "--agent", "augment", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:2] == [
        f"augment (project): added: PostToolUse hook running '{script}' in {settings}",
        f"note: {script}: added, running 'gentle-hook record --from augment'",
    ]
    assert script.read_text() == SCRIPT
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    doc = json.loads(settings.read_text())
    assert doc["hooks"]["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]
    [ours] = doc["hooks"]["PostToolUse"]
    assert ours["hooks"] == [{"type": "command", "command": str(script)}]
    again = gh(repo, "install", "--agent", "augment", env=WITH_GH)
    assert again.stdout.splitlines()[0].startswith("augment (project): unchanged: ")
    assert json.loads(settings.read_text()) == doc
    assert _check(repo) == (
        True,
        f"recorder wired: {settings} (project) -> {os.path.join(BIN, 'gentle-hook')}",
    )
    # Auggie runs the script with the hook input on standard input
    data, filled = materialize("augment", repo, tmp_path / "runtime")
    apply_writes(filled, repo)
    ran = subprocess.run(
        [str(script)],
        input=data,
        cwd=repo,
        capture_output=True,
        env={**os.environ, **WITH_GH},
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == b""
    assert ran.stderr.startswith(b"recorded: pending mutation #1: "), ran.stderr
    with sqlite3.connect(repo / ".git" / "gentle-hooks" / "ledger.sqlite3") as conn:
        assert conn.execute("SELECT source, model FROM pending_mutation").fetchall() == [
            ("augment", "claude-sonnet-4-5")
        ]
    out = gh(repo, "uninstall", "--agent", "augment", "--scope", "project")
    assert out.stdout.splitlines() == [
        f"augment (project): removed our hook: {settings}",
        f"augment (project): removed the file: {script}",
    ]
    assert settings.read_bytes() == before
    assert not script.parent.exists()  # install made .augment/hooks: it goes too


def test_doctor_fails_a_script_that_cannot_run_and_install_mends_it(repo: Path) -> None:
    assert gh(repo, "install", "--agent", "augment", env=WITH_GH).returncode == 0
    settings = repo / ".augment" / "settings.json"
    script = repo / ".augment" / "hooks" / "gentle-hooks.sh"
    script.chmod(0o644)
    assert _check(repo) == (
        False,
        f"wired in {settings} (project), but {script} is not executable: the runtime does "
        f"not run it{FIX}",
    )
    mended = gh(repo, "install", "--agent", "augment", env=WITH_GH)
    assert mended.stdout.splitlines()[0].startswith("augment (project): updated: ")
    assert "note: it was not executable: it is now" in mended.stdout.splitlines()
    assert _check(repo)[0] is True
    script.unlink()
    assert _check(repo) == (
        False,
        f"wired in {settings} (project), but the script it names, {script}, is not there{FIX}",
    )
    assert gh(repo, "install", "--agent", "augment", env=WITH_GH).returncode == 0
    assert script.read_text() == SCRIPT


def test_an_entry_of_ours_running_the_command_line_or_another_checkouts_script_is_repointed(
    repo: Path,
) -> None:
    settings = repo / ".augment" / "settings.json"
    settings.parent.mkdir()
    script = repo / ".augment" / "hooks" / "gentle-hooks.sh"
    for before in (
        "gentle-hook record --from augment",
        "/elsewhere/.augment/hooks/gentle-hooks.sh",
    ):
        group = {"matcher": "save-file|str-replace-editor|apply_patch|write|edit"}
        group["hooks"] = [{"type": "command", "command": before}]  # type: ignore[assignment]
        settings.write_text(json.dumps({"hooks": {"PostToolUse": [group]}}))
        if before.startswith("/"):
            ok, detail = _check(repo)
            assert not ok
            assert detail.endswith(
                f"the script it names, {before}, is not there: that path is another "
                f"checkout's (this one's is {script}); Augment Code (Auggie CLI) runs the path "
                "as written, so a settings file shared through the repository names the "
                f"checkout that installed it{FIX}"
            ), detail
        proc = gh(repo, "install", "--agent", "augment", env=WITH_GH)
        assert proc.returncode == 0, proc.stderr
        assert f"note: its command changed: '{before}' -> '{script}'" in proc.stdout.splitlines()
        hooks = json.loads(settings.read_text())["hooks"]["PostToolUse"][0]["hooks"]
        assert hooks == [{"type": "command", "command": str(script)}]


def test_a_file_of_the_users_or_a_link_at_the_script_path_is_never_written(
    repo: Path, tmp_path: Path
) -> None:
    script = repo / ".augment" / "hooks" / "gentle-hooks.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\necho mine\n")
    proc = gh(repo, "install", "--agent", "augment", env=WITH_GH)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"gentle-hook: error: {script}: a hook file of yours is there")
    assert script.read_text() == "#!/bin/sh\necho mine\n"
    assert not (repo / ".augment" / "settings.json").exists()
    script.unlink()
    outside = tmp_path / "outside.sh"
    outside.write_text("#!/bin/sh\n")
    script.symlink_to(outside)
    proc = gh(repo, "install", "--agent", "augment", env=WITH_GH)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and str(script) in proc.stderr, proc.stderr
    assert outside.read_text() == "#!/bin/sh\n"
    assert not (repo / ".augment" / "settings.json").exists()


def test_settings_that_are_not_json_leave_no_script_behind(repo: Path) -> None:
    settings = repo / ".augment" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ not json")
    proc = gh(repo, "install", "--agent", "augment", env=WITH_GH)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert settings.read_text() == "{ not json"
    assert not (repo / ".augment" / "hooks").exists()


def test_a_clone_of_a_repository_that_shares_the_entry_gets_a_fix_it_can_run(
    repo: Path, tmp_path: Path
) -> None:
    """Auggie's hooks page documents the command as a path to a script and every example
    names one absolutely; it names no path relative to the workspace, so the entry names
    the installing checkout's script. In a clone the shared settings.json names the
    first checkout's path: doctor says so and prints a fix that, run as printed, wires
    this clone."""
    assert gh(repo, "install", "--agent", "augment", env=WITH_GH).returncode == 0
    git(repo, "add", ".augment")
    git(repo, "commit", "-q", "-m", "share the augment hook")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    first = repo / ".augment" / "hooks" / "gentle-hooks.sh"
    first.unlink()  # the first checkout is elsewhere: its path does not exist here
    own = clone / ".augment" / "hooks" / "gentle-hooks.sh"
    ok, detail = _check(clone)
    assert not ok
    assert f"the script it names, {first}, is not there: that path is another checkout's" in (
        detail
    )
    assert f"(this one's is {own})" in detail and detail.endswith(FIX), detail
    fixed = paste(FIX.removeprefix("; run: "), clone)
    assert fixed.returncode == 0, fixed.stderr
    assert _check(clone)[0] is True
    hooks = json.loads((clone / ".augment" / "settings.json").read_text())["hooks"]
    assert hooks["PostToolUse"][0]["hooks"] == [{"type": "command", "command": str(own)}]


def test_a_clone_keeps_a_shared_entry_naming_another_checkouts_script_that_runs(
    repo: Path, tmp_path: Path
) -> None:
    """Two checkouts on one machine share ``.augment/settings.json`` through the repository:
    the entry names the first one's script, which is there and runs the recorder (Auggie
    hands it the clone's workspace: it records there too). ``install --agent augment`` in the
    clone leaves the shared file as it is, rather than rewriting it to the clone's path for
    every other checkout, and prints the command that wires the clone through the user's
    file; run as printed, it does."""
    assert gh(repo, "install", "--agent", "augment", env=WITH_GH).returncode == 0
    git(repo, "add", ".augment")
    git(repo, "commit", "-q", "-m", "share the augment hook")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    first = repo / ".augment" / "hooks" / "gentle-hooks.sh"
    settings = clone / ".augment" / "settings.json"
    before = settings.read_bytes()
    assert _check(clone)[0] is True  # the first checkout's script records for the clone
    proc = gh(clone, "install", "--agent", "augment", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    head, note = proc.stdout.splitlines()
    assert head == (
        f"augment (project): unchanged: PostToolUse hook running '{first}' in {settings}"
    )
    assert note.startswith(
        f"note: {settings} names {first}, the script of another checkout, which is there and "
        "runs the recorder"
    ), note
    assert "the file is shared through the repository, so it is not rewritten" in note
    user_fix = "; run: gentle-hook install --agent augment --scope user"
    assert note.endswith(user_fix), note
    assert settings.read_bytes() == before
    assert git(clone, "status", "--porcelain").strip() == ""
    home = Path(os.environ["HOME"])
    wired = paste(user_fix.removeprefix("; run: "), clone)
    assert wired.returncode == 0, wired.stderr
    assert settings.read_bytes() == before
    user = json.loads((home / ".augment" / "settings.json").read_text())["hooks"]
    mine = str(home / ".augment" / "hooks" / "gentle-hooks.sh")
    assert user["PostToolUse"][0]["hooks"] == [{"type": "command", "command": mine}]
