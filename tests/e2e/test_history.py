"""Merges, cherry-picks, amends and rebases through installed hooks (SPEC §3, §6).

A commit record follows its commit across ``commit --amend`` and ``rebase`` (post-rewrite);
it counts only for the candidate it was made for: a rewrite that keeps the tree keeps the
verification, one that changes it needs the spot check again. Every scenario ends with
``git status`` and ``git fsck`` clean.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World

APP_V1 = "def add(a, b):\n    return a + b\n"
OURS = "def add(a, b):\n    return a + b  # ours\n"
THEIRS = "def add(a, b):\n    return a + b  # theirs\n"
RESOLVED = "def add(a, b):\n    return a + b  # ours and theirs\n"


def _conflict(world: World, how: str) -> None:
    """Leave a ``merge`` or ``cherry-pick`` of ``topic`` into ``main`` stopped on a conflict."""
    world.ok("switch", "-q", "-c", "topic")
    world.write("src/app.py", THEIRS)
    world.ok("commit", "-q", "-a", "-m", "theirs")
    world.ok("switch", "-q", "main")
    world.write("src/app.py", OURS)
    world.ok("commit", "-q", "-a", "-m", "ours")
    world.ok("push", "-q", "origin", "main")
    stopped = world.git(how, "topic")
    assert stopped.code == 1, stopped
    assert "CONFLICT (content): Merge conflict in src/app.py" in stopped.out


@pytest.mark.parametrize("how", ["merge", "cherry-pick"])
def test_a_humans_conflict_resolution_commit_passes(world: World, how: str) -> None:
    _conflict(world, how)
    world.write("src/app.py", RESOLVED)
    world.ok("add", "src/app.py")
    r = world.git("commit", "--no-edit")
    assert (r.code, r.said) == (0, []), r
    parents = world.ok("rev-list", "--parents", "-n", "1", "HEAD").split()
    assert len(parents) == (3 if how == "merge" else 2)
    push = world.git("push", "origin", "main")
    assert (push.code, push.said) == (0, []), push
    world.assert_clean()


def test_a_rebase_stopped_on_a_conflict_continues_through_the_gate(world: World) -> None:
    world.ok("switch", "-q", "-c", "topic")
    world.write("src/app.py", THEIRS)
    world.ok("commit", "-q", "-a", "-m", "theirs")
    world.ok("switch", "-q", "main")
    world.write("src/app.py", OURS)
    world.ok("commit", "-q", "-a", "-m", "ours")
    world.ok("switch", "-q", "topic")
    stopped = world.git("rebase", "main")
    assert stopped.code == 1, stopped
    world.write("src/app.py", RESOLVED)
    world.ok("add", "src/app.py")
    r = world.git("rebase", "--continue", env={"GIT_EDITOR": "true"})
    assert (r.code, r.said) == (0, []), r
    assert world.ok("log", "--format=%s", "main..topic") == "theirs\n"
    world.assert_clean()


def test_a_delegated_merge_resolution_is_judged_like_any_commit(world: World) -> None:
    _conflict(world, "merge")
    world.delegate(text=RESOLVED)  # the writer resolves the conflict and reports
    world.ok("add", "src/app.py")
    blocked = world.git("commit", "--no-edit")
    assert blocked.code == 1, blocked
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in blocked.said
    assert world.ok("rev-parse", "-q", "--verify", "MERGE_HEAD")  # still merging
    world.spot_check("--staged")
    r = world.git("commit", "--no-edit")
    assert r.code == 0, r
    merge = world.rev("HEAD")
    assert world.ledger("SELECT commit_id, stale FROM commit_record") == [(merge, 0)]
    push = world.git("push", "origin", "main")
    assert (push.code, world.remote_ref("main")) == (0, merge), push
    world.assert_clean()


def _verified_delegated_commit(world: World) -> str:
    world.delegate(text="def add(a, b):\n    return a + b  # writer\n")
    world.spot_check()
    world.ok("add", "-A")
    r = world.git("commit", "-m", "writer: comment")
    assert r.code == 0, r
    return world.rev("HEAD")


def test_amend_keeping_the_tree_keeps_the_verification(world: World) -> None:
    old = _verified_delegated_commit(world)
    r = world.git("commit", "--amend", "-m", "writer: a better message")
    # the amend keeps the writer's trailer, so the commit-msg gate judges the same candidate
    ok = ["gentle-hooks: ok: 1 delegated candidate(s) verified as their plan requires"]
    assert (r.code, r.said) == (0, ok if world.installer == "gentle-hook" else []), r
    if world.installer == "gentle-hook":  # the framework world installs no prepare-commit-msg
        assert "Gentle-Writer: o4-mini/low" in world.ok("log", "-1", "--format=%B")
    new = world.rev("HEAD")
    assert new != old
    assert world.ledger(
        "SELECT commit_id, hook, rewritten_from, stale FROM commit_record ORDER BY id"
    ) == [(old, "post-commit", None, 0), (new, "post-rewrite", old, 0)]
    push = world.git("push", "origin", "main")
    assert (push.code, world.remote_ref("main")) == (0, new), push
    if world.installer == "gentle-hook":  # this world's origin does not carry the notes
        assert push.said == [
            "gentle-hooks: ok: 1 delegated candidate(s) verified as their plan requires",
            "gentle-hooks: the notes of the delegated commits were not sent: origin is not set "
            "up to carry them, and CI and a server gate judge from them (install --share "
            "origin sends them with every push); run: gentle-hook sync push origin",
        ]
    world.assert_clean()


@pytest.mark.parametrize("how", ["commit", "amend"])
def test_a_message_starting_with_a_hash_keeps_the_writer_trailer(world: World, how: str) -> None:
    """Refuter r13y (issue 13): ``git commit -m "#42 fix add"`` (and ``--amend -m "#7
    tidy"``) is that message, since git keeps ``#`` lines when no editor runs; the
    recorder read it as empty and left the writer's commit without its trailer (with an
    editor the same text is a comment, and a message of comments alone still aborts)."""
    if how == "commit":
        world.delegate(text="def add(a, b):\n    return a + b  # writer\n")
        world.spot_check()
        world.ok("add", "-A")
        r = world.git("commit", "-m", "#42 fix add")
    else:
        _verified_delegated_commit(world)
        r = world.git("commit", "--amend", "-m", "#7 tidy")
    assert r.code == 0, r
    message = world.ok("log", "-1", "--format=%B")
    assert message.startswith("#"), message
    if world.installer == "gentle-hook":  # the framework world installs no prepare-commit-msg
        assert "Gentle-Writer: o4-mini/low" in message, message


def test_amend_changing_the_tree_needs_the_spot_check_again(world: World) -> None:
    old = _verified_delegated_commit(world)
    world.write("src/app.py", "def add(a, b):\n    return a + b  # writer, then a human\n")
    world.ok("add", "-A")
    r = world.git("commit", "--amend", "--no-edit")
    # The amended commit replaces HEAD: what it adds is judged against HEAD's parent, so
    # it carries the writer's content on a new candidate, and the commit gate blocks it
    # under either installer until the new candidate is spot-checked.
    assert r.code == 1, r
    assert (
        "gentle-hooks: BLOCKED the staged change: delegated (writer content (o4-mini/low) in "
        "src/app.py)"
    ) in r.said
    assert "gentle-hooks:   run: gentle-hook spot-check --staged" in r.said
    assert world.rev("HEAD") == old
    world.report("--staged")
    world.spot_check("--staged")
    r = world.git("commit", "--amend", "--no-edit")
    assert r.code == 0, r
    new = world.rev("HEAD")
    assert world.ledger("SELECT commit_id, rewritten_from, stale FROM commit_record") == [
        (old, None, 0),
        (new, old, 1),
    ]
    push = world.git("push", "origin", "main")
    assert (push.code, world.remote_ref("main")) == (0, new), push
    world.assert_clean()


def test_rebase_in_a_linked_worktree_carries_records_to_the_new_commits(world: World) -> None:
    wt = world.base / "linked"
    world.ok("worktree", "add", "-q", "-b", "topic", str(wt), "main")
    world.delegate(text="def add(a, b):\n    return a + b  # topic\n", cwd=wt)
    world.spot_check(cwd=wt)
    world.ok("add", "-A", cwd=wt)
    first = world.git("commit", "-m", "writer: topic", cwd=wt)
    assert first.code == 0, first
    old = world.rev("HEAD", cwd=wt)
    # upstream moves on: a human change to another file, pushed from the main worktree
    world.write("README.md", "# demo, moved on\n")
    world.ok("commit", "-q", "-a", "-m", "readme")
    world.ok("push", "-q", "origin", "main")

    rebased = world.git("rebase", "origin/main", cwd=wt)
    assert rebased.code == 0, rebased
    new = world.rev("HEAD", cwd=wt)
    assert world.rev("HEAD^", cwd=wt) == world.rev("origin/main")
    assert world.ledger("SELECT commit_id, hook, rewritten_from, stale FROM commit_record") == [
        (old, "post-commit", None, 0),
        (new, "post-rewrite", old, 1),  # the base moved: a new candidate
    ]
    push = world.git("push", "-u", "origin", "topic", cwd=wt)
    assert push.code == 1, push
    assert (
        f"gentle-hooks: BLOCKED commit {new[:12]} on refs/heads/topic: delegated (writer "
        "content (o4-mini/low) in src/app.py)"
    ) in push.said
    world.report("--committed", cwd=wt)
    world.spot_check("--committed", cwd=wt)
    again = world.git("push", "-u", "origin", "topic", cwd=wt)
    assert (again.code, world.remote_ref("topic")) == (0, new), again
    world.assert_clean(cwd=wt)
    world.assert_clean()


def test_a_rebase_replaying_human_commits_leaves_the_writers_work_pending(world: World) -> None:
    # `pull --rebase --autostash` with a writer's work in the work tree: git stashes the
    # work, replays the human's local commit (running post-commit), and puts the work back.
    # The replayed commit must not take the writer's pending work, or the commit that
    # really delivers it would pass as a human's.
    world.ok("switch", "-q", "-c", "upstream")
    world.write("README.md", "# demo, upstream\n")
    world.ok("commit", "-q", "-a", "-m", "upstream: readme")
    world.ok("push", "-q", "origin", "upstream:main")
    world.ok("switch", "-q", "main")
    world.write("docs.md", "local notes\n")
    world.ok("add", "docs.md")
    world.ok("commit", "-q", "-m", "human: local notes")
    world.delegate(text="def add(a, b):\n    return a + b  # writer, autostashed\n")
    r = world.git("pull", "--rebase", "--autostash", "origin", "main")
    assert r.code == 0, r
    assert world.ok("log", "--format=%s", "origin/main..") == "human: local notes\n"
    assert world.ok("status", "--porcelain") == " M src/app.py\n"
    assert world.ledger("SELECT count(*) FROM commit_record") == [(0,)]
    pending = world.ledger("SELECT count(*) FROM pending_mutation WHERE consumed_by IS NULL")
    assert pending == [(1,)]
    blocked = world.git("commit", "-a", "-m", "writer: autostashed work")
    assert blocked.code == 1, blocked
    assert blocked.said[0] == (
        "gentle-hooks: BLOCKED the staged change: delegated (writer content (o4-mini/low) in "
        "src/app.py)"
    )
