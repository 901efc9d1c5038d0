"""``uninstall --agent`` gives back a user's file as it was before ``install --agent``: the
empty containers it held (``{"hooks": {}}``, an empty event list, an empty group with our
matcher) stay, and a file install did not create is never removed (SPEC §7 "Hooks";
:mod:`gentle_hooks.services.agent_kept`). Real repositories, the real CLI, per runtime."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gentle_hooks.agents.runtimes import RUNTIMES, Runtime
from tests.conftest import gh

#: The runtimes wired by an entry in a JSON configuration file.
WIRED = [r for r in RUNTIMES if r.wiring is not None and r.wiring.shape != "file"]


def bodies(rt: Runtime) -> list[str]:
    """A user's files holding empty containers where install puts our entry, with the
    ``version`` the runtime's file carries (install adds a missing one and keeps it)."""
    assert rt.wiring is not None
    w = rt.wiring
    lead = "" if w.version is None else f'"version": {w.version}, '
    out = [
        "{" + lead + '"hooks": {}}',
        "{" + lead + f'"hooks": {{"{w.event}": []}}}}\n',
        # the multi-line layout install itself writes: before, it looked created and went
        "{\n"
        + ("" if w.version is None else f'  "version": {w.version},\n')
        + '  "hooks": {}\n}\n',
    ]
    if w.shape == "grouped" and w.matcher is not None:
        group = json.dumps({"matcher": w.matcher, "hooks": []})
        out.append("{" + lead + f'"hooks": {{"{w.event}": [{group}]}}, "x": 1}}')
    return out


@pytest.mark.parametrize("rt", WIRED, ids=[r.name for r in WIRED])
def test_uninstall_gives_back_empty_containers_and_keeps_the_file(rt: Runtime, repo: Path) -> None:
    assert rt.wiring is not None
    path = repo / rt.wiring.project
    path.parent.mkdir(parents=True, exist_ok=True)
    for body in bodies(rt):
        path.write_text(body)
        installed = gh(repo, "install", "--agent", rt.name)
        assert installed.returncode == 0, installed.stderr
        assert path.read_text() != body
        removed = gh(repo, "uninstall", "--agent", rt.name)
        assert removed.returncode == 0, removed.stderr
        assert path.is_file(), (body, removed.stdout)
        assert path.read_text() == body, removed.stdout


def test_copilot_file_the_user_made_is_kept(repo: Path) -> None:
    """Copilot's hooks file is ours when install creates it; one the user made before is
    not removed by uninstall, even holding nothing else."""
    path = repo / ".github" / "hooks" / "gentle-hooks.json"
    path.parent.mkdir(parents=True)
    for body in ('{"version": 1}\n', '{"version": 1, "hooks": {}}'):
        path.write_text(body)
        assert gh(repo, "install", "--agent", "copilot").returncode == 0
        removed = gh(repo, "uninstall", "--agent", "copilot")
        assert removed.returncode == 0, removed.stderr
        assert "removed our" in removed.stdout, removed.stdout
        assert path.read_text() == body
    path.unlink()
    assert gh(repo, "install", "--agent", "copilot").returncode == 0
    removed = gh(repo, "uninstall", "--agent", "copilot")
    assert "removed the file" in removed.stdout, removed.stdout
    assert not path.exists()
