"""``install --agent`` never writes a project's agent configuration through a symbolic
link (issue 16, refuter r16y: a symlinked ``.claude`` made install write outside the
repository), and the files install keeps beside its own state are written under random
names opened ``O_EXCL | O_NOFOLLOW``, never a guessable ``.tmp`` a link could stand at."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gentle_hooks.services import agent_dirs, agent_subagents
from tests.integration.test_hostile_inputs import hostile

BIN = os.path.dirname(os.path.abspath(os.sys.executable))
WITH_GH = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"}

#: (runtime, its project folder, the file install writes there): a JSON settings file and
#: a hook file of ours (the two writers every adapter goes through).
CASES = [
    ("claude-code", ".claude", "settings.json"),
    ("cline", ".clinerules", "hooks/PostToolUse"),
]


@pytest.mark.parametrize(("name", "folder", "rel"), CASES)
def test_a_symlinked_project_folder_is_refused(
    repo: Path, tmp_path: Path, name: str, folder: str, rel: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / folder).symlink_to(outside)
    proc = hostile(repo, "install", "--agent", name, env=WITH_GH)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "is a symbolic link" in err, err
    assert f"{repo / folder}" in err and "nothing was changed" in err, err
    assert list(outside.iterdir()) == []  # nothing written outside the repository


def test_a_symlinked_project_settings_file_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("{}\n")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").symlink_to(outside)
    proc = hostile(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 2 and b"is a symbolic link" in proc.stderr, proc.stderr
    assert outside.read_text() == "{}\n"


def test_a_project_folder_of_its_own_is_still_written(repo: Path) -> None:
    proc = hostile(repo, "install", "--agent", "claude-code", env=WITH_GH)
    assert proc.returncode == 0, proc.stderr
    assert "record --from claude-code" in (repo / ".claude" / "settings.json").read_text()


def test_the_created_dirs_list_never_writes_through_a_planted_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = agent_dirs.list_path()
    os.makedirs(os.path.dirname(path))
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    os.symlink(victim, f"{path}.{os.getpid()}.tmp")  # the name it used to write
    agent_dirs._write(["/x/made"])
    assert victim.read_text() == "mine\n"
    assert agent_dirs._read() == ["/x/made"]


def test_a_subagent_marker_never_writes_through_a_planted_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = tmp_path / "git"
    where = Path(agent_subagents.marker_dir(str(common)))
    where.mkdir(parents=True)
    now = 1_700_000_000.0
    monkeypatch.setattr(time, "time", lambda: now)
    stem = agent_subagents._prefix("claude-code", "s1") + agent_subagents._digest(
        f"{now}{os.getpid()}"
    )
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    (where / f"{stem}.tmp").symlink_to(victim)  # the name it used to write
    made = agent_subagents.start(str(common), "claude-code", "s1", "helper", None)
    assert victim.read_text() == "mine\n"
    assert Path(made).is_file() and not Path(made).is_symlink()


@pytest.mark.parametrize(("name", "folder", "rel"), CASES)
def test_uninstall_through_a_symlinked_project_folder_is_refused(
    repo: Path, tmp_path: Path, name: str, folder: str, rel: str
) -> None:
    """What install wrote, then the folder replaced by a link to a copy outside: uninstall
    removes or rewrites nothing there."""
    assert hostile(repo, "install", "--agent", name, env=WITH_GH).returncode == 0
    outside = tmp_path / "outside"
    (repo / folder).rename(outside)
    (repo / folder).symlink_to(outside)
    before = (outside / rel).read_bytes()
    proc = hostile(repo, "uninstall", "--agent", name, env=WITH_GH)
    assert proc.returncode == 2 and b"is a symbolic link" in proc.stderr, proc.stderr
    assert (outside / rel).read_bytes() == before
